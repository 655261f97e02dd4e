"""@hono/zod-openapi apps (openstatus apps/server: 39 `/v1` routes registered with
`api.openapi(createRoute({ method, path }), handler)` gave no fact, only an
unresolved-mounted-router line for `app.route("/v1", api)`).

Rules from @hono/zod-openapi 1.6.3 dist/index.mjs (see frameworks/hono.py): an
OpenAPIHono is a Hono app; openapi() registers `on(method, path)` with `/{name}` written
`/:name`; openapiRoutes() each item unless `addRoute: false`; doc() a GET route whose
handler is the package's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.node.support import scan

PACKAGES = '{"dependencies": {"hono": "4.13.12", "@hono/zod-openapi": "1.6.3"}}'
ROUTES = (
    "import { createRoute, OpenAPIHono } from '@hono/zod-openapi';\n"
    "const getRoute = createRoute({ method: 'get', path: '/{id}/result/{resultId}' });\n"
    "const postRoute = createRoute({ method: 'post', path: '/', middleware: [audit] });\n"
    "function audit(c: unknown, next: () => Promise<void>) { return next(); }\n"
    "export function registerGet(api: OpenAPIHono) {\n"
    "  return api.openapi(getRoute, async (c) => c.json({}));\n"
    "}\n"
    "export const monitors = new OpenAPIHono();\n"
    "registerGet(monitors);\n"
    "monitors.openapi(postRoute, (c) => c.json({}));\n"
    "monitors.openapiRoutes([\n"
    "  { route: createRoute({ method: 'delete', path: '/{id}' }), handler: (c) => c.json({}) },\n"
    "  { route: createRoute({ method: 'put', path: '/{id}' }), handler: (c) => c.json({}),"
    " addRoute: false },\n"
    "]);\n"
)
APP = (
    "import { Hono } from 'hono';\n"
    "import { OpenAPIHono } from '@hono/zod-openapi';\n"
    "import { monitors } from './monitors';\n"
    "const api = new OpenAPIHono();\n"
    "api.doc('/openapi', { openapi: '3.0.0', info: { title: 'x', version: '1' } });\n"
    "api.route('/monitor', monitors);\n"
    "const app = new Hono();\n"
    "app.route('/v1', api);\n"
    "export default app;\n"
)


def _facts(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return sorted(
        (fact["method"], fact["channel"], fact["symbol"].get("usr", ""))
        for fact in document["facts"]
    )


def test_openapi_registrations_are_routes_of_the_app_they_are_mounted_on(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {"package.json": PACKAGES, "src/monitors.ts": ROUTES, "src/index.ts": APP},
    )
    assert [(method, channel) for method, channel, _ in _facts(document)] == [
        ("DELETE", "/v1/monitor/{}"),
        ("GET", "/v1/monitor/{}/result/{}"),
        ("GET", "/v1/openapi"),
        ("POST", "/v1/monitor"),
    ]
    # The spec route's handler is the package's: no graph id, said so.
    assert any(
        line.startswith("missing-route-usrs:") and "@hono/zod-openapi" in line
        for line in document["limitations"]
    )


def test_a_route_config_out_of_view_is_counted(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": PACKAGES,
            "src/index.ts": (
                "import { OpenAPIHono } from '@hono/zod-openapi';\n"
                "import { routeFromElsewhere } from 'some-package';\n"
                "const app = new OpenAPIHono();\n"
                "app.openapi(routeFromElsewhere, (c) => c.json({}));\n"
                "export default app;\n"
            ),
        },
    )
    assert document["facts"] == []
    assert "unresolved-method: 1" in " ".join(document["limitations"])
