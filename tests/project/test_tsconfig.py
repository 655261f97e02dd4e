from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.project.builder import write_tree
from tsograph.exchange.errors import InputError
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.tsconfig import load_configs
from tsograph.producers.project.tsconfig import match_pattern


def test_defaults_without_config(tmp_path: Path) -> None:
    configs = load_configs(tmp_path, "")
    assert configs.root.file is None
    assert configs.root.owns("src/a.ts")
    assert not configs.root.owns("node_modules/x/index.ts")


def test_tsconfig_preferred_over_jsconfig(tmp_path: Path) -> None:
    write_tree(tmp_path, {"tsconfig.json": "{}", "jsconfig.json": "{}"})
    assert load_configs(tmp_path, "").root.file == "tsconfig.json"
    (tmp_path / "tsconfig.json").unlink()
    assert load_configs(tmp_path, "").root.file == "jsconfig.json"


def test_extends_chain_merges_paths_relative_to_their_config(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "config/base.json": '{"compilerOptions": {"paths": {"@lib/*": ["../src/lib/*"]}}}',
            "tsconfig.json": '{"extends": "./config/base", // comment\n "include": ["src"],}',
        },
    )
    config = load_configs(tmp_path, "").root
    assert [(m.pattern, m.targets) for m in config.mappings] == [("@lib/*", ("src/lib/*",))]
    assert config.owns("src/a.ts") and not config.owns("scripts/a.ts")


def test_base_url_anchors_paths(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"tsconfig.json": '{"compilerOptions": {"baseUrl": "src", "paths": {"~/*": ["./*"]}}}'},
    )
    config = load_configs(tmp_path, "").root
    assert config.base_url == "src"
    assert config.mappings[0].targets == ("src/*",)


def test_child_options_override_base(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "base.json": '{"compilerOptions": {"moduleResolution": "Node16", "baseUrl": "."}}',
            "tsconfig.json": '{"extends": "./base.json", "compilerOptions": {"baseUrl": "lib"}}',
        },
    )
    config = load_configs(tmp_path, "").root
    assert (config.module_resolution, config.base_url) == ("node16", "lib")


def test_package_extends_and_list_extends(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "node_modules/@tsconfig/node20/tsconfig.json": '{"compilerOptions": {"baseUrl": "."}}',
            "local.json": '{"compilerOptions": {"paths": {"a": ["./a.ts"]}}}',
            "tsconfig.json": '{"extends": ["@tsconfig/node20/tsconfig.json", "./local.json"]}',
        },
    )
    config = load_configs(tmp_path, "").root
    assert config.base_url == "node_modules/@tsconfig/node20"
    assert config.mappings[0].targets == ("node_modules/@tsconfig/node20/a.ts",)


def test_extends_cycle_and_missing_base_are_noted(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "a.json": '{"extends": "./tsconfig.json"}',
            "tsconfig.json": '{"extends": ["./a.json", "missing-package"]}',
        },
    )
    notes = load_configs(tmp_path, "").notes
    assert any("cycle" in note for note in notes)
    assert any("'missing-package'" in note and "not found" in note for note in notes)


def test_symlinked_config_is_not_read(tmp_path: Path) -> None:
    write_tree(tmp_path, {"real.json": "{}"})
    os.symlink(tmp_path / "real.json", tmp_path / "tsconfig.json")
    configs = load_configs(tmp_path, "")
    assert configs.root.file is None
    assert configs.notes == ["tsconfig.json not read (symbolic link)"]


def test_explicit_config_must_be_readable(tmp_path: Path) -> None:
    write_tree(tmp_path, {"broken.json": "{nope"})
    with pytest.raises(InputError, match="--tsconfig"):
        load_configs(tmp_path, "", explicit="broken.json")
    with pytest.raises(InputError):
        load_configs(tmp_path, "", explicit="absent.json")
    with pytest.raises(InputError):
        load_configs(tmp_path, "", explicit="../outside.json")


def test_references_choose_the_owning_config(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "tsconfig.json": (
                '{"files": [], "references": [{"path": "./tsconfig.app.json"}, {"path": "./web"}]}'
            ),
            "tsconfig.app.json": (
                '{"include": ["src"], "compilerOptions": {"paths": {"@/*": ["./src/*"]}}}'
            ),
            "web/tsconfig.json": '{"include": ["**/*.tsx"]}',
        },
    )
    configs = load_configs(tmp_path, "")
    assert configs.for_file("src/a.ts").file == "tsconfig.app.json"
    assert configs.for_file("web/x.tsx").file == "web/tsconfig.json"
    assert configs.for_file("scripts/b.ts").file == "tsconfig.json"


@pytest.mark.parametrize(
    ("pattern", "specifier", "star"),
    [("@/*", "@/a/b", "a/b"), ("@/*", "@x", None), ("exact", "exact", ""), ("*.js", "a.js", "a")],
)
def test_match_pattern(pattern: str, specifier: str, star: str | None) -> None:
    assert match_pattern(pattern, specifier) == star


def test_include_wildcards_follow_typescript(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"tsconfig.json": '{"include": ["src/*.ts", "lib/**/*"], "exclude": ["lib/gen"]}'}
    )
    config = load_configs(tmp_path, "").root
    assert config.owns("src/a.ts")
    assert not config.owns("src/deep/a.ts")
    assert config.owns("lib/x/y/z.js")
    assert not config.owns("lib/gen/a.ts")


# ---- extends through workspace packages (typescript@5.9.3 nodeNextJsonConfigResolver) ----


def _workspace_configs(root: Path) -> tuple[dict[str, str | None], list[str]]:
    workspace = load_workspace(root)
    configs = load_configs(root, "", workspace=workspace)
    by_folder = {config.directory: config.base_url for config in configs.packages}
    return by_folder, configs.notes


def test_extends_a_workspace_package_as_npm_links_it(tmp_path: Path) -> None:
    # npm@11 links every workspace into the root node_modules, declared or not.
    write_tree(
        tmp_path,
        {
            "package.json": '{"workspaces": ["packages/*"]}',
            "packages/tsconfig/package.json": '{"name": "@x/tsconfig", "files": ["base.json"]}',
            "packages/tsconfig/base.json": '{"compilerOptions": {"baseUrl": "."}}',
            "packages/ui/package.json": '{"name": "@x/ui"}',
            "packages/ui/tsconfig.json": '{"extends": "@x/tsconfig/base.json"}',
            "packages/web/package.json": '{"name": "@x/web"}',
            "packages/web/tsconfig.json": '{"extends": ["@x/tsconfig/base", "./local.json"]}',
            "packages/web/local.json": "{}",
        },
    )
    by_folder, notes = _workspace_configs(tmp_path)
    assert notes == []
    assert by_folder["packages/ui"] == "packages/tsconfig"
    assert by_folder["packages/web"] == "packages/tsconfig"


def test_pnpm_links_only_workspace_protocol_dependencies(tmp_path: Path) -> None:
    # pnpm@9: a `workspace:` dependency is linked into the dependent's node_modules; a plain
    # range comes from the registry, and nothing is linked into the root.
    write_tree(
        tmp_path,
        {
            "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
            "package.json": "{}",
            "packages/tsconfig/package.json": '{"name": "@x/tsconfig"}',
            "packages/tsconfig/base.json": '{"compilerOptions": {"baseUrl": "."}}',
            "packages/ui/package.json": '{"devDependencies": {"@x/tsconfig": "workspace:*"}}',
            "packages/ui/tsconfig.json": '{"extends": "@x/tsconfig/base.json"}',
            "packages/web/package.json": '{"devDependencies": {"@x/tsconfig": "*"}}',
            "packages/web/tsconfig.json": '{"extends": "@x/tsconfig/base.json"}',
        },
    )
    by_folder, notes = _workspace_configs(tmp_path)
    assert by_folder["packages/ui"] == "packages/tsconfig"
    assert by_folder["packages/web"] is None
    assert notes == ["extends '@x/tsconfig/base.json' of packages/web not found"]


def test_package_exports_and_tsconfig_field_decide_the_file(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "package.json": '{"workspaces": ["packages/*", "apps/*"]}',
            # `exports` is the only way in: a file it does not list is not found.
            "packages/exp/package.json": '{"name": "exp", "exports": {"./base": '
            '{"import": "./esm.json", "require": "./configs/base.json"}, "./*": "./more/*"}}',
            "packages/exp/configs/base.json": '{"compilerOptions": {"baseUrl": "."}}',
            "packages/exp/more/x.json": '{"compilerOptions": {"baseUrl": "."}}',
            "packages/field/package.json": '{"name": "field", "tsconfig": "./configs/root.json"}',
            "packages/field/configs/root.json": '{"compilerOptions": {"baseUrl": "."}}',
            "packages/plain/package.json": '{"name": "plain"}',
            "packages/plain/tsconfig.json": '{"compilerOptions": {"baseUrl": "."}}',
            "apps/a/tsconfig.json": '{"extends": "exp/base"}',
            "apps/b/tsconfig.json": '{"extends": "exp/configs/base.json"}',
            "apps/c/tsconfig.json": '{"extends": "exp/x.json"}',
            "apps/d/tsconfig.json": '{"extends": "field"}',
            "apps/e/tsconfig.json": '{"extends": "plain"}',
        },
    )
    for app in "abcde":
        write_tree(tmp_path, {f"apps/{app}/package.json": "{}"})
    by_folder, notes = _workspace_configs(tmp_path)
    assert by_folder["apps/a"] == "packages/exp/configs"  # the `require` condition, not `import`
    assert by_folder["apps/b"] is None
    assert by_folder["apps/c"] == "packages/exp/more"
    assert by_folder["apps/d"] == "packages/field/configs"
    assert by_folder["apps/e"] == "packages/plain"
    assert notes == ["extends 'exp/configs/base.json' of apps/b not found"]


def test_installed_package_folder_and_self_name(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "node_modules/@tsconfig/node20/tsconfig.json": '{"compilerOptions": {"baseUrl": "."}}',
            "node_modules/@tsconfig/node20/package.json": '{"name": "@tsconfig/node20"}',
            "tsconfig.json": '{"extends": "@tsconfig/node20"}',
            "lib/package.json": '{"name": "me", "exports": {"./tsconfig": "./conf.json"}}',
            "lib/conf.json": '{"compilerOptions": {"baseUrl": "."}}',
            "lib/tsconfig.json": '{"extends": "me/tsconfig"}',
        },
    )
    configs = load_configs(tmp_path, "", package_folders=["lib"])
    assert configs.root.base_url == "node_modules/@tsconfig/node20"
    assert configs.packages[0].base_url == "lib"
    assert configs.notes == []
