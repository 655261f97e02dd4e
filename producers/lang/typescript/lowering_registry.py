"""The TypeScript/TSX builder registry every lower_*.py module fills, and their shared helpers.

The walk, the `Frame` a grammar node is lowered from and the table helpers
are language-neutral (lowering_driver.py); this module holds what only the
TypeScript grammar needs: which grammar types are comments, how modifiers and
`?.` are spelled, decorators written before the member they decorate, and the
builder for grammar types no module handles. The builders live in lower_*.py
by job: leaves and expressions, declarations, modules and statements, types.
"""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_driver import Lowering
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.syntax_tree import Node

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


def _other(frame: Frame, data: bytes) -> Node:
    """A grammar type no builder handles: `other`, its kind as the value, helper nodes left out."""
    kept = [node for node in frame.nodes() if not node.kind.startswith("\0")]
    return lowered(frame, "other", frame.kind, items=kept)


LOWERING = Lowering(
    frozenset({"comment", "html_comment", "hash_bang_line", "jsx_text"}), fallback=_other
)
builder = LOWERING.builder


def modifiers(frame: Frame) -> set[str]:
    found = {kind for _, kind in frame.tokens if kind in _MODIFIERS}
    if frame.has("*"):
        found.add("generator")
    if frame.has("?"):
        found.add("optional")
    found.update(node.value or "" for _, node in frame.named if node.kind == "\0modifier")
    return found


def optional_flag(frame: Frame) -> set[str]:
    """{"optional"} on a member access or call written with `?.`."""
    if frame.has("?.") or any(node.kind == "\0optional" for _, node in frame.named):
        return {"optional"}
    return set()


def decorators_of(frame: Frame) -> list[Node]:
    return [node for node in frame.nodes() if node.kind == "decorator"]


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


def declared_parts(frame: Frame, **fields: str) -> dict[str, Node | None]:
    """A declaration's parts: `name` (the name it declares), then the grammar fields given
    (part name=field name)."""
    parts = {"name": declared_name(frame.part("name"))}
    parts.update((name, frame.part(field)) for name, field in fields.items())
    return parts


def declared_name(name: Node | None) -> Node | None:
    """The grammar spells a declared type's name as a type; it is the name being declared."""
    if name is not None and name.kind == "type_ref":
        return Node("identifier", name.start, name.end, name.value)
    return name
