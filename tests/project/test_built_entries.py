"""Workspace packages whose entries name their build output are read from their sources.

The spec's workspace rule (code-graph.txt, "Workspaces and source roots"): a
built entry is mapped back to src through the package tsconfig's outDir and
rootDir, else dist to src. The walk never reads dist/, so without the mapping
every call into such a package was lost (drizzle-orm's monorepo: sibling
packages import `drizzle-orm/pg-core` through `"drizzle-orm": "link:../drizzle-orm/dist"`).
"""

from __future__ import annotations

from pathlib import Path

from tests.project.builder import write_tree
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.resolve import Resolution, Resolver
from tsograph.producers.project.tsconfig import load_configs

WORKSPACE = '{"name": "root", "private": true, "workspaces": ["packages/*"]}'


def resolver_for(root: Path, files: dict[str, str]) -> Resolver:
    write_tree(root, {"package.json": WORKSPACE, **files})
    return _resolver(root, files)


def _resolver(root: Path, files: dict[str, str]) -> Resolver:
    sources = {p for p in files if p.endswith((".ts", ".js")) and not p.endswith(".d.ts")}
    workspace = load_workspace(root)
    configs = load_configs(root, "", workspace=workspace)
    return Resolver(root, sources, set(), configs, workspace)


def test_exports_into_out_dir_read_through_the_package_tsconfig(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "packages/fmt/package.json": '{"name": "fmt", "exports": {".": {"types": '
            '"./dist/index.d.ts", "default": "./dist/index.js"}, "./extra": "./dist/extra.mjs"}}',
            "packages/fmt/tsconfig.json": '{"compilerOptions": '
            '{"outDir": "dist", "rootDir": "lib"}}',
            "packages/fmt/lib/index.ts": "",
            "packages/fmt/lib/extra.ts": "",
            "packages/app/main.ts": "",
        },
    )
    assert r.resolve("packages/app/main.ts", "fmt") == Resolution(
        "source", "packages/fmt/lib/index.ts"
    )
    assert r.resolve("packages/app/main.ts", "fmt/extra") == Resolution(
        "source", "packages/fmt/lib/extra.ts"
    )


def test_main_in_dist_without_tsconfig_reads_src(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "packages/util/package.json": '{"name": "shared", "main": "./dist/index.js"}',
            "packages/util/src/index.ts": "",
            "packages/app/main.ts": "",
        },
    )
    assert r.resolve("packages/app/main.ts", "shared") == Resolution(
        "source", "packages/util/src/index.ts"
    )


def test_a_built_entry_without_its_source_stays_unresolved(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "packages/util/package.json": '{"name": "shared", "main": "./dist/index.js"}',
            "packages/util/src/other.ts": "",
            "packages/app/main.ts": "",
        },
    )
    found = r.resolve("packages/app/main.ts", "shared")
    assert (found.kind, found.reason) == ("unresolved", "workspace-entry-not-found")


def test_link_to_the_build_folder_reads_subpaths_in_src(tmp_path: Path) -> None:
    # drizzle-orm@1.0.0-beta layout: the manifest's entries are relative to dist/, where
    # the build copies it; siblings link to dist/ (drizzle-zod/package.json).
    r = resolver_for(
        tmp_path,
        {
            "packages/orm/package.json": '{"name": "orm", "main": "./index.cjs", '
            '"module": "./index.js", "types": "./index.d.ts"}',
            "packages/orm/tsconfig.json": '{"compilerOptions": {"outDir": "dist"}}',
            "packages/orm/src/index.ts": "",
            "packages/orm/src/pg-core/index.ts": "",
            "packages/orm/src/pg-core/columns/boolean.ts": "",
            "packages/zod/package.json": '{"name": "zod-ext", "devDependencies": '
            '{"orm": "link:../orm/dist"}}',
            "packages/zod/src/a.ts": "",
            "packages/other/package.json": '{"name": "other", "devDependencies": {"orm": "*"}}',
            "packages/other/a.ts": "",
        },
    )
    importer = "packages/zod/src/a.ts"
    assert r.resolve(importer, "orm") == Resolution("source", "packages/orm/src/index.ts")
    assert r.resolve(importer, "orm/pg-core") == Resolution(
        "source", "packages/orm/src/pg-core/index.ts"
    )
    assert r.resolve(importer, "orm/pg-core/columns/boolean.js") == Resolution(
        "source", "packages/orm/src/pg-core/columns/boolean.ts"
    )
    # Declared without the link, the package folder itself is the package: no pg-core there.
    found = r.resolve("packages/other/a.ts", "orm/pg-core")
    assert (found.kind, found.reason) == ("unresolved", "workspace-entry-not-found")


def test_the_nearest_declaring_package_decides(tmp_path: Path) -> None:
    # drizzle-orm's integration-tests declare no drizzle-orm: Node finds the root's
    # node_modules/drizzle-orm, which the root's `workspace:./drizzle-orm/dist` links
    # to the build folder (pnpm-lock.yaml: `version: link:drizzle-orm/dist`).
    files = {
        "package.json": '{"name": "root", "private": true, "devDependencies": '
        '{"orm": "workspace:./packages/orm/dist"}}',
        "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
        "packages/orm/package.json": '{"name": "orm", "main": "./index.js"}',
        "packages/orm/src/index.ts": "",
        "packages/orm/src/pg-core/index.ts": "",
        "packages/tests/package.json": '{"name": "tests", "private": true}',
        "packages/tests/a.ts": "",
        # A workspace: path declared below the root is not read (where pnpm takes it
        # from was not checked), so the package folder stays the package.
        "packages/kit/package.json": '{"name": "kit", "dependencies": '
        '{"orm": "workspace:./packages/orm/dist"}}',
        "packages/kit/a.ts": "",
    }
    write_tree(tmp_path, files)
    r = _resolver(tmp_path, files)
    assert r.resolve("packages/tests/a.ts", "orm/pg-core") == Resolution(
        "source", "packages/orm/src/pg-core/index.ts"
    )
    found = r.resolve("packages/kit/a.ts", "orm/pg-core")
    assert (found.kind, found.reason) == ("unresolved", "workspace-entry-not-found")
