"""Interpreter and dispatch rules on small projects, each rule checked on the facts it makes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.routes.node.support import scan
from tests.routes.support import FIXTURES
from tsograph.exchange.limitations import SERVER_ROUTE_PREFIXES
from tsograph.exchange.limitations import prefix_of

EXPRESS4 = '{"dependencies": {"express": "4.22.3"}}'
HONO = '{"dependencies": {"hono": "4.13.12"}}'


def _routes(document: dict[str, Any]) -> list[tuple[str, str, int | None]]:
    """(method, channel, order index) of every fact, in document order."""
    return [
        (fact["method"], fact["channel"], fact.get("order", {}).get("index"))
        for fact in document["facts"]
    ]


def test_values_follow_consts_imports_enums_and_templates(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/paths.ts": (
                "export enum Api { Users = 'users' }\n"
                "export const ROOT = '/api' as const;\n"
                "export const P = { items: `${ROOT}/items` } as const;\n"
            ),
            "src/app.ts": (
                "import express from 'express';\n"
                "import { Api, ROOT, P } from './paths';\n"
                "const app = express();\n"
                "const v = 2;\n"
                "app.get(`${ROOT}/v${v}/${Api.Users}`, (req, res) => res.end());\n"
                "app.get(P.items + '/:id', (req, res) => res.end());\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/api/items/{}", 1), ("GET", "/api/v2/users", 0)]


def test_functions_receiving_or_creating_the_app_are_followed(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/routes.js": (
                "const { Router } = require('express');\n"
                "function register(app, base) {\n"
                "  const r = Router();\n"
                "  r.get('/one', (req, res) => res.end());\n"
                "  app.use(base, r);\n"
                "}\n"
                "module.exports = { register };\n"
            ),
            "src/app.js": (
                "const express = require('express');\n"
                "const { register } = require('./routes');\n"
                "function createApp() {\n"
                "  const app = express();\n"
                "  register(app, '/v1');\n"
                "  app.get('/two', (req, res) => res.end());\n"
                "  return app;\n"
                "}\n"
                "module.exports = createApp();\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/two", 1), ("GET", "/v1/one", 0)]
    groups = {fact["order"]["group"] for fact in document["facts"]}
    assert groups == {"src/app.js#app"}


def test_hono_route_copies_only_the_routes_present_then(tmp_path: Path) -> None:
    # Checked on Hono 4.13.12: a route added to the sub-app after app.route() answers 404.
    document = scan(
        tmp_path,
        {
            "package.json": HONO,
            "src/index.ts": (
                "import { Hono } from 'hono';\n"
                "const sub = new Hono();\n"
                "sub.get('/early', (c) => c.text('e'));\n"
                "const app = new Hono();\n"
                "app.route('/sub', sub);\n"
                "sub.get('/late', (c) => c.text('l'));\n"
                "export default app;\n"
            ),
        },
    )
    channels = {(fact["channel"], fact["order"]["group"]) for fact in document["facts"]}
    assert ("/sub/early", "src/index.ts#app") in channels
    assert ("/sub/late", "src/index.ts#app") not in channels


def test_registrations_under_a_condition_have_no_order_and_a_scoped_gap(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.js": (
                "const app = require('express')();\n"
                "if (process.env.DEBUG) { app.get('/debug', (req, res) => res.end()); }\n"
                "app.get('/always', (req, res) => res.end());\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/always", 0), ("GET", "/debug", None)]
    scopes = document["limitationScopes"]
    assert any(s["templatePrefixes"] == ["/debug"] for s in scopes), scopes
    assert any(
        line.startswith("route-dispatch-order-unknown: 1 ") for line in document["limitations"]
    )


def test_a_literal_condition_is_decided(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.js": (
                "const app = require('express')();\n"
                "const ENABLED = false;\n"
                "if (ENABLED) { app.get('/off', (req, res) => res.end()); }\n"
                "else { app.get('/on', (req, res) => res.end()); }\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/on", 0)]


def test_registrations_from_another_modules_top_level_have_no_order(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.js": "const app = require('express')();\nmodule.exports = app;\n",
            "src/extra.js": (
                "const app = require('./app');\napp.get('/extra', (req, res) => res.end());\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/extra", None)]
    assert any("registration-from-another-module: 1" in line for line in document["limitations"])


def test_wrapped_inline_handler_is_named_by_its_own_node(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.js": (
                "const asyncHandler = require('express-async-handler');\n"
                "const app = require('express')();\n"
                "app.get('/w', asyncHandler(async (req, res) => { res.end(); }));\n"
            ),
        },
    )
    (fact,) = document["facts"]
    assert fact["symbol"]["usr"] == 'src/app.js#<module>.app.get("/w")'


def test_unmounted_router_is_base_anchored_with_suffix_scope(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/router.js": (
                "const router = require('express').Router();\n"
                "router.get('/things/:id', (req, res) => res.end());\n"
                "module.exports = router;\n"
            ),
        },
    )
    (fact,) = document["facts"]
    assert (fact["pathAnchor"], fact["channel"]) == ("base", "/things/{}")
    (scope,) = document["limitationScopes"]
    assert scope["templateSuffixes"] == ["/things/{}"]
    assert scope["limitation"].startswith("unresolved-route-prefix: 1 ")


def test_fastify_plugin_shares_its_parent_and_ignores_its_prefix(tmp_path: Path) -> None:
    # Checked on Fastify 5.12.5 / 4.29.1 with fastify-plugin: /fp answers, /ignored/fp is 404.
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"fastify": "5.12.5", "fastify-plugin": "5.0.1"}}',
            "src/server.js": (
                "const fastify = require('fastify')();\n"
                "const fp = require('fastify-plugin');\n"
                "fastify.register(fp(async (f) => { f.get('/fp', async () => 'x'); }), "
                "{ prefix: '/ignored' });\n"
                "fastify.register(async (f) => { f.get('/in', async () => 'y'); }, "
                "{ prefix: '/scoped' });\n"
            ),
        },
    )
    assert document["dispatch"] == "specificity"
    assert {fact["channel"] for fact in document["facts"]} == {"/fp", "/scoped/in"}
    assert all("order" not in fact for fact in document["facts"])


def test_next_and_express_make_one_mixed_document(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"next": "16.2.7", "express": "4.22.3"}}',
            "app/api/items/route.ts": "export function GET() {}\n",
            "server.js": (
                "const app = require('express')();\napp.get('/health', (req, res) => res.end());\n"
            ),
        },
    )
    assert document["dispatch"] == "registration-order"
    by_channel = {fact["channel"]: fact for fact in document["facts"]}
    assert "order" not in by_channel["/api/items"]
    assert by_channel["/health"]["order"] == {"group": "server.js#app", "index": 0}


def test_every_server_limitation_prefix_is_produced_by_a_fixture() -> None:
    produced = set()
    for golden in (FIXTURES / "node").glob("*/expected.json"):
        produced |= {prefix_of(line) for line in document_lines(golden)}
    assert set(SERVER_ROUTE_PREFIXES) <= produced, set(SERVER_ROUTE_PREFIXES) - produced


def document_lines(golden: Path) -> list[str]:
    lines = orjson.loads(golden.read_bytes())["limitations"]
    assert isinstance(lines, list)
    return lines


def test_router_known_only_by_a_parameter_type_is_base_anchored(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/routes.ts": (
                "import type { Router } from 'express';\n"
                "export function userRoutes(router: Router) {\n"
                "  router.get('/users/:id', (req, res) => res.end());\n"
                "}\n"
            ),
        },
    )
    (fact,) = document["facts"]
    assert (fact["pathAnchor"], fact["channel"]) == ("base", "/users/{}")
    assert document["limitationScopes"][0]["templateSuffixes"] == ["/users/{}"]


def test_uncalled_factories_run_but_do_not_add_to_existing_apps(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.js": (
                "const express = require('express');\n"
                "const app = express();\n"
                "app.get('/kept', (req, res) => res.end());\n"
                "function neverCalled() { app.get('/maybe', (req, res) => res.end()); }\n"
                "function build() {\n"
                "  const inner = express();\n"
                "  inner.get('/built', (req, res) => res.end());\n"
                "  return inner;\n"
                "}\n"
                "module.exports = { app, build };\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/built", 0), ("GET", "/kept", 0)]


def test_import_cycles_and_recursion_end(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/a.js": (
                "const b = require('./b');\n"
                "const app = require('express')();\n"
                "function loop(n) { return loop(n + 1); }\n"
                "loop(0);\n"
                "app.get('/a', (req, res) => res.end());\n"
                "module.exports = app;\n"
            ),
            "src/b.js": "const a = require('./a');\nmodule.exports = { a };\n",
        },
    )
    assert _routes(document) == [("GET", "/a", 0)]


def test_nest_router_module_versions_and_host_filters(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": (
                '{"dependencies": {"@nestjs/core": "12.5.1", "@nestjs/common": "12.5.1", '
                '"@nestjs/platform-express": "12.5.1"}}'
            ),
            "src/main.ts": (
                "import { Controller, Get, Module, VERSION_NEUTRAL, VersioningType } "
                "from '@nestjs/common';\n"
                "import { NestFactory, RouterModule } from '@nestjs/core';\n"
                "@Controller({ path: 'cats', version: ['1', VERSION_NEUTRAL] })\n"
                "class CatsController { @Get(':id') one() {} }\n"
                "@Controller({ path: 'dogs', host: 'pets.example.com' })\n"
                "class DogsController { @Get() all() {} }\n"
                "@Module({ controllers: [CatsController, DogsController] })\n"
                "class PetsModule {}\n"
                "@Module({ imports: [PetsModule, RouterModule.register([{ path: 'pets', "
                "module: PetsModule }])] })\n"
                "class AppModule {}\n"
                "async function main() {\n"
                "  const app = await NestFactory.create(AppModule);\n"
                "  app.enableVersioning({ type: VersioningType.URI, prefix: 'ver' });\n"
                "}\n"
                "main();\n"
            ),
        },
    )
    facts = {fact["channel"]: fact for fact in document["facts"]}
    assert set(facts) == {"/pets/cats/{}", "/ver1/pets/cats/{}", "/pets/dogs"}
    assert facts["/pets/dogs"]["narrowed"] is True
    assert "order" not in facts["/pets/dogs"]
    assert facts["/ver1/pets/cats/{}"]["order"]["group"] == "src/main.ts#CatsController"


def test_an_export_assigned_through_a_cast_is_the_modules_export(tmp_path: Path) -> None:
    # `(module.exports as any) = app` assigns module.exports at run time, like the plain form.
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.ts": "const app = require('express')();\n(module.exports as any) = app;\n",
            "src/extra.ts": (
                "const app = require('./app');\napp.get('/extra', (req, res) => res.end());\n"
            ),
        },
    )
    assert _routes(document) == [("GET", "/extra", None)]
