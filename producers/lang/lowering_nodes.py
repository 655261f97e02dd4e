"""Neutral nodes made from a grammar node's span, the same way in every front-end's lowering."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from tsograph.producers.lang.syntax_tree import Node


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
    kept = {name: node for name, node in (parts or {}).items() if node is not None}
    return Node(
        kind, span.start, span.end, value, frozenset(flags), kept, tuple(items), tuple(decorators)
    )
