"""Neutral nodes made from a grammar node's span, the same way in every front-end's lowering."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from tsograph.producers.lang.syntax_tree import Node

_NO_FLAGS: frozenset[str] = frozenset()


class Span(Protocol):
    """A grammar node being lowered: its byte offsets in the file."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


def source_text(span: Span, data: bytes) -> str:
    return data[span.start : span.end].decode("utf-8", "replace")


def lowered(
    span: Span,
    kind: str,
    value: str | None = None,
    *,
    flags: Iterable[str] = (),
    parts: dict[str, Node | None] | None = None,
    items: Iterable[Node] = (),
    decorators: Iterable[Node] = (),
) -> Node:
    """A neutral node over the span; parts that are None are left out."""
    # Most nodes have no flags, parts or decorators: those cost no allocation.
    kept = {name: node for name, node in parts.items() if node is not None} if parts else None
    return Node(
        kind,
        span.start,
        span.end,
        value,
        frozenset(flags) if flags else _NO_FLAGS,
        kept,
        items if type(items) is tuple else tuple(items),
        decorators if type(decorators) is tuple else tuple(decorators),
    )
