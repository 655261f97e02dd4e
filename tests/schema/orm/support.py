"""Fixtures of the ORM and driver collectors and the recorded naming oracle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.schema.support import copy_project
from tests.schema.support import document_of
from tests.schema.support import write_project

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "fixtures" / "schema" / "orm"
RECORDED = REPO / "oracle" / "orm-naming" / "recorded.json"
CASES_FILE = REPO / "oracle" / "orm-naming" / "cases.json"

__all__ = ["FIXTURES", "case_document", "copy_project", "document_of", "recorded", "write_project"]


def recorded() -> dict[str, Any]:
    data = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def case_document(case: str, tmp_path: Path) -> dict[str, Any]:
    return document_of(copy_project(FIXTURES / case / "project", tmp_path / case))


def declarations(document: dict[str, Any], path_prefix: str = "") -> set[tuple[str, str | None]]:
    """(channel, column) of the declaration facts (those with a `#model:` usr)."""
    return {
        (fact["channel"], fact.get("method"))
        for fact in document["facts"]
        if "#model:" in fact.get("symbol", {}).get("usr", "")
        and fact["location"]["path"].startswith(path_prefix)
    }
