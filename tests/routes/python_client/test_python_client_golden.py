"""Each case under fixtures/routes/python-client/<case>/ against its golden, byte for byte.

A case holds `sources/` (the Python project scanned), optional `args` and
`expected.json`; TSOGRAPH_REGENERATE=1 rewrites the goldens on purpose.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import assert_golden_document
from tests.golden import case_arguments
from tests.golden import golden_cases
from tests.routes.client.support import run_client
from tests.routes.support import copy_project

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "routes" / "python-client"
CASES = golden_cases(FIXTURES, "sources")


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    case = FIXTURES / name
    project = copy_project(case / "sources", tmp_path / name)
    result = run_client(project, *case_arguments(case))
    assert result.code == 0, result.stderr
    assert_golden_document(result.stdout, case / "expected.json")
