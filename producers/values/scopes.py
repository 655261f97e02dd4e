"""Which declaration a name refers to at a place of a JavaScript/TypeScript file: one scope table.

Every evaluator of the value layer (the client request evaluator, the ORM evaluator, the
Prisma provenance) looks names up here, so a name is bound by the same rules for all of
them. A lookup walks from the use up through the nodes that hold a scope and takes the
nearest one that declares the name (each scope's table is read once):

- the module, blocks and `switch` clauses: `const`/`let`/`var` declarators, function
  and class declarations, enums and namespaces, and (in the module) import bindings;
  `var` declarations nested in `if`, `try` and labelled statements are hoisted into
  the enclosing scope. Interfaces and type aliases declare types, not values, so they
  never hide a value of the same name (`type User = …; const User = …`): a type name is
  looked up apart (`lookup_type`);
- a function: its parameters, and a named function expression's own name;
- a `for` loop's declarations, a `for…in`/`for…of` loop's declared names (`for (k of
  ks)` assigns an outer `k` and declares nothing) and a `catch` clause's parameter.

The first declaration of a name in a scope wins. Each declaration keeps the property
path from the declared value to the name (`const { a: { b } } = v` declares `b` at
`("a", "b")`), or None where no property path reaches it (array and rest patterns,
computed keys, a shorthand with a default), so an evaluator never follows what it cannot.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from tsograph.producers.lang.syntax_read import is_function
from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_tree import Node

# `mutable`: `let`, `var`, and a loop head's names (each iteration binds them anew);
# `other`: enums, namespaces and `catch` parameters; `type`: interfaces and type aliases.
DeclarationKind = Literal[
    "const", "mutable", "function", "class", "import", "parameter", "other", "type"
]

IMPORT_ENTRIES = frozenset({"import_default", "import_named", "import_namespace"})
_BLOCKS = frozenset({"module", "block", "case", "default_case"})
_LOOPS = frozenset({"for", "for_in", "catch"})
# Value declarations besides functions and classes (an interface or a type alias is a type).
_OTHER_VALUES = frozenset({"enum", "namespace"})
_TYPE_DECLARATIONS = frozenset({"interface", "type_alias"})
# The declarations a type name may name.
_TYPES = frozenset({"type", "class", "other", "import"})
# Statements whose nested `var` declarations are hoisted into the enclosing scope.
_HOISTING = frozenset({"if", "try", "labeled"})


@dataclass(frozen=True, slots=True)
class Declaration:
    """What declares a name: `node` is the declarator, the function or class, the import
    entry (`import_default`/`import_named`/`import_namespace`), the parameter, the `for…in`
    loop or the `catch` clause; `name` the identifier or shorthand written for it."""

    kind: DeclarationKind
    node: Node
    name: Node
    keys: tuple[str, ...] | None = ()
    position: int = -1  # parameters: the index in the parameter list


def holds_scope(node: Node) -> bool:
    return node.kind in _BLOCKS or node.kind in _LOOPS or is_function(node)


class Scopes:
    """The scope table of one file: name lookups, each scope's declarations read once."""

    __slots__ = ("_tables",)

    def __init__(self) -> None:
        # scope -> (the values it declares, the types it declares)
        self._tables: dict[Node, tuple[dict[str, Declaration], dict[str, Declaration]]] = {}

    def lookup(self, use: Node, name: str) -> Declaration | None:
        """The declaration of the value `name` at `use`; None when nothing in the file
        declares it."""
        found = self.lookup_scoped(use, name)
        return None if found is None else found[1]

    def lookup_scoped(self, use: Node, name: str) -> tuple[Node, Declaration] | None:
        """(the scope, the declaration) of the nearest value declaration of `name`."""
        node: Node | None = use
        while node is not None:
            if holds_scope(node):
                found = self._table(node)[0].get(name)
                if found is not None:
                    return node, found
            node = node.parent
        return None

    def lookup_type(self, use: Node, name: str) -> Declaration | None:
        """The declaration of the type `name` at `use`: an interface, a type alias, a
        class, an enum, a namespace or an import."""
        node: Node | None = use
        while node is not None:
            if holds_scope(node):
                found = self._table(node)[1].get(name)
                if found is not None:
                    return found
            node = node.parent
        return None

    def table(self, scope: Node) -> dict[str, Declaration]:
        """The values `scope` declares itself (a node that holds no scope declares none)."""
        return self._table(scope)[0]

    def _table(self, scope: Node) -> tuple[dict[str, Declaration], dict[str, Declaration]]:
        tables = self._tables.get(scope)
        if tables is None:
            tables = ({}, {})
            for declaration in declarations(scope) if holds_scope(scope) else ():
                name = declaration.name.value or ""
                if declaration.kind != "type":
                    tables[0].setdefault(name, declaration)
                if declaration.kind in _TYPES:
                    tables[1].setdefault(name, declaration)
            self._tables[scope] = tables
        return tables


def declarations(scope: Node) -> Iterator[Declaration]:
    """What a scope node declares itself, in source order."""
    if scope.kind == "function":
        yield from _parameters(scope)
        own = scope.part("name")
        if scope.value == "expression" and own is not None and own.kind == "identifier":
            yield Declaration("function", scope, own)
    elif scope.kind == "catch":
        caught = scope.part("parameter")
        if caught is not None:
            for name, keys in pattern_paths(caught, ()):
                yield Declaration("other", scope, name, keys)
    elif scope.kind == "for_in":
        left = scope.part("left")
        if left is not None and scope.part("kind") is not None:
            for name, keys in pattern_paths(left, ()):
                yield Declaration("mutable", scope, name, keys)
    elif scope.kind == "for":
        initializer = scope.part("initializer")
        if initializer is not None and initializer.kind == "declaration":
            yield from _declarators(initializer, "mutable")
    else:
        for statement in scope.items:
            yield from statement_declarations(statement, top=scope.kind == "module")


def statement_declarations(statement: Node, *, top: bool = True) -> Iterator[Declaration]:
    """The names one statement declares in the scope that holds it (`top`: the module)."""
    kind = statement.kind
    if kind == "export":
        inner = statement.part("declaration")
        if inner is not None:
            yield from statement_declarations(inner, top=top)
    elif kind == "declaration":
        yield from _declarators(statement, "const" if statement.value == "const" else "mutable")
    elif kind in ("function", "class") and statement.value == "declaration":
        name = statement.part("name")
        if name is not None and name.kind == "identifier":
            yield Declaration("function" if kind == "function" else "class", statement, name)
    elif kind == "import" and top:
        for entry in statement.items:
            local = entry.part("local")
            if entry.kind in IMPORT_ENTRIES and local is not None and local.value is not None:
                yield Declaration("import", entry, local)
    elif kind in _OTHER_VALUES or kind in _TYPE_DECLARATIONS:
        name = statement.part("name")
        if name is not None and name.kind == "identifier":
            yield Declaration("other" if kind in _OTHER_VALUES else "type", statement, name)
    elif kind in _HOISTING:
        for inner in _var_declarations(statement):
            yield from _declarators(inner, "mutable")


def import_source(entry: Node) -> tuple[str, str] | None:
    """(specifier, imported name) of an import entry: `default`, `*` for a namespace."""
    statement = entry.parent
    if statement is None or statement.kind != "import" or statement.value is None:
        return None
    if entry.kind == "import_default":
        return statement.value, "default"
    if entry.kind == "import_namespace":
        return statement.value, "*"
    if entry.kind == "import_named" and entry.value is not None:
        return statement.value, entry.value
    return None


def pattern_paths(
    pattern: Node, path: tuple[str, ...] | None
) -> Iterator[tuple[Node, tuple[str, ...] | None]]:
    """Each name a binding pattern declares, with the property path that reaches it (None
    once an array, a rest, a computed key or a shorthand's default is on the way)."""
    kind = pattern.kind
    if kind == "identifier":
        yield pattern, path
    elif kind == "object_pattern":
        for item in pattern.items:
            if item.kind == "shorthand":
                yield item, None if path is None else (*path, item.value or "")
            elif item.kind == "property":
                key = static_key(item)
                value = item.part("value")
                if value is not None:
                    inner = None if path is None or key is None else (*path, key)
                    yield from pattern_paths(value, inner)
            else:  # `{ a = 1 }`, `{ ...rest }`
                yield from _unreached(item)
    elif kind == "assign_pattern":  # `{ a: b = 1 }`: `b` is `a` unless that is undefined
        left = pattern.part("left")
        if left is not None:
            yield from pattern_paths(left, path)
    else:
        yield from _unreached(pattern)


def _unreached(pattern: Node) -> Iterator[tuple[Node, None]]:
    """The names below a pattern that no property path reaches."""
    if pattern.kind in ("identifier", "shorthand"):
        yield pattern, None
        return
    for child in pattern.items if pattern.kind in ("object_pattern", "array_pattern") else ():
        yield from _unreached(child)
    if pattern.kind in ("property", "assign_pattern", "rest"):
        inner = pattern.part("value") or pattern.part("left")
        if inner is not None:
            yield from _unreached(inner)


def _declarators(declaration: Node, kind: DeclarationKind) -> Iterator[Declaration]:
    for declarator in declaration.items:
        pattern = declarator.part("name")
        if declarator.kind == "declarator" and pattern is not None:
            for name, keys in pattern_paths(pattern, ()):
                yield Declaration(kind, declarator, name, keys)


def _parameters(function: Node) -> Iterator[Declaration]:
    parameters = function.part("parameters")
    for index, parameter in enumerate([] if parameters is None else parameters.items):
        pattern = parameter.part("pattern")
        if pattern is None:
            continue
        rest = "rest" in parameter.flags
        for name, keys in pattern_paths(pattern, None if rest else ()):
            yield Declaration("parameter", parameter, name, keys, index)


def _var_declarations(node: Node) -> list[Node]:
    found: list[Node] = []
    stack = node.children()
    while stack:
        child = stack.pop()
        if child.kind == "declaration" and child.value == "var":
            found.append(child)
        elif child.kind not in ("function", "class"):
            stack.extend(child.children())
    return found
