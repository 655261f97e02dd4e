"""Python's lexical scopes, as the facts resolve names in them.

A name is looked up in the scope of the code that uses it, then in the
enclosing function scopes, then in the module (LEGB without the builtins: an
unbound name is `global`). A class body is a scope of its own that the
functions inside it do not see, and `global x` sends `x` to the module.
Lookups are made once the whole file is read, so a name assigned anywhere in
a function is that function's local everywhere in it, as Python decides.
"""

from __future__ import annotations

from typing import Literal

ScopeKind = Literal["module", "class", "function", "comprehension"]
# ("decl", id) | ("import", index) | ("param", index) | ("local", index)
# | ("this", class id) | ("static-this", class id) | ("other", name) for a conflict
Bound = tuple[str, str | int]


class Scope:
    __slots__ = ("conflicts", "globals", "kind", "names", "nonlocals", "parent")

    def __init__(self, parent: Scope | None, kind: ScopeKind) -> None:
        self.parent = parent
        self.kind: ScopeKind = kind
        self.names: dict[str, Bound] = {}
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        # Names two different definitions or imports bind: which one a use sees is not read.
        self.conflicts: set[str] = set()

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def owns(self, name: str) -> bool:
        """Whether an assignment to `name` here binds it here (no `global`/`nonlocal`)."""
        return name not in self.globals and name not in self.nonlocals

    def bind(self, name: str, bound: Bound) -> bool:
        """Bind `name` here unless it is already bound here; true when this binding is the first.

        A module or class name bound again to something else is a conflict: what a
        use of it names depends on which statement ran last, so it resolves to nothing.
        """
        existing = self.names.get(name)
        if existing is not None:
            if existing != bound and self.kind in ("module", "class"):
                self.conflicts.add(name)
            return False
        self.names[name] = bound
        return True

    def lookup(self, name: str) -> Bound | None:
        scope: Scope | None = self
        first = True
        while scope is not None:
            if not first and scope.kind == "class":
                scope = scope.parent
                continue
            if name in scope.globals and scope.parent is not None:
                # `global` at module level is allowed and changes nothing there.
                return scope.module().lookup(name)
            if name in scope.conflicts:
                return ("other", name)
            found = scope.names.get(name)
            if found is not None:
                return found
            first = False
            scope = scope.parent
        return None


class Narrowed(Scope):
    """The body of `if isinstance(name, C):` in a function: the same scope as the function's
    (names bound in the body are its names), where `name` reads a local typed `C` instead of
    the parameter or local it narrows."""

    __slots__ = ("base", "index", "narrowed")

    def __init__(self, base: Scope, narrowed: str, index: int) -> None:
        super().__init__(base.parent, base.kind)
        self.base = base
        self.names = base.names
        self.globals = base.globals
        self.nonlocals = base.nonlocals
        self.conflicts = base.conflicts
        self.narrowed = narrowed
        self.index = index

    def lookup(self, name: str) -> Bound | None:
        found = self.base.lookup(name)
        if name == self.narrowed and found is not None and found[0] in ("param", "local"):
            return ("local", self.index)
        return found
