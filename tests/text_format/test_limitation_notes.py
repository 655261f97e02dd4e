"""Every limitation prefix a document can carry has its sentence in the text readings."""

from __future__ import annotations

from tsograph.exchange.limitations import BRIDGE_FACTS_PREFIXES
from tsograph.exchange.limitations import TRAVERSAL_PREFIXES
from tsograph.producers.text_format.limitation_notes import NOTES
from tsograph.producers.text_format.table import limitations_section


def test_every_prefix_has_a_note_and_no_note_is_for_an_unknown_prefix() -> None:
    known = set(BRIDGE_FACTS_PREFIXES) | set(TRAVERSAL_PREFIXES)
    assert set(NOTES) == known


def test_notes_are_one_sentence() -> None:
    for prefix, note in NOTES.items():
        assert note.endswith("."), prefix
        assert ". " not in note.rstrip("."), prefix


def test_a_prefix_with_several_lines_is_explained_once_after_them() -> None:
    lines = limitations_section(
        [
            "framework-provided-routes: 1 a",
            "framework-provided-routes: 2 b",
            "route-coverage: 1 c",
        ]
    )
    assert lines[0] == "Limitations (3):"
    assert lines[1:3] == ["  framework-provided-routes: 1 a", "  framework-provided-routes: 2 b"]
    assert lines[3] == "    -> " + NOTES["framework-provided-routes:"]
    assert lines[4:] == ["  route-coverage: 1 c", "    -> " + NOTES["route-coverage:"]]


def test_no_limitations_is_said_in_one_line() -> None:
    assert limitations_section([]) == ["Limitations: none"]
