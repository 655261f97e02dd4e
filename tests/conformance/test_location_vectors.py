"""Runs conformance/utf8-locations.json against LineIndex and byte_column."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.vectors import case_id
from tests.conformance.vectors import cases
from tests.conformance.vectors import ran
from tsograph.exchange.locations import LineIndex
from tsograph.exchange.locations import byte_column

FILE = "utf8-locations.json"


def source_bytes(source: str) -> bytes:
    """The vector writes one character per byte, so Latin-1 gives the bytes back."""
    assert all(ord(char) <= 0xFF for char in source), "source characters stand for bytes"
    return source.encode("latin-1")


@pytest.mark.parametrize("case", cases(FILE), ids=case_id)
def test_location_vector(case: dict[str, Any]) -> None:
    ran(FILE)
    if case["kind"] == "byte_column":
        assert byte_column(case["line_text"], case["char_index"]) == case["column"]
        return
    assert case["kind"] == "position", case["kind"]
    data = source_bytes(case["source"])
    offset = case["offset"]
    assert 0 <= offset <= len(data)
    if "at" in case:
        # Guards the vector itself: the offset must point where its name says.
        assert data[offset:].startswith(source_bytes(case["at"]))
    index = LineIndex(data, count_bom=case["count_bom"], js_breaks=case["js_breaks"])
    assert index.position(offset) == (case["line"], case["column"])


def test_vector_file_covers_both_bom_modes_and_break_sets() -> None:
    positions = [case for case in cases(FILE) if case["kind"] == "position"]
    modes = {(case["count_bom"], case["js_breaks"]) for case in positions}
    assert modes == {(True, False), (False, False), (True, True), (False, True)}
    assert any(case["kind"] == "byte_column" for case in cases(FILE))
