"""The frame a grammar node is lowered from, and the builder registry every lowering module fills.

A `Frame` collects a grammar node's lowered children (by grammar field) and its
anonymous tokens; the builder registered for the node's grammar type turns it
into neutral `Node`s. The builders live in lower_*.py by job: leaves and
expressions, declarations, modules and statements, types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tsograph.producers.lang.syntax_tree import Node

SKIPPED = frozenset({"comment", "html_comment", "hash_bang_line", "jsx_text"})
_MODIFIERS = frozenset(
    {
        "async",
        "static",
        "get",
        "set",
        "abstract",
        "override",
        "readonly",
        "declare",
        "accessor",
    }
)


@dataclass
class Frame:
    kind: str  # the grammar type
    start: int
    end: int
    slot: str | None  # the grammar field this node fills in its parent
    named: list[tuple[str | None, Node]] = field(default_factory=list)
    tokens: list[tuple[str | None, str, int]] = field(default_factory=list)  # field, text, start

    def part(self, name: str) -> Node | None:
        for field_name, node in self.named:
            if field_name == name:
                return node
        return None

    def parts_named(self, name: str) -> list[Node]:
        return [node for field_name, node in self.named if field_name == name]

    def unnamed(self) -> list[Node]:
        return [node for field_name, node in self.named if field_name is None]

    def nodes(self) -> list[Node]:
        return [node for _, node in self.named]

    def has(self, token: str) -> bool:
        return any(kind == token for _, kind, _ in self.tokens)

    def token(self, field_name: str) -> str | None:
        for name, kind, _ in self.tokens:
            if name == field_name:
                return kind
        return None

    def modifiers(self) -> set[str]:
        found = {kind for _, kind, _ in self.tokens if kind in _MODIFIERS}
        if self.has("*"):
            found.add("generator")
        if self.has("?"):
            found.add("optional")
        found.update(node.value or "" for _, node in self.named if node.kind == "\0modifier")
        return found

    def optional_chain(self) -> bool:
        return self.has("?.") or any(node.kind == "\0optional" for _, node in self.named)


Builder = Callable[[Frame, bytes], Node | list[Node] | None]
BUILDERS: dict[str, Builder] = {}


def builder(*kinds: str) -> Callable[[Builder], Builder]:
    def register(function: Builder) -> Builder:
        for kind in kinds:
            BUILDERS[kind] = function
        return function

    return register


def with_decorators(nodes: list[Node]) -> list[Node]:
    """Members with the decorators written before them moved onto them."""
    members: list[Node] = []
    pending: list[Node] = []
    for node in nodes:
        if node.kind == "decorator":
            pending.append(node)
            continue
        if pending:
            node.decorators = (*pending, *node.decorators)
            pending = []
        members.append(node)
    return members


def declared_name(name: Node | None) -> Node | None:
    """The grammar spells a declared type's name as a type; it is the name being declared."""
    if name is not None and name.kind == "type_ref":
        return Node("identifier", name.start, name.end, name.value)
    return name
