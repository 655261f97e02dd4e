"""The one lockfile reader: the root importer's version, and every installed copy."""

from __future__ import annotations

from tsograph.producers.project.lockfiles import installed_versions, root_versions

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
