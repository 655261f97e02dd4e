"""`tsograph sql-schema` agrees with a real database, and counts what it cannot read.

The fixture migrations (fixtures/sql_schema/migrations) are applied to an
in-memory SQLite database with Python's sqlite3, in the same file order; the
tables, views and columns SQLite reports must be exactly the facts.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_golden_document
from tests.routes.support import copy_project

FIXTURE = REPO / "fixtures" / "sql_schema" / "migrations"
STAMP = "--generated-at=2026-01-01T00:00:00.000Z"


def _sqlite_catalog() -> set[tuple[str, str | None]]:
    database = sqlite3.connect(":memory:")
    for path in sorted((FIXTURE / "migrations").glob("*.sql")):
        database.executescript(path.read_text("utf-8"))
    names = [
        row[0]
        for row in database.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
        )
    ]
    catalog: set[tuple[str, str | None]] = set()
    for name in names:
        catalog.add((name, None))
        for row in database.execute(f'PRAGMA table_info("{name}")'):
            catalog.add((name, row[1]))
    return catalog


def test_facts_equal_the_sqlite_catalog(tmp_path: Path) -> None:
    # A copy with fixed modification times: the document records the newest one.
    copy = copy_project(FIXTURE, tmp_path / "case")
    result = tsograph("sql-schema", copy, "--dialect", "sqlite", STAMP)
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    facts = {(fact["channel"], fact.get("method")) for fact in document["facts"]}
    assert facts == _sqlite_catalog()
    assert document["platform"] == "sql" and document["limitations"] == []
    assert_golden_document(result.stdout, FIXTURE / "expected.json")


def test_unreadable_table_statements_are_counted(tmp_path: Path) -> None:
    (tmp_path / "0001.sql").write_text(
        "CREATE TYPE mood AS ENUM ('a');\n"
        "CREATE TABLE t (a INTEGER);\n"
        "ALTER TABLE t FROBNICATE COLUMN a;\n",
        "utf-8",
    )
    result = tsograph("sql-schema", tmp_path, STAMP)
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    # CREATE TYPE cannot change a table and is not counted; the ALTER could and is.
    assert document["limitations"] == [
        "unparsed-schema-lines: 1 statement(s) that may change a table could not be read "
        "(at 0001.sql:3)"
    ]
    assert {(f["channel"], f.get("method")) for f in document["facts"]} == {("t", None), ("t", "a")}


def test_usage_errors() -> None:
    assert tsograph("sql-schema", FIXTURE, "--dialect", "nosuch").code == 64
    outside = tsograph(
        "sql-schema",
        FIXTURE / "migrations" / "0001_init.sql",
        "--project",
        REPO / "fixtures" / "check",
    )
    assert outside.code == 64 and "outside the project" in outside.stderr
    assert tsograph("sql-schema", REPO / "no-such-folder").code == 2
