"""Where a class says what `this.name` holds: its fields and its constructor's parameter properties.

The evaluators differ in what they prove from these (a value, a client type, a
handle); which syntax declares the member is read here, once.
"""

from __future__ import annotations

from collections.abc import Iterator

from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_tree import Node

# Modifiers that make a constructor parameter a class field (a parameter property).
PARAMETER_PROPERTY = frozenset({"public", "private", "protected", "readonly"})


def this_class(use: Node) -> Node | None:
    """The class whose instance (or, in a static member, which itself) `this` is at `use`:
    the class of the method or field around it; None inside a function that binds its
    own `this` first (arrow functions keep the enclosing one)."""
    member = _this_member(use)
    parent = None if member is None else member.parent
    return parent if parent is not None and parent.kind == "class" else None


def _this_member(use: Node) -> Node | None:
    """The method or field whose `this` is the one at `use`."""
    for node in use.ancestors():
        if (node.kind == "function" and node.value == "method") or node.kind == "field":
            return node
        if node.kind == "function" and node.value != "arrow":
            return None
    return None


def _is_static(use: Node) -> bool:
    member = _this_member(use)
    return member is not None and "static" in member.flags


def is_field_named(member: Node, name: str) -> bool:
    """A field declaration `name = …` / `name: T` (a static key, not computed)."""
    if member.kind != "field":
        return False
    key = member.part("name")
    return (
        key is not None
        and key.kind in ("name", "identifier", "number", "string")
        and (key.value == name)
    )


def is_constructor(member: Node) -> bool:
    """The `constructor` method (not a getter or a field of that name)."""
    if member.kind != "function" or member.value != "method" or member.flags & {"get", "set"}:
        return False
    key = member.part("name")
    return key is not None and key.value == "constructor"


def parameter_properties(constructor: Node, name: str) -> Iterator[Node]:
    """The constructor's parameters declared `private name`, `readonly name`, …"""
    parameters = constructor.part("parameters")
    for parameter in [] if parameters is None else parameters.items:
        pattern = parameter.part("pattern")
        if (
            parameter.flags & PARAMETER_PROPERTY
            and pattern is not None
            and pattern.kind == "identifier"
            and pattern.value == name
        ):
            yield parameter


def this_declarations(node: Node, name: str) -> Iterator[tuple[str, Node]]:
    """What may say what `this.name` holds in the class `this` is an instance of at `node`
    (`this_class`; in a static member, the class's static fields), in class order:
    ("field", a field named `name`), ("parameter", a constructor parameter property named
    `name`) and then ("constructor", the constructor itself, whose body may assign it)."""
    owner = this_class(node)
    static = _is_static(node)
    for member in () if owner is None else owner.items:
        if is_field_named(member, name):
            if ("static" in member.flags) == static:
                yield "field", member
        elif is_constructor(member) and not static:
            for parameter in parameter_properties(member, name):
                yield "parameter", parameter
            yield "constructor", member


class ThisWrites:
    """The assignments to `this.name` anywhere in a class (`=`, `+=`, …; in nested
    functions too, whatever their `this`: a write that may reach the instance counts),
    found in one walk of each class an evaluator asks about."""

    __slots__ = ("_by_class",)

    def __init__(self) -> None:
        self._by_class: dict[Node, dict[str, list[Node]]] = {}

    def of(self, owner: Node, name: str) -> list[Node]:
        found = self._by_class.get(owner)
        if found is None:
            found = {}
            for node in find_all(owner, ("assign",)):
                left = node.part("left")
                if left is None or left.kind != "member":
                    continue
                obj = left.part("object")
                prop = left.part("property")
                if obj is not None and obj.kind == "this" and prop is not None and prop.value:
                    found.setdefault(prop.value, []).append(node)
            self._by_class[owner] = found
        return found.get(name, [])


def in_constructor(assignment: Node) -> bool:
    """A statement of the constructor's own body (not nested in a block or function)."""
    statement = assignment.parent
    block = statement.parent if statement is not None else None
    method = block.parent if block is not None else None
    return (
        statement is not None
        and statement.kind == "statement"
        and block is not None
        and block.kind == "block"
        and method is not None
        and is_constructor(method)
    )


def this_value(use: Node, name: str, writes: ThisWrites) -> Node | None:
    """The expression `this.name` always holds at `use` (an instance's), when its class
    proves one: the field's initializer when no code of the class writes `this.name`, or,
    for a field without one (or none declared), the one write when it is a statement of
    the constructor's own body. A type annotation is no value; the evaluators read it
    from `this_declarations`."""
    owner = this_class(use)
    if owner is None or _is_static(use):
        return None
    initializer: Node | None = None
    for member in owner.items:
        if is_field_named(member, name) and "static" not in member.flags:
            initializer = member.part("value")
    written = writes.of(owner, name)
    if initializer is not None and not written:
        return initializer
    if initializer is None and len(written) == 1 and in_constructor(written[0]):
        return written[0].part("right")
    return None
