"""Which files an incremental rebuild binds again, and when it rebuilds everything.

A small project: `base.ts` exports a function and a class, `barrel.ts`
re-exports it with `export *`, `user.ts` imports through the barrel,
`direct.ts` imports base directly, `lone.ts` imports nothing. Every rebuild
is also compared with a full rebuild of the same tree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.graph.incremental_support import assert_same_as_full
from tsograph.producers.graph.incremental import BuildState
from tsograph.producers.graph.incremental import rebuild
from tsograph.producers.graph.options import GraphOptions

FILES = {
    "base.ts": "export function helper() { return 1; }\n"
    "export class Store { load() { return helper(); } }\n",
    "barrel.ts": "export * from './base';\n",
    "user.ts": "import { helper, Store } from './barrel';\n"
    "export function run() { new Store().load(); return helper(); }\n",
    "direct.ts": "import { helper } from './base';\nexport const value = () => helper();\n",
    "lone.ts": "export function alone() { return 2; }\n",
}


def _tree(root: Path) -> None:
    (root / "src").mkdir()
    for name, text in FILES.items():
        (root / "src" / name).write_text(text)
    (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"strict": True}}))
    (root / "package.json").write_text(json.dumps({"name": "rules", "private": True}))


@pytest.fixture
def built(tmp_path: Path) -> BuildState:
    _tree(tmp_path)
    state = rebuild(None, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound is None and state.full_reason == "no previous build"
    return state


def _edit(root: Path, name: str, text: str) -> None:
    (root / "src" / name).write_text(text)


def test_a_change_that_moves_no_binding_rebinds_only_the_file(
    tmp_path: Path, built: BuildState
) -> None:
    # Lines shift and a comment is added: base's facts differ only in places.
    _edit(tmp_path, "base.ts", "// moved down\n\n" + FILES["base.ts"])
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/base.ts"}
    assert_same_as_full(state, tmp_path)


def test_a_changed_export_rebinds_its_importers_through_export_star(
    tmp_path: Path, built: BuildState
) -> None:
    _edit(tmp_path, "base.ts", FILES["base.ts"].replace("helper", "renamed"))
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/base.ts", "src/barrel.ts", "src/user.ts", "src/direct.ts"}
    assert_same_as_full(state, tmp_path)
    calls = {edge.source for edge in state.graph.edges if edge.target.endswith("helper")}
    assert calls == set()


def test_a_changed_call_rebinds_the_file_and_nothing_imports_it(
    tmp_path: Path, built: BuildState
) -> None:
    _edit(tmp_path, "user.ts", FILES["user.ts"].replace("return helper();", "return 0;"))
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/user.ts"}
    assert_same_as_full(state, tmp_path)


def test_an_appended_export_rebinds_the_file_and_what_hands_its_names_on(
    tmp_path: Path, built: BuildState
) -> None:
    # Only names are added: nothing imports `extra`, so user.ts and direct.ts bind as before;
    # the barrel re-exports every name of base with `export *`.
    _edit(tmp_path, "base.ts", FILES["base.ts"] + "export function extra() { return helper(); }\n")
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/base.ts", "src/barrel.ts"}
    assert_same_as_full(state, tmp_path)


def test_an_added_name_rebinds_the_importers_that_looked_for_it(
    tmp_path: Path, built: BuildState
) -> None:
    _edit(tmp_path, "lone.ts", "import { later } from './barrel';\nexport const a = later();\n")
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert not any(edge.target.endswith("#later") for edge in state.graph.edges)
    _edit(tmp_path, "base.ts", FILES["base.ts"] + "export const later = () => 3;\n")
    state = rebuild(state, GraphOptions(str(tmp_path), use_cache=False))
    # Through the barrel's `export *`: lone.ts imports the new name (and so does its closure).
    assert state.rebound == {"src/base.ts", "src/barrel.ts", "src/lone.ts"}
    assert_same_as_full(state, tmp_path)
    assert any(edge.target == "src/base.ts#later" for edge in state.graph.edges)


def test_an_added_export_star_of_a_module_already_imported_reaches_every_importer(
    tmp_path: Path, built: BuildState
) -> None:
    # user.ts looks for `alone` through the barrel; base.ts already imports ./lone, so the
    # new `export *` adds no specifier, yet every name base.ts does not declare now
    # falls through to lone.ts.
    _edit(tmp_path, "user.ts", FILES["user.ts"].replace("Store }", "Store, alone }"))
    prefix = "import { alone as lonely } from './lone';\nexport const viaLone = () => lonely();\n"
    _edit(tmp_path, "base.ts", prefix + FILES["base.ts"])
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    _edit(tmp_path, "base.ts", prefix + FILES["base.ts"] + "export * from './lone';\n")
    state = rebuild(state, GraphOptions(str(tmp_path), use_cache=False))
    assert "src/user.ts" in (state.rebound or ())
    assert_same_as_full(state, tmp_path)


def test_an_edit_that_adds_a_member_to_an_existing_class_reaches_every_importer(
    tmp_path: Path, built: BuildState
) -> None:
    text = FILES["base.ts"].replace("load() {", "save() { return 0; }\n  load() {")
    _edit(tmp_path, "base.ts", text + "export function extra() { return 1; }\n")
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/base.ts", "src/barrel.ts", "src/user.ts", "src/direct.ts"}
    assert_same_as_full(state, tmp_path)


def test_an_added_file_rebinds_the_files_whose_imports_now_resolve(
    tmp_path: Path, built: BuildState
) -> None:
    _edit(tmp_path, "lone.ts", "import { extra } from './extra';\nexport const a = extra();\n")
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/lone.ts"}
    _edit(tmp_path, "extra.ts", "export function extra() { return 3; }\n")
    state = rebuild(state, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/lone.ts", "src/extra.ts"}
    assert_same_as_full(state, tmp_path)


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        (
            "tsconfig.json",
            '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}',
            "a configuration file or package probe changed",
        ),
        (
            "package.json",
            '{"name": "rules", "dependencies": {"left-pad": "1.3.0"}}',
            "a configuration file or package probe changed",
        ),
        ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n", "a lockfile changed"),
        (
            # A config in a folder that had none now owns the files under it.
            "src/jsconfig.json",
            '{"compilerOptions": {"paths": {"~/*": ["./*"]}}}',
            "declaration files, nested configs or walk gaps changed",
        ),
    ],
)
def test_a_configuration_change_forces_a_full_rebuild(
    tmp_path: Path, built: BuildState, name: str, text: str, reason: str
) -> None:
    (tmp_path / name).write_text(text)
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound is None
    assert state.full_reason == reason
    assert_same_as_full(state, tmp_path)
