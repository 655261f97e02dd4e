"""Aligned plain-text tables and the limitations section every text reading ends with."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

from tsograph.exchange.limitations import prefix_of
from tsograph.producers.text_format.limitation_notes import NOTES

INDENT = "  "


def table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """Left-aligned columns two spaces apart; the last column is never padded.

    Cells come from validated documents, whose strings hold no control
    characters, so nothing here can move the cursor of a terminal.
    """
    every = [list(headers), *(list(row) for row in rows)]
    widths = [max(len(row[index]) for row in every) for index in range(len(headers))]
    lines = []
    for row in every:
        cells = [cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=False)]
        lines.append((INDENT + "  ".join([*cells, row[-1]])).rstrip())
    return lines


def location(value: dict[str, Any] | None) -> str:
    """`path:line` of a document location, `-` when there is none."""
    if not value:
        return "-"
    return f"{value['path']}:{value['line']}"


def limitations_section(limitations: Sequence[str]) -> list[str]:
    """Each limitation line; after the lines of one prefix, one indented sentence on what
    it means and what to do (documents sort their limitations, so a prefix's lines are
    adjacent)."""
    if not limitations:
        return ["Limitations: none"]
    lines = [f"Limitations ({len(limitations)}):"]
    for index, limitation in enumerate(limitations):
        lines.append(f"{INDENT}{limitation}")
        prefix = prefix_of(limitation)
        following = limitations[index + 1] if index + 1 < len(limitations) else ""
        note = NOTES.get(prefix)
        if note and prefix_of(following) != prefix:
            lines.append(f"{INDENT}{INDENT}-> {note}")
    return lines


def joined(sections: Iterable[list[str]]) -> str:
    """Sections separated by a blank line, ending in a newline."""
    return "\n\n".join("\n".join(section) for section in sections if section) + "\n"
