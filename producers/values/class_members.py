"""Where a class says what `this.name` holds: its fields and its constructor's parameter properties.

The evaluators differ in what they prove from these (a value, a client type, a
handle); which syntax declares the member is read here, once.
"""

from __future__ import annotations

from collections.abc import Iterator

from tsograph.producers.lang.syntax_tree import Node

# Modifiers that make a constructor parameter a class field (a parameter property).
PARAMETER_PROPERTY = frozenset({"public", "private", "protected", "readonly"})


def this_class(use: Node) -> Node | None:
    """The class whose instance `this` is at `use`: the class of the method or field
    around it; None inside a function that binds its own `this` first (arrow functions
    keep the enclosing one)."""
    for node in use.ancestors():
        if (node.kind == "function" and node.value == "method") or node.kind == "field":
            parent = node.parent
            return parent if parent is not None and parent.kind == "class" else None
        if node.kind == "function" and node.value != "arrow":
            return None
    return None


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
    (`this_class`), in class order:
    ("field", a field named `name`), ("parameter", a constructor parameter property named
    `name`) and then ("constructor", the constructor itself, whose body may assign it)."""
    owner = this_class(node)
    for member in () if owner is None else owner.items:
        if is_field_named(member, name):
            yield "field", member
        elif is_constructor(member):
            for parameter in parameter_properties(member, name):
                yield "parameter", parameter
            yield "constructor", member
