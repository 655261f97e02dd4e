"""What a Python class body binds directly: the names its statements assign or define."""

from __future__ import annotations

from tsograph.producers.lang.syntax_tree import Node


def body_assignment(cls: Node, name: str) -> Node | None:
    """The value assigned to `name` directly in a class body (the last one)."""
    found = None
    for statement in cls.items:
        value = statement.part("value") if statement.kind == "statement" else None
        if value is not None and value.kind == "assign":
            left = value.part("left")
            if left is not None and left.kind == "identifier" and left.value == name:
                found = value.part("right") or value
    return found


def defines(cls: Node, name: str) -> bool:
    """Whether the class body binds `name` itself (a def or an assignment)."""
    for statement in cls.items:
        if statement.kind == "function":
            title = statement.part("name")
            if title is not None and title.value == name:
                return True
    return body_assignment(cls, name) is not None
