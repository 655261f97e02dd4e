"""Hostile names, and diagrams that carry them in every place a label can hold repository text.

The same diagrams are recorded by oracle/diagrams/record.py (Mermaid's parser,
Graphviz) and replayed by test_oracle_replay.py. The corpus is a fixed list plus
names a seeded generator builds from the same fragments, so recording and
replay see the same bytes without Node or Graphviz.
"""

from __future__ import annotations

import random

from tsograph.producers.diagrams.model import Diagram
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.diagrams.model import DiagramNode
from tsograph.producers.diagrams.model import LeftOut
from tsograph.producers.diagrams.trace_diagram import trace_diagram

FIXED = (
    '"',
    '"]',
    '"] --> evil["x',
    "a]b",
    "a[b",
    "(x)",
    "{x}",
    "|x|",
    "end",
    "subgraph",
    "graph TD",
    "flowchart LR",
    "default",
    '%%{init: {"theme":"dark"}}%%',
    "%% comment",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<b>bold</b>",
    "<br/>",
    "&lt;",
    "&amp;",
    "&#60;",
    "#quot;",
    "#35;",
    "#60;script#62;",
    "`markdown`",
    "**bold** _it_",
    "style n0 fill:#f00;",
    "classDef a fill:#f00;",
    "linkStyle 0 stroke:red",
    'click n0 "javascript:alert(1)"',
    "line\nbreak",
    "crlf\r\nx",
    "sep\u2028x\u2029y",
    "rtl\u202egnp.exe",
    "zero\u200bwidth",
    "tab\there",
    "nul\x00del\x7fnel\x85",
    "\\",
    "a\\",
    "\\n",
    "\\N",
    "\\G\\E\\T\\H\\L",
    "\\l\\r",
    "&#92;n",
    "\ufb02\u00b0\u00b060\u00b6\u00df",
    "emoji \U0001f600",
    "café",
    "日本語",
    "<module>",
    "a-->b",
    "a -.-> b",
    "a --- b",
    ":::root",
    "x;y",
    "A & B",
    "it's",
    "$(rm -rf /)",
    "${x}",
    "@{ shape: rect }",
    "n0@{ label: x }",
    "x" * 200,
)
FRAGMENTS = (
    *FIXED,
    " ",
    "#",
    ";",
    ":",
    "<",
    ">",
    "&",
    "'",
    "`",
    "|",
    "-",
    ".",
    "end",
    "style",
    "classDef",
    "\n",
)
GENERATED = 200
SEED = 24
GROUP = 10


def generated_names() -> list[str]:
    """GENERATED names of 1 to 6 fragments or random code points, the same on every run."""
    rng = random.Random(SEED)
    names = []
    for _ in range(GENERATED):
        parts = []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.8:
                parts.append(rng.choice(FRAGMENTS))
            else:
                parts.append(
                    chr(
                        rng.choice(
                            (
                                rng.randrange(0x20, 0x7F),
                                rng.randrange(0x80, 0x3000),
                                rng.randrange(0x10000, 0x1FFFF),
                            )
                        )
                    )
                )
        names.append("".join(parts))
    return names


def ascii_names() -> list[str]:
    """Every ASCII character, between two letters."""
    return [f"a{chr(code)}b" for code in range(128)]


def all_names() -> list[str]:
    return [*FIXED, *ascii_names(), *generated_names()]


def hostile_diagrams() -> list[Diagram]:
    """Groups of GROUP names: each name is a node's name, another node's file, a route and an
    entry kind; the edges take every tier."""
    names = all_names()
    diagrams = []
    for start in range(0, len(names), GROUP):
        group = names[start : start + GROUP]
        nodes = []
        for index, name in enumerate(group):
            other = group[(index + 1) % len(group)]
            nodes.append(
                DiagramNode(
                    key=f"k{index}",
                    name=name,
                    place=f"{other}:{index + 1}",
                    depth=index,
                    root=index == 0,
                    entries=(other,) if index % 3 == 1 else (),
                    routes=(f"GET /{name}",) if index % 3 == 2 else (),
                    table=index % 4 == 3,
                )
            )
        tiers = ("direct", "bound", "candidate")
        edges = tuple(
            DiagramEdge(f"k{index}", f"k{index + 1}", tiers[index % 3])
            for index in range(len(group) - 1)
        )
        left_out = LeftOut(start, ("--max-nodes 11 keeps the nearest 10",))
        diagrams.append(Diagram(tuple(nodes), edges, left_out))
    return diagrams


def hostile_trace_diagrams() -> list[Diagram]:
    """Trace diagrams (trace_diagram.py) of groups of names: each name is a route's path, a
    handler's and a reached symbol's name and file, a table, a column and a service request.

    The documents trace reads refuse line breaks and other control characters in these
    places; the renderers must not depend on that, so they are here too.
    """
    names = all_names()
    diagrams = []
    for start in range(0, len(names), GROUP):
        group = names[start : start + GROUP]
        routes, roots, reached = [], [], []
        for index, name in enumerate(group):
            other = group[(index + 1) % len(group)]
            handler, helper = f"h{index}#{name}", f"s{index}#{other}"
            roots.append({"id": handler})
            reached.append(
                {
                    "symbol": {"usr": helper, "location": {"path": name, "line": 2, "column": 1}},
                    "via": handler,
                    "depth": 1,
                    "roots": [index],
                    "evidence": ("direct", "bound", "candidate")[index % 3],
                }
            )
            routes.append(
                {
                    "method": "GET",
                    "channel": f"/{name}",
                    "location": {"path": other, "line": index + 1, "column": 1},
                    "usr": handler,
                    "tables": [
                        {"channel": name, "columns": [other], "symbols": [helper]},
                        {"channel": f"{other}!", "columns": [], "symbols": [handler]},
                    ],
                    "calls": [
                        {"service": name, "method": "POST", "channel": other, "symbols": [helper]}
                    ],
                    "notes": [],
                }
            )
        traversal = {"roots": roots, "reached": reached, "truncationReasons": ["depth"]}
        diagrams.append(trace_diagram({"routes": routes}, traversal, max_nodes=1000))
    return diagrams


def every_hostile_diagram() -> list[Diagram]:
    """What the oracle records and the replay test checks."""
    return [*hostile_diagrams(), *hostile_trace_diagrams()]
