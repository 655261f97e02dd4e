"""The evidence tiers nest on every graph fixture: direct ⊂ bound ⊂ candidates.

For each fixture, every node is a root; a (root, symbol) pair reached in one
mode must be reached in every wider mode, at a depth no larger, and the
per-node unresolved-call counts may only shrink as the mode widens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import REPO
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.graph.traversal import traverse

FIXTURES = sorted(p for p in (REPO / "fixtures" / "graph").iterdir() if p.is_dir())
MODES = ("direct", "bound", "candidates")


def _pairs(graph: Graph, mode: str, direction: str) -> dict[tuple[int, str], int]:
    roots = sorted(graph.nodes)
    result = traverse(graph, roots, direction=direction, mode=mode, max_reached=100_000)
    pairs: dict[tuple[int, str], int] = {}
    for item in result.reached:
        for root in item["roots"]:
            pairs[(root, item["symbol"]["usr"])] = item["depth"]
    return pairs


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda path: path.name)
@pytest.mark.parametrize("direction", ["dependencies", "dependents"])
def test_reach_grows_with_the_mode(fixture: Path, direction: str, tmp_path: Path) -> None:
    graph = load_project_graph(str(fixture), cache_dir=str(tmp_path)).graph
    narrower: dict[tuple[int, str], int] | None = None
    for mode in MODES:
        pairs = _pairs(graph, mode, direction)
        if narrower is not None:
            assert narrower.keys() <= pairs.keys(), f"{mode} lost pairs on {fixture.name}"
            assert all(pairs[key] <= depth for key, depth in narrower.items())
        narrower = pairs


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda path: path.name)
def test_unresolved_counts_shrink_with_the_mode(fixture: Path, tmp_path: Path) -> None:
    graph = load_project_graph(str(fixture), cache_dir=str(tmp_path)).graph
    for node in graph.nodes.values():
        counts = node.unresolved or {}
        direct = counts.get("direct", 0)
        bound = counts.get("bound", 0)
        candidates = counts.get("candidates", 0)
        assert direct >= bound >= candidates, node.id
