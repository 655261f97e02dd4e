"""Running `tsograph routes` in tests: in-process, on copies with fixed modification times."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import orjson

from tests.openapi.support import FIXED_MTIME
from tests.openapi.support import GENERATED_AT
from tests.openapi.support import Result
from tests.openapi.support import invoke

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "routes"


def fix_mtimes(root: Path) -> None:
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink():
                os.utime(path, (FIXED_MTIME, FIXED_MTIME))


def copy_project(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, symlinks=True)
    fix_mtimes(target)
    return target


def run_routes(project: Path, *extra: str) -> Result:
    return invoke(
        "routes",
        "--role",
        "server",
        "--project",
        str(project),
        "--generated-at",
        GENERATED_AT,
        *extra,
    )


def write_project(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    fix_mtimes(root)
    return root


def document_of(project: Path, *extra: str) -> dict[str, Any]:
    result = run_routes(project, *extra)
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def decls(document: dict[str, Any]) -> set[tuple[str, str, str]]:
    """(method, channel, location path) of every fact."""
    return {
        (fact["method"], fact["channel"], fact["location"]["path"]) for fact in document["facts"]
    }
