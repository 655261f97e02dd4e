"""Which statement binds a Python name where it is used, read from the lowered syntax tree.

Python decides scopes per function: a name assigned anywhere in a function
body (or a parameter, an import, a `def`/`class`, a `with … as`, a `for`
target) is local to the whole function, unless `global`/`nonlocal` sends it
out. A class body is a scope that the functions inside it do not see.
Comprehensions are scopes of their own; a name they bind is never a
constant here. Module-level names are bound by every statement outside
functions and classes, including those inside `if`, `try`, `with` and loops.

A binding is the list of places that bind the name in its scope; a value is
proven only when there is exactly one (see evaluator.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_tree import Node

_SCOPES = frozenset({"function", "class", "module"})
_TARGET_PARENTS = frozenset({"array", "spread", "object_pattern", "array_pattern"})


@dataclass(frozen=True)
class Site:
    """One place that binds a name: `kind` is assign, augmented, param, import, def,
    class, with, loop, other; `node` is the binding node (the assign, the parameter,
    the import_* entry, the function or class, the with_item)."""

    kind: str
    node: Node


@dataclass
class ScopeTable:
    node: Node
    names: dict[str, list[Site]] = field(default_factory=dict)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)

    def add(self, name: str, site: Site) -> None:
        self.names.setdefault(name, []).append(site)


class FileScopes:
    """The scope tables of one file, built on demand."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self._tables: dict[int, ScopeTable] = {}
        self._globals: set[str] | None = None

    def table(self, scope: Node) -> ScopeTable:
        found = self._tables.get(id(scope))
        if found is None:
            found = _build(scope)
            self._tables[id(scope)] = found
        return found

    def lookup(self, use: Node, name: str) -> tuple[Node, list[Site]] | None:
        """The scope that binds `name` as used at `use`, with its binding sites; None when
        no scope of the file binds it (a builtin or an unknown global)."""
        first = True
        for scope in _scopes_of(use):
            if scope.kind == "class" and not first:
                continue
            first = False
            table = self.table(scope)
            if name in table.nonlocals:
                return None  # written from an inner function: never a constant
            if name in table.globals and scope.kind == "function":
                module_sites = self.module_sites(name)
                return (self.root, module_sites) if module_sites else None
            sites = table.names.get(name)
            if sites:
                return scope, sites
        return None

    def module_sites(self, name: str) -> list[Site]:
        return self.table(self.root).names.get(name, [])

    def written_globally(self, name: str) -> bool:
        """Whether a function declares `global name` (its writes reach the module name)."""
        if self._globals is None:
            self._globals = {
                item.value
                for node in nodes(self.root)
                if node.kind == "scope_declaration"
                for item in node.items
                if item.kind == "identifier" and item.value
            }
        return name in self._globals


def nodes(root: Node) -> Iterator[Node]:
    """Every node under `root` (itself included), in no particular order: cheaper than
    `Node.walk`, which sorts each node's children into source order."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.decorators)
        stack.extend(node.parts.values())
        stack.extend(node.items)


def _scopes_of(use: Node) -> list[Node]:
    """The scope nodes around a use, innermost first; a function's parameters, name and
    decorators belong to the scope around it, its body to itself."""
    found: list[Node] = []
    child = use
    for ancestor in use.ancestors():
        if ancestor.kind in _SCOPES:
            inside = ancestor.kind == "module" or child is ancestor.part("body")
            if ancestor.kind == "class":
                inside = child in ancestor.items
            if inside:
                found.append(ancestor)
        child = ancestor
    return found


def _build(scope: Node) -> ScopeTable:
    table = ScopeTable(scope)
    if scope.kind == "function":
        params = scope.part("parameters")
        for parameter in params.items if params is not None else ():
            pattern = parameter.part("pattern")
            if pattern is not None and pattern.kind == "identifier" and pattern.value:
                table.add(pattern.value, Site("param", parameter))
        body = scope.part("body")
        start = [body] if body is not None else []
    else:
        start = list(scope.items)
    stack = list(reversed(start))
    while stack:
        node = stack.pop()
        kind = node.kind
        if kind in ("function", "class"):
            name = node.part("name")
            if name is not None and name.value:
                table.add(name.value, Site("def" if kind == "function" else "class", node))
            # Decorators, defaults and bases run in this scope.
            stack.extend(node.decorators)
            if kind == "class" and node.part("bases") is not None:
                stack.append(node.parts["bases"])
            continue
        if kind == "comprehension":
            continue
        if kind == "scope_declaration":
            names = table.globals if node.value == "global" else table.nonlocals
            names.update(item.value for item in node.items if item.value)
            continue
        if kind == "assign":
            left = node.part("left")
            if left is not None:
                simple = node.value == "=" or node.value == ":="
                _targets(table, left, "assign" if simple else "augmented", node)
        elif kind == "with_item":
            alias = node.part("alias")
            if alias is not None:
                _targets(table, alias, "with", node)
        elif kind in ("for_in", "comprehension_for"):
            left = node.part("left")
            if left is not None:
                _targets(table, left, "loop", node)
        elif kind in ("import_namespace", "import_named", "import_default"):
            local = node.part("local")
            if local is not None and local.value:
                table.add(local.value, Site("import", node))
        elif kind == "catch":
            caught = node.part("parameter")
            if caught is not None:
                _targets(table, caught, "other", node)
        elif kind == "delete":
            for item in node.items:
                _targets(table, item, "other", node)
        elif kind == "match_pattern":
            for item in node.items:
                if item.value:
                    table.add(item.value, Site("other", node))
        stack.extend(node.decorators)
        stack.extend(node.parts.values())
        stack.extend(node.items)
    return table


def _targets(table: ScopeTable, target: Node, kind: str, site: Node) -> None:
    if target.kind == "identifier" and target.value:
        table.add(target.value, Site(kind, site))
        return
    if target.kind in _TARGET_PARENTS:
        # A name unpacked from a tuple is bound, but to a part of a value: never a constant.
        for item in target.children():
            _targets(table, item, "other", site)
