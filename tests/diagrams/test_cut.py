"""cut.py: the nearest nodes first, the final node's count and reasons, edges between kept nodes."""

from __future__ import annotations

from tsograph.producers.diagrams.cut import cut
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.diagrams.model import DiagramNode
from tsograph.producers.diagrams.model import LeftOut


def _node(key: str, depth: int) -> DiagramNode:
    return DiagramNode(key=key, name=key, place=None, depth=depth)


def test_everything_fits_and_nothing_is_said() -> None:
    nodes = [_node("a", 0), _node("b", 1)]
    diagram = cut(nodes, [DiagramEdge("a", "b", "direct")], 2)
    assert [node.key for node in diagram.nodes] == ["a", "b"]
    assert diagram.left_out is None


def test_the_nearest_are_kept_and_the_final_node_counts_the_rest() -> None:
    # Listed out of depth order: depth decides, ties keep the given order.
    nodes = [_node("far", 3), _node("r", 0), _node("y", 1), _node("x", 1), _node("z", 2)]
    diagram = cut(nodes, [], 4)
    assert [node.key for node in diagram.nodes] == ["r", "y", "x"]
    assert diagram.left_out == LeftOut(2, ("--max-nodes 4 keeps the nearest 3",))


def test_a_cut_answer_gets_a_final_node_even_when_all_fits() -> None:
    diagram = cut([_node("r", 0)], [], 60, ["the traversal stops at --max-depth 1"])
    assert diagram.left_out == LeftOut(0, ("the traversal stops at --max-depth 1",))


def test_edges_join_kept_nodes_only_once_with_their_strongest_tier() -> None:
    nodes = [_node("r", 0), _node("a", 1), _node("b", 1), _node("gone", 2), _node("far", 3)]
    edges = [
        DiagramEdge("a", "r", "candidate"),
        DiagramEdge("r", "b", "bound"),
        DiagramEdge("r", "a", "candidate"),
        DiagramEdge("r", "a", "direct"),
        DiagramEdge("r", "b", "candidate"),
        DiagramEdge("b", "gone", "direct"),
    ]
    diagram = cut(nodes, edges, 4)
    assert diagram.edges == (
        DiagramEdge("r", "a", "direct"),
        DiagramEdge("r", "b", "bound"),
        DiagramEdge("a", "r", "candidate"),
    )
