"""Every case under fixtures/schema/prisma/<case>/ against its golden document, byte for byte.

A case holds `project/` (copied to a folder named after the case with fixed
modification times) and `expected.json`. TSOGRAPH_REGENERATE=1 rewrites goldens.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from exchange.validation import validate
from tests.golden import assert_matches_golden
from tests.schema.support import FIXTURES, copy_project, run_schema

CASES = sorted(case.name for case in FIXTURES.iterdir() if (case / "project").is_dir())


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, tmp_path: Path) -> None:
    project = copy_project(FIXTURES / case / "project", tmp_path / case)
    result = run_schema(project)
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    validate(orjson.loads(result.stdout))
    assert_matches_golden(result.stdout, FIXTURES / case / "expected.json")


# Prefixes of the Prisma and SQL-text part that a golden must show; provenance-truncated:
# needs a 64-step chain and is shown by test_prisma_rules instead.
PRISMA_PREFIXES = (
    "prisma-schema-not-found:",
    "unresolved-prisma-config:",
    "missing-prisma-schemas:",
    "schema-outside-project:",
    "non-relational-stores:",
    "prisma-naming-unverified:",
    "prisma-8-surface-unscanned:",
    "unparsed-schema-lines:",
    "unresolved-field-types:",
    "ignored-prisma-elements:",
    "unresolved-generator-outputs:",
    "unresolved-typed-sql:",
    "dynamic-relation-names:",
    "skipped-sql-literals:",
    "unresolved-client-receivers:",
    "missing-relation-usrs:",
    "invalid-relation-names:",
    "parse-errors:",
    "unreadable-module-configs:",
)


def test_every_prefix_of_the_prisma_part_is_shown_by_a_golden() -> None:
    shown = {
        line.split(" ")[0]
        for case in CASES
        for line in orjson.loads((FIXTURES / case / "expected.json").read_bytes())["limitations"]
    }
    assert set(PRISMA_PREFIXES) <= shown, sorted(set(PRISMA_PREFIXES) - shown)
