"""A framework major the rule tables do not model gives no facts, only a named coverage gap.

@koa/router 8.0.8 depends on path-to-regexp 1.x and @koa/router 12–13 on 6.x,
14–15 on 8.x (npm registry metadata), so a router on major 8 matches paths
by rules none of the modelled majors share. NestJS 6 predates the majors
(7–12) whose routing was checked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.node.support import scan

KOA_APP = (
    "const Koa = require('koa');\n"
    "const Router = require('@koa/router');\n"
    "const app = new Koa();\n"
    "const router = new Router();\n"
    "router.get('/', (ctx) => { ctx.body = 'list'; }).get('/post/:id', (ctx) => {});\n"
    "app.use(async (ctx) => { ctx.body = 'fallback'; });\n"
    "app.use(router.routes());\n"
)


def _gap(document: dict[str, Any], name: str) -> str:
    lines = [line for line in document["limitations"] if name in line]
    assert len(lines) == 1, document["limitations"]
    return str(lines[0])


def test_an_unmodeled_koa_router_major_gives_no_facts_and_a_named_gap(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"koa": "^2.2.0", "@koa/router": "^8.0.5"}}',
            "app.js": KOA_APP,
        },
    )
    channels = {(f["method"], f["channel"]) for f in document["facts"]}
    # The Koa app's own middleware is Koa's, not the router's: it stays.
    assert channels == {("ANY", "/"), ("ANY", "/{**}")}
    line = _gap(document, "@koa/router@8")
    assert line.startswith("route-coverage: ")
    assert not any(
        line.startswith("route-framework-version-unknown:") for line in document["limitations"]
    )


def test_a_modeled_koa_router_major_still_gives_facts(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": '{"dependencies": {"koa": "^2.16.0", "@koa/router": "~13.1.0"}}',
            "app.js": KOA_APP,
        },
    )
    channels = {f["channel"] for f in document["facts"]}
    assert {"/", "/post/{}"} <= channels


def test_an_unmodeled_nest_major_gives_no_facts_and_a_named_gap(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": (
                '{"dependencies": {"@nestjs/core": "^6.11.11", "@nestjs/common": "^6.11.11",'
                ' "@nestjs/platform-express": "^6.11.11"}}'
            ),
            "src/app.controller.ts": (
                "import { Controller, Get } from '@nestjs/common';\n"
                "@Controller('tags')\n"
                "export class TagController {\n"
                "  @Get() findAll() { return []; }\n"
                "}\n"
            ),
            "src/app.module.ts": (
                "import { Module } from '@nestjs/common';\n"
                "import { TagController } from './app.controller';\n"
                "@Module({ controllers: [TagController] })\n"
                "export class AppModule {}\n"
            ),
            "src/main.ts": (
                "import { NestFactory } from '@nestjs/core';\n"
                "import { AppModule } from './app.module';\n"
                "async function bootstrap() {\n"
                "  const app = await NestFactory.create(AppModule);\n"
                "  app.setGlobalPrefix('api');\n"
                "  await app.listen(3000);\n"
                "}\n"
                "bootstrap();\n"
            ),
        },
    )
    assert document["facts"] == []
    line = _gap(document, "@nestjs/core@6")
    assert line.startswith("route-coverage: ")
    assert "@nestjs/platform-express@6" in line
