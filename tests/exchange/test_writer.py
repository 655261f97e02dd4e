"""The writer: sorted keys, two-space indentation, the compact fallback and the caps."""

from __future__ import annotations

import io
import json
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.exchange.test_validation import contract_document
from tsograph.exchange import writer
from tsograph.exchange.errors import InternalError
from tsograph.exchange.errors import OutputError

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=30,
)


def test_render_sorts_keys_and_indents_by_two_spaces() -> None:
    assert writer.render({"b": [1, {"d": 1, "c": []}], "a": {}}) == (
        b'{\n  "a": {},\n  "b": [\n    1,\n    {\n      "c": [],\n      "d": 1\n    }\n  ]\n}\n'
    )


def test_render_matches_pythons_json_module_spelling() -> None:
    document = {"é": "caf\u00e9 \u2028", "z": [True, None, -3]}
    expected = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert writer.render(document).decode("utf-8") == expected


@settings(max_examples=200)
@given(json_values)
def test_render_round_trips_and_is_deterministic(value: Any) -> None:
    first = writer.render(value)
    assert orjson.loads(first) == value
    assert writer.render(orjson.loads(first)) == first


def test_indentation_alone_over_the_cap_gives_compact(monkeypatch: pytest.MonkeyPatch) -> None:
    document = {"items": [{"k": i} for i in range(50)]}
    compact = orjson.dumps(document, option=orjson.OPT_SORT_KEYS) + b"\n"
    monkeypatch.setattr(writer, "MAX_OUTPUT_CHARS", len(compact))
    assert writer.render(document) == compact


def test_compact_over_the_cap_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    document = {"items": list(range(50))}
    compact = orjson.dumps(document, option=orjson.OPT_SORT_KEYS) + b"\n"
    monkeypatch.setattr(writer, "MAX_OUTPUT_CHARS", len(compact) - 1)
    with pytest.raises(OutputError):
        writer.render(document)


def test_cap_counts_characters_not_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    document = ["é" * 10]
    compact = orjson.dumps(document) + b"\n"
    monkeypatch.setattr(writer, "MAX_OUTPUT_CHARS", len(compact.decode()))
    assert writer.render(document) == compact


def test_write_document_writes_nothing_when_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "MAX_OUTPUT_CHARS", 100)
    out = io.BytesIO()
    with pytest.raises(OutputError):
        writer.write_document(contract_document(), out)
    assert out.getvalue() == b""


def test_invalid_document_is_an_internal_error_and_is_not_written() -> None:
    document = contract_document()
    document["facts"][0]["method"] = "get"
    out = io.BytesIO()
    with pytest.raises(InternalError) as caught:
        writer.write_document(document, out)
    assert out.getvalue() == b""
    assert caught.value.message == "internal error (invalid document at /facts/0/method)"


def test_write_document_writes_the_validated_rendering() -> None:
    out = io.BytesIO()
    writer.write_document(contract_document(), out)
    assert out.getvalue() == writer.render(contract_document())


def test_fact_budget() -> None:
    writer.check_fact_budget(writer.MAX_FACTS)
    with pytest.raises(OutputError):
        writer.check_fact_budget(writer.MAX_FACTS + 1)


def test_ndjson_lines_are_compact_and_sorted() -> None:
    out = io.BytesIO()
    header = {
        "format": "tsograph-graph-ndjson",
        "version": 1,
        "tool": {"name": "tsograph", "version": "0.1.0"},
        "platform": "js",
        "project": "p",
        "generatedAt": "2026-01-01T00:00:00.000Z",
        "graphRevision": "sha256:" + "0" * 64,
        "statistics": {},
        "limitations": [],
    }
    node = {
        "record": "node",
        "kind": "module",
        "id": "a.ts#<module>",
        "location": {"path": "a.ts", "line": 1, "column": 1},
    }
    writer.write_lines(header, [node], out)
    lines = out.getvalue().split(b"\n")
    assert lines[1] == (
        b'{"id":"a.ts#<module>","kind":"module",'
        b'"location":{"column":1,"line":1,"path":"a.ts"},"record":"node"}'
    )
    assert lines[2] == b""
    bad = dict(node, kind="module-ish")
    with pytest.raises(InternalError):
        writer.write_lines(header, [bad], io.BytesIO())
