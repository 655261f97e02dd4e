"""The values a Python server's module code builds, as far as they can be proven statically.

The interpreter (interpreter.py) runs module top levels in import order, the
way CPython does, and keeps for each name one of these values. Whatever it
cannot prove is `UNKNOWN`; a string whose parts are partly unknown keeps the
known parts (`Text`, values/python/strings.py), so a path under an unproven
prefix still has its proven tail. Framework objects (apps, routers, blueprints) are `Router`s whose
entries a framework module (fastapi.py, …) fills.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import text
from tsograph.producers.values.unknown import UNKNOWN


@dataclass(frozen=True)
class External:
    """A name from outside the project: `module` as imported, `name` the attribute path."""

    module: str
    name: str = ""

    def member(self, name: str) -> External:
        return External(self.module, f"{self.name}.{name}" if self.name else name)

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


@dataclass(eq=False)
class Function:
    """A project function (or lambda): its node, file, and the scope it closes over."""

    node: Node
    file: SyntaxFile
    scope: Scope
    usr: str


@dataclass(eq=False)
class Class:
    """A project class: its node and file; `bases` are its base values as evaluated."""

    node: Node
    file: SyntaxFile
    usr: str
    bases: tuple[Any, ...] = ()
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(eq=False)
class Instance:
    """An instance of a project class that derives from a modelled library class
    (redash's `class ApiExt(flask_restful.Api)`): `base` is the library value it is, for
    every name the project classes do not define."""

    cls: Class
    base: Any


@dataclass(frozen=True)
class BoundMethod:
    """A project class's method read from an instance: called with `self` first."""

    function: Function
    receiver: Instance


@dataclass(frozen=True)
class Keywords:
    """A function's `**kwargs` when its call has no spread: each keyword's argument
    (value and node, as `Args` holds it)."""

    items: tuple[tuple[str, Any], ...]


# How many values a function whose returns depend on conditions is kept as.
MAX_ALTERNATIVES = 8


@dataclass(frozen=True)
class Alternatives:
    """One of several values: what a function returns when a `return` runs under a
    condition (redash's `org_scoped_rule`: `if settings.MULTI_ORG: return "/<org_slug>"
    + rule`, then `return rule`). Which one is not known, so a registration made with
    it exists under a condition, once per value."""

    values: tuple[Any, ...]


def alternatives(values: list[Any]) -> Any:
    """The value that is one of `values`: the value itself when they agree, unknown when an
    alternative is unknown or there are too many."""
    found: list[Any] = []
    for value in values:
        for one in value.values if isinstance(value, Alternatives) else (value,):
            if one is UNKNOWN:
                return UNKNOWN
            if one not in found:
                found.append(one)
    if len(found) == 1:
        return found[0]
    return Alternatives(tuple(found)) if 1 < len(found) <= MAX_ALTERNATIVES else UNKNOWN


# How many project base classes an attribute is looked up through.
MAX_BASES_DEPTH = 16


def derives(view: Class, names: frozenset[str], depth: int = 0) -> bool:
    """Whether a project class derives, through project classes, from one of the named
    outside classes."""
    for base in view.bases:
        if isinstance(base, External) and base.qualified in names:
            return True
        if isinstance(base, Class) and depth < MAX_BASES_DEPTH and derives(base, names, depth + 1):
            return True
    return False


def inherited_attribute(view: Class, name: str, depth: int = 0) -> Any:
    """A class attribute, through project base classes; None when none defines it."""
    if name in view.attributes:
        return view.attributes[name]
    for base in view.bases:
        if isinstance(base, Class) and depth < MAX_BASES_DEPTH:
            found = inherited_attribute(base, name, depth + 1)
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class KeepsClass:
    """A class decorator proven to return the class it decorates (a framework says which)."""


@dataclass(frozen=True)
class Place:
    path: str
    line: int
    column: int


@dataclass(frozen=True)
class Handler:
    """The code a route runs: its graph id and a readable name."""

    usr: str | None
    qualified: str


@dataclass
class Entry:
    """One registration on a router, in registration order."""

    place: Place
    conditional: bool


@dataclass
class Route(Entry):
    methods: tuple[str, ...]
    path: Text
    handler: Handler
    websocket: bool = False
    # Flask: the options that change matching (strict_slashes), when proven.
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Include(Entry):
    """A router included (FastAPI include_router, Flask register_blueprint) at `prefix`.

    Flask: `prefix` None when register_blueprint gave no url_prefix (the blueprint's own).
    """

    child: Router
    prefix: Text | None


@dataclass
class Mount(Entry):
    """A sub-application or a file server mounted at `prefix` (`child` None: not a router)."""

    prefix: Text
    child: Router | None
    name: str


@dataclass(eq=False)
class Router:
    """An app or router object: `kind` is framework-specific (fastapi-app, apirouter, …)."""

    kind: str
    name: str  # the id of the variable or code that made it, for order groups
    place: Place
    # FastAPI routers: their prefix; Flask blueprints: url_prefix, None when not given.
    prefix: Text | None = field(default_factory=lambda: text(""))
    entries: list[Entry] = field(default_factory=list)
    included: bool = False
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Scope:
    """Names of a module or function body; `parent` is the module scope of a function."""

    names: dict[str, Any] = field(default_factory=dict)
    parent: Scope | None = None
    file: SyntaxFile | None = None

    def lookup(self, name: str) -> Any:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return UNKNOWN
