"""A Diagram as a Graphviz DOT digraph (checked with Graphviz 2.43.0, oracle/diagrams/).

Node ids are the tool's own (`n0`, `n1`, …, `legend_*`) and every label is a
double-quoted string. In a label Graphviz first expands `\\N`-style escapes,
then HTML character references, then the `\\n`/`\\l`/`\\r` line breaks; so
a quote, `&`, `<` and `>` are written as numeric references (`&#34;` for a
quote, `&#60;` for `<`), and a backslash, which a reference could not carry
safely (`&#92;n` would become a line break), is doubled. Characters beyond
ASCII are written as they are (DOT is UTF-8). Left to right, like the Mermaid
drawing; arrows point from caller to callee; tiers are solid (direct), dashed
(bound) and dotted (candidate).
"""

from __future__ import annotations

import string

from tsograph.producers.diagrams.labels import left_out_lines
from tsograph.producers.diagrams.labels import node_kind
from tsograph.producers.diagrams.labels import node_lines
from tsograph.producers.diagrams.model import Diagram

# Printable ASCII but the quote, the backslash, `&` (references) and `<` `>`
# (harmless in a quoted label, encoded so no reader takes them for HTML).
SAFE = frozenset(string.printable[:95]) - frozenset('"\\&<>')
_STYLES = {"direct": "", "bound": " [style=dashed]", "candidate": " [style=dotted]"}
_LOOKS = {
    "root": 'shape=box, style="rounded,filled,bold", fillcolor="#fff3bf", color="#e8590c", '
    "penwidth=2.5",
    "entry": 'shape=box, style="rounded,filled", fillcolor="#d3f9d8", color="#2b8a3e", '
    "penwidth=1.8",
    "table": 'shape=cylinder, style="filled", fillcolor="#e7f5ff", color="#1971c2"',
    "service": 'shape=hexagon, style="filled", fillcolor="#f3f0ff", color="#6741d9"',
    "note": 'shape=note, style="dashed", color="#868e96"',
}

_LEGEND_BOXES = tuple(zip("abcdef", ("caller", "callee") * 3, strict=True))


def escape(text: str) -> str:
    """`text` as the inside of a DOT double-quoted label."""
    return "".join(_escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if ch in SAFE or ord(ch) > 0x7F:
        return ch
    return "\\\\" if ch == "\\" else f"&#{ord(ch)};"


def _label(lines: list[str]) -> str:
    return '"' + "\\n".join(map(escape, lines)) + '"'


def _node(name: str, lines: list[str], kind: str) -> str:
    looks = f", {_LOOKS[kind]}" if kind else ""
    return f"  {name} [label={_label(lines)}{looks}];"


def render(diagram: Diagram) -> str:
    ids = {node.key: f"n{index}" for index, node in enumerate(diagram.nodes)}
    out = [
        "digraph tsograph {",
        '  graph [rankdir=LR, fontname="Helvetica", nodesep=0.25, ranksep=0.5];',
        '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=10];',
        '  edge [arrowsize=0.6, color="#495057", fontname="Helvetica", fontsize=10];',
    ]
    out.extend(_node(ids[node.key], node_lines(node), node_kind(node)) for node in diagram.nodes)
    has_table = any(node_kind(node) == "table" for node in diagram.nodes)
    has_service = any(node_kind(node) == "service" for node in diagram.nodes)
    if diagram.left_out is not None:
        out.append(_node("more", left_out_lines(diagram.left_out), "note"))
    out.extend(
        f"  {ids[edge.source]} -> {ids[edge.target]}{_STYLES[edge.tier]};" for edge in diagram.edges
    )
    out.extend(
        [
            "  subgraph cluster_legend {",
            f"    label={_label(['legend'])};",
            '    fontname="Helvetica"; fontsize=10; color="#adb5bd";',
            _node("  legend_root", ["root: where the traversal starts"], "root"),
            _node("  legend_entry", ["entry point or route (METHOD /path)"], "entry"),
            # The table and service marks are explained only where one is drawn.
            *([_node("  legend_table", ["table"], "table")] if has_table else []),
            *([_node("  legend_service", ["service called"], "service")] if has_service else []),
            # One caller -> callee pair per tier, stacked: a chain of four boxes would
            # span four ranks, which at 60 nodes is most of the picture's width.
            *(_node(f"  legend_{name}", [text], "") for name, text in _LEGEND_BOXES),
            f"    legend_a -> legend_b [label={_label(['direct'])}];",
            f"    legend_c -> legend_d [style=dashed, label={_label(['bound'])}];",
            f"    legend_e -> legend_f [style=dotted, label={_label(['candidate'])}];",
            "  }",
            "}",
        ]
    )
    return "\n".join(out) + "\n"
