"""A service whose Prisma client lives in another workspace package says so.

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
        "schema-outside-project: 1 Prisma schema path(s) outside the project were not read "
        "(@acme/db)"
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
