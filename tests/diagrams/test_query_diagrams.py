"""`query callers|callees|path|impact --format mermaid|dot` on the graph fixtures.

The goldens live with the other diagrams under fixtures/diagrams/ (query-*), so
oracle/diagrams/record.py gives them to Mermaid's parser and Graphviz and
test_oracle_replay.py replays those verdicts.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.producers.diagrams import answer_diagram as drawing
from tsograph.producers.graph.model import Edge
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import Node
from tsograph.producers.query.held import HeldGraph

GRAPHS = REPO / "fixtures" / "graph"
GOLDENS = REPO / "fixtures" / "diagrams"
SUFFIXES = {"mermaid": ".mmd", "dot": ".dot"}
CASES = {
    # Two hops of callers: the route handlers keep their METHOD /path; --depth 2 is cut.
    "query-basics-callers-depth-2": ("basics", "callers", "listJobs", "--depth", "2"),
    "query-basics-callees-depth-2": ("basics", "callees", "listJobs", "--depth", "2"),
    # Both ends are roots; the chain between them.
    "query-basics-path": ("basics", "path", "JobList", "all"),
    # The graph's edges between the symbols impact lists, whatever their order.
    "query-basics-impact": ("basics", "impact", "listJobs"),
    # The same, cut to five nodes: four nearest and a last node counting the rest.
    "query-basics-impact-cut": ("basics", "impact", "listJobs", "--max-nodes", "5"),
    # An ambiguous name: every declaration it matches as a root, and no answer.
    "query-basics-callers-ambiguous": ("basics", "callers", "save"),
    # Direct and bound callers apart (solid and dashed).
    "query-dispatch-callers-tiers": ("dispatch", "callers", "SqlItemStore.findItem"),
    "query-dispatch-impact": ("dispatch", "impact", "SqlItemStore.saveItem"),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("format_name", sorted(SUFFIXES))
def test_query_diagram_matches_golden(name: str, format_name: str) -> None:
    graph, *words = CASES[name]
    result = tsograph(
        "query", *words, "--project", GRAPHS / graph, "--no-cache", "--format", format_name
    )
    assert result.code == 0, result.stderr
    assert_matches_golden(result.stdout, GOLDENS / f"{name}{SUFFIXES[format_name]}")


def test_a_question_that_lists_no_symbols_is_not_drawn() -> None:
    result = tsograph(
        "query", "packages", "--project", GRAPHS / "basics", "--no-cache", "--format", "dot"
    )
    assert result.code == 64
    assert "--format dot draws callers, callees, path, impact" in result.stderr


def test_format_and_json_are_exclusive() -> None:
    result = tsograph(
        "query",
        "callers",
        "listJobs",
        "--project",
        GRAPHS / "basics",
        "--no-cache",
        "--format",
        "mermaid",
        "--json",
    )
    assert result.code == 64


def test_max_nodes_needs_a_format() -> None:
    result = tsograph(
        "query", "callers", "listJobs", "--project", GRAPHS / "basics", "--max-nodes", "5"
    )
    assert result.code == 64
    assert "--max-nodes applies to --format mermaid" in result.stderr


def _held() -> HeldGraph:
    nodes = {
        f"a.ts#{name}": Node(f"a.ts#{name}", "class", {"path": "a.ts", "line": line})
        for name, line in (("Store", 1), ("Sql", 5), ("Mem", 9), ("use", 12))
    }
    graph = Graph(nodes, [Edge("a.ts#use", "a.ts#Store", ("reference",), "direct")])
    return HeldGraph.of(graph, "b1", "built", None)


def test_a_symbol_list_draws_its_links_the_call_graph_does_not_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An implementers-shaped answer: symbols linked to the target by a relation that is no
    call edge draw that link at their tier; a link the graph holds is drawn once, as the graph's."""
    monkeypatch.setitem(drawing.DRAWN, "implementers", "of")
    held = _held()
    result = SimpleNamespace(
        target={"id": "a.ts#Store"},
        extra={},
        candidates=None,
        items=[
            {"id": "a.ts#Sql", "depth": 1, "tier": "direct", "of": "a.ts#Store"},
            {"id": "a.ts#Mem", "depth": 1, "tier": "candidate", "of": "a.ts#Store"},
            {"id": "a.ts#use", "depth": 1, "tier": "bound", "of": "a.ts#Store"},
        ],
        unexpanded=None,
        depth_cut=False,
        floor=False,
        reasons=[],
    )
    diagram = drawing.answer_diagram(
        held, "implementers", result, tiers=("direct", "bound", "candidate"), max_nodes=60
    )
    assert [(node.key, node.depth, node.root) for node in diagram.nodes] == [
        ("a.ts#Store", 0, True),
        ("a.ts#Sql", 1, False),
        ("a.ts#Mem", 1, False),
        ("a.ts#use", 1, False),
    ]
    assert [(edge.source, edge.target, edge.tier) for edge in diagram.edges] == [
        ("a.ts#Sql", "a.ts#Store", "direct"),
        ("a.ts#Mem", "a.ts#Store", "candidate"),
        ("a.ts#use", "a.ts#Store", "direct"),
    ]
    assert diagram.left_out is None
