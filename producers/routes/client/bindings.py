"""Which declaration a name in a file's neutral syntax tree refers to.

A small lexical resolver: it walks from a use up through blocks and
functions and looks at the declarations each scope holds (hoisted `var` and
function declarations included, since a name is bound in its whole scope).
It answers only what the client producer needs: is `fetch` the global one,
is a name a `const` (immutable, so its initializer is its value), a
parameter of which function, or an import from which module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tsograph.producers.lang.syntax_read import is_function
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values.patterns import pattern_names

BindingKind = Literal["const", "mutable", "function", "class", "import", "param", "other"]

# Nodes that hold a scope of their own (classes hold none the producer reads).
_BLOCKS = frozenset({"module", "block", "case", "default_case"})
_LOOPS = frozenset({"for", "for_in", "catch"})
_NAMED_OTHER = frozenset({"enum", "namespace", "interface", "type_alias"})
# Statements whose nested `var` declarations are hoisted into the enclosing scope.
_HOISTING = frozenset({"if", "try", "labeled"})


@dataclass(frozen=True)
class Binding:
    kind: BindingKind
    node: Node  # the declarator, function, class, import entry, or the function of a param
    position: int = -1  # parameters: the index; imports: unused
    specifier: str = ""  # imports: the module specifier
    imported: str = ""  # imports: the name in that module ("default", "*" for a namespace)
    simple: bool = True  # parameters: a plain required name (no default, rest or pattern)


class Scopes:
    """Name resolution for one file, with each scope's declarations read once."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self._tables: dict[Node, dict[str, Binding]] = {}

    def lookup(self, use: Node, name: str) -> Binding | None:
        """The binding `name` has at `use`; None when nothing in the file binds it."""
        node: Node | None = use
        while node is not None:
            table = self._table(node)
            if table is not None and name in table:
                return table[name]
            node = node.parent
        return None

    def _table(self, node: Node) -> dict[str, Binding] | None:
        if node.kind not in _BLOCKS and node.kind not in _LOOPS and not is_function(node):
            return None
        table = self._tables.get(node)
        if table is None:
            table = {}
            self._fill(node, table)
            self._tables[node] = table
        return table

    def _fill(self, node: Node, table: dict[str, Binding]) -> None:
        if node.kind == "function":
            self._parameters(node, table)
            name = node.part("name")
            if node.value == "expression" and name is not None and name.value is not None:
                table.setdefault(name.value, Binding("function", node))
            return
        if node.kind in _LOOPS:
            for field in ("initializer", "left", "parameter"):
                child = node.part(field)
                if child is None:
                    continue
                if child.kind == "declaration":
                    self._declaration(child, table, loop=True)
                else:
                    for item, _ in pattern_names(child):
                        table.setdefault(item, Binding("other", child))
            return
        for child in node.items:
            self._statement(child, table, top=node.kind == "module")

    def _statement(self, child: Node, table: dict[str, Binding], *, top: bool) -> None:
        kind = child.kind
        if kind == "export":
            declaration = child.part("declaration")
            if declaration is not None:
                self._statement(declaration, table, top=top)
        elif kind == "declaration":
            self._declaration(child, table, loop=False)
        elif kind == "function" and child.value == "declaration":
            self._named(child, "function", table)
        elif kind == "class" and child.value == "declaration":
            self._named(child, "class", table)
        elif kind == "import" and top:
            self._import(child, table)
        elif kind in _NAMED_OTHER:
            self._named(child, "other", table)
        elif kind in _HOISTING:
            for inner in _var_declarations(child):
                self._declaration(inner, table, loop=False)

    @staticmethod
    def _named(node: Node, kind: BindingKind, table: dict[str, Binding]) -> None:
        name = node.part("name")
        if name is not None and name.kind == "identifier" and name.value is not None:
            table.setdefault(name.value, Binding(kind, node))

    def _declaration(self, node: Node, table: dict[str, Binding], *, loop: bool) -> None:
        is_const = node.value == "const"
        for declarator in node.items:
            if declarator.kind != "declarator":
                continue
            name = declarator.part("name")
            if name is None:
                continue
            if name.kind == "identifier" and name.value is not None:
                kind: BindingKind = "const" if is_const and not loop else "mutable"
                table.setdefault(name.value, Binding(kind, declarator))
            else:
                for item, _ in pattern_names(name):
                    table.setdefault(item, Binding("other", declarator))

    def _parameters(self, function: Node, table: dict[str, Binding]) -> None:
        params = function.part("parameters")
        if params is None:
            return
        for index, param in enumerate(params.items):
            pattern = param.part("pattern")
            if pattern is None:
                continue
            simple = (
                pattern.kind == "identifier"
                and param.part("value") is None
                and "rest" not in param.flags
            )
            for name, _ in pattern_names(pattern):
                table.setdefault(name, Binding("param", function, index, simple=simple))

    def _import(self, node: Node, table: dict[str, Binding]) -> None:
        specifier = node.value
        if specifier is None:
            return
        for entry in node.items:
            local = entry.part("local")
            if local is None or local.value is None:
                continue
            if entry.kind == "import_default":
                imported = "default"
            elif entry.kind == "import_namespace":
                imported = "*"
            elif entry.kind == "import_named" and entry.value is not None:
                imported = entry.value
            else:
                continue
            table.setdefault(
                local.value, Binding("import", entry, specifier=specifier, imported=imported)
            )


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
