"""Assembling the direct call graph from bound facts.

Every declaration of every walked file is a node. Edges, all with direct
evidence here:

* call / new / jsx from a call site's owner to the declaration the callee
  binds to (`new C()` goes to C's constructor when it has a body, else to C);
* callback / reference for function values passed as arguments or used
  otherwise, and reference for a call of a project variable that has no
  target (the value is the package's or unknown): the call keeps its count,
  the edge records that the caller uses the variable;
* alias from an export node to what it resolves to;
* initializer from a constructor (or the class without one) to instance field
  initializers, from a derived class without a constructor to the base
  construction, and from the module scope to top-level variable initializers
  and static fields;
* contains from the declaration that lexically holds an inline callback to it.

A call site with no edge that does not go outside the project is counted on
its owner (`unresolvedCalls`) and, by reason, under unresolved-calls:.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

from tsograph.exchange.limitations import counted
from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.graph.binding import CALLABLE_KINDS
from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.bound import BoundDispatch
from tsograph.producers.graph.bound import Program
from tsograph.producers.graph.call_lines import dispatch_lines
from tsograph.producers.graph.call_tally import CallTally
from tsograph.producers.graph.dispatch import Dispatcher
from tsograph.producers.graph.flow import FlowMiss
from tsograph.producers.graph.merged_edges import strongest_by_file
from tsograph.producers.graph.model import Edge
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import Node
from tsograph.producers.graph.model import add_declaration_node
from tsograph.producers.graph.referents import COMPUTED
from tsograph.producers.graph.referents import INDIRECT
from tsograph.producers.graph.referents import INTERFACE
from tsograph.producers.graph.referents import PARAMETER
from tsograph.producers.graph.referents import UNTYPED
from tsograph.producers.graph.referents import Declared
from tsograph.producers.graph.referents import External
from tsograph.producers.graph.referents import Instance
from tsograph.producers.graph.referents import Interface
from tsograph.producers.graph.referents import Module
from tsograph.producers.graph.referents import Unknown
from tsograph.producers.graph.referents import Value
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import Ref

if TYPE_CHECKING:
    from tsograph.producers.graph.file_memo import FileMemo

# Call-site kinds that are calls (counted when unresolved); the others are value uses.
CALL_KINDS = frozenset({"call", "new", "tagged", "decorator", "super", "jsx"})
EDGE_KIND = {
    "call": "call",
    "tagged": "call",
    "decorator": "call",
    "super": "call",
    "new": "new",
    "jsx": "jsx",
    "callback": "callback",
    "reference": "reference",
}
VALUE_INITS = frozenset({"function", "class"})


@dataclass
class Outcome:
    """How one call site ended: an edge target, outside the project, or unresolved."""

    target: str | None = None
    external: bool = False
    missing_package: str | None = None
    reason: str | None = None
    overridden: bool = False
    # Interface dispatch: every implementation that could answer (candidate evidence).
    candidates: tuple[str, ...] = ()
    # A union-typed receiver: the members of its proven class parts (direct
    # evidence) and whether other parts stay unproven (the call is partial).
    union_targets: tuple[str, ...] = ()
    partial: bool = False


@dataclass(frozen=True, slots=True)
class SiteBinding:
    """What the direct rules prove about one call site.

    All of it follows from the facts of the site's file and of the files it
    imports, transitively (every binder lookup starts at the site and follows
    imports, re-exports, declared types and class chains), so an incremental
    run keeps it for a file whose import closure did not change. What reads
    the whole program (overridden members, interface candidates) is not part
    of it and is asked again on every run.
    """

    outcome: Outcome
    receiver: Value | None = None
    # The nodes an edge to the target stands for (`GraphBuilder.node_targets`).
    nodes: tuple[str, ...] = ()
    # For a call with no target: the project variable it names (`_called_variable`).
    used: str | None = None


@dataclass(frozen=True, slots=True)
class SitesRun:
    """What one file's call sites add to the graph, from their bindings alone.

    An incremental run replays it for a file whose import closure did not
    change; the parts that read the whole program are asked again on every
    run: whether a linked method is overridden (`overridable`) and the
    interface candidates of the calls left open (`open`).
    """

    edges: tuple[Edge, ...]
    # For bound dispatch, in site order: a linked site and its target, or (site, None) for
    # a value use that links nothing (the object it names may escape).
    indexed: tuple[tuple[CallSite, str | None], ...]
    linked: int
    external: int
    missing: int
    partial: int
    # Linked calls through a proven instance: (its class, the target).
    overridable: tuple[tuple[str, str], ...]
    # Calls no direct rule links, for bound and candidate dispatch.
    open: tuple[tuple[CallSite, SiteBinding], ...]


@dataclass
class GraphBuilder:
    binder: Binder
    edges: list[Edge] = field(default_factory=list)
    tally: CallTally = field(default_factory=CallTally)
    missing_calls: int = 0
    external_calls: int = 0
    linked_calls: int = 0
    overridden: int = 0
    unresolved_aliases: int = 0
    partial_calls: int = 0
    program: Program = field(default_factory=Program)
    # Calls the direct rules left open, for bound dispatch once the program is indexed.
    pending: list[tuple[str, CallSite, Outcome]] = field(default_factory=list)
    # The bound and candidate edges of those calls, by the file of the call.
    dispatched: dict[str, list[Edge]] = field(default_factory=dict)
    # Results kept per file between runs (incremental rebuilds); None binds everything.
    memo: FileMemo | None = None
    _descendants: dict[str, set[str]] | None = None
    _dispatcher: Dispatcher | None = None
    _bound: BoundDispatch | None = None

    @property
    def bound(self) -> BoundDispatch:
        if self._bound is None:
            make = BoundDispatch if self.memo is None else self.memo.bound_dispatch
            self._bound = make(self.binder, self.program, self.descendants)
        return self._bound

    def restart_bound(self) -> None:
        """Forget the bound dispatch made so far (the next use makes a new one)."""
        self._bound = None

    @property
    def dispatcher(self) -> Dispatcher:
        if self._dispatcher is None:
            self._dispatcher = Dispatcher(self.binder, self.descendants)
        return self._dispatcher

    # ---- call sites ------------------------------------------------------------

    def site_binding(self, path: str, site: CallSite) -> SiteBinding:
        """What the file's import closure proves about a site (see SiteBinding)."""
        binder = self.binder
        if site.computed:
            return SiteBinding(Outcome(reason=COMPUTED))
        callee = site.callee
        receiver: Value | None = None
        if callee.members:
            receiver = binder.ref_value(
                path,
                Ref(callee.head, callee.name, callee.target, callee.index, callee.members[:-1]),
            )
            value = binder.member_value(path, receiver, callee.members[-1])
        else:
            value = binder.head_value(path, callee)
        if site.kind == "super":
            value = self._base_construction(value)
        if not isinstance(value, Declared) and callee.head == "param" and not callee.members:
            # Calling a parameter itself is a parameter call, whatever its declared type.
            value = Unknown(PARAMETER)
        outcome = self._target(value, site.kind)
        if (
            outcome.target is None
            and not outcome.external
            and callee.members
            and site.kind in ("call", "tagged")
        ):
            receiver_ref = Ref(
                callee.head, callee.name, callee.target, callee.index, callee.members[:-1]
            )
            union = self._union_members(path, receiver_ref, callee.members[-1])
            if union is not None:
                outcome.union_targets, outcome.partial = union
        nodes = () if outcome.target is None else self.node_targets(outcome.target)
        used = None
        if outcome.target is None and site.kind in CALL_KINDS:
            used = self._called_variable(path, site)
        return SiteBinding(outcome, receiver, nodes, used)

    def _completed(self, site: CallSite, binding: SiteBinding) -> Outcome:
        """The site's outcome with the parts read from the whole program."""
        outcome = binding.outcome
        receiver = binding.receiver
        callee = site.callee
        # The kept outcome is shared between runs: what is added here goes on a copy.
        if outcome.target and isinstance(receiver, Instance):
            if self._is_overridden(receiver.class_id, outcome.target):
                return dataclasses.replace(outcome, overridden=True)
        elif outcome.reason == INTERFACE and callee.members and site.kind in ("call", "tagged"):
            candidates = self._candidates(receiver, callee.members[-1])
            return dataclasses.replace(outcome, candidates=candidates)
        return outcome

    def _candidates(self, receiver: Value | None, member: str) -> tuple[str, ...]:
        if isinstance(receiver, Interface):
            return self.dispatcher.interface_candidates(receiver, member)
        if isinstance(receiver, Instance):
            descendants = self.descendants().get(receiver.class_id, set())
            return tuple(
                self.dispatcher.subclass_candidates(receiver.class_id, member, descendants)
            )
        return ()

    def _union_members(
        self, path: str, receiver: Ref, member: str
    ) -> tuple[tuple[str, ...], bool] | None:
        """For a receiver declared as a union: each class part's member with a body.

        None when the receiver is not declared as a union of two or more
        types; otherwise the targets proven by class parts and whether some
        part (an interface, a package type, a member without a body) is
        unproven.
        """
        types = self.binder.declared_types(path, receiver)
        if len(types) < 2:
            return None
        targets: set[str] = set()
        partial = False
        for part in types:
            value = self.binder.type_value(path, (part,))
            found = (
                self.binder.find_member(value.class_id, member, static=False)
                if isinstance(value, Instance)
                else None
            )
            if found is not None and found.has_body and _is_function_like(found):
                targets.add(found.id)
            else:
                partial = True
        return tuple(sorted(targets)), partial

    def _base_construction(self, value: Value) -> Value:
        if isinstance(value, Instance):
            return Declared(value.class_id)
        return value

    def _target(self, value: Value, kind: str) -> Outcome:
        if isinstance(value, External):
            return Outcome(external=True, missing_package=value.package if value.missing else None)
        if isinstance(value, Unknown):
            return Outcome(reason=value.reason)
        if isinstance(value, Interface):
            return Outcome(reason=INTERFACE)
        if not isinstance(value, Declared):
            return Outcome(reason=INDIRECT)
        declaration = self.binder.declarations[value.id]
        if declaration.kind == "class":
            # A JSX class component is constructed, like `new`.
            if kind in ("new", "super", "jsx"):
                constructor = self.binder.constructor_of(value.id)
                if constructor is not None and constructor.has_body:
                    return Outcome(target=constructor.id)
                return Outcome(target=value.id)
            if kind in ("callback", "reference", "decorator"):
                return Outcome(target=value.id)
            return Outcome(reason=INDIRECT)
        if _is_function_like(declaration):
            if declaration.has_body:
                return Outcome(target=value.id)
            if declaration.kind == "method":
                return Outcome(reason=INTERFACE)
            return Outcome(external=True)
        return Outcome(reason=INDIRECT if declaration.has_body else UNTYPED)

    def _is_overridden(self, receiver_class: str, target: str) -> bool:
        declaration = self.binder.declarations[target]
        if declaration.static or declaration.kind not in ("method", "accessor", "field"):
            return False
        for descendant in self.descendants().get(receiver_class, ()):
            for member in self.binder.children.get(descendant, {}).get(declaration.name, ()):
                if not member.static and member.id != target:
                    return True
        return False

    def node_targets(self, target: str) -> tuple[str, ...]:
        """The nodes an edge to `target` stands for.

        An anonymous class expression has no node: constructing it (or passing it
        to code that may) runs its own constructor when it has a body, else its
        instance field initializers and its base's construction, so the edge goes
        to those. Every other declaration is its own node.
        """
        declaration = self.binder.declarations.get(target)
        if declaration is None or not declaration.is_anonymous_class:
            return (target,)
        return self.construction_targets(target)

    def construction_targets(self, class_id: str) -> tuple[str, ...]:
        """What `new` of a class links: its constructor with a body, else the class
        node, or for an anonymous class its instance fields and base construction."""
        found: list[str] = []
        seen: set[str] = set()
        # Up the base chain (a class has one base), as long as the classes are anonymous
        # and have no constructor body; a cycle of bases ends the walk.
        current: str | None = class_id
        while current is not None and current not in seen:
            seen.add(current)
            constructor = self.binder.constructor_of(current)
            if constructor is not None and constructor.has_body:
                found.append(constructor.id)
                break
            if not self.binder.declarations[current].is_anonymous_class:
                found.append(current)
                break
            found.extend(self._instance_fields(current))
            current = self.binder.base_class(current)
        return tuple(dict.fromkeys(found))

    def _instance_fields(self, class_id: str) -> list[str]:
        return [
            member.id
            for members in self.binder.children.get(class_id, {}).values()
            for member in members
            if member.kind == "field" and member.has_body and not member.static
        ]

    def descendants(self) -> dict[str, set[str]]:
        if self._descendants is None:
            found: dict[str, set[str]] = {}
            for declaration in list(self.binder.declarations.values()):
                if declaration.kind != "class":
                    continue
                for ancestor in self.binder.class_chain(declaration.id)[1:]:
                    found.setdefault(ancestor, set()).add(declaration.id)
            self._descendants = found
        return self._descendants

    # ---- the whole graph -------------------------------------------------------

    def add_sites(self, path: str, sites: Sequence[CallSite]) -> SitesRun:
        """Add what a file's call sites prove; the run's `indexed` sites are for the value
        flow, indexed once every file is (see build_graph)."""
        run = None if self.memo is None else self.memo.sites(path)
        if run is None:
            run = self._sites_run(path, sites)
            if self.memo is not None:
                self.memo.keep_sites(path, run)
        self.edges.extend(run.edges)
        self.linked_calls += run.linked
        self.external_calls += run.external
        self.missing_calls += run.missing
        self.partial_calls += run.partial
        for receiver_class, target in run.overridable:
            self.overridden += self._is_overridden(receiver_class, target)
        for site, binding in run.open:
            self.tally.open(site.owner, binding.outcome.reason or UNTYPED)
            self.pending.append((path, site, self._completed(site, binding)))
        return run

    def _sites_run(self, path: str, sites: Sequence[CallSite]) -> SitesRun:
        """What a file's call sites add to the graph, from its import closure alone."""
        edges: list[Edge] = []
        indexed: list[tuple[CallSite, str | None]] = []
        linked = external = missing = partial = 0
        overridable: list[tuple[str, str]] = []
        open_sites: list[tuple[CallSite, SiteBinding]] = []
        # A file names the same callee over and over (the extractor shares equal refs:
        # 94,000 sites, 56,000 refs on documenso), and a binding depends on the site's
        # kind, `computed` and callee only. Asked again, the binder gives the same answer:
        # each query starts with nothing in progress, and its caches keep what the
        # outermost computation returned.
        known: dict[tuple[str, bool, int], SiteBinding] = {}
        for site in sites:
            key = (site.kind, site.computed, id(site.callee))
            binding = known.get(key)
            if binding is None:
                binding = known[key] = self.site_binding(path, site)
            outcome = binding.outcome
            is_call = site.kind in CALL_KINDS
            place = ((path, site.line, site.column, EDGE_KIND[site.kind]),)
            if outcome.target is not None:
                for target in binding.nodes:
                    edges.append(Edge(site.owner, target, (EDGE_KIND[site.kind],), "direct", place))
                indexed.append((site, outcome.target))
                if is_call:
                    linked += 1
                    if isinstance(binding.receiver, Instance):
                        overridable.append((binding.receiver.class_id, outcome.target))
                continue
            if not is_call:
                indexed.append((site, None))
                continue
            used = binding.used
            if used is not None:
                used_at = ((path, site.line, site.column, "reference"),)
                edges.append(Edge(site.owner, used, ("reference",), "direct", used_at))
            if outcome.external:
                external += 1
                missing += outcome.missing_package is not None
                continue
            for target in outcome.union_targets:
                edges.append(Edge(site.owner, target, (EDGE_KIND[site.kind],), "direct", place))
            if outcome.union_targets and not outcome.partial:
                linked += 1
                continue
            if outcome.union_targets:
                partial += 1
            open_sites.append((site, binding))
        return SitesRun(
            tuple(edges),
            tuple(indexed),
            linked,
            external,
            missing,
            partial,
            tuple(overridable),
            tuple(open_sites),
        )

    def _called_variable(self, path: str, site: CallSite) -> str | None:
        """The project variable a call names when the call itself has no target.

        `buttonVariants({ variant })` with `const buttonVariants = cva(...)` runs
        package code (or code no rule proves), yet it uses the variable: a change
        to its initializer reaches the caller. The name is bound by scope and
        imports, as export nodes are (`export_declaration`), never by value.
        """
        callee = site.callee
        if callee.members or site.computed or site.kind == "super":
            return None  # a member's call (`api.get()`, `tasks[name]()`) calls the member
        binder = self.binder
        named: Value | None = None
        if callee.head == "decl":
            named = Declared(callee.target)
        elif callee.head == "import":
            index = binder.file(path)
            if index is not None and 0 <= callee.index < len(index.facts.imports):
                item = index.facts.imports[callee.index]
                whole = binder.module_value(path, item.specifier)
                if isinstance(whole, Module) and item.imported not in ("*", ""):
                    named = binder.export_declaration(whole.path, item.imported)
        if not isinstance(named, Declared):
            return None
        declaration = binder.declarations.get(named.id)
        if declaration is None or declaration.kind != "variable":
            return None
        return declaration.id

    def bound_targets(self) -> list[tuple[str, ...]]:
        """What bound dispatch links each open call to (raises FlowMiss, changing nothing,
        when the flows are a previous build's and lack an answer). A file's answers are
        kept while its call sites and the flow answers are the same."""
        bound = self.bound
        memo = self.memo
        pending = self.pending
        found: list[tuple[str, ...]] = []
        start = 0
        while start < len(pending):
            path = pending[start][0]
            end = start + 1
            while end < len(pending) and pending[end][0] == path:
                end += 1
            kept = None if memo is None else memo.targets(path, bound.token, end - start)
            if kept is None:
                kept = tuple(bound.targets(path, site) for _, site, _ in pending[start:end])
                if memo is not None:
                    memo.keep_targets(path, bound.token, kept)
            found.extend(kept)
            start = end
        return found

    def dispatch_pending(self, found: list[tuple[str, ...]]) -> None:
        """Bound, then candidate edges for the calls the direct rules left open (`found`:
        their bound targets)."""
        bound = self.bound
        for (path, site, outcome), targets in zip(self.pending, found, strict=True):
            reason = outcome.reason or UNTYPED
            kind = (EDGE_KIND[site.kind],)
            place = ((path, site.line, site.column, kind[0]),)
            if targets:
                edges = self.dispatched.setdefault(path, [])
                for target in targets:
                    edges.append(Edge(site.owner, target, kind, "bound", place))
                self.tally.settle(site.owner, reason, bound=True, candidates=False)
                continue
            candidates = bound.visible(path, outcome.candidates)
            for target in candidates:
                self.dispatched.setdefault(path, []).append(
                    Edge(site.owner, target, kind, "candidate", place)
                )
            self.tally.settle(site.owner, reason, bound=False, candidates=bool(candidates))
        self.pending = []

    def add_structure(self, path: str, declarations: Iterable[Declaration], module: str) -> None:
        """Contains, alias and initializer edges of one file (from its import closure)."""
        kept = None if self.memo is None else self.memo.structure(path)
        if kept is None:
            start, aliases = len(self.edges), self.unresolved_aliases
            self._add_structure(declarations, module)
            if self.memo is not None:
                edges = tuple(self.edges[start:])
                self.memo.keep_structure(path, (edges, self.unresolved_aliases - aliases))
            return
        self.edges.extend(kept[0])
        self.unresolved_aliases += kept[1]

    def _add_structure(self, declarations: Iterable[Declaration], module: str) -> None:
        binder = self.binder
        for declaration in declarations:
            if declaration.callback:
                self.edges.append(Edge(declaration.parent, declaration.id, ("contains",), "direct"))
            if declaration.kind == "export":
                value = binder.export_declaration(binder.file_of[declaration.id], declaration.name)
                if isinstance(value, Declared) and value.id != declaration.id:
                    self.edges.append(Edge(declaration.id, value.id, ("alias",), "direct"))
                elif isinstance(value, Module):
                    # `export * as ns from './m'` names the whole module.
                    self.edges.append(
                        Edge(declaration.id, module_id(value.path), ("alias",), "direct")
                    )
                elif not isinstance(value, External):
                    self.unresolved_aliases += 1
            elif declaration.kind == "class":
                self._class_initializers(declaration, module)
            elif (
                declaration.kind == "variable"
                and declaration.parent == module
                and declaration.has_body
                and (declaration.init is None or declaration.init.kind not in VALUE_INITS)
            ):
                self.edges.append(Edge(module, declaration.id, ("initializer",), "direct"))

    def _class_initializers(self, declaration: Declaration, module: str) -> None:
        binder = self.binder
        constructor = binder.constructor_of(declaration.id)
        has_constructor = constructor is not None and constructor.has_body
        source = constructor.id if constructor is not None and has_constructor else declaration.id
        # An anonymous class has no node: its static fields run where the class expression
        # is evaluated (the node holding it), and without a constructor of its own its
        # construction is linked at each `new` (node_targets).
        anonymous = declaration.is_anonymous_class
        for members in binder.children.get(declaration.id, {}).values():
            for member in members:
                if member.kind != "field" or not member.has_body:
                    continue
                if member.static:
                    if declaration.parent == module or anonymous:
                        self.edges.append(
                            Edge(declaration.parent, member.id, ("initializer",), "direct")
                        )
                    continue
                if anonymous and not has_constructor:
                    continue
                self.edges.append(Edge(source, member.id, ("initializer",), "direct"))
        base = binder.base_class(declaration.id)
        if constructor is None and base is not None and not anonymous:
            for target in self.construction_targets(base):
                self.edges.append(Edge(declaration.id, target, ("initializer",), "direct"))

    def _dispatch_lines(self) -> dict[str, list[str]]:
        return dispatch_lines(
            len(self.program.library_folders),
            self.program.incomplete,
            self.tally.bound_linked.total(),
            self.tally.candidate_linked.total(),
            self.bound.exhausted,
        )

    def mode_limitations(self) -> dict[str, list[str]]:
        """The graph's limitations as each traversal mode sees them."""
        shared = self.limitations()
        dispatch = self._dispatch_lines()
        unresolved = self.tally.unresolved_lines()
        return {
            "direct": [*shared, *unresolved["direct"]],
            "bound": [*shared, *unresolved["bound"], *dispatch["bound"]],
            "candidates": [*shared, *unresolved["candidates"], *dispatch["candidates"]],
        }

    def snapshot_limitations(self) -> list[str]:
        """Unresolved calls in the direct sense, and both dispatch lines."""
        dispatch = self._dispatch_lines()
        return sorted(
            {
                *self.limitations(),
                *self.tally.unresolved_lines()["direct"],
                *dispatch["bound"],
                *dispatch["candidates"],
            }
        )

    def limitations(self) -> list[str]:
        """Lines every mode shares."""
        lines = []
        if self.overridden:
            lines.append(
                counted(
                    "overridden-methods:",
                    self.overridden,
                    "call(s) were linked to the statically resolved method only; "
                    "subclasses override it",
                )
            )
        if self.binder.missing_packages:
            lines.append(
                counted(
                    "missing-dependencies:",
                    self.missing_calls,
                    "call(s) go into packages that are not installed and count as external",
                    names=self.binder.missing_packages,
                )
            )
        if self.partial_calls:
            lines.append(
                counted(
                    "partial-dispatch:",
                    self.partial_calls,
                    "call(s) through a union-typed receiver are linked to the members of its "
                    "class parts only; the other parts are not proven",
                )
            )
        if self.unresolved_aliases:
            lines.append(
                counted(
                    "unresolved-export-aliases:",
                    self.unresolved_aliases,
                    "export node(s) could not be linked to the declaration they name",
                )
            )
        return lines


def _is_function_like(declaration: Declaration) -> bool:
    if declaration.kind in CALLABLE_KINDS:
        return True
    init = declaration.init
    return (
        declaration.kind in ("variable", "field") and init is not None and init.kind == "function"
    )


def build_graph(
    binder: Binder,
    paths: Iterable[str],
    program: Program | None = None,
    memo: FileMemo | None = None,
) -> tuple[Graph, GraphBuilder]:
    builder = GraphBuilder(binder, program=program or Program(), memo=memo)
    nodes: dict[str, Node] = {}
    ordered = sorted(paths)
    # Every file is indexed before any class hierarchy is read, so subclasses in
    # files no import has reached yet are not missed.
    indexes = binder.indexed(ordered)
    direct: dict[str, list[Edge]] = {}
    runs: dict[str, SitesRun] = {}
    for index in indexes:
        facts = index.facts
        path = facts.path
        for declaration in facts.declarations:
            if not declaration.is_anonymous_class:
                add_declaration_node(nodes, path, declaration)
        start = len(builder.edges)
        builder.add_structure(path, facts.declarations, index.module)
        runs[path] = builder.add_sites(path, facts.calls)
        direct[path] = builder.edges[start:]
    builder.bound.separate(ordered, None if memo is None else memo.kept_side)
    # An incremental run whose edit changes no value-flow fact answers from the previous
    # build's flows (flow_reuse.py); a query they lack means indexing after all.
    found = None
    if memo is not None and memo.resume_flow(builder.bound, runs):
        try:
            found = builder.bound_targets()
            memo.flow_kept = True
        except FlowMiss:
            builder.restart_bound()
            builder.bound.separate(ordered, memo.kept_side)
    if found is None:
        for index in indexes:
            path = index.facts.path
            builder.bound.index_file(path, index.facts, runs[path].indexed)
        found = builder.bound_targets()
    builder.dispatch_pending(found)
    if memo is not None:
        memo.flow = builder.bound.kept()
    builder.tally.mark_nodes(nodes)
    graph = Graph(
        nodes,
        strongest_by_file(direct, builder.dispatched, nodes, memo),
        builder.snapshot_limitations(),
        builder.mode_limitations(),
    )
    graph.statistics = {
        "files": len(nodes and {n.location["path"] for n in nodes.values()}),
        "nodes": len(nodes),
        "edges": len(graph.edges),
        "linkedCalls": builder.linked_calls,
        "externalCalls": builder.external_calls,
        "unresolvedCalls": builder.tally.reasons.total(),
        "boundLinkedCalls": builder.tally.bound_linked.total(),
        # Calls only candidate edges link (bound dispatch gives a call one tier or the other).
        "candidateLinkedCalls": (
            builder.tally.candidate_linked.total() - builder.tally.bound_linked.total()
        ),
    }
    return graph, builder
