"""What Python's literal displays hold: sequences, and the pieces of an f-string."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node


@dataclass(frozen=True)
class Seq:
    """A list or tuple display: its items as the evaluator reads them."""

    items: tuple[Any, ...]


def fstring_pieces(syntax: SyntaxFile, node: Node) -> list[str | Node | None] | None:
    """The pieces of an f-string in order: literal text, the expression of a field that
    formats as its value's own text, or None for a field whose text that value does not
    give (a conversion `{x!r}`, a format spec `{x:>3}`, a self-documenting `{x=}`; the
    lowering keeps none of these, so the field's source text after the expression says).
    None for a bytes literal: no text at all."""
    if "bytes" in node.flags:
        return None
    pieces: list[str | Node | None] = []
    for item in node.items:
        if item.kind == "template_text":
            pieces.append(item.value or "")
            continue
        inner = item.part("value")
        plain = inner is not None and syntax.data[inner.end : item.end].strip() == b"}"
        pieces.append(inner if plain else None)
    return pieces
