"""Every case under fixtures/schema/orm/<case>/ against its golden document, byte for byte.

A case holds `project/` (copied with fixed modification times) and `expected.json`.
TSOGRAPH_REGENERATE=1 rewrites goldens.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from exchange.validation import validate
from tests.golden import assert_matches_golden
from tests.schema.orm.support import FIXTURES, copy_project
from tests.schema.support import run_schema

CASES = sorted(case.name for case in FIXTURES.iterdir() if (case / "project").is_dir())
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
    project = copy_project(FIXTURES / case / "project", tmp_path / case)
    result = run_schema(project)
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    validate(orjson.loads(result.stdout))
    assert_matches_golden(result.stdout, FIXTURES / case / "expected.json")


def test_every_prefix_of_this_part_is_produced_by_some_fixture() -> None:
    produced: set[str] = set()
    for case in CASES:
        document = orjson.loads((FIXTURES / case / "expected.json").read_bytes())
        produced.update(line.partition(" ")[0] for line in document["limitations"])
    assert set(PREFIXES) <= produced
