"""The one lockfile reader: the root importer's version, and every installed copy."""

from __future__ import annotations

from tsograph.producers.project.lockfiles import installed_versions
from tsograph.producers.project.lockfiles import root_versions

# pnpm-lock v9: the root importer resolves express 5; a workspace member still has 4.
PNPM = b"""lockfileVersion: '9.0'
importers:
  .:
    dependencies:
      express:
        specifier: ^5.1.0
        version: 5.1.0
  packages/old:
    dependencies:
      express:
        specifier: ^4.21.2
        version: 4.21.2
packages:
  express@4.21.2:
    resolution: {integrity: sha512-x}
  express@5.1.0:
    resolution: {integrity: sha512-y}
"""
NPM = (
    b'{"packages": {"node_modules/express": {"version": "5.1.0"},'
    b' "node_modules/a/node_modules/express": {"version": "4.21.2"}}}'
)


def test_the_root_importer_resolves_one_version() -> None:
    assert root_versions("pnpm-lock.yaml", PNPM, {"express": "^5.1.0"}) == {"express": "5.1.0"}
    assert root_versions("package-lock.json", NPM, {"express": "^5.1.0"}) == {"express": "5.1.0"}


def test_every_installed_copy_is_listed_for_any_watched_package() -> None:
    expected = {"express": {"4.21.2", "5.1.0"}}
    assert installed_versions("pnpm-lock.yaml", PNPM, ("express",)) == expected
    assert installed_versions("package-lock.json", NPM, ("express",)) == expected
    assert installed_versions("pnpm-lock.yaml", PNPM, ("koa",)) == {}


# pnpm@10.34.9 `install --lockfile-only` (lockfileVersion '9.0'), its catalogs and
# importers as written: a `catalog:` specifier with the catalog's resolved version,
# a `workspace:` one linked, and a root importer that declares nothing.
PNPM_CATALOG = b"""lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

catalogs:
  default:
    express:
      specifier: ^4.21.2
      version: 4.22.3

importers:

  .: {}

  apps/api:
    dependencies:
      '@ws/fmt':
        specifier: workspace:*
        version: link:../../packages/fmt
      express:
        specifier: 'catalog:'
        version: 4.22.3
      hono:
        specifier: ^4 || ^5
        version: 4.13.19

  packages/fmt: {}

packages:

  express@4.22.3:
    resolution: {integrity: sha512-x}
"""


def test_a_workspace_importer_resolves_its_own_versions() -> None:
    assert root_versions("pnpm-lock.yaml", PNPM, {"express": "^4"}, "packages/old") == {
        "express": "4.21.2"
    }
    wanted = {"express": "catalog:", "hono": "^4 || ^5", "@ws/fmt": "workspace:*"}
    assert root_versions("pnpm-lock.yaml", PNPM_CATALOG, wanted, "apps/api") == {
        "express": "4.22.3",
        "hono": "4.13.19",
        "@ws/fmt": "link:../../packages/fmt",
    }
    # The root importer declares nothing; the catalog itself is no importer.
    assert root_versions("pnpm-lock.yaml", PNPM_CATALOG, wanted) == {}
    assert root_versions("pnpm-lock.yaml", PNPM_CATALOG, wanted, "packages/fmt") == {}


def test_lockfile_v5_importers_read_versions_not_specifiers() -> None:
    v5 = b"""lockfileVersion: 5.4
importers:
  apps/api:
    specifiers:
      express: ^4.17.1
    dependencies:
      express: 4.17.1
"""
    assert root_versions("pnpm-lock.yaml", v5, {"express": "^4.17.1"}, "apps/api") == {
        "express": "4.17.1"
    }


def test_npm_reads_the_importers_own_copy_before_the_hoisted_one() -> None:
    lock = (
        b'{"packages": {"node_modules/express": {"version": "5.1.0"},'
        b' "apps/old/node_modules/express": {"version": "4.21.2"}}}'
    )
    wanted = {"express": "^4.21.2"}
    assert root_versions("package-lock.json", lock, wanted, "apps/old") == {"express": "4.21.2"}
    assert root_versions("package-lock.json", lock, wanted, "apps/new") == {"express": "5.1.0"}


def test_bun_lock_of_a_workspace_package_proves_nothing() -> None:
    lock = b'{"lockfileVersion": 1, "packages": {"express": ["express@5.1.0", "", {}, "x"]}}'
    assert root_versions("bun.lock", lock, {"express": "^5"}) == {"express": "5.1.0"}
    assert root_versions("bun.lock", lock, {"express": "^4"}, "apps/old") == {}
