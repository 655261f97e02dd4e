"""Workspace packages whose entries name their build output are read from their sources.

The spec's workspace rule (code-graph.txt, "Workspaces and source roots"): a
built entry is mapped back to src through the package tsconfig's outDir and
rootDir, else dist to src. The walk never reads dist/, so without the mapping
every call into such a package was lost (drizzle-orm's monorepo: sibling
packages import `drizzle-orm/pg-core` through `"drizzle-orm": "link:../drizzle-orm/dist"`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.project.builder import write_tree
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.resolve import Resolver
from tsograph.producers.project.tsconfig import load_configs

ROOT = '{"name": "root", "private": true, "workspaces": ["packages/*"]}'
# The drizzle-orm layout (1.0.0-beta): the manifest's entries are relative to dist/,
# where the build copies it; siblings link to dist/ (drizzle-zod/package.json).
ORM = {
    "packages/orm/package.json": '{"name": "orm", "main": "./index.cjs", '
    '"module": "./index.js", "types": "./index.d.ts"}',
    "packages/orm/tsconfig.json": '{"compilerOptions": {"outDir": "dist"}}',
    "packages/orm/src/index.ts": "",
    "packages/orm/src/pg-core/index.ts": "",
    "packages/orm/src/pg-core/columns/boolean.ts": "",
}
FMT = {
    "packages/fmt/package.json": '{"name": "fmt", "exports": {".": {"types": '
    '"./dist/index.d.ts", "default": "./dist/index.js"}, "./extra": "./dist/extra.mjs"}}',
    "packages/fmt/tsconfig.json": '{"compilerOptions": {"outDir": "dist", "rootDir": "lib"}}',
    "packages/fmt/lib/index.ts": "",
    "packages/fmt/lib/extra.ts": "",
}
LINKED = {"packages/zod/package.json": '{"devDependencies": {"orm": "link:../orm/dist"}}'}
DECLARED = {"packages/other/package.json": '{"devDependencies": {"orm": "*"}}'}
# drizzle-orm's integration-tests declare no drizzle-orm: Node finds the root's
# node_modules/drizzle-orm, which the root's `workspace:./drizzle-orm/dist` links to the
# build folder (its pnpm-lock.yaml: `version: link:drizzle-orm/dist`). A workspace: path
# below the root is not read (where pnpm takes it from was not checked).
ROOT_LINKED = {
    "package.json": '{"workspaces": ["packages/*"], "devDependencies": '
    '{"orm": "workspace:./packages/orm/dist"}}',
    "packages/tests/package.json": '{"name": "tests"}',
    "packages/kit/package.json": '{"dependencies": {"orm": "workspace:./packages/orm/dist"}}',
}
UNRESOLVED = "unresolved workspace-entry-not-found"

# (files besides the root package.json, importer, specifier, what it resolves to)
CASES = [
    (FMT, "packages/app/a.ts", "fmt", "packages/fmt/lib/index.ts"),
    (FMT, "packages/app/a.ts", "fmt/extra", "packages/fmt/lib/extra.ts"),
    (
        {
            "packages/u/package.json": '{"name": "u", "main": "./dist/index.js"}',
            "packages/u/src/index.ts": "",
        },
        "packages/app/a.ts",
        "u",
        "packages/u/src/index.ts",
    ),
    # No source beside the built entry: not guessed.
    (
        {
            "packages/u/package.json": '{"name": "u", "main": "./dist/index.js"}',
            "packages/u/src/b.ts": "",
        },
        "packages/app/a.ts",
        "u",
        UNRESOLVED,
    ),
    ({**ORM, **LINKED}, "packages/zod/a.ts", "orm", "packages/orm/src/index.ts"),
    ({**ORM, **LINKED}, "packages/zod/a.ts", "orm/pg-core", "packages/orm/src/pg-core/index.ts"),
    (
        {**ORM, **LINKED},
        "packages/zod/a.ts",
        "orm/pg-core/columns/boolean.js",
        "packages/orm/src/pg-core/columns/boolean.ts",
    ),
    # Declared without the link, the package folder itself is the package: no pg-core there.
    ({**ORM, **DECLARED}, "packages/other/a.ts", "orm/pg-core", UNRESOLVED),
    (
        {**ORM, **ROOT_LINKED},
        "packages/tests/a.ts",
        "orm/pg-core",
        "packages/orm/src/pg-core/index.ts",
    ),
    ({**ORM, **ROOT_LINKED}, "packages/kit/a.ts", "orm/pg-core", UNRESOLVED),
]


@pytest.mark.parametrize(("files", "importer", "specifier", "expected"), CASES)
def test_built_entries_resolve_to_their_sources(
    tmp_path: Path, files: dict[str, str], importer: str, specifier: str, expected: str
) -> None:
    tree = {"package.json": ROOT, **files, importer: ""}
    write_tree(tmp_path, tree)
    sources = {path for path in tree if path.endswith(".ts")}
    workspace = load_workspace(tmp_path)
    configs = load_configs(tmp_path, "", workspace=workspace)
    found = Resolver(tmp_path, sources, set(), configs, workspace).resolve(importer, specifier)
    shown = found.path if found.kind == "source" else f"{found.kind} {found.reason}"
    assert shown == expected
