"""The brief's one diagram: the touched symbols, their callers two hops out, the routes
and tables reached, cut to the nearest DEFAULT_MAX_NODES like every diagram."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tsograph.producers.diagrams.cut import DEFAULT_MAX_NODES, cut
from tsograph.producers.diagrams.labels import short_name
from tsograph.producers.diagrams.model import Diagram, DiagramEdge, DiagramNode
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.review.redact import redact


def review_diagram(head: HeldGraph, summary: Mapping[str, Any]) -> Diagram:
    labels = head.routes()
    nodes: dict[str, DiagramNode] = {}
    edges: list[DiagramEdge] = []

    def add(node_id: str, depth: int, *, root: bool = False) -> None:
        known = nodes.get(node_id)
        if known is not None and known.depth <= depth:
            return
        number = head.graph.index.get(node_id)
        location = head.location(number) if number is not None else {}
        place = f"{location['path']}:{location['line']}" if "path" in location else None
        entries = head.graph.entries.get(number, ()) if number is not None else ()
        nodes[node_id] = DiagramNode(
            key=node_id,
            name=redact(short_name(node_id)),
            place=None if place is None else redact(place),
            depth=depth,
            root=root,
            entries=tuple(sorted(entries)),
            routes=tuple(map(redact, labels.get(node_id, ()))),
        )

    for block in summary["callers"]:
        if block["version"] != "head":
            continue
        target = block["symbol"]["id"]
        add(target, 0, root=True)
        hops = {row["caller"]: row for row in block["secondHop"]}
        for item in block["items"]:
            add(item["from"], 1)
            edges.append(DiagramEdge(item["from"], target, item["tier"]))
            for second in hops.get(item["from"], {}).get("callers", ()):
                add(second["from"], 2)
                edges.append(DiagramEdge(second["from"], item["from"], second["tier"]))
    for row in summary["routes"]["reached"]:
        handler = row["handler"]["id"]
        depth = min(reach["depth"] for reach in row["reaches"])
        add(handler, depth, root=depth == 0)
    for row in summary["relationUses"]["items"]:
        table = "table:" + str(row["table"])
        if table not in nodes:
            nodes[table] = DiagramNode(
                key=table,
                name=redact(str(row["table"])),
                place=None,
                depth=row["depth"] + 1,
                table=True,
            )
        add(row["symbol"], row["depth"])
        edges.append(DiagramEdge(row["symbol"], table, "direct"))
    # The graph's own edges between drawn symbols join the forward paths to the tables too.
    graph = head.graph
    for node_id in sorted(nodes):
        number = graph.index.get(node_id)
        if number is None:
            continue
        for edge in head.outgoing[number]:
            target = graph.ids[graph.targets[edge]]
            if target in nodes:
                edges.append(DiagramEdge(node_id, target, head.tier(edge)))
    ordered = sorted(nodes.values(), key=lambda node: (node.depth, node.key))
    return cut(ordered, edges, DEFAULT_MAX_NODES, cap=f"the brief's diagram of {DEFAULT_MAX_NODES}")
