"""Routes under a mount prefix the interpreter cannot evaluate: base-anchored, never root.

Hono 4.13.12 (hono-base.js): `basePath(p)` is a clone whose `_basePath` is
`mergePath(this._basePath, p)`, and `route(path, sub)` re-adds every route of
`sub` on `this.basePath(path)`. `mergePath(B, "/api/files")` is B without one
trailing `/` followed by `/api/files`, so below an unknown B the tail
`/api/files/...` is proven and B is not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.node.support import scan

HONO = '{"dependencies": {"hono": "4.13.12"}}'
EXPRESS4 = '{"dependencies": {"express": "4.22.3"}}'


def _facts(document: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(f["method"], f["channel"], f["pathAnchor"]) for f in document["facts"]}


def _prefix_scope(document: dict[str, Any]) -> dict[str, Any]:
    scopes: list[dict[str, Any]] = [
        s
        for s in document["limitationScopes"]
        if s["limitation"].startswith("unresolved-route-prefix:")
    ]
    (scope,) = scopes
    return scope


def test_routes_after_an_unknown_hono_base_path_keep_their_proven_tail(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/files.ts": (
                "import { Hono } from 'hono';\n"
                "export const filesRoute = new Hono().post('/upload-pdf', (c) => c.text('u'));\n"
            ),
            "src/download.ts": (
                "import { Hono } from 'hono';\n"
                "export const downloadRoute = new Hono();\n"
                "downloadRoute.get('/doc/:id/download', (c) => c.text('d'));\n"
            ),
            "src/router.ts": (
                "import { Hono } from 'hono';\n"
                "import { filesRoute } from './files';\n"
                "import { downloadRoute } from './download';\n"
                "const basePath = (process.env.BASE ?? '').replace(/\\/$/, '');\n"
                "const app = new Hono().basePath(basePath || '/');\n"
                "app.get('/health', (c) => c.text('ok'));\n"
                "app.route('/api/files', filesRoute);\n"
                "app.route('/api/v2', downloadRoute);\n"
                "app.route('/api/v2-beta', downloadRoute);\n"
                "export default app;\n"
            ),
        },
    )
    assert _facts(document) == {
        ("GET", "/health", "base"),
        ("POST", "/api/files/upload-pdf", "base"),
        ("GET", "/api/v2/doc/{}/download", "base"),
        ("GET", "/api/v2-beta/doc/{}/download", "base"),
    }
    assert _prefix_scope(document)["templateSuffixes"] == [
        "/api/files/upload-pdf",
        "/api/v2-beta/doc/{}/download",
        "/api/v2/doc/{}/download",
        "/health",
    ]
    # The app is still the one order group: registration order is proven below the base.
    assert {f["order"]["group"] for f in document["facts"]} == {"src/router.ts:5"}


def test_a_known_tail_after_an_unknown_base_path_is_kept(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "const api = new Hono().basePath(process.env.BASE!).basePath('/v1');\n"
                "api.get('/users/:id', (c) => c.text('u'));\n"
                "export default api;\n"
            ),
        },
    )
    assert _facts(document) == {("GET", "/v1/users/{}", "base")}


def test_middleware_under_an_unknown_base_path_is_bounded_by_its_tail(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "const app = new Hono().basePath(process.env.BASE!);\n"
                "app.use('/api/v2/*', async (c) => c.text('trpc'));\n"
                "export default app;\n"
            ),
        },
    )
    anchors = {f["pathAnchor"] for f in document["facts"]}
    channels = {f["channel"] for f in document["facts"]}
    assert anchors == {"base"}
    assert all(channel.startswith("/api/v2") for channel in channels), channels


def test_a_router_mounted_by_an_unknown_receiver_is_not_root(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/sub.ts": (
                "import { Hono } from 'hono';\n"
                "export const sub = new Hono();\n"
                "sub.get('/items', (c) => c.text('i'));\n"
            ),
            "src/index.ts": (
                "import { sub } from './sub';\n"
                "import { makeApp } from 'some-framework-wrapper';\n"
                "const app = makeApp();\n"
                "app.route('/api', sub);\n"
                "export default app;\n"
            ),
        },
    )
    assert _facts(document) == {("GET", "/items", "base")}
    assert _prefix_scope(document)["templateSuffixes"] == ["/items"]


def test_a_sub_app_hono_cannot_see_into_is_reported_not_dropped(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "import { auth } from '@acme/auth';\n"
                "const app = new Hono();\n"
                "app.route('/api/auth', auth);\n"
                "app.route('/api/other', globalThis.other);\n"
                "export default app;\n"
            ),
        },
    )
    lines = document["limitations"]
    assert any(
        line.startswith("framework-provided-routes:") and "/api/auth" in line for line in lines
    ), lines
    assert any(
        line.startswith("route-coverage:") and "unresolved-mounted-router" in line for line in lines
    ), lines


def test_a_trailing_hono_middleware_on_a_path_is_a_route_not_a_404_handler(tmp_path: Path) -> None:
    # Hono 4.13.12 use('/api/v2/*', fn) is an ALL route on that pattern: it answers /api/v2/x.
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "const app = new Hono();\n"
                "app.use('/api/v2/*', async (c) => c.text('trpc'));\n"
                "export default app;\n"
            ),
        },
    )
    assert _facts(document) == {
        ("ANY", "/api/v2", "root"),
        ("ANY", "/api/v2/", "root"),
        ("ANY", "/api/v2/{**}", "root"),
    }


def test_a_pattern_in_a_mount_path_is_bounded_by_its_literal_head(tmp_path: Path) -> None:
    hono = scan(
        tmp_path / "hono",
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "import { jobs } from 'jobs-lib';\n"
                "const app = new Hono();\n"
                "app.use('/api/jobs/*', jobs.handler());\n"
                "export default app;\n"
            ),
        },
    )
    (scope,) = hono["limitationScopes"]
    assert scope["templatePrefixes"] == ["/api/jobs"]
    express = scan(
        tmp_path / "express",
        {
            "package.json": EXPRESS4,
            "src/app.js": (
                "const app = require('express')();\n"
                "app.use('/users/:id', (req, res) => res.end());\n"
                "module.exports = app;\n"
            ),
        },
    )
    (fact,) = express["facts"]
    assert (fact["channel"], fact["dynamic"], fact["dynamicScope"]) == (
        "/users/{**}",
        True,
        "/users",
    )


def test_a_base_path_view_mounted_with_route_is_not_also_a_root_app(tmp_path: Path) -> None:
    # Hono 4.13.12: route('/api', sub) copies sub.routes, whose paths carry sub's basePath.
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "const sub = new Hono().basePath('/v1');\n"
                "sub.get('/x', (c) => c.text('x'));\n"
                "const app = new Hono();\n"
                "app.route('/api', sub);\n"
                "export default app;\n"
            ),
        },
    )
    assert _facts(document) == {("GET", "/api/v1/x", "root")}


def test_an_unknown_use_path_is_never_read_as_no_path(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"koa": "2.16.4", "@koa/router": "13.1.1"}}',
            "src/app.js": (
                "const Router = require('@koa/router');\n"
                "const nested = new Router();\n"
                "nested.get('/items', (ctx) => { ctx.body = 'i'; });\n"
                "const router = new Router();\n"
                "router.use(process.env.MOUNT, nested.routes());\n"
                "router.get('named', process.env.PATH_OF_IT, (ctx) => { ctx.body = 'n'; });\n"
                "const Koa = require('koa');\n"
                "const app = new Koa();\n"
                "app.use(router.routes());\n"
                "module.exports = app;\n"
            ),
        },
    )
    facts = {(f["channel"], f["dynamic"], f["pathAnchor"]) for f in document["facts"]}
    # Only the nested route's tail is proven; the named route's path is not proven at all.
    assert facts == {("/items", False, "base"), ("/{**}", True, "root")}
    hono = scan(
        tmp_path / "hono",
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "const app = new Hono();\n"
                "app.use(process.env.HOOK_PATH, async (c) => c.text('hook'));\n"
                "app.get('/ok', (c) => c.text('ok'));\n"
                "export default app;\n"
            ),
        },
    )
    # The hook answers one unknown pattern, not every path.
    assert {(f["channel"], f["dynamic"]) for f in hono["facts"]} == {
        ("/ok", False),
        ("/{**}", True),
    }


def test_express_middleware_out_of_view_is_counted(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.js": (
                "const app = require('express')();\n"
                "app.use(globalThis.someMiddleware);\n"
                "app.get('/ok', (req, res) => res.end());\n"
                "module.exports = app;\n"
            ),
        },
    )
    assert any(
        line.startswith("route-coverage:") and "unresolved-middleware: 1" in line
        for line in document["limitations"]
    ), document["limitations"]
