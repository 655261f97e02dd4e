from __future__ import annotations

import os
from pathlib import Path

from tests.project.builder import write_tree
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.packages import package_name_of
from tsograph.producers.project.packages import resolve_exports
from tsograph.producers.project.resolve import Resolution
from tsograph.producers.project.resolve import Resolver
from tsograph.producers.project.tsconfig import load_configs


def resolver_for(root: Path, files: dict[str, str]) -> Resolver:
    write_tree(root, files)
    sources = {
        p
        for p in files
        if p.endswith((".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"))
        and not p.endswith(".d.ts")
        and not p.startswith("node_modules/")
    }
    declarations = {p for p in files if p.endswith(".d.ts")}
    return Resolver(root, sources, declarations, load_configs(root, ""), load_workspace(root))


def test_relative_probing_order(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "src/a.ts": "",
            "src/b.tsx": "",
            "src/c.js": "",
            "src/c.ts": "",
            "src/dir/index.ts": "",
            "src/e.mts": "",
            "src/types.d.ts": "",
        },
    )
    assert r.resolve("src/x.ts", "./a") == Resolution("source", "src/a.ts")
    assert r.resolve("src/x.ts", "./a.js") == Resolution("source", "src/a.ts")
    assert r.resolve("src/x.ts", "./b.jsx") == Resolution("source", "src/b.tsx")
    assert r.resolve("src/x.ts", "./c.js") == Resolution("source", "src/c.ts")
    assert r.resolve("src/x.ts", "./dir") == Resolution("source", "src/dir/index.ts")
    assert r.resolve("src/x.ts", "./e.mjs") == Resolution("source", "src/e.mts")
    assert r.resolve("src/x.ts", "./types") == Resolution("declaration", "src/types.d.ts")
    assert r.resolve("src/x.ts", "../src/a") == Resolution("source", "src/a.ts")
    assert r.resolve("src/x.ts", "./nothing").reason == "file-not-found"
    assert r.resolve("src/x.ts", "../../up").reason == "outside-project"
    assert r.resolve("src/x.ts", "./style.css").kind == "asset"


def test_paths_then_base_url(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "tsconfig.json": (
                '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"], '
                '"@/special/*": ["other/*"]}}}'
            ),
            "src/lib/x.ts": "",
            "other/y.ts": "",
            "util/z.ts": "",
        },
    )
    assert r.resolve("a.ts", "@/lib/x") == Resolution("source", "src/lib/x.ts")
    assert r.resolve("a.ts", "@/special/y") == Resolution("source", "other/y.ts")
    assert r.resolve("a.ts", "util/z") == Resolution("source", "util/z.ts")
    assert r.resolve("a.ts", "@/lib/none").reason == "path-alias-not-found"


def test_packages_builtins_and_missing(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "node_modules/express/package.json": "{}",
            "node_modules/@types/scope__pkg/index.d.ts": "",
            "src/a.ts": "",
        },
    )
    assert r.resolve("src/a.ts", "express") == Resolution("external", package="express")
    assert r.resolve("src/a.ts", "express/lib/router") == Resolution("external", package="express")
    assert r.resolve("src/a.ts", "@scope/pkg") == Resolution("external", package="@scope/pkg")
    assert r.resolve("src/a.ts", "node:fs") == Resolution("builtin", package="node:fs")
    assert r.resolve("src/a.ts", "path") == Resolution("builtin", package="path")
    assert r.resolve("src/a.ts", "hono") == Resolution("missing", package="hono")


def test_symlinked_node_modules_package_counts_as_installed(tmp_path: Path) -> None:
    r = resolver_for(tmp_path, {"store/hono/package.json": "{}", "node_modules/.keep": ""})
    os.symlink(tmp_path / "store/hono", tmp_path / "node_modules/hono")
    assert r.resolve("a.ts", "hono").kind == "external"


def test_workspace_packages_by_name(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "package.json": '{"workspaces": ["packages/*"]}',
            "packages/core/package.json": (
                '{"name": "@acme/core", "exports": {".": {"types": "./src/index.ts", '
                '"import": "./dist/index.js"}, "./util/*": "./src/util/*.ts"}}'
            ),
            "packages/core/src/index.ts": "",
            "packages/core/src/util/strings.ts": "",
            "packages/ui/package.json": '{"name": "ui", "main": "./lib/main.js"}',
            "packages/ui/lib/main.ts": "",
            "packages/empty/package.json": '{"name": "empty", "exports": "./dist/x.js"}',
        },
    )
    assert r.resolve("apps/a.ts", "@acme/core") == Resolution(
        "source", "packages/core/src/index.ts"
    )
    assert r.resolve("apps/a.ts", "@acme/core/util/strings") == Resolution(
        "source", "packages/core/src/util/strings.ts"
    )
    assert r.resolve("apps/a.ts", "ui") == Resolution("source", "packages/ui/lib/main.ts")
    unresolved = r.resolve("apps/a.ts", "empty")
    assert (unresolved.kind, unresolved.reason) == ("unresolved", "workspace-entry-not-found")


def test_pnpm_workspace_and_self_referencing_entries(tmp_path: Path) -> None:
    r = resolver_for(
        tmp_path,
        {
            "pnpm-workspace.yaml": "packages:\n  - 'libs/**'\n  - '!libs/ignored'\n",
            "libs/a/package.json": '{"name": "a", "main": "../b"}',
            "libs/b/package.json": '{"name": "b", "main": "../a"}',
            "libs/ignored/package.json": '{"name": "ignored"}',
        },
    )
    assert r.resolve("x.ts", "a").reason == "workspace-entry-not-found"
    assert r.resolve("x.ts", "ignored").kind == "missing"


def test_package_name_of() -> None:
    assert package_name_of("@a/b/c/d") == ("@a/b", "./c/d")
    assert package_name_of("lodash") == ("lodash", ".")
    assert package_name_of("lodash/fp") == ("lodash", "./fp")


def test_exports_conditions_follow_key_order() -> None:
    exports = {".": {"require": "./r.js", "import": "./i.js"}, "./feature": ["./f1.js", "./f2.js"]}
    assert resolve_exports(exports, ".", ("import", "require")) == ["./r.js"]
    assert resolve_exports(exports, ".", ("import",)) == ["./i.js"]
    assert resolve_exports(exports, "./feature", ()) == ["./f1.js", "./f2.js"]
    assert resolve_exports(exports, "./missing", ()) == []
    assert resolve_exports("./main.js", ".", ()) == ["./main.js"]
    assert resolve_exports({"import": "./x.js"}, ".", ("import",)) == ["./x.js"]
    nested = {"./*": {"node": {"default": "./n/*.js"}, "default": "./d/*.js"}}
    assert resolve_exports(nested, "./a/b", ("node",)) == ["./n/a/b.js"]
    assert resolve_exports(nested, "./a/b", ()) == ["./d/a/b.js"]


def test_a_workspace_package_resolves_with_its_own_tsconfig(tmp_path: Path) -> None:
    # Scanning a monorepo from its root: `@/…` in apps/web is apps/web's alias.
    files = {
        "package.json": '{"private": true, "workspaces": ["apps/*"]}',
        "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./shared/*"]}}}',
        "shared/api.ts": "",
        "apps/web/package.json": '{"name": "web"}',
        "apps/web/tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}',
        "apps/web/src/api.ts": "",
        "apps/web/src/page.ts": "",
        "apps/api/package.json": '{"name": "api"}',
        "apps/api/main.ts": "",
    }
    write_tree(tmp_path, files)
    workspace = load_workspace(tmp_path)
    configs = load_configs(tmp_path, "", package_folders=workspace.by_directory)
    sources = {p for p in files if p.endswith(".ts")}
    resolver = Resolver(tmp_path, sources, set(), configs, workspace)
    assert resolver.resolve("apps/web/src/page.ts", "@/api").path == "apps/web/src/api.ts"
    # A package without a config of its own, and the root, keep the root's aliases.
    assert resolver.resolve("apps/api/main.ts", "@/api").path == "shared/api.ts"
    assert resolver.resolve("shared/api.ts", "@/api").path == "shared/api.ts"
