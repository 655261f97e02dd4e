"""Rebasing a package run onto its monorepo root, and which packages are services."""

from __future__ import annotations

from pathlib import Path

from tests.project.builder import write_tree
from tsograph.exchange.limitations import counted
from tsograph.producers.service_runs import rebase_facts
from tsograph.producers.service_runs import rebase_limitations
from tsograph.producers.services import Service
from tsograph.producers.services import find_services


def test_limitation_names_are_rebased_and_counts_kept() -> None:
    lines = [
        counted("parse-errors:", 3, "file(s)", names=["app/a.ts", "src/b.tsx:12", "c.ts"]),
        counted("route-coverage:", 2, "registration(s)", breakdown={"syntax-errors": 2}),
        counted(
            "unreadable-module-configs:",
            2,
            "config(s)",
            names=["extends '@acme/tsconfig/base.json' of . not found", "tsconfig.json not read"],
        ),
        counted("framework-provided-routes:", 1, "package @koa/router may answer"),
        "route-framework-version-unknown: 1 framework(s) (hono@5.x)",
    ]
    assert rebase_limitations(lines, "apps/web") == [
        "parse-errors: 3 file(s) (apps/web/app/a.ts, apps/web/c.ts, apps/web/src/b.tsx:12)",
        "route-coverage: 2 registration(s) (syntax-errors: 2)",
        "unreadable-module-configs: 2 config(s) (extends '@acme/tsconfig/base.json' of "
        "apps/web not found, apps/web/tsconfig.json not read)",
        "framework-provided-routes: 1 package @koa/router may answer",
        "route-framework-version-unknown: 1 framework(s) (hono@5.x)",
    ]
    assert rebase_limitations(lines, "") == lines


def test_limitation_places_are_rebased_the_first_one_too() -> None:
    # karakeep's packages/trpc run wrote "(at auth.ts:121, packages/trpc/auth.ts:190, …)":
    # the first place kept its package-relative path behind "at ".
    places = [("auth.ts", 121), ("auth.ts", 190), ("lib/rules.ts", 31)]
    lines = [
        counted("unresolved-orm-receivers:", 3, "ORM call(s)", places=places),
        counted("route-coverage:", 3, "call(s)", breakdown={"spread": 3}, places=places[:1]),
        counted("parse-errors:", 1, "file(s)", names=["a.ts"], places=[("b.ts", 2)]),
    ]
    assert rebase_limitations(lines, "packages/trpc") == [
        "unresolved-orm-receivers: 3 ORM call(s) (at packages/trpc/auth.ts:121, "
        "packages/trpc/auth.ts:190, packages/trpc/lib/rules.ts:31)",
        "route-coverage: 3 call(s) (spread: 3; at packages/trpc/auth.ts:121)",
        "parse-errors: 1 file(s) (packages/trpc/a.ts; at packages/trpc/b.ts:2)",
    ]


def test_fact_paths_and_ids_are_rebased_names_are_not() -> None:
    fact = {
        "kind": "relation-use",
        "channel": "User",
        "location": {"path": "prisma/schema.prisma", "line": 1, "column": 1},
        "symbol": {"usr": "prisma/schema.prisma#model:User", "qualifiedName": "User"},
        "order": {"group": "src/app.ts#app", "index": 0},
    }
    assert rebase_facts([fact], "apps/api") == [
        {
            "kind": "relation-use",
            "channel": "User",
            "location": {"path": "apps/api/prisma/schema.prisma", "line": 1, "column": 1},
            "symbol": {"usr": "apps/api/prisma/schema.prisma#model:User", "qualifiedName": "User"},
            "order": {"group": "apps/api/src/app.ts#app", "index": 0},
        }
    ]


def test_services_are_the_packages_declaring_what_the_command_reads(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "package.json": '{"name": "root", "private": true, "workspaces": ["apps/*", "libs/*"]}',
            "apps/site/package.json": '{"name": "@acme/site"}',
            "apps/site/next.config.mjs": "export default {};\n",
            "apps/api/package.json": '{"name": "@acme/api", "dependencies": {"fastify": "5.1.0"}}',
            "apps/cli/package.json": '{"name": "cli", "dependencies": {"axios": "1.7.0"}}',
            "apps/web/package.json": '{"name": "web", "devDependencies": '
            '{"@hey-api/openapi-ts": "0.97.3"}}',
            "libs/db/package.json": '{"name": "@acme/db", "dependencies": '
            '{"drizzle-orm": "0.40.0"}}',
        },
    )
    folders = {
        kind: [s.folder for s in find_services(tmp_path, kind) or []]
        for kind in ("server", "client", "schema")
    }
    assert folders == {
        "server": ["apps/api", "apps/site"],
        "client": ["apps/api", "apps/cli", "apps/site", "apps/web"],
        "schema": ["apps/api", "libs/db"],
    }
    assert [s.file_stem for s in find_services(tmp_path, "server") or []] == [
        "acme__api",
        "acme__site",
    ]
    assert Service("apps/x", None).file_stem == "apps__x"


def test_a_root_that_is_a_service_or_no_workspace_is_one_project(tmp_path: Path) -> None:
    write_tree(
        tmp_path / "served",
        {
            "package.json": '{"workspaces": ["packages/*"], "dependencies": {"express": "5.1.0"}}',
            "packages/a/package.json": '{"name": "a", "dependencies": {"hono": "4.6.0"}}',
        },
    )
    write_tree(tmp_path / "single", {"package.json": '{"dependencies": {"express": "5.1.0"}}'})
    assert find_services(tmp_path / "served", "server") is None
    assert find_services(tmp_path / "single", "server") is None
