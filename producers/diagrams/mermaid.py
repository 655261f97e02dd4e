"""A Diagram as a Mermaid flowchart (checked with mermaid 11.17.2 and 12.3.0: oracle/diagrams/).

Node ids are the tool's own (`n0`, `n1`, … and `legend_*`), so a name such as
`end` or `subgraph` never reaches a place where Mermaid reads keywords; every
label is a double-quoted string in which each character outside a small safe
set is written as a numeric entity (`#35;` for `#`, `#60;` for `<`). Mermaid
turns those into HTML character references when it draws, so a quote cannot
end the string, `<b>` is shown as text, and no character of a name can start
Markdown (backticks), a comment (`%%`) or a directive. `:` and `;` are encoded
too: mermaid's encodeEntities strips the last `;` of any line matching
`style.*:\\S*#.*;` (meant for colour codes), which would break a name's
entity. The flow runs left to right (a wide fan of callers stays a column,
not a row thousands of pixels wide); arrows point from caller to callee;
evidence tiers are drawn solid (direct), dashed (bound) and dotted
(candidate) with linkStyle.
"""

from __future__ import annotations

import string

from tsograph.producers.diagrams.labels import left_out_lines
from tsograph.producers.diagrams.labels import node_kind
from tsograph.producers.diagrams.labels import node_lines
from tsograph.producers.diagrams.model import Diagram

SAFE = frozenset(string.ascii_letters + string.digits + " ._/-,+=@$~")
LINE_BREAK = "<br/>"
_ARROWS = {"direct": "-->", "bound": "-.->", "candidate": "-.->"}
_LEGEND_PAIRS = (
    ("a", "b", "-->", "direct"),
    ("c", "d", "-.->", "bound"),
    ("e", "f", "-.->", "candidate"),
)
_DASHES = {"bound": "stroke-dasharray:9 5", "candidate": "stroke-dasharray:2 4"}
# Mermaid wraps a label at 200 pixels by default, which breaks every file path
# over several lines and makes a 60-node picture twice as tall.
_FRONT_MATTER = ("---", "config:", "  flowchart:", "    wrappingWidth: 560", "---")
_CLASSES = (
    "classDef root fill:#fff3bf,stroke:#e8590c,stroke-width:3px",
    "classDef entry fill:#d3f9d8,stroke:#2b8a3e,stroke-width:2px",
    "classDef table fill:#e7f5ff,stroke:#1971c2,stroke-width:2px",
    "classDef note fill:#f1f3f5,stroke:#868e96,stroke-dasharray:4 3",
)
# Defined only where a service is drawn, so diagrams without one keep their bytes.
_SERVICE_CLASS = "classDef service fill:#f3f0ff,stroke:#6741d9,stroke-width:2px"


def escape(text: str) -> str:
    """`text` as the inside of a Mermaid double-quoted label.

    Spaces at either end are references too: Mermaid trims a label's text.
    """
    body = text.strip(" ")
    start = text.index(body) if body else len(text)
    return (
        "#32;" * start
        + "".join(ch if ch in SAFE else f"#{ord(ch)};" for ch in body)
        + "#32;" * (len(text) - start - len(body))
    )


def _label(lines: list[str]) -> str:
    return '"' + LINE_BREAK.join(map(escape, lines)) + '"'


_SHAPES = {
    "root": ("[[", "]]"),
    "entry": ("([", "])"),
    "table": ("[(", ")]"),
    "service": ("{{", "}}"),
    "": ("[", "]"),
}


def render(diagram: Diagram) -> str:
    ids = {node.key: f"n{index}" for index, node in enumerate(diagram.nodes)}
    out = [*_FRONT_MATTER, "flowchart LR"]
    classes: dict[str, list[str]] = {}
    for node in diagram.nodes:
        kind = node_kind(node)
        opening, closing = _SHAPES[kind]
        out.append(f"  {ids[node.key]}{opening}{_label(node_lines(node))}{closing}")
        if kind:
            classes.setdefault(kind, []).append(ids[node.key])
    if diagram.left_out is not None:
        out.append(f"  more[{_label(left_out_lines(diagram.left_out))}]")
        classes.setdefault("note", []).append("more")
    styles: dict[str, list[int]] = {}
    for index, edge in enumerate(diagram.edges):
        out.append(f"  {ids[edge.source]} {_ARROWS[edge.tier]} {ids[edge.target]}")
        if edge.tier in _DASHES:
            styles.setdefault(edge.tier, []).append(index)
    first_legend_edge = len(diagram.edges)
    # The table and service marks are explained only where one is drawn (reach and impact
    # draw neither).
    table = [f"    legend_table[({_label(['table'])})]"] if "table" in classes else []
    service = (
        [f"    legend_service{{{{{_label(['service called'])}}}}}"] if "service" in classes else []
    )
    out.extend(
        [
            f"  subgraph legend[{_label(['legend'])}]",
            f"    legend_root[[{_label(['root: where the traversal starts'])}]]",
            f"    legend_entry([{_label(['entry point or route (METHOD /path)'])}])",
            *table,
            *service,
            # One caller -> callee pair per tier, stacked, not a chain four ranks wide.
            *(
                f"    legend_{caller}[{_label(['caller'])}] {arrow}|{_label([tier])}| "
                f"legend_{callee}[{_label(['callee'])}]"
                for caller, callee, arrow, tier in _LEGEND_PAIRS
            ),
            "  end",
        ]
    )
    styles.setdefault("bound", []).append(first_legend_edge + 1)
    styles.setdefault("candidate", []).append(first_legend_edge + 2)
    classes.setdefault("root", []).append("legend_root")
    classes.setdefault("entry", []).append("legend_entry")
    if table:
        classes["table"].append("legend_table")
    if service:
        classes["service"].append("legend_service")
    out.extend(f"  {line}" for line in (*_CLASSES, *([_SERVICE_CLASS] if service else [])))
    for kind in ("root", "entry", "table", "service", "note"):
        if kind in classes:
            out.append(f"  class {','.join(classes[kind])} {kind}")
    for tier in ("bound", "candidate"):
        out.append(f"  linkStyle {','.join(map(str, styles[tier]))} {_DASHES[tier]}")
    return "\n".join(out) + "\n"
