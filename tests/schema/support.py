"""Running `tsograph schema` in tests: in-process, on copies with fixed modification times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.openapi.support import GENERATED_AT, Result, invoke
from tests.routes.support import copy_project, fix_mtimes

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "schema" / "prisma"

__all__ = ["FIXTURES", "copy_project", "document_of", "run_schema", "write_project"]


def run_schema(project: Path) -> Result:
    return invoke("schema", "--project", str(project), "--generated-at", GENERATED_AT)


def write_project(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    fix_mtimes(root)
    return root


def document_of(project: Path) -> dict[str, Any]:
    result = run_schema(project)
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert isinstance(document, dict)
    return document
