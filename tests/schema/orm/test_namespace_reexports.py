"""`export * as ns from "m"` exports m's namespace (openstatus @openstatus/db).

openstatus packages/db/src/index.ts writes `export * as schema from "./schema"`, and
its services query `db.select().from(schema.user)`: the name `schema` had no export
site, so those tables gave no fact and no limitation.
"""

from __future__ import annotations

from pathlib import Path

from tests.schema.orm.support import document_of
from tests.schema.orm.support import write_project

USERS = (
    'import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";\n'
    'export const user = sqliteTable("user", {\n'
    '  id: integer("id").primaryKey(),\n'
    '  email: text("email"),\n'
    "});\n"
)
DB = (
    'import { drizzle } from "drizzle-orm/libsql";\n'
    'import * as tables from "./schema";\n'
    'export * as schema from "./schema";\n'
    'export const db = drizzle({ connection: { url: "file:x.db" }, schema: tables });\n'
)


def test_a_table_read_through_a_namespace_re_export_is_a_fact(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"drizzle-orm": "0.44.0"}}\n',
            "src/db/schema/users.ts": USERS,
            "src/db/schema/index.ts": 'export * from "./users";\n',
            "src/db/index.ts": DB,
            "src/app.ts": (
                'import { db, schema } from "./db";\n'
                "export function emails() {\n"
                "  return db.select({ email: schema.user.email }).from(schema.user);\n"
                "}\n"
            ),
        },
    )
    uses = sorted(
        (fact["channel"], fact.get("method", ""), fact["location"]["column"])
        for fact in document_of(project)["facts"]
        if fact["location"]["path"] == "src/app.ts"
    )
    # The argument of from() and the property of the column reference.
    assert uses == [("user", "", 55), ("user", "email", 41)]
