"""What a lowered Python node means where it stands: questions the extractor asks of one node.

Whether a name is a value use (`callback`, `reference`) or a target, what a
decorator says about the function (`property`, `staticmethod`, …), whether an
`if` is the `__main__` guard, and how an inline callback's callee and keys are
written in its id.
"""

from __future__ import annotations

from tsograph.exchange.symbol_ids import ArrayKey
from tsograph.exchange.symbol_ids import Callee
from tsograph.exchange.symbol_ids import Key
from tsograph.exchange.symbol_ids import NameChainKey
from tsograph.exchange.symbol_ids import StringKey
from tsograph.producers.lang.facts import SiteKind
from tsograph.producers.lang.syntax_tree import Node

CHAINS = frozenset({"identifier", "member"})
# A list of keys nested deeper than this names no callback (ids stay short).
_MAX_KEY_DEPTH = 4


# Where a chain is a value use: (parent kind, the part it fills; "" for an item).
_VALUE_PLACES = frozenset(
    {
        ("return", "value"),
        ("assign", "right"),
        ("property", "value"),
        ("array", ""),
        ("set", ""),
        ("bases", ""),
        ("function", "body"),
        ("yield", "value"),
        ("parameter", "value"),
    }
)


def use_kind(node: Node) -> SiteKind | None:
    """A function named where it is not called: `callback` as a call argument, `reference` in
    any other place a value is stored, returned or passed on; None elsewhere."""
    parent = node.parent
    if parent is None:
        return None
    if parent.kind == "keyword":
        place = parent
        parent = parent.parent
        if parent is None:
            return None
        if parent.kind == "bases":
            return "reference"
        return "callback" if parent.kind == "call" and place in parent.items else None
    if parent.kind == "call":
        return "callback" if node in parent.items else None
    if (parent.kind == "binary" and parent.value in ("or", "and")) or (
        parent.kind == "conditional" and _slot(parent, node) in ("consequence", "alternative")
    ):
        # `a or b`, `a if c else b`: either operand is the value, used where the whole is.
        return use_kind(parent)
    if parent.kind == "function" and parent.value != "lambda":
        return None
    slot = _slot(parent, node)
    if parent.kind == "array" and _is_target(parent):
        return None
    return "reference" if (parent.kind, slot) in _VALUE_PLACES else None


def is_attribute_read(node: Node) -> bool:
    """`a.b` read where it is not called, assigned to, deleted or a decorator: reading it runs
    a property's getter (a store runs the setter: the writes say so)."""
    parent = node.parent
    if node.kind != "member" or parent is None or parent.kind == "decorator":
        return False
    if parent.kind == "call" and parent.part("callee") is node:
        return False
    if parent.kind == "array" and _is_target(parent):
        return False
    return (parent.kind, _slot(parent, node)) not in _TARGETS


# Where a tuple or list is assigned to, not read: (parent kind, part).
_TARGETS = frozenset(
    {
        ("assign", "left"),
        ("for_in", "left"),
        ("comprehension_for", "left"),
        ("with_item", "alias"),
        ("delete", ""),
    }
)


def _slot(parent: Node, node: Node) -> str:
    return next((name for name, part in parent.parts.items() if part is node), "")


def _is_target(array: Node) -> bool:
    node = array
    parent = node.parent
    while parent is not None and parent.kind in ("array", "spread"):
        node = parent
        parent = node.parent
    return parent is not None and (parent.kind, _slot(parent, node)) in _TARGETS


def paired(left: Node, right: Node | None) -> tuple[Node, ...] | None:
    """`a, b = x, y`: the value each name gets, when both sides are written out alike."""
    if right is None or right.kind != "array" or len(right.items) != len(left.items):
        return None
    if any(item.kind == "spread" for item in (*left.items, *right.items)):
        return None
    return right.items


def is_super_call(node: Node) -> bool:
    callee = node.part("callee")
    return callee is not None and callee.kind == "identifier" and callee.value == "super"


def decorator_word(value: Node) -> str:
    """`property`, `staticmethod`, `classmethod`, or `accessor` for `@x.setter`; "" otherwise."""
    if value.kind == "identifier" and value.value in ("property", "staticmethod", "classmethod"):
        return value.value or ""
    if value.kind == "member":
        prop = value.part("property")
        inner = value.part("object")
        if (
            prop is not None
            and prop.value in ("setter", "getter", "deleter")
            and inner is not None
            and inner.kind == "identifier"
        ):
            return "accessor"
    return ""


def is_main_guard(condition: Node | None) -> bool:
    """`__name__ == "__main__"` (either side)."""
    if condition is None or condition.kind != "binary" or condition.value != "==":
        return False
    sides = [condition.part("left"), condition.part("right")]
    names = {(side.kind, side.value) for side in sides if side is not None}
    return names == {("identifier", "__name__"), ("string", "__main__")}


def callee_of(node: Node | None) -> Callee | None:
    """The callee of a call as callback ids write it (`app.route`, `…` for other heads)."""
    members: list[tuple[str, str]] = []
    while node is not None and node.kind in ("member", "index"):
        if node.kind == "member":
            prop = node.part("property")
            if prop is None:
                return None
            members.append(("prop", prop.value or ""))
        else:
            index = node.part("index")
            if index is None or index.kind != "string":
                return None
            members.append(("elem", index.value or ""))
        node = node.part("object")
    if node is None:
        return None
    members.reverse()
    head = node.value if node.kind == "identifier" else None
    return Callee(head, tuple(members))


def callback_key(node: Node, depth: int = 0) -> Key | None:
    if node.kind == "string":
        return StringKey(node.value or "")
    if node.kind in CHAINS:
        names: list[str] = []
        current: Node | None = node
        while current is not None and current.kind == "member":
            prop = current.part("property")
            if prop is None:
                return None
            names.append(prop.value or "")
            current = current.part("object")
        if current is None or current.kind != "identifier":
            return None
        names.append(current.value or "")
        return NameChainKey(".".join(reversed(names)))
    if node.kind == "array" and node.value is None and depth < _MAX_KEY_DEPTH:
        keys = [callback_key(item, depth + 1) for item in node.items]
        if any(key is None for key in keys):
            return None
        return ArrayKey(tuple(key for key in keys if key is not None))
    return None


def isinstance_test(condition: Node | None) -> tuple[str, Node] | None:
    """`isinstance(name, C)` (C a dotted name): the name and C's node; None otherwise."""
    if condition is None or condition.kind != "call" or len(condition.items) != 2:
        return None
    callee = condition.part("callee")
    subject, tested = condition.items
    if (
        callee is None
        or callee.kind != "identifier"
        or callee.value != "isinstance"
        or subject.kind != "identifier"
        or tested.kind not in ("identifier", "member")
    ):
        return None
    return subject.value or "", tested


def assigns(body: Node, name: str) -> bool:
    """Whether code in `body` may bind `name` again (any identifier of that name in a place
    a value is stored, or a nested scope that may rebind it through nonlocal)."""
    pending = [body]
    while pending:
        node = pending.pop()
        if node.kind == "identifier" and node.value == name:
            parent = node.parent
            if parent is not None and (
                (parent.kind, _slot(parent, node)) in _TARGETS
                or (parent.kind == "array" and _is_target(parent))
                or parent.kind == "scope_declaration"
            ):
                return True
        pending.extend(child for child in node.children() if child is not None)
    return False
