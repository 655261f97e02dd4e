"""Every case under fixtures/schema/prisma/<case>/ against its golden document, byte for byte.

A case holds `project/` (copied to a folder named after the case with fixed
modification times) and `expected.json`. TSOGRAPH_REGENERATE=1 rewrites goldens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import golden_cases
from tests.golden import limitation_prefixes
from tests.schema.support import FIXTURES
from tests.schema.support import assert_schema_golden
from tsograph.exchange.limitations import PERSISTENCE_PREFIXES

CASES = golden_cases(FIXTURES, "project")


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, tmp_path: Path) -> None:
    assert_schema_golden(FIXTURES / case, tmp_path)


# Prefixes of the Prisma and SQL-text part that a golden must show: the schema command's
# but those only the ORM collectors write (test_orm_golden shows them), and two of the
# source walk's. provenance-truncated: needs a 64-step chain and is shown by
# test_prisma_rules instead.
ORM_ONLY = {
    "unsupported-db-packages:",
    "unresolved-orm-receivers:",
    "orm-naming-unverified:",
    "unreadable-orm-declarations:",
    "provenance-truncated:",
}
PRISMA_PREFIXES = set(PERSISTENCE_PREFIXES) - ORM_ONLY | {
    "parse-errors:",
    "unreadable-module-configs:",
}


def test_every_prefix_of_the_prisma_part_is_shown_by_a_golden() -> None:
    shown = limitation_prefixes(FIXTURES / case / "expected.json" for case in CASES)
    assert shown >= PRISMA_PREFIXES, sorted(PRISMA_PREFIXES - shown)
