"""Declaration facts against Prisma's own naming, recorded offline by oracle/prisma-naming.

For PostgreSQL fixtures the recording holds the SQL Prisma's schema engine writes
for `migrate diff --from-empty --to-schema … --script`: the tables and columns it
creates must be exactly the non-dynamic declaration facts (precision and recall
1.0), apart from the `@@ignore` models and `@ignore` fields, which the database
has but the client does not. For every fixture, the model and field names of
getDMMF must agree with each non-dynamic declaration fact.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.schema.support import FIXTURES
from tests.schema.support import copy_project
from tests.schema.support import document_of
from tsograph.producers.schema.facts import channel
from tsograph.producers.schema.prisma.psl import read_schema

ORACLE = Path(__file__).resolve().parents[2] / "oracle" / "prisma-naming" / "recordings.json"
RECORDINGS: dict[str, Any] = json.loads(ORACLE.read_text("utf-8"))["recordings"]
_TABLE = re.compile(r'^CREATE TABLE (?:"([^"]+)"\.)?"([^"]+)" \($', re.M)
_COLUMN = re.compile(r'^    "([^"]+)" ')


def ddl_names(script: str) -> tuple[set[str], set[tuple[str, str]]]:
    tables: set[str] = set()
    columns: set[tuple[str, str]] = set()
    for match in _TABLE.finditer(script):
        table = channel(match.group(2), match.group(1))
        tables.add(table)
        for line in script[match.end() + 1 :].split("\n"):
            column = _COLUMN.match(line)
            if column is None:
                break
            columns.add((table, column.group(1)))
    return tables, columns


def declaration_facts(case: str, tmp_path: Path) -> list[dict[str, Any]]:
    document = document_of(copy_project(FIXTURES / case / "project", tmp_path / case))
    return [f for f in document["facts"] if "#model:" in f.get("symbol", {}).get("usr", "")]


def ignored(case: str) -> tuple[set[str], set[tuple[str, str]]]:
    """Tables of `@@ignore` models and columns of `@ignore` fields (getDMMF omits both)."""
    tables: set[str] = set()
    columns: set[tuple[str, str]] = set()
    for path in sorted((FIXTURES / case / "project").rglob("*.prisma")):
        for block in read_schema(path.name, path.read_text("utf-8")).blocks:
            mapped, schema = block.attribute("map"), block.attribute("schema")
            table = channel(
                (mapped.first_string() if mapped else None) or block.name,
                schema.first_string() if schema else None,
            )
            if block.attribute("ignore") is not None:
                tables.add(table)
            for item in block.fields:
                column = item.attribute("map")
                if item.attribute("ignore") is not None:
                    columns.add((table, (column.first_string() if column else None) or item.name))
    return tables, columns


def dmmf_names(case: str) -> dict[str, tuple[str, str | None, dict[str, str]]]:
    """Model -> (database name, schema, scalar field -> column) as getDMMF reports them."""
    found = {}
    for model in RECORDINGS[case]["models"]:
        columns = {
            field["name"]: field["dbName"] or field["name"]
            for field in model["fields"]
            if field["kind"] in ("scalar", "enum", "unsupported")
        }
        found[model["name"]] = (model["dbName"] or model["name"], model["schema"], columns)
    return found


DDL_CASES = sorted(case for case, entry in RECORDINGS.items() if "postgresqlScript" in entry)


@pytest.mark.parametrize("case", DDL_CASES)
def test_declarations_are_exactly_the_engine_ddl(case: str, tmp_path: Path) -> None:
    tables, columns = ddl_names(RECORDINGS[case]["postgresqlScript"])
    facts = [f for f in declaration_facts(case, tmp_path) if not f["dynamic"]]
    ignored_tables, ignored_columns = ignored(case)
    assert ignored_tables <= tables and ignored_columns <= columns  # the database has them
    tables -= ignored_tables
    columns = {c for c in columns - ignored_columns if c[0] not in ignored_tables}
    assert {f["channel"] for f in facts if "method" not in f} == tables
    assert {(f["channel"], f["method"]) for f in facts if "method" in f} == columns


@pytest.mark.parametrize("case", sorted(c for c, e in RECORDINGS.items() if "models" in e))
def test_declarations_agree_with_dmmf(case: str, tmp_path: Path) -> None:
    names = dmmf_names(case)
    checked = 0
    for fact in declaration_facts(case, tmp_path):
        qualified = fact["symbol"]["qualifiedName"]
        model, _, field = qualified.partition(".")
        if fact["dynamic"] or model not in names:
            continue
        table, schema, columns = names[model]
        if field and field not in columns:
            continue  # an implicit join table, named after the relation (checked by the DDL)
        assert fact["channel"] == channel(table, schema), qualified
        if field:
            assert fact["method"] == columns[field], qualified
        checked += 1
    assert checked > 0 or case == "mongodb"


def test_prisma_app_migration_is_what_prisma_writes() -> None:
    """The fixture's migration (for joining with a catalog) is the engine's own script."""
    migration = FIXTURES / "prisma-app" / "project" / "prisma" / "migrations"
    script = (migration / "20260101000000_init" / "migration.sql").read_text("utf-8")
    assert script == RECORDINGS["prisma-app"]["postgresqlScript"]
