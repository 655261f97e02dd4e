"""A service run reads what only its workspace root holds: fixtures/monorepo/pnpm-locked.

apps/api declares `express: "catalog:"` (pnpm-workspace.yaml's catalog says
^4.21.2) and its tsconfig extends `@locked/tsconfig/base.json`, a workspace
package linked through `workspace:*` (no node_modules in the fixture). The
lockfile is pnpm@10.34.9's `install --lockfile-only` output (lockfileVersion
'9.0') with its `packages:` and `snapshots:` sections left out. Run at the
package alone, neither is visible: the Express major is unproven and the
extends is not found. Run as a service of the root, both are read as a run at
the root reads them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.openapi.support import GENERATED_AT
from tests.openapi.support import invoke
from tests.routes.support import copy_project

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "monorepo" / "pnpm-locked"
UNPROVEN = "route-framework-version-unknown:"
EXTENDS = "extends '@locked/tsconfig/base.json' of . not found"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_project(FIXTURE, tmp_path / "pnpm-locked")


def run(project: Path, *extra: str, words: tuple[str, ...] = ("routes", "--role", "server")) -> Any:
    result = invoke(
        *words, "--project", str(project), "--no-cache", "--generated-at", GENERATED_AT, *extra
    )
    assert result.code == 0, result.stderr
    return orjson.loads(result.stdout)


def channels(document: Any) -> list[tuple[str, str, bool]]:
    return [(f["channel"], f["location"]["path"], f["dynamic"]) for f in document["facts"]]


def test_the_package_alone_sees_neither_the_lockfile_nor_the_workspace(root: Path) -> None:
    alone = run(root / "apps/api")
    assert [line for line in alone["limitations"] if line.startswith(UNPROVEN)]
    assert any(EXTENDS in line for line in alone["limitations"])
    # Express 5's path syntax (the newest rules) reads `:id?` as no optional parameter.
    assert channels(alone) == [
        ("/users", "src/app.ts", False),
        ("/users/:id%3F", "src/app.ts", True),
    ]


def test_a_service_run_reads_the_catalog_version_from_the_root_lockfile(root: Path) -> None:
    service = run(root, "--workspace", str(root / "apps/api"))
    # express 4.22.3 (the importer's `catalog:` entry) proves major 4: no unproven line,
    # and Express 4's optional parameter `:id?` answers with and without the segment.
    assert service["limitations"] == []
    assert channels(service) == [
        ("/users", "apps/api/src/app.ts", False),
        ("/users", "apps/api/src/app.ts", False),
        ("/users/{}", "apps/api/src/app.ts", False),
    ]


def test_a_wrong_major_in_the_root_lockfile_is_named(root: Path) -> None:
    lock = root / "pnpm-lock.yaml"
    lock.write_text(lock.read_text().replace("version: 4.22.3", "version: 3.21.2"))
    service = run(root, "--workspace", str(root / "apps/api"))
    # Express 3 has no rule table: the lockfile's major is used, not the newest rules.
    assert any(
        line.startswith("route-coverage:") and "express" in line for line in service["limitations"]
    )
    assert not [line for line in service["limitations"] if line.startswith(UNPROVEN)]


@pytest.mark.parametrize(
    "words", [("routes", "--role", "server"), ("routes", "--role", "client"), ("schema",)]
)
def test_a_service_run_finds_a_tsconfig_extends_of_a_workspace_package(
    root: Path, words: tuple[str, ...]
) -> None:
    service = run(root, "--workspace", str(root / "apps/api"), words=words)
    assert not [line for line in service["limitations"] if "unreadable-module-configs" in line]


def test_a_missing_workspace_package_is_still_named(root: Path) -> None:
    (root / "packages/tsconfig/base.json").unlink()
    service = run(root, "--workspace", str(root / "apps/api"))
    assert service["limitations"] == [
        "unreadable-module-configs: 1 tsconfig/jsconfig/package.json file(s) could not be "
        "read (extends '@locked/tsconfig/base.json' of apps/api not found)"
    ]


# The lines of a pnpm v9 lockfile installed_versions reads (written by hand in the
# shape of pnpm@10.34.9's output): the importer and the installed `packages:` keys.
PRISMA_LOCK = """lockfileVersion: '9.0'

importers:

  apps/api:
    dependencies:
      '@prisma/client':
        specifier: 'catalog:'
        version: 6.19.0(prisma@6.19.0)

packages:

  '@prisma/client@6.19.0':
    resolution: {integrity: sha512-x}

  prisma@6.19.0:
    resolution: {integrity: sha512-y}
"""


def test_a_service_run_takes_the_prisma_version_from_the_root_lockfile(tmp_path: Path) -> None:
    shop = copy_project(FIXTURE.parent / "pnpm-shop", tmp_path / "pnpm-shop")
    package = shop / "apps/api/package.json"
    text = package.read_text().replace('"6.19.0"', '"catalog:"')
    package.write_text(text)
    (shop / "pnpm-lock.yaml").write_text(PRISMA_LOCK)
    words = ("schema",)
    alone = run(shop / "apps/api", words=words)
    assert alone["limitations"] == [
        "prisma-naming-unverified: 1 name(s) differ between candidate Prisma versions "
        "(dynamic) (version unknown)"
    ]
    service = run(shop, "--workspace", str(shop / "apps/api"), words=words)
    # Prisma 6 names the model's table `User`: the uses get their table.
    assert service["limitations"] == []
    assert {(f["channel"], f["dynamic"]) for f in service["facts"]} == {("User", False)}


def test_a_cached_service_run_is_read_again_when_the_root_lockfile_changes(
    tmp_path: Path,
) -> None:
    shop = copy_project(FIXTURE.parent / "pnpm-shop", tmp_path / "pnpm-shop")
    package = shop / "apps/api/package.json"
    package.write_text(package.read_text().replace('"6.19.0"', '"catalog:"'))
    lock = shop / "pnpm-lock.yaml"
    lock.write_text(PRISMA_LOCK)
    cache = str(tmp_path / "cache")

    def limitations() -> Any:
        result = invoke(
            "schema", "--project", str(shop), "--workspace", str(shop / "apps/api"),
            "--cache-dir", cache, "--generated-at", GENERATED_AT,
        )  # fmt: skip
        assert result.code == 0, result.stderr
        return orjson.loads(result.stdout)["limitations"]

    assert limitations() == limitations() == []
    # The cached result depends on the root's lockfile, read from above the package.
    lock.write_text(PRISMA_LOCK.replace("@6.19.0", "@1.0.0"))
    assert limitations() == [
        "prisma-naming-unverified: 1 name(s) differ between candidate Prisma versions "
        "(dynamic) (@prisma/client@1.0.0,prisma@1.0.0)"
    ]
