"""Graph symbols and call edges as drawn: one node form and one edge walk for every diagram
drawn from a graph (query answers, traversals, the review brief)."""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from tsograph.producers.diagrams.labels import short_name
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.diagrams.model import DiagramNode
from tsograph.producers.graph.indexed import IndexedGraph
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.held import HeldGraph


def graph_node(graph: IndexedGraph, key: str, depth: int, *, root: bool = False) -> DiagramNode:
    """The symbol `key`: its short name, file:line and entry kinds; a key the graph does not
    hold is drawn with its name only."""
    number = graph.index.get(key)
    location: Mapping[str, Any] = (graph.locations[number] if number is not None else None) or {}
    place = f"{location['path']}:{location['line']}" if "path" in location else None
    entries = graph.entries.get(number, ()) if number is not None else ()
    return DiagramNode(
        key=key,
        name=short_name(key),
        place=place,
        depth=depth,
        root=root,
        entries=tuple(sorted(entries)),
    )


def graph_edges(
    held: HeldGraph, keys: Collection[str], tiers: Sequence[str] = EVIDENCE_ORDER
) -> Iterator[DiagramEdge]:
    """The graph's edges of the given tiers between drawn keys, in key order."""
    graph = held.graph
    wanted = {EVIDENCE_ORDER.index(tier) for tier in tiers}
    for key in sorted(keys):
        number = graph.index.get(key)
        if number is None:
            continue
        for edge in held.outgoing[number]:
            target = graph.ids[graph.targets[edge]]
            if graph.ranks[edge] in wanted and target in keys:
                yield DiagramEdge(key, target, EVIDENCE_ORDER[graph.ranks[edge]])
