"""React Router framework-mode (and Remix) route modules are counted as a gap, never silent.

The flat-routes fixture's route modules were recorded from @react-router/fs-routes@7.18.4
(`oracle/react-router/record.mjs` → `recorded.json`); the test replays that list offline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from tests.openapi.support import invoke
from tests.routes.support import FIXTURES
from tests.routes.support import copy_project
from tests.routes.support import document_of
from tests.routes.support import write_project
from tsograph.exchange.validation import validate

ORACLE = Path(__file__).resolve().parents[2] / "oracle" / "react-router" / "recorded.json"
TEXT = (
    "React Router/Remix route module(s) or route config(s) are not read; the loaders "
    "and actions of route modules answer HTTP requests"
)
FRAMEWORK = {"devDependencies": {"@react-router/dev": "7.18.4"}}
TEMPLATE_CONFIG = (
    'import { type RouteConfig } from "@react-router/dev/routes";\n'
    'import { flatRoutes } from "@react-router/fs-routes";\n\n'
    "export default flatRoutes() satisfies RouteConfig;\n"
)


def _react_router_lines(document: dict[str, Any]) -> list[str]:
    return [line for line in document["limitations"] if TEXT in line]


def _scan(root: Path, files: dict[str, str]) -> dict[str, Any]:
    document = document_of(write_project(root, files))
    validate(document)
    return document


def test_flat_routes_count_the_modules_the_package_finds(tmp_path: Path) -> None:
    project = copy_project(FIXTURES / "react-router" / "flat-routes", tmp_path / "flat-routes")
    recorded = json.loads(ORACLE.read_text(encoding="utf-8"))["flat-routes"]
    modules = sorted([*recorded, "app/root.tsx"])
    document = document_of(project)
    assert [(fact["method"], fact["channel"]) for fact in document["facts"]] == [("GET", "/health")]
    assert _react_router_lines(document) == [
        f"route-coverage: {len(modules)} {TEXT} (route-modules: {len(modules)}, "
        + ", ".join(modules)
        + ")"
    ]


def test_check_downgrades_a_call_the_route_modules_may_answer(tmp_path: Path) -> None:
    project = copy_project(FIXTURES / "react-router" / "flat-routes", tmp_path / "flat-routes")
    decl = document_of(project, "--service", "shop")
    client = invoke("routes", "--role", "client", "--project", str(project), "--service", "shop")
    assert client.code == 0, client.stderr
    calls = orjson.loads(client.stdout)
    assert [(fact["method"], fact["channel"]) for fact in calls["facts"]] == [
        ("POST", "/api/items")
    ]
    paths = {}
    for name, content in (("decl.json", decl), ("calls.json", calls)):
        paths[name] = tmp_path / name
        paths[name].write_bytes(orjson.dumps(content))
    checked = invoke("check", str(paths["decl.json"]), str(paths["calls.json"]), "--format", "json")
    report = orjson.loads(checked.stdout)
    assert checked.code == 0
    assert [finding["verdict"] for finding in report["findings"]] == [
        "route-call-without-decl-unverified"
    ]
    assert any(TEXT in reason for reason in report["findings"][0]["reasons"])
    # Without the line nothing says the route modules were skipped: the same call is an error.
    decl["limitations"] = [line for line in decl["limitations"] if TEXT not in line]
    paths["decl.json"].write_bytes(orjson.dumps(decl))
    unchecked = invoke("check", str(paths["decl.json"]), str(paths["calls.json"]))
    assert unchecked.code == 3


def test_a_library_mode_router_is_no_gap(tmp_path: Path) -> None:
    document = _scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"react-router": "7.18.4", "hono": "4.13.12"}}',
            "app/routes/home.tsx": "export default function Home() { return null; }\n",
            "server.ts": "import { Hono } from 'hono';\nexport default new Hono();\n",
        },
    )
    assert _react_router_lines(document) == []


def test_a_route_config_other_than_plain_flat_routes_counts_candidate_files(
    tmp_path: Path,
) -> None:
    # documenso's apps/remix: remix-flat-routes through the Remix routes option adapter.
    document = _scan(
        tmp_path,
        {
            "package.json": json.dumps(FRAMEWORK),
            "app/root.tsx": "export default function Root() { return null; }\n",
            "app/routes.ts": (
                "import { remixRoutesOptionAdapter } from "
                "'@react-router/remix-routes-option-adapter';\n"
                "import { flatRoutes } from 'remix-flat-routes';\n"
                "export default remixRoutesOptionAdapter((defineRoutes) => "
                "flatRoutes('routes', defineRoutes));\n"
            ),
            "app/routes/_index.tsx": "export default function Home() { return null; }\n",
            "app/routes/api+/items.ts": "export async function loader() { return null; }\n",
            "app/routes/api+/_layout.tsx": "export default function Api() { return null; }\n",
            "app/routes/api+/notes.txt": "not a module\n",
        },
    )
    assert _react_router_lines(document) == [
        f"route-coverage: 4 {TEXT} (files-under-routes-folder: 3, "
        "unmodeled-route-configs: 1, app/routes, app/routes.ts)"
    ]


def test_flat_routes_with_options_is_not_counted_as_exact(tmp_path: Path) -> None:
    document = _scan(
        tmp_path,
        {
            "package.json": json.dumps(FRAMEWORK),
            "app/routes.ts": TEMPLATE_CONFIG.replace(
                "flatRoutes()", 'flatRoutes({ rootDirectory: "pages" })'
            ),
            "app/routes/a.tsx": "export default function A() { return null; }\n",
        },
    )
    assert _react_router_lines(document) == [
        f"route-coverage: 2 {TEXT} (files-under-routes-folder: 1, "
        "unmodeled-route-configs: 1, app/routes, app/routes.ts)"
    ]


def test_the_app_directory_comes_from_the_config(tmp_path: Path) -> None:
    document = _scan(
        tmp_path,
        {
            "package.json": json.dumps(FRAMEWORK),
            "react-router.config.ts": "export default { appDirectory: 'src/web', ssr: true };\n",
            "src/web/root.tsx": "export default function Root() { return null; }\n",
            "src/web/routes.ts": TEMPLATE_CONFIG,
            "src/web/routes/about.tsx": "export default function About() { return null; }\n",
        },
    )
    assert _react_router_lines(document) == [
        f"route-coverage: 2 {TEXT} (route-modules: 2, src/web/root.tsx, src/web/routes/about.tsx)"
    ]


def test_an_app_directory_not_written_as_a_literal_is_unresolved(tmp_path: Path) -> None:
    document = _scan(
        tmp_path,
        {
            "package.json": json.dumps(FRAMEWORK),
            "react-router.config.ts": "export default { appDirectory: process.env.APP_DIR };\n",
            "app/routes.ts": TEMPLATE_CONFIG,
        },
    )
    assert _react_router_lines(document) == [
        f"route-coverage: 1 {TEXT} (unresolved-app-directory: 1, react-router.config.ts)"
    ]


def test_a_missing_route_config_is_still_a_gap(tmp_path: Path) -> None:
    document = _scan(
        tmp_path,
        {
            "package.json": json.dumps(FRAMEWORK),
            "app/root.tsx": "export default function Root() { return null; }\n",
        },
    )
    assert _react_router_lines(document) == [
        f"route-coverage: 1 {TEXT} (route-config-not-found: 1, app/routes)"
    ]


def test_remix_conventions_are_counted_without_a_rule(tmp_path: Path) -> None:
    document = _scan(
        tmp_path,
        {
            "package.json": '{"devDependencies": {"@remix-run/dev": "2.16.0"}}',
            "app/routes/_index.tsx": "export default function Home() { return null; }\n",
            "app/routes/api.items.ts": "export async function action() { return null; }\n",
        },
    )
    assert _react_router_lines(document) == [
        f"route-coverage: 3 {TEXT} (files-under-routes-folder: 2, "
        "unmodeled-route-conventions: 1, app, app/routes)"
    ]
