"""Running `tsograph schema` in tests: in-process, on copies with fixed modification times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.golden import assert_golden_document
from tests.openapi.support import GENERATED_AT
from tests.openapi.support import Result
from tests.openapi.support import invoke
from tests.routes.support import copy_project
from tests.routes.support import write_project

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "schema" / "prisma"

__all__ = [
    "FIXTURES",
    "assert_schema_golden",
    "copy_project",
    "document_of",
    "run_schema",
    "write_project",
]


def run_schema(project: Path, *extra: str) -> Result:
    return invoke("schema", "--project", str(project), "--generated-at", GENERATED_AT, *extra)


def assert_schema_golden(
    case: Path, tmp_path: Path, *extra: str, expected: str = "expected.json"
) -> None:
    """`tsograph schema` (with `extra` arguments) on a copy of `case/project` (in a folder
    named after the case, with fixed modification times) writes `case/<expected>`, silently."""
    project = copy_project(case / "project", tmp_path / case.name)
    result = run_schema(project, *extra)
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    assert_golden_document(result.stdout, case / expected)


def document_of(project: Path, *extra: str) -> dict[str, Any]:
    result = run_schema(project, *extra)
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert isinstance(document, dict)
    return document
