"""Replays what Mermaid's parser and Graphviz said about every diagram the tests draw.

oracle/diagrams/record.py recorded, for each golden under fixtures/diagrams/
and each hostile-name diagram (hostile.py), the parse verdict of mermaid 11.17.2
and 12.3.0
with the labels, shapes and edge strokes its flowchart database holds, and
`dot -Tsvg`'s exit code, stderr and the text lines of each SVG node (Graphviz
2.43.0). Here, offline: each diagram must have a recording (a renderer change
needs a new one), parse cleanly, and every label must come back as exactly
the lines the renderer meant to show: nothing cut, merged, added or turned
into markup.
"""

from __future__ import annotations

import hashlib
import html
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import REPO
from tests.diagrams.hostile import every_hostile_diagram
from tsograph.producers.diagrams import dot
from tsograph.producers.diagrams import mermaid
from tsograph.producers.diagrams.labels import left_out_lines
from tsograph.producers.diagrams.labels import node_kind
from tsograph.producers.diagrams.labels import node_lines
from tsograph.producers.diagrams.model import Diagram

GOLDENS = REPO / "fixtures" / "diagrams"
RECORDINGS = REPO / "oracle" / "recordings" / "diagrams"
MERMAID_SHAPES = {
    "root": "subroutine",
    "entry": "stadium",
    "table": "cylinder",
    "service": "hexagon",
    "": "square",
}
MERMAID_STROKES = {"direct": "normal", "bound": "dotted", "candidate": "dotted"}
MERMAID_DASHES = {
    "direct": [],
    "bound": ["stroke-dasharray:9 5"],
    "candidate": ["stroke-dasharray:2 4"],
}
DOT_DASHES = {"direct": None, "bound": "5,2", "candidate": "1,5"}


MERMAID_VERSIONS = ("11.17.2", "12.3.0")


@cache
def _recorded(name: str) -> dict[str, Any]:
    verdicts: dict[str, Any] = json.loads((RECORDINGS / name).read_text())["verdicts"]
    return verdicts


def _verdict(name: str, text: str) -> dict[str, Any]:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    verdicts = _recorded(name)
    assert digest in verdicts, "no recording for this diagram; run python oracle/diagrams/record.py"
    verdict: dict[str, Any] = verdicts[digest]
    return verdict


def _mermaid_lines(held: str) -> list[str]:
    """A label as Mermaid draws it: its entity placeholders made references, then read as HTML."""
    references = held.replace("ﬂ°°", "&#").replace("ﬂ°", "&").replace("¶ß", ";")
    return [html.unescape(line) for line in references.split("<br>")]


def _meant(diagram: Diagram) -> dict[str, list[str]]:
    lines = {f"n{index}": node_lines(node) for index, node in enumerate(diagram.nodes)}
    if diagram.left_out is not None:
        lines["more"] = left_out_lines(diagram.left_out)
    return lines


def _ids(diagram: Diagram) -> dict[str, str]:
    """The renderers' node ids: n0, n1, … in drawing order."""
    return {node.key: f"n{index}" for index, node in enumerate(diagram.nodes)}


def _golden_texts(suffix: str) -> list[Path]:
    return sorted(GOLDENS.glob(f"*{suffix}"))


HOSTILE = every_hostile_diagram()


@pytest.mark.parametrize("version", MERMAID_VERSIONS)
@pytest.mark.parametrize("golden", _golden_texts(".mmd"), ids=lambda path: path.name)
def test_mermaid_parses_every_golden(golden: Path, version: str) -> None:
    verdict = _verdict(f"mermaid-{version}.json", golden.read_text(encoding="utf-8"))
    assert verdict["ok"], verdict.get("error")


@pytest.mark.parametrize("golden", _golden_texts(".dot"), ids=lambda path: path.name)
def test_graphviz_reads_every_golden(golden: Path) -> None:
    verdict = _verdict("dot.json", golden.read_text(encoding="utf-8"))
    assert (verdict["exit"], verdict["stderr"]) == (0, "")


def test_there_are_goldens_of_both_languages() -> None:
    # The review brief draws Mermaid only (review-*.mmd); every other golden comes in both.
    mermaid_only = [path for path in _golden_texts(".mmd") if path.name.startswith("review-")]
    assert len(_golden_texts(".mmd")) - len(mermaid_only) == len(_golden_texts(".dot")) >= 7
    assert mermaid_only


@pytest.mark.parametrize("version", MERMAID_VERSIONS)
@pytest.mark.parametrize("index", range(len(HOSTILE)))
def test_mermaid_shows_hostile_labels_as_text(index: int, version: str) -> None:
    diagram = HOSTILE[index]
    verdict = _verdict(f"mermaid-{version}.json", mermaid.render(diagram))
    assert verdict["ok"], verdict.get("error")
    vertices = {vertex_id: (text, shape) for vertex_id, text, shape, _ in verdict["vertices"]}
    meant = _meant(diagram)
    drawn = {vertex_id: _mermaid_lines(vertices[vertex_id][0]) for vertex_id in meant}
    assert drawn == meant
    # Nothing but the drawn nodes and the legend became a vertex.
    assert {v for v in vertices if not v.startswith("legend_")} == set(meant)
    for number, node in enumerate(diagram.nodes):
        assert vertices[f"n{number}"][1] == MERMAID_SHAPES[node_kind(node)]
    edges = [edge for edge in verdict["edges"] if not edge[0].startswith("legend_")]
    ids = _ids(diagram)
    assert [(start, end, stroke, style) for start, end, stroke, _, _, style in edges] == [
        (
            ids[edge.source],
            ids[edge.target],
            MERMAID_STROKES[edge.tier],
            [*MERMAID_DASHES[edge.tier], *(["fill:none"] if MERMAID_DASHES[edge.tier] else [])],
        )
        for edge in diagram.edges
    ]


@pytest.mark.parametrize("index", range(len(HOSTILE)))
def test_graphviz_shows_hostile_labels_as_text(index: int) -> None:
    diagram = HOSTILE[index]
    verdict = _verdict("dot.json", dot.render(diagram))
    assert (verdict["exit"], verdict["stderr"]) == (0, "")
    # Graphviz writes the second of two spaces as a no-break space; both show as spaces.
    meant = {
        title: [line.replace("\xa0", " ") for line in lines]
        for title, lines in _meant(diagram).items()
    }
    drawn = {
        title: [line.replace("\xa0", " ") for line in verdict["nodes"][title]] for title in meant
    }
    assert drawn == meant
    assert {title for title in verdict["nodes"] if not title.startswith("legend_")} == set(meant)
    edges = [edge for edge in verdict["edges"] if not edge[0].startswith("legend_")]
    ids = _ids(diagram)
    assert edges == [
        [f"{ids[edge.source]}->{ids[edge.target]}", DOT_DASHES[edge.tier]] for edge in diagram.edges
    ]
