"""What a function body returns: its `return` statements, not those of functions or classes
nested in it (their returns are theirs)."""

from __future__ import annotations

from collections.abc import Iterator

from tsograph.producers.lang.syntax_tree import Node


def return_statements(body: Node) -> Iterator[Node]:
    """The body's `return` statements (a bare `return;` included): within one block the
    later statement first, a nested block's after its own block's (the order the ORM
    evaluator's first proven answer has always been taken in)."""
    stack = [body]
    while stack:
        node = stack.pop()
        for child in reversed(node.children()):
            if child.kind in ("function", "class"):
                continue
            if child.kind == "return":
                yield child
                continue
            stack.append(child)


def function_results(function: Node) -> list[Node | None] | None:
    """What a function gives back: its expression body, or the value of each of its `return`
    statements (None for a bare `return;`) in `return_statements` order; None when the
    function has no body."""
    body = function.part("body")
    if body is None:
        return None
    if body.kind != "block":
        return [body]
    return [statement.part("value") for statement in return_statements(body)]
