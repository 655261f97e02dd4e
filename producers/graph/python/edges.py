"""The Python call graph from bound facts: nodes, edges with their tier, unresolved calls.

Tiers, from code-graph.txt's levels:

* direct (certain): the callee is a name an import or a definition proves, or a
  method found by C3 on a receiver whose class a constructor call proves
  exactly, or on `self`/`cls`/an annotated receiver when no project subclass
  overrides it;
* bound (likely): the method found on `self`, `cls` or an annotated receiver
  plus every override a project subclass finds instead (abstract members left
  out), a receiver typed only by the project's writes to an attribute, and a
  parameter called in a closed function, bound to what every application
  passes, and a call by item on a closed module-level dict literal (flows.py):
  each rests on the whole program being in the scan (a class or a caller
  outside the project could add another);
* candidate (possible): a call on a `typing.Protocol`-typed receiver, to what
  each project class that is no subclass of the Protocol but whose methods
  cover the Protocol's by name finds (at most 32 per call).

A call with no edge is counted by reason on its owner and under
`unresolved-calls:`; calls into declared dependencies, the standard library
and the builtins are counted as external (`externalCalls`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from dataclasses import field

from tsograph.exchange.limitations import counted
from tsograph.producers.graph.call_tally import CallTally
from tsograph.producers.graph.model import Edge
from tsograph.producers.graph.model import EdgeSite
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import Node
from tsograph.producers.graph.model import add_declaration_node
from tsograph.producers.graph.model import strongest_edges
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.binding_values import DYNAMIC
from tsograph.producers.graph.python.binding_values import Decl
from tsograph.producers.graph.python.flows import ClosedFlows
from tsograph.producers.graph.python.targets import CALLABLE
from tsograph.producers.graph.python.targets import MAX_CANDIDATES
from tsograph.producers.graph.python.targets import Targets
from tsograph.producers.lang.facts import CallSite

VALUE_KINDS = frozenset({"callback", "reference"})


@dataclass
class PythonGraphBuilder(ClosedFlows):
    edges: list[Edge] = field(default_factory=list)
    tally: CallTally = field(default_factory=CallTally)
    # Calls with candidate edges (a Protocol receiver's call may have bound ones too).
    with_candidates: int = 0
    linked: int = 0
    external: int = 0
    # (file, site as placed, site as written, how it ended), in file and source order.
    resolved: list[tuple[str, CallSite, CallSite, Targets]] = field(default_factory=list)

    def add_sites(self, path: str) -> None:
        """Resolve every site of a file; edges are drawn by `finish` once all files are in."""
        for site in self.binder.facts[path].calls:
            placed = self._placed(site)
            if placed.kind in VALUE_KINDS or placed.kind == "read":
                if not placed.computed and placed.callee.members:
                    place = ((path, placed.line, placed.column, "call"),)
                    self._accessor_edges(placed.owner, self._accessor(path, placed.callee), place)
                if placed.kind != "read":
                    self._value_use(path, placed)
                continue
            targets = self.site_targets(path, placed)
            self.resolved.append((path, placed, site, targets))
            for target in targets.direct:
                self.applications.setdefault(target, []).append((path, site))

    def add_writes(self, path: str) -> None:
        """`a.b = v` where b is a property of a's class runs its setter."""
        for write in self.binder.facts[path].writes:
            if write.target.members and not write.computed:
                self._accessor_edges(write.owner, self._accessor(path, write.target))

    def _accessor_edges(
        self, owner: str, targets: Targets, place: tuple[EdgeSite, ...] = ()
    ) -> None:
        # A setter runs at an assignment, which the facts keep without a location: no site.
        for target in targets.direct:
            self.edges.append(Edge(owner, target, ("call",), "direct", place))
        for target in targets.bound:
            self.edges.append(Edge(owner, target, ("call",), "bound", place))
        for target in targets.candidates:
            self.edges.append(Edge(owner, target, ("call",), "candidate", place))

    def finish(self) -> None:
        for path, site, written, targets in self.resolved:
            kind = "call" if site.kind == "decorator" else targets.kind
            place = ((path, site.line, site.column, kind),)
            if targets.direct:
                self.linked += 1
                for target in targets.direct:
                    self.edges.append(Edge(site.owner, target, (kind,), "direct", place))
                continue
            if targets.external:
                self.external += 1
                continue
            reason = targets.reason or DYNAMIC
            self.tally.open(site.owner, reason)
            bound = (
                targets.bound
                or self.parameter_targets(path, written.callee)
                or self.item_targets(path, written)
            )
            for target in bound:
                self.edges.append(Edge(site.owner, target, (kind,), "bound", place))
            for target in targets.candidates:
                self.edges.append(Edge(site.owner, target, (kind,), "candidate", place))
            if targets.candidates:
                self.with_candidates += 1
            self.tally.settle(
                site.owner, reason, bound=bool(bound), candidates=bool(targets.candidates)
            )

    def _placed(self, site: CallSite) -> CallSite:
        """A decorator runs where its function or class is defined: its call belongs to the
        code around the definition, not to the function it decorates."""
        owner = self.binder.declarations.get(site.owner)
        if owner is not None and owner.parent and site.line < owner.line:
            return dataclasses.replace(site, owner=owner.parent)
        return site

    def _value_use(self, path: str, site: CallSite) -> None:
        """A function or class named where it is not called: a callback or reference edge."""
        if site.computed or site.callee.head in ("this", "static-this", "super"):
            return
        if site.callee.head == "decl" and not site.callee.members:
            self.escaped.add(site.callee.target)
        value = self.binder.ref_value(path, site.callee)
        if not isinstance(value, Decl):
            return
        self.escaped.add(value.id)
        declaration = self.binder.declarations[value.id]
        if declaration.kind == "class" or declaration.kind in CALLABLE:
            place = ((path, site.line, site.column, site.kind),)
            self.edges.append(Edge(site.owner, declaration.id, (site.kind,), "direct", place))


def build_python_graph(binder: PythonBinder) -> Graph:
    builder = PythonGraphBuilder(binder)
    nodes: dict[str, Node] = {}
    for path in sorted(binder.facts):
        facts = binder.facts[path]
        module = f"{path}#<module>"
        for declaration in facts.declarations:
            if declaration.is_anonymous_class:
                continue
            add_declaration_node(nodes, path, declaration)
            if declaration.callback:
                builder.edges.append(
                    Edge(declaration.parent, declaration.id, ("contains",), "direct")
                )
            elif (
                declaration.kind == "variable"
                and declaration.parent == module
                and declaration.has_body
                and (declaration.init is None or declaration.init.kind != "function")
            ):
                builder.edges.append(Edge(module, declaration.id, ("initializer",), "direct"))
        builder.add_sites(path)
        builder.add_writes(path)
    builder.finish()
    builder.tally.mark_nodes(nodes)
    edges = [edge for edge in builder.edges if edge.source in nodes and edge.target in nodes]
    snapshot_lines, mode_lines = _limitations(builder)
    graph = Graph(nodes, strongest_edges(edges), sorted(set(snapshot_lines)), mode_lines)
    graph.platform = "python"
    graph.statistics = {
        "files": len(binder.facts),
        "nodes": len(nodes),
        "edges": len(graph.edges),
        "linkedCalls": builder.linked,
        "externalCalls": builder.external,
        "unresolvedCalls": builder.tally.reasons.total(),
        "boundLinkedCalls": builder.tally.bound_linked.total(),
        "candidateLinkedCalls": builder.with_candidates,
    }
    return graph


def _limitations(builder: PythonGraphBuilder) -> tuple[list[str], dict[str, list[str]]]:
    """The snapshot's lines and each traversal mode's."""
    bound_line = counted(
        "bound-dispatch:",
        builder.tally.bound_linked.total(),
        "call(s) are linked by bound edges: the member C3 finds on self, cls or an annotated "
        "receiver with each project subclass's override, a receiver typed by the project's "
        "attribute writes, a parameter fed at closed call sites, or an item of a module-level "
        "dict literal nobody changes or hands out (whole-program assumption)",
    )
    unresolved = builder.tally.unresolved_lines()
    candidate_lines = []
    if builder.with_candidates:
        candidate_lines.append(
            counted(
                "candidate-dispatch:",
                builder.with_candidates,
                "call(s) on a Protocol-typed receiver are linked to every project class whose "
                "methods cover the Protocol's by name (signatures not compared; at most "
                f"{MAX_CANDIDATES} per call)",
            )
        )
    modes = {
        "direct": unresolved["direct"],
        "bound": [*unresolved["bound"], bound_line],
        "candidates": [*unresolved["candidates"], bound_line, *candidate_lines],
    }
    return [*unresolved["direct"], bound_line, *candidate_lines], modes
