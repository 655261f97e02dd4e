"""The shared SQL relation extractor against conformance/sql-relations.json, plus properties."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conformance.vectors import CONFORMANCE_DIR
from tsograph.producers.schema import sql_relations

VECTORS: dict[str, Any] = json.loads((CONFORMANCE_DIR / "sql-relations.json").read_text("utf-8"))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["sql"][:40])
def test_relation_vectors(case: dict[str, Any]) -> None:
    found = sql_relations.extract(case["sql"], case["strict"])
    assert [relation.name for relation in found.relations] == case["relations"]
    assert found.unresolved == case["unresolved"]


@pytest.mark.parametrize("case", VECTORS["gate"], ids=lambda case: case["text"][:40] or "empty")
def test_gate_vectors(case: dict[str, Any]) -> None:
    assert sql_relations.looks_like_sql(case["text"], case["strict"]) is case["sql"]


def test_keyword_offset_schema_table_and_statement_kind() -> None:
    sql = "-- note\nINSERT INTO audit.log SELECT * FROM jobs"
    first, second = sql_relations.extract(sql).relations
    assert (first.keyword, first.schema, first.table, first.verb) == (15, "audit", "log", "insert")
    assert (second.schema, second.table) == ("", "jobs")


@given(
    st.text(alphabet=st.sampled_from(list("SELECT FROM JOIN into update set ;,.()'\"`[]ab$?-*/\n")))
)
def test_extract_never_fails_and_names_are_channel_ready(text: str) -> None:
    found = sql_relations.extract(text)
    assert found.unresolved >= 0
    for relation in found.relations:
        assert relation.name and all(relation.name.split("."))
