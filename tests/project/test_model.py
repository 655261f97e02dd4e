"""The project model every producer shares (issue 15 item 1).

One walk, one package.json reader, one tsconfig/jsconfig set and one resolver per
run: the same broken file gives the same limitation line whichever producer
reads it, and a `schema` run resolves modules with one resolver.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.routes import support as routes
from tests.routes.client import support as client
from tests.schema import support as schema
from tsograph.producers.project import model as model_module
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.resolve import Resolver
from tsograph.producers.routes import nextjs
from tsograph.producers.routes.next_scan import Scan as NextScan
from tsograph.producers.routes.node.detect import detect
from tsograph.producers.schema.collect_all import scan_project

SCHEMA = """datasource db {
  provider = "postgresql"
}

model Job {
  id    Int    @id
  title String
}
"""
BROKEN_TSCONFIG = '{"compilerOptions": {"baseUrl": "."'
# An Express server, a fetch call and a Prisma client over one drizzle-using module.
PROJECT = {
    "package.json": (
        '{"dependencies": {"express": "4.21.2", "@prisma/client": "6.19.0",'
        ' "prisma": "6.19.0", "drizzle-orm": "0.44.0"}}'
    ),
    "tsconfig.json": BROKEN_TSCONFIG,
    "prisma/schema.prisma": SCHEMA,
    "src/db.ts": 'import { PrismaClient } from "@prisma/client";\n'
    "export const prisma = new PrismaClient();\n",
    "src/jobs.ts": 'import { prisma } from "./db";\n'
    "export function jobs() {\n  return prisma.job.findMany();\n}\n",
    "src/tables.ts": 'import { pgTable, integer } from "drizzle-orm/pg-core";\n'
    'export const users = pgTable("users", { id: integer("id") });\n',
    "src/server.ts": 'import express from "express";\nimport { jobs } from "./jobs";\n'
    "const app = express();\n"
    'app.get("/jobs", async (_req, res) => { res.json(await jobs()); });\n'
    "app.listen(3000);\n",
    "src/web.ts": 'export const load = () => fetch("https://api.example.com/jobs");\n',
}
CONFIG_LINE = (
    "unreadable-module-configs: 1 tsconfig/jsconfig/package.json file(s) could not be read "
    "(tsconfig.json not read (not JSON (unexpected end of data)))"
)


def configs_lines(document: dict[str, Any]) -> list[str]:
    return [line for line in document["limitations"] if line.startswith("unreadable-module-")]


def test_a_broken_tsconfig_is_one_and_the_same_line_in_every_producer(tmp_path: Path) -> None:
    project = routes.write_project(tmp_path / "p", PROJECT)
    server = routes.document_of(project)
    calls = client.document_of(project)
    relations = schema.document_of(project)
    assert {fact["channel"] for fact in relations["facts"]} >= {"Job", "users"}
    assert routes.decls(server) == {("GET", "/jobs", "src/server.ts")}
    assert configs_lines(server) == [CONFIG_LINE]
    assert configs_lines(calls) == [CONFIG_LINE]
    assert configs_lines(relations) == [CONFIG_LINE]


def test_a_schema_run_builds_one_resolver_for_prisma_and_the_orms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[Resolver] = []

    class Counted(Resolver):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            built.append(self)

    monkeypatch.setattr(model_module, "Resolver", Counted)
    project = routes.write_project(tmp_path / "p", PROJECT)
    scan = scan_project(ProjectModel.load(project))
    assert {fact["channel"] for fact in scan.facts} >= {"Job", "users"}
    assert built == [scan.model.resolver]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        # Python's json module reads NaN; the package.json reader (orjson, as npm's
        # JSON.parse) does not: the Next.js scan took the dependencies of a file the
        # workspace and the Node detection called unreadable.
        ('{"dependencies": {"next": "16.0.0"}, "x": NaN}', "package.json is not valid JSON"),
        ('["next"]', "package.json is not a JSON object"),
    ],
)
def test_one_package_json_reading_for_next_node_and_the_workspace(
    tmp_path: Path, text: str, problem: str
) -> None:
    project = routes.write_project(tmp_path / "p", {"package.json": text, "a.ts": ""})
    model = ProjectModel.load(project)
    assert nextjs.read_package(model, NextScan()) is None
    assert detect(model).package_problem == problem
    assert model.config_notes() == ["package.json not read (not a JSON object)"]


def test_source_of_leaves_tests_out_unless_asked(tmp_path: Path) -> None:
    files = {
        "src/a.ts": 'import "./a.test";\nimport "./b";\n',
        "src/a.test.ts": "",
        "src/b.ts": "",
    }
    project = routes.write_project(tmp_path / "p", files)
    kept = ProjectModel.load(project)
    assert kept.paths == ["src/a.ts", "src/b.ts"]
    assert kept.source_of("src/a.ts", "./a.test") is None
    assert kept.source_of("src/a.ts", "./b") == "src/b.ts"
    asked = ProjectModel.load(project, include_tests=True)
    assert asked.source_of("src/a.ts", "./a.test") == "src/a.test.ts"


def test_excluded_folders_are_no_sources_and_files_are_parsed_once(tmp_path: Path) -> None:
    files = {"src/a.ts": 'import "../gen/client";\n', "gen/client.ts": "export {};\n"}
    model = ProjectModel.load(routes.write_project(tmp_path / "p", files))
    model.exclude(["gen"])
    assert model.paths == ["src/a.ts"]
    assert model.source_of("src/a.ts", "../gen/client") is None
    first = model.parse("src/a.ts")
    assert first is not None and model.parse("src/a.ts") is first
    assert model.read == [model.root / "src/a.ts"]


def test_a_nested_apps_own_config_resolves_its_aliases_from_the_repository_root(
    tmp_path: Path,
) -> None:
    # Netflix/dispatch keeps its Vue app under src/dispatch/static/dispatch with a
    # jsconfig.json of `@/*` paths and no workspace list: an editor opened on one of its
    # files uses that jsconfig, and so does a run from the repository root.
    files = {
        "package.json": '{"name": "e2e", "devDependencies": {"@playwright/test": "1.50.0"}}',
        "web/package.json": '{"name": "web", "dependencies": {"axios": "1.7.0"}}',
        "web/jsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
        "web/src/api.js": 'import axios from "axios";\n'
        'export default axios.create({ baseURL: "/api/v1" });\n',
        "web/src/items.js": 'import API from "@/api";\n'
        'export const all = () => API.get("/items");\n',
        "tools/tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./lib/*"]}}}',
        "tools/lib/api.ts": "export {};\n",
        "tools/run.ts": 'import "@/api";\n',
    }
    project = routes.write_project(tmp_path / "repo", files)
    model = ProjectModel.load(project)
    assert model.sources.config_folders == ("tools", "web")
    assert model.source_of("web/src/items.js", "@/api") == "web/src/api.js"
    assert model.source_of("tools/run.ts", "@/api") == "tools/lib/api.ts"
    document = client.document_of(project)
    assert [(fact["method"], fact["channel"]) for fact in document["facts"]] == [
        ("GET", "/api/v1/items")
    ]
