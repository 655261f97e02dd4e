"""Handlers found on real projects: class static methods, and handlers tsograph cannot resolve."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

EXPRESS4 = '{"dependencies": {"express": "4.22.3"}}'

# The shape of javieraviles/node-typescript-koa-rest: a barrel re-exports controller classes
# whose static methods are handed to the router.
CONTROLLER = (
    "export default class GeneralController {\n"
    "  public static async helloWorld(req: unknown, res: { end(): void }): Promise<void> {\n"
    "    res.end();\n"
    "  }\n"
    "}\n"
)


def test_a_static_method_of_a_project_class_is_the_handler(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/controller/general.ts": CONTROLLER,
            "src/controller/index.ts": 'export { default as general } from "./general";\n',
            "src/app.ts": (
                "import express from 'express';\n"
                "import { general } from './controller';\n"
                "const app = express();\n"
                "app.get('/', general.helloWorld);\n"
            ),
        },
    )
    assert [(f["method"], f["channel"], f["symbol"]) for f in document["facts"]] == [
        (
            "GET",
            "/",
            {
                "qualifiedName": "src/controller/general.ts#GeneralController.helloWorld",
                "usr": "src/controller/general.ts#GeneralController.helloWorld",
            },
        )
    ]
    assert document["limitations"] == []


def test_a_route_whose_handler_is_not_resolved_is_reported(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/app.ts": (
                "import express from 'express';\n"
                "declare const controllers: any;\n"
                "const app = express();\n"
                "app.get('/users', controllers.list);\n"
            ),
        },
    )
    assert document["facts"] == []
    assert document["limitations"] == [
        "route-coverage: 1 registration(s) or file(s) could not be fully modeled "
        "(unresolved-route-handler: 1; at src/app.ts:4)"
    ]


def test_a_static_method_receiving_the_app_is_followed(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": EXPRESS4,
            "src/routes.ts": (
                "import { Application } from 'express';\n"
                "export class Routes {\n"
                "  static init(app: Application): void {\n"
                "    app.get('/health', (req, res) => res.end());\n"
                "  }\n"
                "}\n"
            ),
            "src/app.ts": (
                "import express from 'express';\n"
                "import { Routes } from './routes';\n"
                "const app = express();\n"
                "Routes.init(app);\n"
            ),
        },
    )
    assert [(f["channel"], f["pathAnchor"], f["order"]) for f in document["facts"]] == [
        ("/health", "root", {"group": "src/app.ts#app", "index": 0})
    ]
    assert document["limitations"] == []
