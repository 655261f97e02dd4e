"""Where one Python call site goes: its direct, bound and candidate targets, or the reason
it has none (the tiers are written down in edges.py).

`SiteTargets.site_targets` reads a call's callee through the binder: a name, a
`super()` chain, a member C3 finds on a class or an instance (dispatched to the
overrides a subclass may bring), a property read or write, calling an object.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.binding_values import DYNAMIC
from tsograph.producers.graph.python.binding_values import Decl
from tsograph.producers.graph.python.binding_values import Instance
from tsograph.producers.graph.python.binding_values import Outside
from tsograph.producers.graph.python.binding_values import Unknown
from tsograph.producers.graph.python.binding_values import Value
from tsograph.producers.graph.python.decorators import ACCESSOR_DECORATORS
from tsograph.producers.graph.python.index import MroEntry
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Ref

# A call on self, cls or an annotated receiver whose method a project subclass overrides.
BASE_DISPATCH = "base-dispatch"
# A call on a Protocol-typed receiver that only classes matching it by member names answer.
PROTOCOL_DISPATCH = "protocol-dispatch"
# Possible targets kept for one call, as code-graph.txt bounds them.
MAX_CANDIDATES = 32
# What `object` defines (CPython 3.11): `super().__new__(cls)` past the project is its.
OBJECT_MEMBERS = frozenset(dir(object))
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
class SiteTargets:
    binder: PythonBinder

    def site_targets(self, path: str, site: CallSite) -> Targets:
        binder = self.binder
        callee = site.callee
        if site.computed:
            return Targets(reason=DYNAMIC)
        if _accessor_decorator(binder, site):
            return Targets(external=True)  # `@name.setter`: the builtin property's method
        if callee.members:
            receiver = binder.ref_value(path, receiver_of(callee))
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
        receiver = self.binder.ref_value(path, receiver_of(target))
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


def receiver_of(callee: Ref) -> Ref:
    return Ref(callee.head, callee.name, callee.target, callee.index, callee.members[:-1])


def _reason(found: str | Unknown | Outside | None) -> str:
    return found.reason if isinstance(found, Unknown) else ""
