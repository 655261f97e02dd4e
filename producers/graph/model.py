"""The in-memory call graph that `graph` writes and `reach` / `impact` traverse.

Nodes carry their kind, location, entry-point marks and per-mode counts of
unresolved calls; edges carry their kinds and one evidence tier. The tiers
nest: the direct graph is inside the bound graph, which is inside the
candidate graph, and a traversal mode selects how far in it looks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

EVIDENCE_ORDER = ("direct", "bound", "candidate")
MODES = ("direct", "bound", "candidates")
# The evidence tiers each traversal mode follows.
MODE_TIERS = {"direct": ("direct",), "bound": ("direct", "bound"), "candidates": EVIDENCE_ORDER}


@dataclass(frozen=True)
class Node:
    id: str
    kind: str
    location: Mapping[str, Any]
    entries: tuple[str, ...] = ()
    # Per mode ("direct", "bound", "candidates"); modes with no unresolved call are absent.
    unresolved: Mapping[str, int] = field(default_factory=dict)


def add_declaration_node(nodes: dict[str, Node], path: str, declaration: Any) -> None:
    """The node of one declaration fact (the first one wins: ids are unique per file)."""
    if declaration.id not in nodes:
        location = {"path": path, "line": declaration.line, "column": declaration.column}
        nodes[declaration.id] = Node(declaration.id, declaration.kind, location)


def with_unresolved(nodes: dict[str, Node], per_mode: Mapping[str, Mapping[str, int]]) -> None:
    """Write each node's unresolved-call counts, `{mode: {node id: count}}`; zero counts and
    ids that are not nodes are left out."""
    counts: dict[str, dict[str, int]] = {}
    for mode, by_node in per_mode.items():
        for node_id, count in by_node.items():
            if count and node_id in nodes:
                counts.setdefault(node_id, {})[mode] = count
    for node_id, modes in counts.items():
        node = nodes[node_id]
        nodes[node_id] = Node(node.id, node.kind, node.location, node.entries, modes)


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    kinds: tuple[str, ...]
    evidence: str


@dataclass
class Graph:
    nodes: dict[str, Node]
    edges: list[Edge]
    limitations: list[str] = field(default_factory=list)
    mode_limitations: dict[str, list[str]] | None = None
    statistics: dict[str, int] = field(default_factory=dict)
    platform: str = "js"  # the language read: "js" or "python"

    def limitations_for(self, mode: str) -> list[str]:
        if self.mode_limitations is not None:
            return list(self.mode_limitations[mode])
        return list(self.limitations)

    def revision(self) -> str:
        """sha256 over ids, kinds, entries, per-mode unresolved counts and edges.

        Locations are left out, so moving code without changing the graph keeps
        the revision, and every mode of reach and impact agrees with `graph`.
        """
        payload = {
            "nodes": [
                [node.id, node.kind, sorted(node.entries), dict(sorted(node.unresolved.items()))]
                for node in sorted(self.nodes.values(), key=lambda n: n.id)
            ],
            "edges": sorted(
                [edge.source, edge.target, sorted(edge.kinds), edge.evidence] for edge in self.edges
            ),
        }
        return "sha256:" + hashlib.sha256(orjson.dumps(payload)).hexdigest()


def node_record(node: Node) -> dict[str, Any]:
    record: dict[str, Any] = {"id": node.id, "kind": node.kind, "location": dict(node.location)}
    if node.entries:
        record["entries"] = sorted(node.entries)
    if node.unresolved:
        record["unresolvedCalls"] = dict(node.unresolved)
    return record


def edge_record(edge: Edge) -> dict[str, Any]:
    return {
        "from": edge.source,
        "to": edge.target,
        "kinds": sorted(edge.kinds),
        "evidence": edge.evidence,
    }


def graph_from_snapshot(document: Mapping[str, Any]) -> Graph:
    """The graph a validated tsograph-graph snapshot describes."""
    nodes = {
        raw["id"]: Node(
            raw["id"],
            raw["kind"],
            raw["location"],
            tuple(raw.get("entries", ())),
            dict(raw.get("unresolvedCalls", {})),
        )
        for raw in document["nodes"]
    }
    edges = [
        Edge(raw["from"], raw["to"], tuple(raw["kinds"]), raw["evidence"])
        for raw in document["edges"]
    ]
    mode_limitations = document.get("modeLimitations")
    return Graph(
        nodes,
        edges,
        list(document["limitations"]),
        {mode: list(mode_limitations[mode]) for mode in MODES} if mode_limitations else None,
        dict(document["statistics"]),
        document.get("platform", "js"),
    )


def strongest_edges(edges: Iterable[Edge]) -> list[Edge]:
    """At most one edge per pair and tier; a weaker edge whose kinds are already carried is dropped.

    A weaker edge between the same pair that adds no kind cannot change any
    traversal in any mode, so the snapshot leaves it out.
    """
    merged: dict[tuple[str, str, str], set[str]] = {}
    for edge in edges:
        merged.setdefault((edge.source, edge.target, edge.evidence), set()).update(edge.kinds)
    kept: list[Edge] = []
    for (source, target, evidence), kinds in merged.items():
        rank = EVIDENCE_ORDER.index(evidence)
        stronger: set[str] = set()
        for better in EVIDENCE_ORDER[:rank]:
            stronger |= merged.get((source, target, better), set())
        if kinds <= stronger:
            continue
        kept.append(Edge(source, target, tuple(sorted(kinds)), evidence))
    return sorted(kept, key=lambda e: (e.source, e.target, EVIDENCE_ORDER.index(e.evidence)))
