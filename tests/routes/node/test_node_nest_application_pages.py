"""What a NestJS application answers besides its controllers: named or counted, never facts.

Checked with @nestjs/swagger 11.4.7 on @nestjs/core and platform-express 11.2.10:
`SwaggerModule.setup('docs', app, document)` on an app with the global prefix `api`
answers GET /docs, /docs-json and /docs-yaml (200) and not /api/docs (404): the
global prefix applies only with `useGlobalPrefix`, and `jsonDocumentUrl` /
`yamlDocumentUrl` move the documents (dist/swagger-module.js, `setup`).
`app.use(...)` hands its arguments to the adapter's `use` (@nestjs/core 11.2.10,
nest-application.js) and `useStaticAssets(path, { prefix })` is `use(prefix,
express.static(path))` (platform-express, express-adapter.js).
"""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

PACKAGE = (
    '{"dependencies": {"@nestjs/core": "11.2.10", "@nestjs/common": "11.2.10",'
    ' "@nestjs/platform-express": "11.2.10", "@nestjs/swagger": "11.4.7"}}'
)


def _main(setup: str) -> str:
    return (
        "import { Controller, Get, Module } from '@nestjs/common';\n"
        "import { NestFactory } from '@nestjs/core';\n"
        "import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';\n"
        "@Controller('cats')\n"
        "export class CatsController {\n"
        "  @Get()\n"
        "  list() { return []; }\n"
        "}\n"
        "@Module({ controllers: [CatsController] })\n"
        "export class AppModule {}\n"
        "async function bootstrap() {\n"
        "  const app = await NestFactory.create(AppModule);\n"
        "  app.setGlobalPrefix('api');\n"
        "  const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());\n"
        f"  {setup}\n"
        "  await app.listen(3000);\n"
        "}\n"
        "bootstrap();\n"
    )


def _provided(
    tmp_path: Path, setup: str, about: str = "@nestjs/swagger"
) -> tuple[list[str], list[str]]:
    document = scan(tmp_path, {"package.json": PACKAGE, "src/main.ts": _main(setup)})
    facts = [f"{fact['method']} {fact['channel']}" for fact in document["facts"]]
    return facts, [line for line in document["limitations"] if about in line]


def test_the_ui_and_documents_are_named_outside_the_global_prefix(tmp_path: Path) -> None:
    facts, lines = _provided(tmp_path, "SwaggerModule.setup('docs', app, document);")
    assert facts == ["GET /api/cats"]
    assert lines == [
        "framework-provided-routes: 1 package middleware or plugin @nestjs/swagger may "
        f"answer under {where}"
        for where in ("/docs", "/docs-json", "/docs-yaml")
    ]


def test_options_that_move_the_pages_leave_the_prefix_unresolved(tmp_path: Path) -> None:
    setup = "SwaggerModule.setup('docs', app, document, { useGlobalPrefix: true });"
    assert _provided(tmp_path, setup)[1] == [
        "framework-provided-routes: 1 package middleware or plugin @nestjs/swagger may "
        "answer under an unresolved prefix"
    ]


def test_a_value_not_proven_the_application_gets_no_line(tmp_path: Path) -> None:
    setup = "SwaggerModule.setup('docs', (globalThis as any).other, document);"
    assert _provided(tmp_path, setup) == (["GET /api/cats"], [])


def test_static_assets_and_package_middleware_of_the_application(tmp_path: Path) -> None:
    setup = (
        "app.use(require('helmet')());\n"
        "  app.useStaticAssets('public', { prefix: '/static' });\n"
        "  app.useStaticAssets('uploads');\n"
        "  app.use('/metrics', require('express-prom-bundle')({}));"
    )
    facts, lines = _provided(tmp_path, setup, about="framework-provided-routes")
    assert facts == ["GET /api/cats"]
    assert lines == [
        "framework-provided-routes: 1 package middleware or plugin express-prom-bundle may "
        "answer under /metrics",
        "framework-provided-routes: 1 static files are served under / (useStaticAssets)",
        "framework-provided-routes: 1 static files are served under /static (useStaticAssets)",
    ]


def test_project_middleware_that_answers_is_counted(tmp_path: Path) -> None:
    setup = "app.use('/ping', (req: any, res: any) => res.send('pong'));"
    facts, lines = _provided(tmp_path, setup, about="route-coverage")
    assert facts == ["GET /api/cats"]
    assert lines == [
        "route-coverage: 1 registration(s) or file(s) could not be fully modeled "
        "(nest-application-middleware: 1; at src/main.ts:15)"
    ]
