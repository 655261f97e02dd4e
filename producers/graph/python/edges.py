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
  passes: each rests on the whole program being in the scan (a class or a
  caller outside the project could add another);
* candidate (possible): a call on a `typing.Protocol`-typed receiver, to what
  each project class that is no subclass of the Protocol but whose methods
  cover the Protocol's by name finds (at most 32 per call).

A call with no edge is counted by reason on its owner and under
`unresolved-calls:`; calls into declared dependencies, the standard library
and the builtins are counted as external (`externalCalls`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field

from tsograph.exchange.limitations import counted
from tsograph.producers.graph.model import (
    Edge,
    EdgeSite,
    Graph,
    Node,
    add_declaration_node,
    strongest_edges,
    with_unresolved,
)
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.decorators import ACCESSOR_DECORATORS
from tsograph.producers.graph.python.index import MroEntry
from tsograph.producers.graph.python.values import (
    DYNAMIC,
    Decl,
    Instance,
    Outside,
    Unknown,
    Value,
)
from tsograph.producers.lang.facts import CallSite, Ref

# A call on self, cls or an annotated receiver whose method a project subclass overrides.
BASE_DISPATCH = "base-dispatch"
# A call on a Protocol-typed receiver that only classes matching it by member names answer.
PROTOCOL_DISPATCH = "protocol-dispatch"
# Possible targets kept for one call, as code-graph.txt bounds them.
MAX_CANDIDATES = 32
# What `object` defines (CPython 3.11): `super().__new__(cls)` past the project is its.
OBJECT_MEMBERS = frozenset(dir(object))
VALUE_KINDS = frozenset({"callback", "reference"})
CALLABLE = frozenset({"function", "method", "constructor", "accessor"})


@dataclass
class Targets:
    """How one call site ended."""

    direct: tuple[str, ...] = ()
    bound: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    kind: str = "call"
    external: bool = False
    reason: str = ""


@dataclass
class PythonGraphBuilder:
    binder: PythonBinder
    edges: list[Edge] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    unresolved: Counter[str] = field(default_factory=Counter)
    # Calls bound edges do not link either, by owner (the bound and candidates modes).
    still_unresolved: Counter[str] = field(default_factory=Counter)
    bound_linked: Counter[str] = field(default_factory=Counter)
    # Calls neither bound nor candidate edges link, by owner; calls linked by either, by reason.
    candidate_unresolved: Counter[str] = field(default_factory=Counter)
    candidate_linked: Counter[str] = field(default_factory=Counter)
    with_candidates: int = 0
    linked: int = 0
    external: int = 0
    # (file, site as placed, site as written, how it ended), in file and source order.
    resolved: list[tuple[str, CallSite, CallSite, Targets]] = field(default_factory=list)
    # Function id → the sites (as written) that call it or apply it as a decorator.
    applications: dict[str, list[tuple[str, CallSite]]] = field(default_factory=dict)
    # Functions and classes used as values: what they are given is not known.
    escaped: set[str] = field(default_factory=set)

    def site_targets(self, path: str, site: CallSite) -> Targets:
        binder = self.binder
        callee = site.callee
        if site.computed:
            return Targets(reason=DYNAMIC)
        if _accessor_decorator(binder, site):
            return Targets(external=True)  # `@name.setter`: the builtin property's method
        if callee.members:
            receiver = binder.ref_value(path, _receiver(callee))
            member = callee.members[-1]
            if callee.head == "super":
                return self._super(callee.target, member)
            return self._member(receiver, member)
        value = binder.head_value(path, callee)
        if callee.head in ("param", "local") and isinstance(value, Outside):
            # A parameter typed `Callable` (or any outside type) may hold a project function.
            return Targets(reason=DYNAMIC)
        targets = self._value(value)
        if callee.head == "static-this" and targets.direct and isinstance(value, Decl):
            # `cls(...)` constructs the class or any project subclass it is called on.
            others = {
                found
                for subclass in binder.subclasses.get(value.id, ())
                for found in self._value(Decl(subclass)).direct
            } - set(targets.direct)
            if others:
                return Targets(
                    bound=(*targets.direct, *sorted(others)),
                    kind=targets.kind,
                    reason=BASE_DISPATCH,
                )
        return targets

    def _super(self, class_id: str, member: str) -> Targets:
        """`super().m()` in class C: in the order of the instance's class, the first class after
        C that defines m. The instance may be C or any project subclass, whose order can put
        another class right after C (a diamond): one answer is direct, several are bound."""
        binder = self.binder
        answers: set[str] = set()
        external = False
        for holder in sorted({class_id, *binder.subclasses.get(class_id, ())}):
            order = binder.mro(holder) if class_id else Unknown(DYNAMIC)
            if isinstance(order, Unknown):
                return Targets(reason=order.reason)
            found = _after(order, class_id, member, binder)
            if isinstance(found, str):
                answers.add(found)
            else:
                external = external or found
        if not answers:
            # Nothing of the project after C defines it: object's or an outside base's.
            return (
                Targets(external=True)
                if external or member in OBJECT_MEMBERS
                else Targets(reason=DYNAMIC)
            )
        targets = [self._value(Decl(answer)) for answer in sorted(answers)]
        found_targets = tuple(target for each in targets for target in each.direct)
        if len(answers) == 1 and not external:
            return targets[0]
        return Targets(bound=found_targets, kind=targets[0].kind, reason=BASE_DISPATCH)

    def _member(self, receiver: Value, member: str) -> Targets:
        binder = self.binder
        is_class = isinstance(receiver, Decl) and binder.declarations[receiver.id].kind == "class"
        if not isinstance(receiver, Instance) and not is_class:
            return self._value(binder.member_value(receiver, member))
        if isinstance(receiver, Instance):
            class_id = receiver.class_id
        elif isinstance(receiver, Decl):
            class_id = receiver.id
        found = binder.lookup(class_id, member)
        if isinstance(found, Outside):
            return Targets(external=True)
        if isinstance(found, Unknown):
            return Targets(reason=found.reason)
        targets = self._value(binder.member_value(receiver, member))
        if found is None or not targets.direct:
            return targets  # an instance attribute, or a member that is no function
        return self._dispatch(receiver, class_id, member, found, targets)

    def _accessor(self, path: str, target: Ref) -> Targets:
        """`a.b` read or assigned where C3 finds a property `b` on a's class: the getter (or
        setter: one id names both) runs, with the overrides a subclass may bring."""
        receiver = self.binder.ref_value(path, _receiver(target))
        if not isinstance(receiver, Instance):
            return Targets()
        member = target.members[-1]
        found = self.binder.lookup(receiver.class_id, member)
        if not isinstance(found, str) or self.binder.declarations[found].kind != "accessor":
            return Targets()
        if self.binder.decorated(self.binder.declarations[found]) != Decl(found):
            return Targets()  # another decorator may have replaced the property
        return self._dispatch(receiver, receiver.class_id, member, found, Targets((found,)))

    def _dispatch(
        self, receiver: Value, class_id: str, member: str, found: str, targets: Targets
    ) -> Targets:
        """The member C3 found on the receiver's class: direct when no other implementation
        may answer, else every implementation bound."""
        binder = self.binder
        exact = isinstance(receiver, Instance) and receiver.exact
        flow = isinstance(receiver, Instance) and receiver.flow
        protocol = not exact and binder.is_protocol(class_id)
        answers = [found] if exact else binder.implementations(class_id, member)
        if not flow and not protocol and answers == [found] and not binder.is_abstract(found):
            return targets
        # The receiver is the class or a project subclass (or rests on the project's writes):
        # every implementation it may find, abstract members left out, is bound; for a
        # Protocol, the classes that match it by member names only are candidates.
        implementations = [
            target
            for each in answers
            if not binder.is_abstract(each)
            for target in self._value(Decl(each)).direct
        ]
        candidates = [
            target
            for each in (binder.structural(class_id, member) if protocol else ())
            for target in self._value(Decl(each)).direct
            if target not in implementations
        ]
        if not implementations and not candidates:
            return Targets(reason=DYNAMIC)
        return Targets(
            bound=tuple(dict.fromkeys(implementations)),
            candidates=tuple(dict.fromkeys(candidates))[:MAX_CANDIDATES],
            kind=targets.kind,
            reason=BASE_DISPATCH if implementations else PROTOCOL_DISPATCH,
        )

    def _value(self, value: Value) -> Targets:
        binder = self.binder
        if isinstance(value, Outside):
            return Targets(external=True)
        if isinstance(value, Unknown):
            return Targets(reason=value.reason)
        if isinstance(value, Instance):
            # Calling an object runs its class's __call__, or a subclass's override.
            found = binder.lookup(value.class_id, "__call__")
            if isinstance(found, str):
                return self._dispatch(value, value.class_id, "__call__", found, Targets((found,)))
            return Targets(external=isinstance(found, Outside), reason=_reason(found) or DYNAMIC)
        if not isinstance(value, Decl):
            return Targets(reason=DYNAMIC)
        declaration = binder.declarations[value.id]
        if declaration.kind == "class":
            constructor = binder.constructor(declaration.id)
            if isinstance(constructor, str):
                return Targets(direct=binder.allocator(declaration.id, constructor), kind="new")
            return Targets(external=isinstance(constructor, Outside), reason=_reason(constructor))
        if declaration.kind in CALLABLE or (
            declaration.init is not None and declaration.init.kind == "function"
        ):
            if declaration.has_body:
                return Targets(direct=(declaration.id,))
            return Targets(reason="miss")
        return Targets(reason=DYNAMIC)

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
            self.reasons[reason] += 1
            self.unresolved[site.owner] += 1
            bound = targets.bound or self._parameter_targets(path, written)
            for target in bound:
                self.edges.append(Edge(site.owner, target, (kind,), "bound", place))
            for target in targets.candidates:
                self.edges.append(Edge(site.owner, target, (kind,), "candidate", place))
            if bound:
                self.bound_linked[reason] += 1
            else:
                self.still_unresolved[site.owner] += 1
            if targets.candidates:
                self.with_candidates += 1
            if bound or targets.candidates:
                self.candidate_linked[reason] += 1
            else:
                self.candidate_unresolved[site.owner] += 1

    def _parameter_targets(self, path: str, site: CallSite) -> tuple[str, ...]:
        """A call of a parameter (`function(*args)` in a decorator's wrapper): what every
        application of the function that declares it passes there, when the function is
        closed (only called or applied as a decorator, never used as a value) and every
        value passed is a project function or class. Bound: it rests on the whole program."""
        callee = site.callee
        facts = self.binder.facts[path]
        if callee.head != "param" or callee.members or not 0 <= callee.index < len(facts.bindings):
            return ()
        binding = facts.bindings[callee.index]
        function = binding.owner
        if binding.kind != "param" or binding.position < 0 or function in self.escaped:
            return ()
        applications = self.applications.get(function, [])
        found: list[str] = []
        for caller_path, application in applications:
            value = self._argument(caller_path, application, binding.position)
            if not isinstance(value, Decl):
                return ()
            targets = self._value(value)
            if not targets.direct:
                return ()
            found.extend(targets.direct)
        return tuple(dict.fromkeys(found))

    def _argument(self, path: str, site: CallSite, position: int) -> Value:
        """The value a call or a decorator application passes at `position`."""
        if site.kind == "decorator":
            # A decorator gets the function below it: the decorated one when nothing
            # non-transparent sits between them (only the bottom decorator is read).
            below = [
                other
                for other in self.binder.decorator_sites.get(site.owner, [])
                if (other.line, other.column) > (site.line, site.column)
            ]
            if position != 0 or below:
                return Unknown(DYNAMIC)
            return Decl(site.owner)
        if site.spread or position >= len(site.args):
            return Unknown(DYNAMIC)
        argument = site.args[position]
        if argument.kind != "alias" or argument.ref is None:
            return Unknown(DYNAMIC)
        return self.binder.ref_value(path, argument.ref)

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


def _after(
    order: tuple[MroEntry, ...], class_id: str, member: str, binder: PythonBinder
) -> str | bool:
    """The member the order defines first after `class_id`; True when an outside base comes
    first (it may define it), False when nothing after it does."""
    if class_id not in order:
        return False
    for entry in order[order.index(class_id) + 1 :]:
        if not isinstance(entry, str):
            return True
        found = binder.members.get(entry, {}).get(member)
        if found is not None:
            return found.id
    return False


def _accessor_decorator(binder: PythonBinder, site: CallSite) -> bool:
    callee = site.callee
    if site.kind != "decorator" or callee.head != "decl" or len(callee.members) != 1:
        return False
    declaration = binder.declarations.get(callee.target)
    return (
        declaration is not None
        and declaration.kind == "accessor"
        and callee.members[0] in ACCESSOR_DECORATORS
    )


def _receiver(callee: Ref) -> Ref:
    return Ref(callee.head, callee.name, callee.target, callee.index, callee.members[:-1])


def _reason(found: str | Unknown | Outside | None) -> str:
    return found.reason if isinstance(found, Unknown) else ""


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
    still = {n: builder.still_unresolved[n] for n in builder.unresolved}
    left = {n: builder.candidate_unresolved[n] for n in builder.unresolved}
    with_unresolved(nodes, {"direct": builder.unresolved, "bound": still, "candidates": left})
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
        "unresolvedCalls": builder.reasons.total(),
        "boundLinkedCalls": builder.bound_linked.total(),
        "candidateLinkedCalls": builder.with_candidates,
    }
    return graph


def _unresolved(reasons: Counter[str]) -> list[str]:
    if not reasons.total():
        return []
    return [
        counted(
            "unresolved-calls:",
            reasons.total(),
            "call(s) could not be linked to a project declaration and were not guessed",
            breakdown=reasons,
        )
    ]


def _limitations(builder: PythonGraphBuilder) -> tuple[list[str], dict[str, list[str]]]:
    """The snapshot's lines and each traversal mode's."""
    bound_line = counted(
        "bound-dispatch:",
        builder.bound_linked.total(),
        "call(s) are linked by bound edges: the member C3 finds on self, cls or an annotated "
        "receiver with each project subclass's override, a receiver typed by the project's "
        "attribute writes, or a parameter fed at closed call sites (whole-program assumption)",
    )
    after_bound = +(builder.reasons - builder.bound_linked)
    after_candidates = +(builder.reasons - builder.candidate_linked)
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
        "direct": _unresolved(builder.reasons),
        "bound": [*_unresolved(after_bound), bound_line],
        "candidates": [*_unresolved(after_candidates), bound_line, *candidate_lines],
    }
    return [*_unresolved(builder.reasons), bound_line, *candidate_lines], modes
