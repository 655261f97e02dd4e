"""The text lines of a node, before a renderer escapes them for its language.

Both renderers draw the same lines, so a Mermaid and a DOT picture of one
answer read alike. Characters that are invisible or move other text
(what Python's str.isprintable rejects but the plain space: controls, line
and paragraph separators, bidirectional and other format characters, other
spaces, lone surrogates, private and unassigned code points) are shown as
`\\uXXXX` (`\\UXXXXXXXX` beyond the BMP), so a name can neither start a new
line, nor reorder or hide what is drawn around it.
"""

from __future__ import annotations

from tsograph.producers.diagrams.model import DiagramNode
from tsograph.producers.diagrams.model import LeftOut

MAX_NAME = 60
MAX_PLACE = 72
MAX_ROUTES = 3


def visible(text: str) -> str:
    return "".join(ch if ch.isprintable() or ch == " " else _code(ch) for ch in text)


def _code(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def shortened(text: str, limit: int) -> str:
    """At most `limit` characters; a longer text keeps its end, where names are most specific."""
    return text if len(text) <= limit else "…" + text[len(text) - limit + 1 :]


def short_name(symbol_id: str) -> str:
    """The declaration part of a symbol id (after the first `#`), else the whole id."""
    _, hash_mark, name = symbol_id.partition("#")
    return name if hash_mark else symbol_id


def node_lines(node: DiagramNode) -> list[str]:
    lines = [visible(route) for route in node.routes[:MAX_ROUTES]]
    if len(node.routes) > MAX_ROUTES:
        lines.append(f"+{len(node.routes) - MAX_ROUTES} more routes")
    lines.append(shortened(visible(node.name), MAX_NAME))
    if node.place is not None:
        lines.append(shortened(visible(node.place), MAX_PLACE))
    lines.extend(shortened(visible(detail), MAX_PLACE) for detail in node.details)
    marks = []
    if node.root:
        marks.append("root")
    if node.table:
        marks.append("table")
    if node.service:
        marks.append("service called")
    # A drawn route already says route-handler.
    kinds = [kind for kind in node.entries if not (node.routes and kind == "route-handler")]
    if kinds:
        marks.append("entry: " + ", ".join(map(visible, kinds)))
    if marks:
        lines.append("; ".join(marks))
    return lines


def left_out_lines(left_out: LeftOut) -> list[str]:
    first = (
        f"{left_out.count} more symbols not drawn"
        if left_out.count
        else "the answer itself is incomplete"
    )
    return [first, *left_out.reasons]


def node_kind(node: DiagramNode) -> str:
    """How a node is marked: root, table, service, entry, or "" for a plain symbol."""
    if node.root:
        return "root"
    if node.table:
        return "table"
    if node.service:
        return "service"
    if node.entries or node.routes:
        return "entry"
    return ""
