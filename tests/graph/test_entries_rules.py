"""Entry-point rules on small projects written per test: gating, directives, configs, workspaces."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tsograph.producers.graph.project_graph import load_project_graph


def _write(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _marks(project: Path, workspace: Path | None = None) -> dict[str, tuple[str, ...]]:
    loaded = load_project_graph(
        str(project), workspace=None if workspace is None else str(workspace), use_cache=False
    )
    return {node_id: node.entries for node_id, node in loaded.graph.nodes.items() if node.entries}


def _entry_lines(project: Path) -> list[str]:
    graph = load_project_graph(str(project), use_cache=False).graph
    return [line for line in graph.limitations if line.startswith("entry-points:")]


NEXT_PACKAGE = '{"name": "app", "dependencies": {"next": "16.0.0"}}'


def test_next_files_are_entries_only_in_a_next_project(tmp_path: Path) -> None:
    files = {
        "src/pages/Home.tsx": "export default function Home() { return null; }\n",
        "src/middleware.ts": "export function middleware() { return 1; }\n",
        "src/instrumentation.ts": "export function register() { return 1; }\n",
        "src/actions.ts": "'use server';\nexport async function save() { return 1; }\n",
    }
    spa = _write(tmp_path / "spa", {"package.json": '{"dependencies": {"vite": "5"}}', **files})
    assert _marks(spa) == {"src/actions.ts#save": ("server-action",)}
    next_app = _write(tmp_path / "next", {"package.json": NEXT_PACKAGE, **files})
    assert _marks(next_app) == {
        "src/actions.ts#save": ("server-action",),
        "src/pages/Home.tsx#Home": ("page",),
        "src/middleware.ts#middleware": ("middleware",),
        "src/instrumentation.ts#register": ("instrumentation",),
    }
    # A next.config file alone also makes it a Next.js project.
    configured = _write(tmp_path / "configured", {"next.config.mjs": "export default {};\n"})
    _write(configured, files)
    assert "src/pages/Home.tsx#Home" in _marks(configured)


@pytest.mark.parametrize(
    ("source", "marked"),
    [
        ("'use strict';\n'use server';\nexport async function a() {}\n", ["a"]),
        ('/* note */\n"use server"\nexport async function a() {}\n', ["a"]),
        ("const x = 1;\n'use server';\nexport async function a() {}\n", []),
        ("'use\\x20server';\nexport async function a() {}\n", []),
        ("`use server`;\nexport async function a() {}\n", []),
        ("export async function a() { 'use server'; }\nexport function b() {}\n", ["a"]),
        ("export function a() { f(); 'use server'; }\nfunction f() {}\n", []),
        ("export class C { async m() { 'use server'; } }\n", ["C.m"]),
        ("export const a = async () => { 'use server'; };\n", ["a"]),
        ("export function a() { if (1) { 'use server'; } }\n", []),
    ],
)
def test_use_server_directive_prologue(tmp_path: Path, source: str, marked: list[str]) -> None:
    project = _write(tmp_path, {"package.json": "{}", "src/m.ts": source})
    assert _marks(project) == {f"src/m.ts#{name}": ("server-action",) for name in marked}


def test_page_extensions_come_from_next_config(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "package.json": NEXT_PACKAGE,
            "next.config.mjs": 'export default { pageExtensions: ["page.tsx", "api.ts"] };\n',
            "app/home/page.page.tsx": "export default function Home() { return null; }\n",
            "app/other/page.tsx": "export default function Other() { return null; }\n",
            "app/api/x/route.api.ts": "export function GET() { return 1; }\n",
            "middleware.api.ts": "export default function gate() { return 1; }\n",
        },
    )
    assert _marks(project) == {
        "app/home/page.page.tsx#Home": ("page",),
        "app/api/x/route.api.ts#GET": ("route-handler",),
        "middleware.api.ts#gate": ("middleware",),
    }


def test_workspace_ids_are_relative_to_the_workspace(tmp_path: Path) -> None:
    workspace = _write(
        tmp_path,
        {
            "package.json": '{"private": true, "workspaces": ["apps/*"]}',
            "apps/web/package.json": NEXT_PACKAGE,
            "apps/web/vercel.json": '{"crons": [{"path": "/api/tick", "schedule": "* * * * *"}]}',
            "apps/web/app/api/tick/route.ts": "export function GET() { return 1; }\n",
            "apps/web/app/page.tsx": "export default function Page() { return null; }\n",
            "apps/other/page.tsx": "export default function NotAPage() { return null; }\n",
        },
    )
    assert _marks(workspace / "apps" / "web", workspace) == {
        "apps/web/app/api/tick/route.ts#GET": ("route-handler", "scheduled"),
        "apps/web/app/page.tsx#Page": ("page",),
    }


ROUTE = "export function GET() { return 1; }\nexport function POST() { return 1; }\n"


@pytest.mark.parametrize(
    ("vercel", "line"),
    [
        ("{not json", "vercel-json-not-json: 1"),
        ('{"crons": {"path": "/api/x"}}', "vercel-json-crons-not-a-list: 1"),
        ('{"crons": [{"schedule": "* * * * *"}, "x"]}', "cron-without-path: 2"),
        ('{"crons": [{"path": "/api/y"}]}', "cron-path-without-handler: 1"),
    ],
)
def test_vercel_json_problems_are_counted(tmp_path: Path, vercel: str, line: str) -> None:
    project = _write(
        tmp_path, {"package.json": NEXT_PACKAGE, "vercel.json": vercel, "app/api/x/route.ts": ROUTE}
    )
    assert _entry_lines(project) == [
        f"entry-points: {line.rsplit(' ', 1)[1]} entry point(s) could not be marked "
        f"({line}, vercel.json)"
    ]
    assert _marks(project) == {
        "app/api/x/route.ts#GET": ("route-handler",),
        "app/api/x/route.ts#POST": ("route-handler",),
    }


def test_a_linked_vercel_json_is_not_read(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "package.json": NEXT_PACKAGE,
            "crons.json": '{"crons": [{"path": "/api/x"}]}',
            "app/api/x/route.ts": ROUTE,
        },
    )
    os.symlink(project / "crons.json", project / "vercel.json")
    assert _entry_lines(project) == [
        "entry-points: 1 entry point(s) could not be marked "
        "(vercel-json-symbolic-link: 1, vercel.json)"
    ]
    assert _marks(project)["app/api/x/route.ts#GET"] == ("route-handler",)


def test_crons_mark_get_and_any_handlers_only(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "package.json": NEXT_PACKAGE,
            "vercel.json": '{"crons": [{"path": "/api/x"}, {"path": "/api/legacy/"}]}',
            "app/api/x/route.ts": ROUTE,
            "pages/api/legacy.ts": "export default function legacy() { return 1; }\n",
        },
    )
    assert _marks(project) == {
        "app/api/x/route.ts#GET": ("route-handler", "scheduled"),
        "app/api/x/route.ts#POST": ("route-handler",),
        "pages/api/legacy.ts#legacy": ("route-handler", "scheduled"),
    }


def test_a_route_handler_without_a_graph_id_is_counted(tmp_path: Path) -> None:
    project = _write(
        tmp_path,
        {
            "package.json": NEXT_PACKAGE,
            "pages/api/legacy.js": "module.exports = function handler() { return 1; };\n",
        },
    )
    assert _entry_lines(project) == [
        "entry-points: 1 entry point(s) could not be marked "
        "(route-handler-without-graph-id: 1, pages/api/legacy.js)"
    ]
    assert _marks(project) == {}
