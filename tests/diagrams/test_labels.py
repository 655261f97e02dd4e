"""What a node says, and the escaping every label goes through, as properties.

The recordings (test_oracle_replay.py) show that Mermaid and Graphviz draw each
escaped character of the hostile corpus, every ASCII character among them, as
that character. Escaping works character by character, so these properties
carry that over to any name: the escaped text holds only characters whose
reading was recorded, and reading it back gives the name.
"""

from __future__ import annotations

import html
import re
import string

from hypothesis import given
from hypothesis import strategies as st

from tsograph.producers.diagrams import dot
from tsograph.producers.diagrams import mermaid
from tsograph.producers.diagrams.labels import node_lines
from tsograph.producers.diagrams.labels import short_name
from tsograph.producers.diagrams.labels import visible
from tsograph.producers.diagrams.model import DiagramNode

NAMES = st.text(alphabet=st.characters(codec="utf-8"), max_size=80) | st.sampled_from(
    ['"]', "end", "<b>x</b>", "#35;", "a\nb", "\\n", "`x`", "%%", "style x:#f00;", " x "]
)


@given(NAMES)
def test_mermaid_labels_hold_only_safe_characters_and_read_back(name: str) -> None:
    escaped = mermaid.escape(visible(name))
    assert set(escaped) <= mermaid.SAFE | set("#;") | set(string.digits)
    assert html.unescape(re.sub(r"#(\d+);", r"&#\1;", escaped)) == visible(name)


@given(NAMES)
def test_dot_labels_hold_no_quote_or_lone_backslash_and_read_back(name: str) -> None:
    escaped = dot.escape(visible(name))
    assert '"' not in escaped and "\n" not in escaped
    assert re.fullmatch(r"(?:[^\\]|\\\\)*", escaped)
    assert html.unescape(escaped.replace("\\\\", "&#92;")) == visible(name)


@given(NAMES)
def test_no_line_of_a_node_holds_a_line_break_or_hidden_character(name: str) -> None:
    node = DiagramNode(key=name, name=name, place=f"{name}:1", depth=0, entries=(name,))
    for line in node_lines(node):
        assert all(ch.isprintable() or ch == " " for ch in line), line


def test_a_node_names_its_routes_marks_and_place() -> None:
    node = DiagramNode(
        key="src/app/api/jobs/route.ts#POST",
        name="POST",
        place="src/app/api/jobs/route.ts:5",
        depth=0,
        root=True,
        entries=("route-handler", "scheduled"),
        routes=("POST /api/jobs", "POST /api/v2/jobs", "PUT /a", "PUT /b"),
    )
    assert node_lines(node) == [
        "POST /api/jobs",
        "POST /api/v2/jobs",
        "PUT /a",
        "+1 more routes",
        "POST",
        "src/app/api/jobs/route.ts:5",
        "root; entry: scheduled",
    ]


def test_a_route_handler_without_known_routes_says_so_and_long_names_keep_their_end() -> None:
    name = "a" * 70 + ".handler"
    node = DiagramNode(key=name, name=name, place=None, depth=1, entries=("route-handler",))
    assert node_lines(node) == ["…" + name[-59:], "entry: route-handler"]


def test_short_names_are_what_follows_the_first_hash() -> None:
    assert short_name("src/a.ts#C.m#x") == "C.m#x"
    assert short_name("no-hash") == "no-hash"
