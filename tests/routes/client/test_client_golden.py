"""Every case under fixtures/routes/client/<case>/ against its golden document, byte for byte.

A case holds `sources/` (the project scanned: not `project/`, so the server
golden runner leaves it alone), optional `args` (extra arguments, one per
line; `{case}` is the case folder) and `expected.json`. The project is copied
to a folder named after the case with fixed modification times. Set
TSOGRAPH_REGENERATE=1 to rewrite the goldens on purpose.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from exchange.validation import validate
from tests.golden import assert_matches_golden
from tests.routes.client.support import FIXTURES, run_client
from tests.routes.support import copy_project

CASES = sorted(case.name for case in FIXTURES.iterdir() if (case / "sources").is_dir())


def render_case(name: str, tmp_path: Path) -> bytes:
    case = FIXTURES / name
    project = copy_project(case / "sources", tmp_path / name)
    args_file = case / "args"
    extra = (
        args_file.read_text(encoding="utf-8").replace("{case}", str(case)).split()
        if args_file.exists()
        else []
    )
    result = run_client(project, *extra)
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_matches_golden(render_case(name, tmp_path), FIXTURES / name / "expected.json")


@pytest.mark.parametrize("name", CASES)
def test_golden_document_is_valid_bridge_facts(name: str) -> None:
    validate(orjson.loads((FIXTURES / name / "expected.json").read_bytes()))
