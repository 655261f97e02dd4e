"""Replaying CPython's recorded calls (oracle/python-calls) against the Python graph, offline.

Precision: a call site with direct targets that the run reached (the caller
called something from that line) must have called each of them there.
Recall: the caller → callee pairs the run observed between graph nodes
(class bodies aside: defining a class is no call) that direct and bound
edges link, at least 95 %.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.graph.python.bases import with_bases
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.edges import PythonGraphBuilder
from tsograph.producers.project.python_modules import PythonModules

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "python-graph"
PROGRAMS = ["shop", "tasks", "library"]
# The goal is 0.95. library misses one pair: `functools.partial(notifier.notify)` on a
# Protocol-typed parameter, whose structural implementer is a candidate at most. Each miss
# must still be counted as an unresolved call of its caller (test below).
RECALL_FLOOR = {"shop": 1.0, "tasks": 1.0, "library": 0.96}


def _recorded(name: str) -> list[tuple[str, int, str]]:
    data = json.loads((FIXTURES / "recordings" / f"{name}.json").read_text())
    return [(caller, line, callee) for caller, line, callee in data["calls"]]


def _site_targets(root: Path) -> list[tuple[str, int, tuple[str, ...]]]:
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    facts = {path: with_bases(path, (root / path).read_bytes()) for path in files}
    binder = PythonBinder(facts, PythonModules.load(root, files))
    builder = PythonGraphBuilder(binder)
    found = []
    for path in files:
        for site in facts[path].calls:
            if site.kind in ("call", "decorator"):
                targets = builder.site_targets(path, site)
                found.append((site.owner, site.line, targets.direct))
    return found


@pytest.mark.parametrize("name", PROGRAMS)
def test_direct_edges_are_never_contradicted_by_the_run(name: str) -> None:
    root = FIXTURES / name
    recorded = _recorded(name)
    reached: dict[tuple[str, int], set[str]] = {}
    for caller, line, callee in recorded:
        reached.setdefault((caller, line), set()).add(callee)
    graph = load_project_graph(str(root), use_cache=False, language="python")
    classes = {node.id for node in graph.graph.nodes.values() if node.kind == "class"}
    wrong = []
    covered = 0
    for owner, line, direct in _site_targets(root):
        ran = reached.get((owner, line))
        if ran is None:
            continue
        for target in direct:
            if target in classes:
                continue  # constructing a class with no __init__ of the project runs no frame
            covered += 1
            if target not in ran:
                wrong.append(f"{owner}:{line} -> {target} (ran {sorted(ran)})")
    assert covered > 0
    assert not wrong, f"direct edges the run contradicts ({len(wrong)} of {covered}): {wrong}"


@pytest.mark.parametrize("name", PROGRAMS)
def test_direct_and_bound_edges_recall_what_ran(name: str) -> None:
    root = FIXTURES / name
    graph = load_project_graph(str(root), use_cache=False, language="python").graph
    nodes = graph.nodes
    linked = {
        (edge.source, edge.target) for edge in graph.edges if edge.evidence in ("direct", "bound")
    }
    observed = {
        (caller, callee)
        for caller, _, callee in _recorded(name)
        if caller in nodes and callee in nodes and nodes[callee].kind != "class"
    }
    missed = sorted(observed - linked)
    recall = 1 - len(missed) / len(observed)
    message = f"{name}: recall {recall:.3f} of {len(observed)} observed pairs; missed {missed}"
    print(message)
    assert recall >= RECALL_FLOOR[name], message
    silent = [
        (caller, callee) for caller, callee in missed if not nodes[caller].unresolved.get("bound")
    ]
    assert not silent, f"observed calls whose caller counts no unresolved call: {silent}"
