"""The diagram of a graph question's answer (`query callers|callees|path|impact|...`).

A question gives its whole list (questions.Result, before any page is cut)
and the diagram reads it generically, by the shape of its items, so a new
question that lists symbols or edges draws with one entry in DRAWN:

- an edge item (`from`, `to`, `tier`, `depth`: callers, callees, path) draws
  both ends and that edge, caller to callee;
- a symbol item (`id`, `depth`: impact, and any question listing symbols)
  draws the symbol, and the graph's edges between drawn symbols of the tiers
  asked; an item naming another drawn symbol in its `link` field that no such
  edge joins (a relation the call graph does not hold, such as an
  implementation of a member) draws that link at the item's tier, from the
  item to the symbol it names.

The target (and path's second symbol) is the root at depth 0; every other
symbol is drawn at the smallest depth the answer lists it at, nearest first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from tsograph.producers.diagrams.cut import cut
from tsograph.producers.diagrams.graph_nodes import graph_edges
from tsograph.producers.diagrams.graph_nodes import graph_node
from tsograph.producers.diagrams.model import Diagram
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.held import HeldGraph

# Question -> the field of a symbol item naming the symbol it is linked to (None: none).
DRAWN: dict[str, str | None] = {
    "callers": None,
    "callees": None,
    "path": None,
    "impact": "via",
}


def answer_diagram(
    held: HeldGraph,
    question: str,
    result: Any,
    *,
    tiers: Sequence[str],
    max_nodes: int,
    depth: int | None = None,
) -> Diagram:
    """`result` is the question's Result (target, candidates, items, floor, depth_cut,
    unexpanded, extra); `depth` is the --depth asked, named on the final node."""
    roots = [result.target] if result.target else []
    if "to" in result.extra:
        roots.append(result.extra["to"])
    if result.candidates is not None:
        roots = list(result.candidates)
    depth_of: dict[str, int] = {symbol["id"]: 0 for symbol in roots}
    order: list[str] = list(depth_of)
    links: list[DiagramEdge] = []
    symbol_items = False
    ends: tuple[str, ...]
    for item in result.items:
        if "from" in item:
            ends = (item["from"], item["to"])
            links.append(DiagramEdge(item["from"], item["to"], item["tier"]))
        else:
            symbol_items = True
            ends = (item["id"],)
        for end in ends:
            if end not in depth_of:
                order.append(end)
                depth_of[end] = item["depth"]
            else:
                depth_of[end] = min(depth_of[end], item["depth"])
    root_ids = {symbol["id"] for symbol in roots}
    nodes = [graph_node(held.graph, key, depth_of[key], root=key in root_ids) for key in order]
    keys = set(depth_of)
    edges = list(links)
    if symbol_items:
        joined = list(graph_edges(held, keys, tiers))
        edges += joined
        link = DRAWN.get(question)
        if link is not None:
            pairs = {(edge.source, edge.target) for edge in joined}
            edges += [
                DiagramEdge(item["id"], item[link], item.get("tier", EVIDENCE_ORDER[-1]))
                for item in result.items
                if "id" in item and item.get(link) in keys and (item["id"], item[link]) not in pairs
            ]
    diagram = cut(nodes, edges, max_nodes, _incomplete(result, depth))
    if any("route-handler" in node.entries for node in diagram.nodes):
        labels = held.routes()
        diagram = dataclasses.replace(
            diagram,
            nodes=tuple(
                dataclasses.replace(node, routes=labels.get(node.key, ())) for node in diagram.nodes
            ),
        )
    return diagram


def _incomplete(result: Any, depth: int | None) -> list[str]:
    """Why the answer itself is short of the whole picture, for the final node."""
    reasons = []
    if result.candidates is not None:
        reasons.append(f"{len(result.candidates)} declarations match the name; ask by id")
    if result.unexpanded is not None:
        reasons.append("the time budget ran out; ask again with a larger --budget-ms")
    if result.depth_cut:
        reasons.append(f"more lies past --depth {depth}" if depth else "more lies past the depth")
    if result.floor:
        causes = sorted({reason.split(" ", 1)[0].rstrip(":") for reason in result.reasons})
        reasons.append(
            "a floor: calls the graph could not link may add more (" + ", ".join(causes) + ")"
        )
    return reasons
