"""Broken configuration never loses a schema silently (issue 14 item 5).

A package.json, tsconfig.json or prisma.config.ts that cannot be read is reported
(`unreadable-module-configs:` / `unresolved-prisma-config:`); a schema the CLI
would still find is read all the same. Links are never followed, and a link
where a schema would be is reported, not passed over.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.schema.support import document_of
from tests.schema.support import write_project

SCHEMA = """datasource db {
  provider = "postgresql"
}

model Job {
  id    Int    @id
  title String
}
"""
CLIENT = """import { PrismaClient } from "@prisma/client";
const prisma = new PrismaClient();
export function jobs() {
  return prisma.job.findMany({ where: { title: "x" } });
}
"""
PACKAGE = '{"dependencies": {"@prisma/client": "6.19.0", "prisma": "6.19.0"}}'
# The lockfile still names the installed version when package.json cannot be read.
LOCKFILE = '{"packages": {"node_modules/@prisma/client": {"version": "6.19.0"}}}'


def tables(document: dict[str, Any]) -> set[tuple[str, str | None, str]]:
    return {(f["channel"], f.get("method"), f["location"]["path"]) for f in document["facts"]}


def prefixed(document: dict[str, Any], prefix: str) -> list[str]:
    return [line for line in document["limitations"] if line.startswith(prefix)]


UNREADABLE = (
    "unreadable-module-configs: 1 tsconfig/jsconfig/package.json file(s) could not be read "
)

# files, facts that are still read, and the cause the limitation names.
BROKEN_CONFIGS = {
    "package-json-not-json": (
        {
            "package.json": '{"dependencies": {"@prisma/client": "6.19.0",}',  # trailing comma
            "package-lock.json": LOCKFILE,
            "prisma/schema.prisma": SCHEMA,
            "src/jobs.ts": CLIENT,
        },
        {
            ("Job", None, "prisma/schema.prisma"),
            ("Job", "title", "prisma/schema.prisma"),
            ("Job", None, "src/jobs.ts"),
            ("Job", "title", "src/jobs.ts"),
        },
        "package.json not read (not a JSON object)",
    ),
    "workspace-package-json-not-json": (
        {
            "package.json": '{"workspaces": ["packages/*"]}',
            "packages/db/package.json": "not json",
            "package-lock.json": LOCKFILE,
            "packages/db/schema.prisma": SCHEMA,
            "packages/db/src/jobs.ts": CLIENT,
        },
        {("Job", "title", "packages/db/src/jobs.ts")},
        "packages/db/package.json not read (not a JSON object)",
    ),
    # Relative imports still resolve without the tsconfig.
    "tsconfig-cut-short": (
        {
            "package.json": PACKAGE,
            "tsconfig.json": '{"compilerOptions": {"paths": ',
            "prisma/schema.prisma": SCHEMA,
            "src/db.ts": 'import { PrismaClient } from "@prisma/client";\n'
            "export const prisma = new PrismaClient();\n",
            "src/jobs.ts": 'import { prisma } from "./db";\n'
            "export const list = () => prisma.job.findMany();\n",
        },
        {("Job", None, "src/jobs.ts")},
        "tsconfig.json not read (not JSON (unexpected end of data))",
    ),
    # The ORM phase reads the tsconfig too and reports it the same way.
    "tsconfig-cut-short-drizzle": (
        {
            "package.json": '{"dependencies": {"drizzle-orm": "0.45.3"}}',
            "tsconfig.json": '{"compilerOptions": {"paths": ',
            "src/schema.ts": 'import { pgTable, text } from "drizzle-orm/pg-core";\n'
            'export const jobs = pgTable("jobs", { title: text("title") });\n',
        },
        {("jobs", None, "src/schema.ts")},
        "tsconfig.json not read (not JSON (unexpected end of data))",
    ),
}


@pytest.mark.parametrize(("files", "read", "cause"), BROKEN_CONFIGS.values(), ids=BROKEN_CONFIGS)
def test_a_broken_config_is_reported_once_and_the_schema_is_read_all_the_same(
    tmp_path: Path,
    files: dict[str, str],
    read: set[tuple[str, str | None, str]],
    cause: str,
) -> None:
    document = document_of(write_project(tmp_path / "p", files))
    assert read <= tables(document)
    assert prefixed(document, "unreadable-module-configs:") == [f"{UNREADABLE}({cause})"]
    assert prefixed(document, "prisma-schema-not-found:") == []


def test_an_unreadable_package_json_without_a_schema_is_not_called_a_prisma_project(
    tmp_path: Path,
) -> None:
    project = write_project(
        tmp_path / "p", {"package.json": "[1, 2", "src/a.ts": "export const a = 1;\n"}
    )
    document = document_of(project)
    assert prefixed(document, "prisma-schema-not-found:") == []
    assert len(prefixed(document, "unreadable-module-configs:")) == 1


@pytest.mark.parametrize(
    "config",
    [
        b"export default defineConfig({ schema: ",  # cut short: a syntax error
        b"\x00\x01\x02binary\xff\xfe",
        b"export default { schema: 'prisma/schema.prisma' } // " + b"x" * (4 * 1024 * 1024),
    ],
    ids=["syntax-error", "binary", "over-4-MiB"],
)
def test_an_unreadable_prisma_config_is_reported(config: bytes, tmp_path: Path) -> None:
    project = write_project(tmp_path / "p", {"package.json": PACKAGE})
    (project / "prisma.config.ts").write_bytes(config)
    document = document_of(project)
    assert prefixed(document, "unresolved-prisma-config:"), document["limitations"]


def test_a_linked_schema_is_reported_not_followed(tmp_path: Path) -> None:
    outside = write_project(tmp_path / "outside", {"schema.prisma": SCHEMA})
    project = write_project(tmp_path / "p", {"package.json": PACKAGE})
    (project / "prisma").mkdir()
    os.symlink(outside / "schema.prisma", project / "prisma" / "schema.prisma")
    document = document_of(project)
    assert document["facts"] == []
    assert prefixed(document, "schema-outside-project:") == [
        "schema-outside-project: 1 Prisma schema path(s) or workspace database package(s) "
        "outside the project were not read"
    ]
    assert prefixed(document, "prisma-schema-not-found:") == []


def test_a_linked_file_in_a_schema_folder_is_reported(tmp_path: Path) -> None:
    outside = write_project(
        tmp_path / "outside", {"more.prisma": "model Other {\n  id Int @id\n}\n"}
    )
    project = write_project(
        tmp_path / "p",
        {
            "package.json": PACKAGE,
            "prisma.config.ts": 'export default { schema: "db" };\n',
            "db/main.prisma": SCHEMA,
        },
    )
    os.symlink(outside / "more.prisma", project / "db" / "more.prisma")
    document = document_of(project)
    assert {c for c, _, _ in tables(document)} == {"Job"}
    assert prefixed(document, "schema-outside-project:") == [
        "schema-outside-project: 1 Prisma schema path(s) or workspace database package(s) "
        "outside the project were not read"
    ]


def test_a_broken_workspace_list_is_reported_with_the_schema_it_hides(tmp_path: Path) -> None:
    project = write_project(
        tmp_path / "p",
        {
            "package.json": PACKAGE,
            "pnpm-workspace.yaml": "packages: [packages/*\n",
        },
    )
    document = document_of(project)
    assert prefixed(document, "unreadable-module-configs:") == [
        "unreadable-module-configs: 1 tsconfig/jsconfig/package.json file(s) could not be read "
        "(pnpm-workspace.yaml not read (not YAML))"
    ]
    assert len(prefixed(document, "prisma-schema-not-found:")) == 1
