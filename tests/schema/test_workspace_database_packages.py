"""A service whose database client lives in another workspace package says so.

linkwarden: apps/web imports `prisma` from @linkwarden/prisma (packages/prisma holds
schema.prisma and depends on @prisma/client). A service run reads apps/web alone, so
none of its delegate calls could be proven, and the document said nothing: zero
facts, no limitation.
"""

from __future__ import annotations

from pathlib import Path

from tests.schema.support import document_of
from tests.schema.support import write_project

SCHEMA = (
    'datasource db {\n  provider = "postgresql"\n  url = env("DATABASE_URL")\n}\n'
    "model Link {\n  id Int @id\n  url String\n}\n"
)
FILES = {
    "package.json": '{"name": "repo", "private": true, "workspaces": ["apps/*", "packages/*"]}',
    "packages/db/package.json": (
        '{"name": "@acme/db", "main": "index.ts", "dependencies": {"@prisma/client": "6.10.1"}}'
    ),
    "packages/db/schema.prisma": SCHEMA,
    "packages/db/index.ts": (
        'import { PrismaClient } from "@prisma/client";\n'
        "export const prisma = new PrismaClient();\n"
    ),
    "apps/web/package.json": (
        '{"name": "@acme/web", "dependencies": {"next": "16.3.0", "@acme/db": "*"}}'
    ),
    "apps/web/pages/api/links.ts": (
        'import { prisma } from "@acme/db";\n'
        "export default async function links(req: unknown, res: { json(v: unknown): void }) {\n"
        "  res.json(await prisma.link.findMany({ select: { url: true } }));\n"
        "}\n"
    ),
}


def test_a_service_using_a_workspace_prisma_package_names_it(tmp_path: Path) -> None:
    root = write_project(tmp_path / "repo", FILES)
    document = document_of(root, "--workspace", str(root / "apps/web"))
    assert document["facts"] == []
    assert document["limitations"] == [
        "schema-outside-project: 1 Prisma schema path(s) or workspace database package(s) "
        "outside the project were not read (@acme/db)"
    ]


def test_the_package_itself_and_the_whole_root_read_the_calls(tmp_path: Path) -> None:
    root = write_project(tmp_path / "repo", FILES)
    package = document_of(root, "--workspace", str(root / "packages/db"))
    assert package["limitations"] == []
    whole = document_of(root, "--workspace", str(root))
    uses = sorted(
        (fact["channel"], fact.get("method", ""))
        for fact in whole["facts"]
        if fact["location"]["path"] == "apps/web/pages/api/links.ts"
    )
    assert uses == [("Link", ""), ("Link", "url")]


DRIZZLE = {
    "package.json": '{"name": "repo", "private": true, "workspaces": ["apps/*", "packages/*"]}',
    "packages/db/package.json": (
        '{"name": "@acme/db", "main": "index.ts", "dependencies": {"drizzle-orm": "0.44.0"}}'
    ),
    "packages/db/index.ts": (
        'import { pgTable, text } from "drizzle-orm/pg-core";\n'
        'import { drizzle } from "drizzle-orm/node-postgres";\n'
        'export const user = pgTable("user", { name: text("name") });\n'
        "export const db = drizzle(process.env.URL!);\n"
    ),
    "packages/config/package.json": '{"name": "@acme/config", "dependencies": {"zod": "4"}}',
    "apps/api/package.json": (
        '{"name": "@acme/api", "dependencies": {"hono": "4.9.0", "@acme/db": "*", '
        '"@acme/config": "*"}}'
    ),
    "apps/api/index.ts": (
        'import { db, user } from "@acme/db";\nexport const names = () => db.select().from(user);\n'
    ),
}


def test_a_service_using_a_workspace_drizzle_package_names_it(tmp_path: Path) -> None:
    # openstatus: apps/server and apps/workflows query through @openstatus/db (Drizzle);
    # their service runs had no fact and no limitation. A package without database code
    # (@acme/config) is not named.
    root = write_project(tmp_path / "repo", DRIZZLE)
    document = document_of(root, "--workspace", str(root / "apps/api"))
    assert document["facts"] == []
    assert document["limitations"] == [
        "schema-outside-project: 1 Prisma schema path(s) or workspace database package(s) "
        "outside the project were not read (@acme/db)"
    ]
    whole = document_of(root, "--workspace", str(root))
    assert ("user", "apps/api/index.ts") in {
        (fact["channel"], fact["location"]["path"]) for fact in whole["facts"]
    }
