"""Routes the tree-sitter reading missed and the neutral syntax form reads.

The old reader walked grammar children: a comment between a decorator and its
method broke the pair (the comment was a class-body child), and
`export * as ns from` was read as `export *`, and the cases of a `switch` were
never run. The neutral form has no comments, names the namespace export and
gives the cases as items.
"""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

NEST12 = (
    '{"dependencies": {"@nestjs/common": "12.5.1", "@nestjs/core": "12.5.1",'
    ' "@nestjs/platform-express": "12.5.1"}}'
)
EXPRESS4 = '{"dependencies": {"express": "4.22.3"}}'


def test_a_comment_between_a_decorator_and_its_method_keeps_the_route(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": NEST12,
            "src/main.ts": (
                "import { Controller, Get, Module } from '@nestjs/common';\n"
                "import { NestFactory } from '@nestjs/core';\n"
                "@Controller('items')\n"
                "class ItemsController {\n"
                "  @Get()\n"
                "  // every item\n"
                "  list() { return []; }\n"
                "}\n"
                "@Module({ controllers: [ItemsController] })\n"
                "class AppModule {}\n"
                "NestFactory.create(AppModule);\n"
            ),
        },
    )
    assert [(f["method"], f["channel"], f["symbol"]["usr"]) for f in document["facts"]] == [
        ("GET", "/items", "src/main.ts#ItemsController.list")
    ]


def test_a_namespace_re_export_is_the_module(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/users.ts": (
                "import { Router } from 'express';\n"
                "export const router = Router();\n"
                "router.get('/', function list(req: unknown, res: { end(): void }) {\n"
                "  res.end();\n"
                "});\n"
            ),
            "src/index.ts": "export * as users from './users';\n",
            "src/app.ts": (
                "import express from 'express';\n"
                "import { users } from './index';\n"
                "const app = express();\n"
                "app.use('/users', users.router);\n"
            ),
        },
    )
    assert [(f["method"], f["channel"]) for f in document["facts"]] == [("GET", "/users")]
    assert document["limitations"] == []


def test_routes_registered_in_a_switch_case_are_conditional_routes(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.ts": (
                "import express from 'express';\n"
                "const app = express();\n"
                "function list(req: unknown, res: { end(): void }) { res.end(); }\n"
                "switch (process.env.MODE) {\n"
                "  case 'admin':\n"
                "    app.get('/admin', list);\n"
                "    break;\n"
                "  default:\n"
                "    app.get('/public', list);\n"
                "}\n"
            ),
        },
    )
    facts = document["facts"]
    assert sorted(f["channel"] for f in facts) == ["/admin", "/public"]
    assert all("order" not in fact for fact in facts)
