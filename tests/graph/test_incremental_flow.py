"""When an incremental rebuild keeps the previous value flow, and when it must not.

`flow.ts` calls `x.go()` on its parameter; bound dispatch links it to the
`go` of every class whose instance a call site passes (`a.ts` passes an `A`).
Every rebuild is compared with a full rebuild of the same tree.
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
    "flow.ts": "export function run(x: any) { return x.go(); }\n",
    "a.ts": "import { run } from './flow';\n"
    "export class A { go() { return 1; } }\n"
    "export function startA() { return run(new A()); }\n",
    "b.ts": "export class B { go() { return 2; } }\n",
    # Imports it does not use yet: an appended function can call them as only an added name.
    "c.ts": "import { B } from './b';\nimport { run } from './flow';\n"
    "export function make() { return 0; }\n",
}
BOUND_GO = "src/flow.ts#run"


def _bound_targets(state: BuildState) -> set[str]:
    return {
        edge.target
        for edge in state.graph.edges
        if edge.source == BOUND_GO and edge.evidence == "bound"
    }


@pytest.fixture
def built(tmp_path: Path) -> BuildState:
    (tmp_path / "src").mkdir()
    for name, text in FILES.items():
        (tmp_path / "src" / name).write_text(text)
    (tmp_path / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"strict": True}}))
    (tmp_path / "package.json").write_text(json.dumps({"name": "flow", "private": True}))
    state = rebuild(None, GraphOptions(str(tmp_path), use_cache=False))
    assert _bound_targets(state) == {"src/a.ts#A.go"}
    return state


def _edited(root: Path, built: BuildState, name: str, text: str) -> BuildState:
    (root / "src" / name).write_text(text)
    state = rebuild(built, GraphOptions(str(root), use_cache=False))
    assert_same_as_full(state, root)
    return state


def test_a_file_whose_lines_moved_keeps_the_flow(tmp_path: Path, built: BuildState) -> None:
    state = _edited(tmp_path, built, "a.ts", "\n\n" + FILES["a.ts"])
    assert state.rebound == {"src/a.ts"}
    assert state.flow_kept
    assert _bound_targets(state) == {"src/a.ts#A.go"}
    # And again from the kept flow.
    state = _edited(tmp_path, state, "a.ts", "\n\n\n" + FILES["a.ts"])
    assert state.flow_kept


def test_an_appended_function_that_passes_nothing_new_keeps_the_flow(
    tmp_path: Path, built: BuildState
) -> None:
    state = _edited(
        tmp_path, built, "b.ts", FILES["b.ts"] + "export function extra() { return 3; }\n"
    )
    assert state.flow_kept


def test_a_new_call_passing_another_value_computes_the_flow_again(
    tmp_path: Path, built: BuildState
) -> None:
    # Only a name is added to c.ts, but its call hands `run` a B: flow.ts's call changes.
    text = FILES["c.ts"] + "export function startB() { return run(new B()); }\n"
    state = _edited(tmp_path, built, "c.ts", text)
    assert state.rebound == {"src/c.ts"}
    assert not state.flow_kept
    assert _bound_targets(state) == {"src/a.ts#A.go", "src/b.ts#B.go"}


def test_a_new_open_call_asks_the_flow_something_new(tmp_path: Path, built: BuildState) -> None:
    # `y.go()` is left open by the direct rules: the kept flow does not hold its answer.
    text = FILES["c.ts"] + "export function again(y: any) { return y.go(); }\n"
    state = _edited(tmp_path, built, "c.ts", text)
    assert not state.flow_kept
