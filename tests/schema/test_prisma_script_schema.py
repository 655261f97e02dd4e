"""A schema the package.json scripts hand the Prisma CLI (postiz-app: `"prisma-generate":
"pnpm dlx prisma@6.5.0 generate --schema ./libraries/nestjs-libraries/src/database/prisma/
schema.prisma"`, nothing at the default locations): prisma-schema-not-found before, and
no facts. prisma@6.5.0 build/index.js reads a `--schema` argument first, resolved against
the working directory, which npm and pnpm set to the package folder.
"""

from __future__ import annotations

from pathlib import Path

from tests.schema.support import document_of
from tests.schema.support import write_project

SCHEMA = 'datasource db {\n  provider = "postgresql"\n}\n\nmodel Job {\n  id Int @id\n}\n'
SOURCE = (
    "import { PrismaClient } from '@prisma/client';\n"
    "const prisma = new PrismaClient();\n"
    "export const jobs = () => prisma.job.findMany();\n"
)


def _package(scripts: str) -> str:
    return '{"dependencies": {"@prisma/client": "6.5.0"}, "scripts": {' + scripts + "}}"


def test_the_one_schema_the_scripts_name_is_read(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": _package(
                '"generate": "pnpm dlx prisma@6.5.0 generate --schema ./db/main.prisma",'
                '"push": "prisma db push --accept-data-loss --schema=db/main.prisma"'
            ),
            "db/main.prisma": SCHEMA,
            "src/jobs.ts": SOURCE,
        },
    )
    document = document_of(project)
    assert ("Job", "src/jobs.ts") in {
        (fact["channel"], fact["location"]["path"]) for fact in document["facts"]
    }
    assert document["limitations"] == []


def test_scripts_naming_different_schemas_decide_nothing(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": _package(
                '"a": "prisma generate --schema a.prisma", "b": "prisma generate --schema b.prisma"'
            ),
            "a.prisma": SCHEMA,
            "b.prisma": SCHEMA,
            "src/jobs.ts": SOURCE,
        },
    )
    document = document_of(project)
    assert document["facts"] == []
    assert document["limitations"] == [
        "prisma-schema-not-found: 1 Prisma project(s) without a schema file at the CLI's "
        "locations (.)"
    ]
