"""Every case under fixtures/schema/orm/<case>/ against its golden document, byte for byte.

A case holds `project/` (copied with fixed modification times) and `expected.json`.
TSOGRAPH_REGENERATE=1 rewrites goldens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import golden_cases
from tests.golden import limitation_prefixes
from tests.schema.orm.support import FIXTURES
from tests.schema.support import assert_schema_golden

CASES = golden_cases(FIXTURES, "project")
PREFIXES = (
    "unsupported-db-packages:",
    "non-relational-stores:",
    "dynamic-relation-names:",
    "unresolved-orm-receivers:",
    "orm-naming-unverified:",
    "unreadable-orm-declarations:",
    "provenance-truncated:",
)


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, tmp_path: Path) -> None:
    assert_schema_golden(FIXTURES / case, tmp_path)


def test_every_prefix_of_this_part_is_produced_by_some_fixture() -> None:
    produced = limitation_prefixes(FIXTURES / case / "expected.json" for case in CASES)
    assert set(PREFIXES) <= produced
