"""Every case under fixtures/routes/client/<case>/ against its golden document, byte for byte.

A case holds `sources/` (the project scanned: not `project/`, so the server
golden runner leaves it alone), optional `args` (extra arguments, one per
line; `{case}` is the case folder) and `expected.json`. The project is copied
to a folder named after the case with fixed modification times. Set
TSOGRAPH_REGENERATE=1 to rewrite the goldens on purpose.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import assert_golden_document
from tests.golden import case_arguments
from tests.golden import golden_cases
from tests.routes.client.support import FIXTURES
from tests.routes.client.support import run_client
from tests.routes.support import copy_project

CASES = golden_cases(FIXTURES, "sources")


def render_case(name: str, tmp_path: Path) -> bytes:
    case = FIXTURES / name
    project = copy_project(case / "sources", tmp_path / name)
    result = run_client(project, *case_arguments(case))
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_golden_document(render_case(name, tmp_path), FIXTURES / name / "expected.json")
