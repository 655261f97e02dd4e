"""A template's substitution is no name, and no part of its neighbour's name.

openstatus packages/db/src/seed.mts sends `DELETE FROM "${row.name}"` for each table a
query found: the substitution was written `?` before the SQL was read, so the facts
named a table `?`. Glued to a name it cut that name short (`log_${m}` gave `log_`) or
made a schema of it (`app.${t}` gave `app`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.schema.support import document_of
from tests.schema.support import write_project
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.sql_relations import SUBSTITUTION


def _uses(document: dict[str, Any]) -> list[tuple[str, bool, int]]:
    return sorted(
        (fact["channel"], fact["dynamic"], fact["location"]["line"])
        for fact in document["facts"]
        if "#model:" not in fact.get("symbol", {}).get("usr", "")
    )


def test_a_name_holding_a_substitution_is_an_unread_operand() -> None:
    cases = {
        f'DELETE FROM "{SUBSTITUTION}"': ((), 1),
        f"SELECT * FROM log_{SUBSTITUTION} JOIN users ON 1 = 1": (("users",), 1),
        f"SELECT * FROM app.{SUBSTITUTION}": ((), 1),
        f"SELECT * FROM {SUBSTITUTION}": ((), 1),
        f"SELECT * FROM users WHERE id = {SUBSTITUTION}": (("users",), 0),
    }
    for text, (names, unresolved) in cases.items():
        found = sql_relations.extract_substituted(text)
        assert (tuple(r.name for r in found.relations), found.unresolved) == (names, unresolved)


def test_plain_and_driver_templates_name_no_table_for_a_substitution(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"pg": "8.11.0"}}\n',
            "src/reset.ts": (
                'import { Pool } from "pg";\n'
                "const pool = new Pool();\n"
                "export async function reset(names: string[], month: string) {\n"
                '  const statements = names.map((name) => `DELETE FROM "${name}"`);\n'
                "  await pool.query(`SELECT * FROM log_${month}`);\n"
                "  return statements;\n"
                "}\n"
            ),
        },
    )
    # Line 4: the SQL text pass (uppercase literal); line 5: the driver call, spliced.
    assert _uses(document_of(project)) == [("", True, 4), ("", True, 5)]


def test_python_f_strings_name_no_table_for_a_substitution(tmp_path: Path) -> None:
    body = (
        "import sqlite3\n"
        "def f(name):\n"
        "    conn = sqlite3.connect('x.db')\n"
        "    conn.execute(f'DELETE FROM \"{name}\"')\n"
        "    conn.execute(f'SELECT * FROM log_{name} JOIN users ON 1 = 1')\n"
    )
    project = write_project(tmp_path / "py", {"app/db.py": body})
    assert _uses(document_of(project)) == [("", True, 4), ("", True, 5), ("users", False, 5)]
