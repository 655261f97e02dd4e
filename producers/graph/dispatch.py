"""Candidate edges: every project implementation that could answer an interface call.

Without a type checker, "could implement" is approximated from what the code
declares, and always errs on the side of more targets:

* nominally: a class that declares `implements I` — directly, through a base
  class, or through an interface that extends I;
* structurally: a class whose chain provides every member name I declares
  (with those of the interfaces I extends), or an object literal held by a
  variable or field whose keys include them all — names only: parameter and
  return types are not compared, so a shape that fits by name is a candidate
  even where TypeScript would reject it;
* for a method without a body (abstract) on a proven class, every subclass
  that provides the member with a body.

Only members with a body are targets. A type without declared members (a
function type, a union) gets nominal candidates only.
"""

from __future__ import annotations

from collections.abc import Callable

from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.binding import holds_object
from tsograph.producers.graph.binding import runs
from tsograph.producers.graph.referents import Interface

MAX_INTERFACE_DEPTH = 32


class Dispatcher:
    def __init__(self, binder: Binder, descendants: Callable[[], dict[str, set[str]]]) -> None:
        self.binder = binder
        self._descendants = descendants
        self._ancestors: dict[Interface, frozenset[Interface]] = {}
        self._implemented: dict[str, frozenset[Interface]] = {}
        self._candidates: dict[tuple[Interface, str], tuple[str, ...]] = {}
        self._declaring: dict[str, list[str]] | None = None

    def _declaration(self, interface: Interface) -> tuple[tuple[str, ...], list[Interface]]:
        index = self.binder.file(interface.path)
        declared = index.type_declarations.get(interface.name) if index else None
        if declared is None:
            return (), []
        bases = []
        for ref in declared.extends:
            value = self.binder.type_value(interface.path, (ref,))
            if isinstance(value, Interface):
                bases.append(value)
        return declared.members, bases

    def ancestors(self, interface: Interface) -> frozenset[Interface]:
        """The interface and every interface it extends, transitively."""
        cached = self._ancestors.get(interface)
        if cached is not None:
            return cached
        found = {interface}
        pending = [interface]
        while pending and len(found) < MAX_INTERFACE_DEPTH:
            for base in self._declaration(pending.pop())[1]:
                if base not in found:
                    found.add(base)
                    pending.append(base)
        result = frozenset(found)
        self._ancestors[interface] = result
        return result

    def members(self, interface: Interface) -> frozenset[str]:
        names: set[str] = set()
        for each in self.ancestors(interface):
            names.update(self._declaration(each)[0])
        return frozenset(names)

    def implemented(self, class_id: str) -> frozenset[Interface]:
        cached = self._implemented.get(class_id)
        if cached is not None:
            return cached
        found: set[Interface] = set()
        for owner in self.binder.class_chain(class_id):
            declaration = self.binder.declarations[owner]
            path = self.binder.file_of[owner]
            for ref in declaration.implements:
                value = self.binder.type_value(path, (ref,))
                if isinstance(value, Interface):
                    found |= self.ancestors(value)
        result = frozenset(found)
        self._implemented[class_id] = result
        return result

    def interface_candidates(self, interface: Interface, member: str) -> tuple[str, ...]:
        key = (interface, member)
        cached = self._candidates.get(key)
        if cached is not None:
            return cached
        required = self.members(interface)
        targets: set[str] = set()
        declarations = self.binder.declarations
        for declaration_id in self._could_hold(member):
            declaration = declarations[declaration_id]
            if declaration.kind == "class":
                found = self.binder.find_member(declaration.id, member, static=False)
                if found is None or not runs(found):
                    continue
                nominal = interface in self.implemented(declaration.id)
                structural = bool(required) and all(
                    self.binder.find_member(declaration.id, name, static=False) is not None
                    for name in required
                )
                if nominal or structural:
                    targets.add(found.id)
            elif holds_object(declaration) and required:
                children = self.binder.children.get(declaration.id, {})
                found_members = children.get(member, [])
                if found_members and runs(found_members[0]) and required <= children.keys():
                    targets.add(found_members[0].id)
        result = tuple(sorted(targets))
        self._candidates[key] = result
        return result

    def _could_hold(self, member: str) -> set[str]:
        """Every class and object-literal holder that may have `member`: the declarations
        with a child of that name and the subclasses of each (find_member follows the
        class chain). Asking every declaration of the program instead cost documenso
        about a quarter of an incremental rebuild."""
        if self._declaring is None:
            declaring: dict[str, list[str]] = {}
            for owner, names in self.binder.children.items():
                for name in names:
                    declaring.setdefault(name, []).append(owner)
            self._declaring = declaring
        descendants = self._descendants()
        found: set[str] = set()
        for owner in self._declaring.get(member, ()):
            if owner in self.binder.declarations:
                found.add(owner)
            found.update(descendants.get(owner, ()))
        return found

    def subclass_candidates(self, class_id: str, member: str, descendants: set[str]) -> list[str]:
        targets = set()
        for descendant in descendants:
            found = self.binder.find_member(descendant, member, static=False)
            if found is not None and runs(found):
                targets.add(found.id)
        return sorted(targets)
