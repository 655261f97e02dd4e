"""The in-memory call graph that `graph` writes and `reach` / `impact` traverse.

Nodes carry their kind, location, entry-point marks and per-mode counts of
unresolved calls; edges carry their kinds and one evidence tier. The tiers
nest: the direct graph is inside the bound graph, which is inside the
candidate graph, and a traversal mode selects how far in it looks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
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


# A place in a source: (path, line, column), 1-based.
Site = tuple[str, int, int]
# A place an edge stands for, with the edge kind written there (call, new, reference, …).
EdgeSite = tuple[str, int, int, str]


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    kinds: tuple[str, ...]
    evidence: str
    # The call sites (or value uses) the edge stands for; () for structural edges
    # (contains, initializer, alias), which have no site of their own.
    sites: tuple[EdgeSite, ...] = ()


# The relations a graph holds beside its call edges: they answer implementers,
# references and importers and are never followed by reach, impact or callers.
RELATION_KINDS = ("extends", "implements", "overrides", "imports", "type")


@dataclass(frozen=True, order=True)
class Relation:
    kind: str
    source: str  # the subclass, the overriding method, the importing module, the user
    target: str  # the base, the overridden member, the imported module, the type
    site: Site
    evidence: str = "direct"


@dataclass(frozen=True, order=True)
class TypeDeclaration:
    """An interface or type alias: no node of the call graph, but what a relation may name."""

    id: str
    kind: str  # "interface" or "type"
    site: Site


@dataclass
class Graph:
    nodes: dict[str, Node]
    edges: list[Edge]
    limitations: list[str] = field(default_factory=list)
    mode_limitations: dict[str, list[str]] | None = None
    statistics: dict[str, int] = field(default_factory=dict)
    platform: str = "js"  # the language read: "js" or "python"
    relations: list[Relation] = field(default_factory=list)
    types: list[TypeDeclaration] = field(default_factory=list)

    def limitations_for(self, mode: str) -> list[str]:
        if self.mode_limitations is not None:
            return list(self.mode_limitations[mode])
        return list(self.limitations)

    def revision(self) -> str:
        """sha256 over ids, kinds, entries, per-mode unresolved counts and edges.

        Locations are left out, so moving code without changing the graph keeps
        the revision, and every mode of reach and impact agrees with `graph`.
        Call sites and relations are details of the graph (`graph --details`),
        not part of what reach and impact traverse, and are left out too.
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


def _place(site: tuple[str, int, int]) -> dict[str, Any]:
    return {"path": site[0], "line": site[1], "column": site[2]}


def edge_record(edge: Edge, details: bool = False) -> dict[str, Any]:
    record: dict[str, Any] = {
        "from": edge.source,
        "to": edge.target,
        "kinds": sorted(edge.kinds),
        "evidence": edge.evidence,
    }
    if details and edge.sites:
        record["sites"] = [{**_place(site[:3]), "kind": site[3]} for site in edge.sites]
    return record


def relation_record(relation: Relation) -> dict[str, Any]:
    return {
        "kind": relation.kind,
        "from": relation.source,
        "to": relation.target,
        "evidence": relation.evidence,
        "site": _place(relation.site),
    }


def type_record(declared: TypeDeclaration) -> dict[str, Any]:
    return {"id": declared.id, "kind": declared.kind, "location": _place(declared.site)}


def _site(raw: Mapping[str, Any]) -> Site:
    return (raw["path"], raw["line"], raw["column"])


def _edge_site(raw: Mapping[str, Any]) -> EdgeSite:
    return (raw["path"], raw["line"], raw["column"], raw["kind"])


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
        Edge(
            raw["from"],
            raw["to"],
            tuple(raw["kinds"]),
            raw["evidence"],
            tuple(_edge_site(site) for site in raw.get("sites", ())),
        )
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
        [
            Relation(raw["kind"], raw["from"], raw["to"], _site(raw["site"]), raw["evidence"])
            for raw in document.get("relations", ())
        ],
        [
            TypeDeclaration(raw["id"], raw["kind"], _site(raw["location"]))
            for raw in document.get("types", ())
        ],
    )


def strongest_edges(edges: Iterable[Edge]) -> list[Edge]:
    """At most one edge per pair and tier; a weaker edge whose kinds are already carried is dropped.

    A weaker edge between the same pair that adds no kind cannot change any
    traversal in any mode, so the snapshot leaves it out. Each kept edge holds
    the sites of every edge merged into it, in source order. The sites of a
    dropped weaker edge go with it: moving them to the stronger edge would
    claim a tier they were never proven at.
    """
    merged: dict[tuple[str, str, str], set[str]] = {}
    sites: dict[tuple[str, str, str], set[EdgeSite]] = {}
    for edge in edges:
        key = (edge.source, edge.target, edge.evidence)
        merged.setdefault(key, set()).update(edge.kinds)
        if edge.sites:
            sites.setdefault(key, set()).update(edge.sites)
    kept: list[Edge] = []
    for (source, target, evidence), kinds in merged.items():
        rank = EVIDENCE_ORDER.index(evidence)
        stronger: set[str] = set()
        for better in EVIDENCE_ORDER[:rank]:
            stronger |= merged.get((source, target, better), set())
        if kinds <= stronger:
            continue
        place = tuple(sorted(sites.get((source, target, evidence), ())))
        kept.append(Edge(source, target, tuple(sorted(kinds)), evidence, place))
    return sorted(kept, key=edge_order)


def edge_order(edge: Edge) -> tuple[str, str, int]:
    """The order of a graph's edges: by source, target, then strongest evidence first."""
    return (edge.source, edge.target, EVIDENCE_ORDER.index(edge.evidence))
