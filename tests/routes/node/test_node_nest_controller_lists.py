"""NestJS controller lists built from other arrays (immich's `controllers: [...controllers]`):
spreads of known arrays are followed, and a list tsograph cannot read is a counted gap, never
a silent loss of every route of the module."""

from __future__ import annotations

from pathlib import Path

from tests.routes.node.support import scan

NEST = (
    '{"dependencies": {"@nestjs/core": "12.5.1", "@nestjs/common": "12.5.1", '
    '"@nestjs/platform-express": "12.5.1"}}'
)
CONTROLLERS = (
    "import { Controller, Get } from '@nestjs/common';\n"
    "@Controller('albums')\n"
    "export class AlbumController { @Get() list() {} }\n"
    "@Controller('assets')\n"
    "export class AssetController { @Get(':id') one() {} }\n"
    "export const controllers = [AlbumController, AssetController];\n"
)


def _main(controllers: str, imports: str = "") -> str:
    return (
        "import { Module } from '@nestjs/common';\n"
        "import { NestFactory } from '@nestjs/core';\n"
        f"{imports}"
        f"@Module({{ controllers: {controllers} }})\n"
        "class ApiModule {}\n"
        "async function bootstrap() {\n"
        "  const app = await NestFactory.create(ApiModule);\n"
        "  app.setGlobalPrefix('api');\n"
        "}\n"
        "void bootstrap();\n"
    )


def test_a_spread_of_an_imported_controller_array_is_followed(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": NEST,
            "src/controllers/index.ts": CONTROLLERS,
            "src/main.ts": _main(
                "[...controllers]", "import { controllers } from './controllers';\n"
            ),
        },
    )
    assert sorted((fact["method"], fact["channel"]) for fact in document["facts"]) == [
        ("GET", "/api/albums"),
        ("GET", "/api/assets/{}"),
    ]
    assert document["limitations"] == []


def test_a_controller_list_that_cannot_be_read_is_counted(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": NEST,
            "src/main.ts": _main(
                "[...loadControllers()]", "import { loadControllers } from 'some-plugin';\n"
            ),
        },
    )
    assert document["facts"] == []
    assert document["limitations"] == [
        "route-coverage: 1 registration(s) or file(s) could not be fully modeled "
        "(unresolved-nest-controllers: 1; at src/main.ts:4)"
    ]


def test_an_imports_list_that_cannot_be_read_is_counted(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": NEST,
            "src/controllers/index.ts": CONTROLLERS,
            "src/main.ts": _main(
                "[...controllers]",
                "import { controllers } from './controllers';\n"
                "import { featureModules } from 'some-plugin';\n",
            ).replace(
                "@Module({ controllers", "@Module({ imports: [...featureModules], controllers"
            ),
        },
    )
    assert len(document["facts"]) == 2
    assert document["limitations"] == [
        "route-coverage: 1 registration(s) or file(s) could not be fully modeled "
        "(unresolved-nest-imports: 1; at src/main.ts:5)"
    ]


def test_an_app_created_in_preview_mode_serves_nothing(tmp_path: Path) -> None:
    # immich's src/bin/sync-open-api.ts builds the API module in preview mode to write the
    # spec; @nestjs/core 11.2.10 refuses listen() on such an app.
    document = scan(
        tmp_path,
        {
            "package.json": NEST,
            "src/controllers/index.ts": CONTROLLERS,
            "src/main.ts": _main(
                "[...controllers]", "import { controllers } from './controllers';\n"
            ).replace("export class", "class")
            + "export { ApiModule };\n",
            "src/bin/sync-open-api.ts": (
                "import { NestFactory } from '@nestjs/core';\n"
                "import { ApiModule } from '../main';\n"
                "async function sync() {\n"
                "  const app = await NestFactory.create(ApiModule, { preview: true });\n"
                "  await app.close();\n"
                "}\n"
                "void sync();\n"
            ),
        },
    )
    assert sorted((fact["method"], fact["channel"]) for fact in document["facts"]) == [
        ("GET", "/api/albums"),
        ("GET", "/api/assets/{}"),
    ]


def test_a_conditional_controller_list_gives_both_branches(tmp_path: Path) -> None:
    # postiz-app: `controllers: process.env.MCP_ONLY ? [RootController, OAuthController]
    # : [RootController, …]`. Nest reads the list once at start; which branch is not
    # proven, so a controller only one branch names may not be served (no order).
    document = scan(
        tmp_path,
        {
            "package.json": NEST,
            "src/controllers/index.ts": CONTROLLERS,
            "src/main.ts": _main(
                "process.env.ONLY_ALBUMS ? [AlbumController] : [AlbumController, AssetController]",
                "import { AlbumController, AssetController } from './controllers';\n",
            ),
        },
    )
    facts = sorted((fact["method"], fact["channel"], "order" in fact) for fact in document["facts"])
    assert facts == [("GET", "/api/albums", True), ("GET", "/api/assets/{}", False)]
    assert "unresolved-nest-controllers" not in " ".join(document["limitations"])
    assert any("registered only under a condition" in line for line in document["limitations"])


def test_a_conditional_controller_list_with_an_unread_branch_is_counted(tmp_path: Path) -> None:
    document = scan(
        tmp_path,
        {
            "package.json": NEST,
            "src/controllers/index.ts": CONTROLLERS,
            "src/main.ts": _main(
                "process.env.X ? [AlbumController] : loadControllers()",
                "import { AlbumController } from './controllers';\n"
                "import { loadControllers } from 'some-plugin';\n",
            ),
        },
    )
    assert document["facts"] == []
    assert "unresolved-nest-controllers: 1" in " ".join(document["limitations"])
