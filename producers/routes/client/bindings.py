"""What a name in a file means to the client producer, read from the one scope table.

The scope rules are the value layer's (producers/values/scopes.py); this module says
what the client producer needs of a declaration: is a name a `const` (immutable, so
its initializer is its value), a function, a parameter of which function and at which
position, or an import of which export of which module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values import scopes
from tsograph.producers.values.scopes import Declaration

BindingKind = Literal["const", "mutable", "function", "class", "import", "param", "other"]


@dataclass(frozen=True)
class Binding:
    kind: BindingKind
    node: Node  # the declarator, function, class, import entry, or the function of a param
    position: int = -1  # parameters: the index; imports: unused
    specifier: str = ""  # imports: the module specifier
    imported: str = ""  # imports: the name in that module ("default", "*" for a namespace)
    simple: bool = True  # parameters: a plain required name (no default, rest or pattern)


class Scopes:
    """Name resolution for one file through the shared scope table."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.shared = scopes.Scopes()  # the value layer's table this one reads
        self._bindings: dict[Declaration, Binding] = {}

    def lookup(self, use: Node, name: str) -> Binding | None:
        """The value `name` has at `use`; None when nothing in the file declares it."""
        found = self.shared.lookup(use, name)
        return None if found is None else self.of(found)

    def lookup_type(self, use: Node, name: str) -> Binding | None:
        """The type `name` names at `use` (a class, an interface, an import, …)."""
        found = self.shared.lookup_type(use, name)
        return None if found is None else self.of(found)

    def of(self, declaration: Declaration) -> Binding:
        """What a declaration of the shared table means to the client producer."""
        found = self._bindings.get(declaration)
        if found is None:
            found = _binding_of(declaration)
            self._bindings[declaration] = found
        return found


def _binding_of(declaration: Declaration) -> Binding:
    kind, node = declaration.kind, declaration.node
    if kind in ("const", "mutable"):
        plain = node.kind == "declarator" and node.part("name") is declaration.name
        if not plain:
            return Binding("other", node)
        return Binding("const" if kind == "const" else "mutable", node)
    if kind in ("function", "class"):
        return Binding(kind, node)
    if kind == "import":
        source = scopes.import_source(node)
        if source is None:
            return Binding("other", node)
        return Binding("import", node, specifier=source[0], imported=source[1])
    if kind == "parameter":
        function = node.parent.parent if node.parent is not None else None
        pattern = node.part("pattern")
        simple = (
            pattern is not None
            and pattern.kind == "identifier"
            and node.part("value") is None
            and "rest" not in node.flags
        )
        return Binding("param", function or node, declaration.position, simple=simple)
    return Binding("other", node)
