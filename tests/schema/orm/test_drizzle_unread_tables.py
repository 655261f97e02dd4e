"""A Drizzle query on a proven database naming a table no rule reads is a dynamic use.

openstatus: `.from(x)` where x is not a proven table gave no fact and no limitation.
A subquery (`q.as("sq")`, in place or held by a const) is no table of its own: the
tables it reads are uses where it is built.
"""

from __future__ import annotations

from pathlib import Path

from tests.schema.orm.support import document_of
from tests.schema.orm.support import write_project

DB = (
    'import { pgTable, text } from "drizzle-orm/pg-core";\n'
    'import { drizzle } from "drizzle-orm/node-postgres";\n'
    'export const user = pgTable("user", { name: text("name") });\n'
    "export const db = drizzle(process.env.URL!);\n"
    "const tables: Record<string, typeof user> = { user };\n"
    "export function read(key: string, other: { from(t: unknown): void }) {\n"
    '  const sq = db.select().from(user).as("sq");\n'
    "  db.select().from(sq);\n"
    "  db.select().from(tables[key]);\n"
    '  db.select().from(db.select().from(user).as("inner"));\n'
    "  other.from(tables[key]);\n"
    "}\n"
)


def test_an_unread_table_is_a_dynamic_use_and_a_subquery_is_none(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {"package.json": '{"dependencies": {"drizzle-orm": "0.44.0"}}\n', "src/db.ts": DB},
    )
    document = document_of(project)
    uses = sorted(
        (fact["channel"], fact["dynamic"], fact["location"]["line"])
        for fact in document["facts"]
        if "#model:" not in fact["symbol"]["usr"]
    )
    assert uses == [("", True, 9), ("user", False, 7), ("user", False, 10)]
    assert document["limitations"] == [
        "dynamic-relation-names: 1 relation name(s) computed at run time (dynamic facts) "
        "(at src/db.ts:9)"
    ]
