"""Every case under fixtures/routes/<framework>/<case>/ against its golden document, byte for byte.

A case holds `project/` (the project scanned), optional `args` (extra command
line arguments, one per line) and `expected.json`. The project is copied to a
folder named after the case (symbolic links copied as links) with fixed
modification times. Set TSOGRAPH_REGENERATE=1 to rewrite the goldens on
purpose; those tests then skip, so a regenerated run never passes silently.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from exchange.validation import validate
from tests.golden import assert_matches_golden
from tests.routes.support import FIXTURES, copy_project, run_routes

CASES = sorted(
    f"{framework.name}/{case.name}"
    for framework in FIXTURES.iterdir()
    if framework.is_dir()
    for case in framework.iterdir()
    if (case / "project").is_dir()
)


def render_case(name: str, tmp_path: Path) -> bytes:
    case = FIXTURES / name
    project = copy_project(case / "project", tmp_path / case.name)
    args_file = case / "args"
    extra = args_file.read_text(encoding="utf-8").split() if args_file.exists() else []
    result = run_routes(project, *extra)
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_matches_golden(render_case(name, tmp_path), FIXTURES / name / "expected.json")


@pytest.mark.parametrize("name", CASES)
def test_golden_document_is_valid_bridge_facts(name: str) -> None:
    validate(orjson.loads((FIXTURES / name / "expected.json").read_bytes()))
