"""Python decorators: what the name of a decorated function holds, and abstract members.

Decorators apply from the bottom up and the name keeps what the topmost one
returns. A decorator that hands its argument back (a builtin or functools one
known to, or a project function returning its parameter) is passed over; a
project decorator that always returns the same nested function gives that
wrapper; anything else leaves the name unknown.
"""

from __future__ import annotations

from functools import cached_property

from tsograph.producers.graph.python.binding_values import DYNAMIC
from tsograph.producers.graph.python.binding_values import Decl
from tsograph.producers.graph.python.binding_values import Outside
from tsograph.producers.graph.python.binding_values import Unknown
from tsograph.producers.graph.python.binding_values import Value
from tsograph.producers.graph.python.classes import ClassOrders
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration

# Decorators that hand the function back (or a C-level wrapper that calls it), by the name
# they are called by; checked against CPython 3.11's builtins, abc, functools and typing.
TRANSPARENT = frozenset(
    {
        "staticmethod",
        "classmethod",
        "property",
        "cached_property",
        "abstractmethod",
        "cache",
        "final",
        "override",
        "overload",
    }
)
TRANSPARENT_FACTORIES = frozenset({"lru_cache", "wraps"})
# `@name.setter` and the like: a property's other accessors.
ACCESSOR_DECORATORS = frozenset({"setter", "getter", "deleter"})


class Decorators(ClassOrders):
    # ---- decorators -----------------------------------------------------------------

    @cached_property
    def decorator_sites(self) -> dict[str, list[CallSite]]:
        """Declaration id → the calls written above its `def` or `class` line: its decorators
        (a plain name as a `decorator` site, a decorator factory as a `call`)."""
        found: dict[str, list[CallSite]] = {}
        for facts in self.facts.values():
            for site in facts.calls:
                owner = self.declarations.get(site.owner)
                if (
                    owner is not None
                    and owner.kind in ("function", "method", "constructor", "accessor", "class")
                    and site.line < owner.line
                    and site.kind in ("decorator", "call")
                ):
                    found.setdefault(owner.id, []).append(site)
        return found

    def decorated(self, declaration: Declaration) -> Value:
        """What the name of a decorated function holds. Decorators apply from the bottom up
        and the name keeps what the topmost one returns, so they are read from the top: a
        decorator that hands its argument back (a builtin or functools one known to, or a
        project function returning its parameter) is passed over; the first other one decides:
        a project decorator that always returns the same nested function gives that wrapper,
        anything else leaves the name unknown."""
        return self.decorated_by(declaration, self.decorator_sites.get(declaration.id, []))

    def decorated_by(self, declaration: Declaration, sites: list[CallSite]) -> Value:
        """What the function holds once the decorators `sites` (top first) are applied."""
        if declaration.kind == "class" or not sites:
            return Decl(declaration.id)
        if declaration.id in self._decorating:
            # Its own decorator names it (two definitions with one id): no end to follow.
            return Unknown(DYNAMIC)
        self._decorating.add(declaration.id)
        try:
            return self._decorated(declaration, sites)
        finally:
            self._decorating.discard(declaration.id)

    def _decorated(self, declaration: Declaration, sites: list[CallSite]) -> Value:
        path = self.file_of[declaration.id]
        for site in sites:
            names = (site.callee.name, *site.callee.members)
            if site.callee.members and names[-1] in ACCESSOR_DECORATORS:
                continue
            value = self.ref_value(path, site.callee)
            if isinstance(value, Outside):
                known = TRANSPARENT if site.kind == "decorator" else TRANSPARENT_FACTORIES
                if names[-1] in known:
                    continue
                return Unknown(DYNAMIC)
            if site.kind != "decorator" or not isinstance(value, Decl):
                return Unknown(DYNAMIC)
            returned = self._decorator_result(value.id)
            if returned is None:
                return Unknown(DYNAMIC)
            if returned:
                return Decl(returned)
        return Decl(declaration.id)

    def overloaded(self, declaration_id: str) -> bool:
        """Declared with `@overload` stubs: the facts keep the first stub, whose return type
        is one of several."""
        return any(
            (site.callee.name, *site.callee.members)[-1] == "overload"
            for site in self.decorator_sites.get(declaration_id, [])
        )

    def is_abstract(self, declaration_id: str) -> bool:
        """Marked `@abstractmethod` (abc's): it never answers a call on an instance."""
        declaration = self.declarations[declaration_id]
        path = self.file_of[declaration_id]
        for site in self.decorator_sites.get(declaration_id, []):
            names = (site.callee.name, *site.callee.members)
            if names[-1] == "abstractmethod" and isinstance(
                self.ref_value(path, site.callee), Outside
            ):
                return declaration.kind != "class"
        return False

    def _decorator_result(self, function_id: str) -> str | None:
        """ "" when the project decorator returns its first parameter, the id of the nested
        function it returns when it always returns that one, None otherwise."""
        path = self.file_of.get(function_id)
        if path is None:
            return None
        facts = self.facts[path]
        results = set()
        for item in facts.returns:
            if item.owner != function_id:
                continue
            ref = item.value.ref
            if item.value.kind != "alias" or ref is None or ref.members:
                return None
            if ref.head == "param" and 0 <= ref.index < len(facts.bindings):
                binding = facts.bindings[ref.index]
                results.add("" if binding.position == 0 and binding.owner == function_id else None)
            elif ref.head == "decl" and self.declarations.get(ref.target) is not None:
                nested = self.declarations[ref.target]
                results.add(nested.id if nested.parent == function_id else None)
            else:
                return None
        if len(results) != 1:
            return None
        return results.pop()
