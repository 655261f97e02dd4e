"""What a diagram shows, independent of the language it is drawn in.

A command that finds symbols (reach, impact, trace; later the graph
questions) turns its answer into DiagramNodes and DiagramEdges, cut.py keeps
the nearest ones, and mermaid.py or dot.py draws the result (output.py's
write_diagram). Nodes are symbols, roots, entries and routes, tables and
services alike: a builder marks them with the fields below and gives each its
distance from the nearest root. Every string a
node carries comes from the repository and is escaped by the renderer; the
renderers add no repository text anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.graph.model import EVIDENCE_ORDER

TIERS = EVIDENCE_ORDER  # direct, bound, candidate: solid, dashed, dotted


@dataclass(frozen=True)
class DiagramNode:
    key: str  # unique within the diagram (a symbol id); never drawn
    name: str  # the short name drawn first
    place: str | None  # "file:line", when the symbol has a location
    depth: int  # distance from the nearest root; roots are 0
    root: bool = False
    entries: tuple[str, ...] = ()  # entry-point kinds (route-handler, page, ...)
    routes: tuple[str, ...] = ()  # "METHOD /path" of the routes this symbol handles
    table: bool = False
    service: bool = False  # a service the code calls (an HTTP request), drawn as its own shape
    details: tuple[str, ...] = ()  # more lines under the place (a table's columns, a service)


@dataclass(frozen=True)
class DiagramEdge:
    source: str  # DiagramNode.key of the caller (or user)
    target: str  # DiagramNode.key of the callee (or what is used)
    tier: str  # one of TIERS


@dataclass(frozen=True)
class LeftOut:
    """The final node: how many symbols are not drawn, and why."""

    count: int  # symbols known and not drawn
    reasons: tuple[str, ...]  # one line each, fixed tool text


@dataclass(frozen=True)
class Diagram:
    nodes: tuple[DiagramNode, ...]  # in drawing order: nearest first
    edges: tuple[DiagramEdge, ...]  # between drawn nodes only, in drawing order
    left_out: LeftOut | None
