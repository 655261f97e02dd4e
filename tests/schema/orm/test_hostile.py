"""Odd projects give facts or limitations, never a crash."""

from __future__ import annotations

from pathlib import Path

from tests.schema.orm.support import document_of
from tests.schema.orm.support import write_project


def test_cycles_self_references_and_broken_syntax(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "src/a.ts": (
                'import { b } from "./b";\n'
                'import { Pool } from "pg";\n'
                "export const a = b;\n"
                "export function loop(): ReturnType<typeof loop> { return loop(); }\n"
                "class Self extends Self {}\n"
                "let x; x = x;\n"
                "export const pool = new Pool();\n"
                "export function f(client = pool) { return client.query(`SELECT ${a} FROM t`); }\n"
                "f(f);\n"
            ),
            "src/b.ts": 'export { a as b } from "./a";\nexport * from "./b";\n',
            "src/broken.ts": (
                'import { drizzle } from "drizzle-orm/d1";\n'
                "const db = drizzle(;\n"
                "db.select().from(\n"
            ),
            "src/types.d.ts": "interface Env { DB: D1Database; SELF: Env['DB'] }\n",
            "src/deep.js": "const k = require('knex')(" + "(" * 300 + "1" + ")" * 300 + ");\n",
        },
    )
    document = document_of(project)
    # Only the uppercase literal is read (by the SQL text pass): `client` is not proven,
    # since its one caller passes a function; the broken file is counted, not fatal.
    assert [(fact["channel"], fact["location"]["path"]) for fact in document["facts"]] == [
        ("t", "src/a.ts")
    ]
    assert [line.partition(" ")[0] for line in document["limitations"]] == ["parse-errors:"]


def test_a_file_name_holding_a_hash_is_the_facts_whole_path(tmp_path: Path) -> None:
    # A source fact used to take its path from the module id `<path>#<module>`, cut at
    # the first `#`, so a fact in `src/a#b.ts` was placed in a file `src/a`.
    project = write_project(
        tmp_path / "p",
        {
            "package.json": '{"dependencies": {"pg": "8.11.0"}}\n',
            "src/a#b.ts": (
                'import { Pool } from "pg";\n'
                "const pool = new Pool();\n"
                'export function load() { return pool.query("SELECT * FROM users"); }\n'
            ),
        },
    )
    document = document_of(project)
    assert [
        (fact["channel"], fact["location"]["path"], fact["symbol"]["usr"])
        for fact in document["facts"]
    ] == [("users", "src/a#b.ts", "src/a#b.ts#load")]
