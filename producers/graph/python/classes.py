"""Python classes: bases, the C3 order, member lookup, constructors, implementations.

A class's bases are linearised by C3 (an order C3 cannot build is ambiguous); a
base outside the project is an opaque entry of that order, and a base the
graph cannot read (a call, a subscript) makes the class's order unknown
(`dynamic-base`). `object`, `typing.Generic`, `typing.Protocol` and `abc.ABC`
add nothing to look up. Implementations of a member are what each class an
instance may be finds by its own lookup; a Protocol is never instantiated
itself, and the classes that match one by method names are candidates.
"""

from __future__ import annotations

from functools import cached_property

from tsograph.producers.graph.python.binding_values import AMBIGUOUS
from tsograph.producers.graph.python.binding_values import DYNAMIC_BASE
from tsograph.producers.graph.python.binding_values import OUTSIDE
from tsograph.producers.graph.python.binding_values import Decl
from tsograph.producers.graph.python.binding_values import Outside
from tsograph.producers.graph.python.binding_values import Unknown
from tsograph.producers.graph.python.index import MroEntry
from tsograph.producers.graph.python.index import Opaque
from tsograph.producers.graph.python.names import ModuleNames
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import TypeRef

# Bases that add no attribute a project call could mean (typing's markers, abc.ABC, object).
NEUTRAL_BASES = frozenset(
    {("object",), ("typing", "Generic"), ("typing", "Protocol"), ("abc", "ABC")}
)


class ClassOrders(ModuleNames):
    @cached_property
    def subclasses(self) -> dict[str, set[str]]:
        """Class id → every project class whose order holds it (itself left out)."""
        found: dict[str, set[str]] = {}
        for declaration in self.declarations.values():
            if declaration.kind != "class":
                continue
            order = self.mro(declaration.id)
            if isinstance(order, Unknown):
                continue
            for entry in order[1:]:
                if isinstance(entry, str):
                    found.setdefault(entry, set()).add(declaration.id)
        return found

    # ---- classes --------------------------------------------------------------------

    def lookup(
        self, class_id: str, member: str, inherited: bool = False
    ) -> str | Unknown | Outside | None:
        """The declaration `member` names first in the class's C3 order (`inherited`: in its
        bases' part of it); None when no class of the order defines it (an instance
        attribute, or none at all)."""
        order = self.mro(class_id)
        if isinstance(order, Unknown):
            return order
        for entry in order[1:] if inherited else order:
            if isinstance(entry, Opaque):
                # A base outside the project may define it: no edge, it is not ours to name.
                return OUTSIDE
            found = self.members.get(entry, {}).get(member)
            if found is not None:
                return found.id
        return None

    def bases(self, class_id: str) -> list[MroEntry] | Unknown:
        """The class's bases as project class ids or opaque outside entries."""
        declaration = self.declarations[class_id]
        path = self.file_of[class_id]
        written: list[Ref | TypeRef] = []
        if declaration.implements:
            written.extend(declaration.implements)
        elif declaration.extends is not None:
            written.append(declaration.extends)
        found: list[MroEntry] = []
        for base in written:
            if isinstance(base, TypeRef):
                if not base.chain:
                    return Unknown(DYNAMIC_BASE)
                chain = base.chain
                if base.args:
                    # `Generic[T]`, `Protocol[T]` of typing add nothing; `Base[int]` is unread.
                    if self._neutral(path, chain):
                        continue
                    return Unknown(DYNAMIC_BASE)
                value = self.scope_name(path, chain[0])
                for member in chain[1:]:
                    value = self.member_value(value, member)
            else:
                if base.head in ("result", "other"):
                    return Unknown(DYNAMIC_BASE)
                value = self.ref_value(path, base)
                chain = (base.name, *base.members)
            if isinstance(value, Decl) and self.declarations[value.id].kind == "class":
                found.append(value.id)
            elif isinstance(value, Outside):
                if self._neutral(path, chain):
                    continue
                found.append(Opaque(".".join(chain), self._imported_as(path, chain)))
            elif isinstance(value, Unknown):
                return value
            else:
                return Unknown(DYNAMIC_BASE)  # a module, a function or an object as a base
        return found

    def _imported_as(self, path: str, chain: tuple[str, ...]) -> str:
        """The dotted name a chain of `path` names through a module-level import."""
        facts = self.facts[path]
        for item in facts.imports:
            if item.local != chain[0] or item.scoped:
                continue
            if item.kind == "named":
                return ".".join((item.specifier, item.imported, *chain[1:]))
            if item.kind == "namespace":
                return ".".join((item.specifier, *chain[1:]))
        return ""

    def _neutral(self, path: str, chain: tuple[str, ...]) -> bool:
        facts = self.facts[path]
        if chain == ("object",):
            return True
        head = chain[0]
        for item in facts.imports:
            if item.local != head:
                continue
            if item.kind == "namespace":
                return (item.specifier, *chain[1:]) in NEUTRAL_BASES
            if item.kind == "named" and len(chain) == 1:
                return (item.specifier, item.imported) in NEUTRAL_BASES
        return False

    def mro(self, class_id: str) -> tuple[MroEntry, ...] | Unknown:
        """C3 linearisation; Unknown when a base is unreadable or C3 has no order."""
        if class_id in self._mro:
            return self._mro[class_id]
        self._mro[class_id] = Unknown(AMBIGUOUS)  # a cycle of bases has no order
        bases = self.bases(class_id)
        result: tuple[MroEntry, ...] | Unknown
        if isinstance(bases, Unknown):
            result = bases
        else:
            sequences: list[list[MroEntry]] = []
            failed: Unknown | None = None
            for base in bases:
                if isinstance(base, Opaque):
                    sequences.append([base])
                    continue
                order = self.mro(base)
                if isinstance(order, Unknown):
                    failed = order
                    break
                sequences.append(list(order))
            if failed is not None:
                result = failed
            else:
                merged = _c3([*sequences, list(bases)])
                result = Unknown(AMBIGUOUS) if merged is None else (class_id, *merged)
        self._mro[class_id] = result
        return result

    def constructor(self, class_id: str) -> str | Unknown | Outside:
        """The `__init__` C3 finds for a class; the class itself when the project defines none."""
        found = self.lookup(class_id, "__init__")
        return class_id if found is None else found

    def allocator(self, class_id: str, constructor: str) -> tuple[str, ...]:
        """What calling the class runs: the `__new__` C3 finds in the project (before any
        outside base), then the `__init__` (or the class when the project defines none)."""
        found = self.lookup(class_id, "__new__")
        if isinstance(found, str) and self.declarations[found].has_body:
            return (found, constructor) if constructor != class_id else (found,)
        return (constructor,)

    def implementations(self, class_id: str, member: str) -> list[str]:
        """What each class an instance of `class_id` may be finds for `member` by its own
        C3 lookup (so an inherited one counts), sorted: the class and its project
        subclasses, a Protocol left out (it is never instantiated itself)."""
        found = set()
        for holder in (class_id, *self.subclasses.get(class_id, ())):
            if self.is_protocol(holder):
                continue
            answer = self.lookup(holder, member)
            if isinstance(answer, str):
                found.add(answer)
        return sorted(found)

    @cached_property
    def protocols(self) -> frozenset[str]:
        """Classes that name `typing.Protocol` among their bases."""
        found = set()
        for declaration in self.declarations.values():
            if declaration.kind != "class":
                continue
            path = self.file_of[declaration.id]
            for base in declaration.implements:
                chain = base.chain if isinstance(base, TypeRef) else ()
                if chain and chain[-1] == "Protocol" and self._neutral(path, chain):
                    found.add(declaration.id)
        return frozenset(found)

    def is_protocol(self, class_id: str) -> bool:
        return class_id in self.protocols

    def structural(self, protocol_id: str, member: str) -> list[str]:
        """For a Protocol: what `member` is in each project class that is no subclass of it
        and whose members cover the Protocol's methods by name (signatures not compared)."""
        wanted = {
            name
            for name, declaration in self.members.get(protocol_id, {}).items()
            if declaration.kind in ("method", "accessor") and not name.startswith("__")
        }
        if member not in wanted:
            return []
        related = {protocol_id, *self.subclasses.get(protocol_id, ())}
        found = set()
        for class_id in self.classes_with(member):
            if class_id in related or self.is_protocol(class_id):
                continue
            if all(isinstance(self.lookup(class_id, name), str) for name in wanted):
                answer = self.lookup(class_id, member)
                if isinstance(answer, str):
                    found.add(answer)
        return sorted(found)

    def classes_with(self, member: str) -> list[str]:
        """Project classes whose C3 order holds a class that declares `member`."""
        holders = [class_id for class_id, names in self.members.items() if member in names]
        found = set(holders)
        for holder in holders:
            found.update(self.subclasses.get(holder, ()))
        return sorted(found)


def _c3(sequences: list[list[MroEntry]]) -> list[MroEntry] | None:
    """Merge step of C3; None when no consistent order exists."""
    pending = [list(sequence) for sequence in sequences if sequence]
    result: list[MroEntry] = []
    while pending:
        for sequence in pending:
            head = sequence[0]
            if not any(head in other[1:] for other in pending):
                break
        else:
            return None
        result.append(head)
        pending = [[item for item in sequence if item != head] for sequence in pending]
        pending = [sequence for sequence in pending if sequence]
    return result
