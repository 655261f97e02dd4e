"""The brief's one diagram: the touched symbols, their callers two hops out, the routes
and tables reached, cut to the nearest DEFAULT_MAX_NODES like every diagram."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from tsograph.producers.diagrams.cut import DEFAULT_MAX_NODES
from tsograph.producers.diagrams.cut import cut
from tsograph.producers.diagrams.graph_nodes import graph_edges
from tsograph.producers.diagrams.graph_nodes import graph_node
from tsograph.producers.diagrams.model import Diagram
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.diagrams.model import DiagramNode
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
        drawn = graph_node(head.graph, node_id, depth, root=root)
        nodes[node_id] = dataclasses.replace(
            drawn,
            name=redact(drawn.name),
            place=None if drawn.place is None else redact(drawn.place),
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
    edges.extend(graph_edges(head, nodes))
    ordered = sorted(nodes.values(), key=lambda node: (node.depth, node.key))
    return cut(ordered, edges, DEFAULT_MAX_NODES, cap=f"the brief's diagram of {DEFAULT_MAX_NODES}")
