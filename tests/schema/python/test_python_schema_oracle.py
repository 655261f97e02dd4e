"""Table and column names of the Python fixtures against what the libraries themselves give.

oracle/python-schema/record.py imported the fixture models with SQLAlchemy
2.0.44, SQLModel 0.0.27, Flask-SQLAlchemy 3.1.1 and Django 5.2.8 and wrote
every table with its columns (oracle/recordings/python-schema/). Replayed
offline: the declaration facts of `tsograph schema` on the same fixture name
exactly those tables and (table, column) pairs: precision and recall 1.0.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.schema.support import copy_project
from tests.schema.support import document_of

REPO = Path(__file__).resolve().parents[3]
RECORDINGS = REPO / "oracle" / "recordings" / "python-schema"
FIXTURES = REPO / "fixtures" / "schema" / "python"


@pytest.mark.parametrize("fixture", ["alchemy", "django"])
def test_names_equal_the_libraries(fixture: str, tmp_path: Path) -> None:
    recorded = orjson.loads((RECORDINGS / f"{fixture}.json").read_bytes())["tables"]
    project = copy_project(FIXTURES / fixture / "project", tmp_path / fixture)
    document = document_of(project)
    declared = [
        fact
        for fact in document["facts"]
        if "#model:" in fact.get("symbol", {}).get("usr", "") and not fact["dynamic"]
    ]
    tables = {fact["channel"] for fact in declared}
    columns = {(fact["channel"], fact["method"]) for fact in declared if "method" in fact}
    expected_columns = {(table, column) for table, names in recorded.items() for column in names}
    assert tables == set(recorded)
    assert columns == expected_columns
    assert not any(fact["dynamic"] for fact in document["facts"] if "#model:" in str(fact))
