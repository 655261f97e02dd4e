"""How the server interpreter reads a call's arguments: library values, passed-on
`*args`/`**kwargs`, and texts for string methods."""

from __future__ import annotations

from typing import Any

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_server.interpreter_values import Instance
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.python.literals import Seq
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Field
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.unknown import UNKNOWN

Args = Arguments[tuple[Any, Node]]


def only_passed_on(body: Node, name: str) -> bool:
    """Whether every use of `name` in a function body spreads it into a call (`*urls`,
    `**kwargs`) or iterates it in a comprehension: then the list or mapping is not changed
    (`kwargs["strict_slashes"] = False`, `urls.append(...)` would change it)."""
    for node in body.walk():
        if node.kind != "identifier" or node.value != name or node.parent is None:
            continue
        parent = node.parent
        if parent.kind == "spread" or (
            parent.kind == "comprehension_for" and parent.part("right") is node
        ):
            continue
        if parent.kind == "assign" and parent.value == "=" and parent.part("left") is node:
            continue  # rebound: later uses read the new value
        return False
    return True


def library_arguments(args: Args) -> Args:
    """Arguments as a framework reads them: an `Instance` is its library value."""

    def library(argument: tuple[Any, Node]) -> tuple[Any, Node]:
        value, node = argument
        return (value.base, node) if isinstance(value, Instance) else argument

    return Arguments(
        [library(item) for item in args.positional],
        {name: library(item) for name, item in args.keywords.items()},
        args.open,
    )


def text_field(argument: tuple[Any, Node]) -> Field:
    """An argument as a string method's field: its text, or None when not a text."""
    value = argument[0]
    return value if isinstance(value, Text) else None


def text_items(argument: tuple[Any, Node]) -> list[Text] | None:
    """A list display's items as texts for `join` (an unknown one is text, or join raises)."""
    value = argument[0]
    if not isinstance(value, Seq) or any(
        not isinstance(item, Text) and item is not UNKNOWN for item in value.items
    ):
        return None
    return [item if isinstance(item, Text) else UNKNOWN_TEXT for item in value.items]
