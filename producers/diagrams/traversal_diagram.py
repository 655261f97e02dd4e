"""The diagram of a reach or impact answer.

Nodes are the present roots (depth 0, in the order given) and the reached
symbols (by depth, then id, as the traversal lists them); edges are the
graph's edges between drawn symbols that the dispatch mode follows, drawn
from caller to callee whatever the traversal's direction, each pair with its
strongest tier.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping

from tsograph.producers.diagrams.cut import cut
from tsograph.producers.diagrams.graph_nodes import graph_node
from tsograph.producers.diagrams.model import Diagram
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.graph.indexed import IndexedGraph
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.model import MODE_TIERS
from tsograph.producers.graph.traversal import Traversal

RouteLabels = Callable[[], Mapping[str, tuple[str, ...]]]


def traversal_diagram(
    graph: IndexedGraph,
    result: Traversal,
    *,
    mode: str,
    max_nodes: int,
    limits: Mapping[str, int],
    routes: RouteLabels | None,
) -> Diagram:
    """`limits` holds the traversal's --max-depth and --max-reached, named for the final node;
    `routes` reads the route labels, called only when a drawn node is a route handler."""
    nodes = [
        graph_node(graph, root["id"], 0, root=True) for root in result.roots if "symbol" in root
    ]
    drawn = {node.key for node in nodes}
    # A root that another root reaches is drawn once, as a root.
    nodes += [
        graph_node(graph, item["symbol"]["usr"], item["depth"])
        for item in result.reached
        if item["symbol"]["usr"] not in drawn
    ]
    incomplete = []
    if "depth" in result.truncation_reasons:
        incomplete.append(f"the traversal stops at --max-depth {limits['max_depth']}")
    if "max-reached" in result.truncation_reasons:
        incomplete.append(
            f"the traversal lists at most --max-reached {limits['max_reached']}; more exist"
        )
    if result.missing_roots:
        incomplete.append(f"{len(result.missing_roots)} given ids are not graph nodes")
    diagram = cut(nodes, _edges(graph, mode, {node.key for node in nodes}), max_nodes, incomplete)
    if routes is not None and any("route-handler" in node.entries for node in diagram.nodes):
        labels = routes()
        diagram = dataclasses.replace(
            diagram,
            nodes=tuple(
                dataclasses.replace(node, routes=labels.get(node.key, ())) for node in diagram.nodes
            ),
        )
    return diagram


def _edges(graph: IndexedGraph, mode: str, keys: set[str]) -> Iterator[DiagramEdge]:
    followed = len(MODE_TIERS[mode])
    ids = graph.ids
    for source, target, rank in zip(graph.sources, graph.targets, graph.ranks, strict=True):
        if rank < followed and ids[source] in keys and ids[target] in keys:
            yield DiagramEdge(ids[source], ids[target], EVIDENCE_ORDER[rank])
