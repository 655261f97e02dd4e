"""Schema validation: valid documents pass, and each kind of defect is named by its pointer."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import fastjsonschema
import orjson
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.exchange import documents
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import fast_validator_for
from tsograph.exchange.validation import validate
from tsograph.exchange.validation import validator_for

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "documents"


def contract_document() -> dict[str, Any]:
    document = orjson.loads((FIXTURES / "route-contract.json").read_bytes())
    assert isinstance(document, dict)
    return document


def traversal_document() -> dict[str, Any]:
    return documents.language_traversal(
        direction="dependencies",
        dispatch="bound",
        project="example",
        generated="2026-09-27T00:00:00.000Z",
        graph_revision="sha256:" + "ab" * 32,
        revision="0123456789abcdef0123456789abcdef01234567",
        roots=[
            {
                "id": "src/app/api/jobs/route.ts#POST",
                "symbol": {
                    "qualifiedName": "src/app/api/jobs/route.ts#POST",
                    "usr": "src/app/api/jobs/route.ts#POST",
                },
            },
            {"id": "src/typo.ts#nothing"},
        ],
        reached=[
            {
                "depth": 1,
                "evidence": "direct",
                "relationships": ["call"],
                "roots": [0],
                "symbol": {
                    "kind": "function",
                    "location": {"column": 17, "line": 3, "path": "src/lib/hof.ts"},
                    "qualifiedName": "src/lib/hof.ts#withAuth",
                    "usr": "src/lib/hof.ts#withAuth",
                },
                "unresolvedCalls": 1,
                "via": "src/app/api/jobs/route.ts#POST",
            }
        ],
        truncation_reasons=["root-not-found"],
        limitations=["root-not-found: 1 root id(s) are not graph nodes (src/typo.ts#nothing)"],
    )


def snapshot_document() -> dict[str, Any]:
    return documents.graph_snapshot(
        project="example",
        generated="2026-09-27T00:00:00.000Z",
        graph_revision="sha256:" + "cd" * 32,
        revision=None,
        statistics={"files": 2, "nodes": 2, "edges": 1},
        limitations=["unresolved-calls: 1 call(s) could not be linked (parameter: 1)"],
        nodes=[
            {
                "id": "src/a.ts#<module>",
                "kind": "module",
                "location": {"path": "src/a.ts", "line": 1, "column": 1},
            },
            {
                "id": "src/a.ts#run",
                "kind": "function",
                "location": {"path": "src/a.ts", "line": 2, "column": 17},
                "entries": ["route-handler"],
                "unresolvedCalls": {"direct": 1, "bound": 1},
            },
        ],
        edges=[
            {
                "from": "src/a.ts#<module>",
                "to": "src/a.ts#run",
                "kinds": ["call"],
                "evidence": "direct",
            }
        ],
    )


def test_valid_documents_pass() -> None:
    validate(contract_document())
    validate(traversal_document())
    validate(snapshot_document())


def pointer_of(document: Any) -> str:
    with pytest.raises(InvalidDocumentError) as caught:
        validate(document)
    return caught.value.pointer


def test_unknown_field_is_named() -> None:
    document = contract_document()
    document["facts"][1]["extra"] = True
    assert pointer_of(document) == "/facts/1/extra"


def test_unknown_top_level_field_is_named() -> None:
    document = contract_document()
    document["comment"] = "x"
    assert pointer_of(document) == "/comment"


def test_lowercase_method_is_rejected() -> None:
    document = contract_document()
    document["facts"][0]["method"] = "put"
    assert pointer_of(document) == "/facts/0/method"


def test_unknown_fact_kind_is_rejected() -> None:
    document = contract_document()
    document["facts"][0]["kind"] = "route-guess"
    assert pointer_of(document) == "/facts/0/kind"


def test_limitation_outside_the_closed_list_is_rejected() -> None:
    document = contract_document()
    document["limitations"] = ["made-up-prefix: 1 thing"]
    assert pointer_of(document) == "/limitations/0"


def test_limitation_without_text_after_the_prefix_is_rejected() -> None:
    document = contract_document()
    document["limitations"] = ["contract-coverage:"]
    assert pointer_of(document) == "/limitations/0"


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("/facts/0/location/path", "/abs/openapi.yaml"),
        ("/facts/0/location/path", "../outside.yaml"),
        ("/facts/0/location/path", "api\\openapi.yaml"),
        ("/facts/0/location/line", 0),
        ("/facts/0/location/column", 0),
        ("/facts/0/channel", "no-leading-slash"),
        ("/facts/0/channel", "/a/{}{}"),
        ("/facts/0/channel", "/a/%2f"),
        ("/facts/0/pathAnchor", "relative"),
        ("/project", "/work/example"),
        ("/generatedAt", "2026-09-27 01:27:56"),
        ("/facts/1/symbol/qualifiedName", "get\nItem"),
        ("/tool/name", "other"),
    ],
)
def test_field_level_defects_are_named(path: str, value: Any) -> None:
    document = contract_document()
    target: Any = document
    keys = path.strip("/").split("/")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    target[keys[-1]] = value
    assert pointer_of(document) == path


def test_dynamic_fact_may_carry_a_non_canonical_channel() -> None:
    document = contract_document()
    document["facts"][0]["channel"] = "/a/{}{}"
    document["facts"][0]["dynamic"] = True
    validate(document)


def test_persistence_document_accepts_only_relation_use() -> None:
    document = contract_document()
    document["target"] = "persistence"
    assert pointer_of(document) == "/facts/0/kind"


def test_null_target_has_no_facts() -> None:
    document = contract_document()
    document["target"] = None
    assert pointer_of(document) == "/facts"


def test_traversal_root_without_symbol_is_allowed_but_unknown_reason_is_not() -> None:
    document = traversal_document()
    validate(document)
    broken = copy.deepcopy(document)
    broken["truncationReasons"] = ["guess"]
    assert pointer_of(broken) == "/truncationReasons/0"


def test_traversal_rejects_snapshot_only_fields() -> None:
    document = traversal_document()
    document["reached"][0]["unresolvedCalls"] = {"direct": 1}
    assert pointer_of(document) == "/reached/0/unresolvedCalls"


def test_snapshot_rejects_unknown_edge_kind_and_evidence() -> None:
    document = snapshot_document()
    document["edges"][0]["kinds"] = ["calls"]
    assert pointer_of(document) == "/edges/0/kinds/0"
    document = snapshot_document()
    document["edges"][0]["evidence"] = "likely"
    assert pointer_of(document) == "/edges/0/evidence"


def test_unknown_format_is_rejected() -> None:
    assert pointer_of({"format": "other"}) == "/format"
    assert pointer_of([1, 2]) == ""


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["GET", "get", "/a/{}", "/a/{}{}", "x", "", "route-decl", "direct", "a.ts"]),
    st.text(max_size=6),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=5), inner, max_size=2)
    ),
    max_leaves=4,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["contract", "traversal", "snapshot"]),
    st.data(),
    json_value,
    st.booleans(),
)
def test_fast_validator_agrees_with_the_reference(
    which: str, data: st.DataObject, replacement: Any, add_key: bool
) -> None:
    document = {
        "contract": contract_document,
        "traversal": traversal_document,
        "snapshot": snapshot_document,
    }[which]()
    name = document["format"]
    path = data.draw(st.sampled_from(_paths(document)[1:]))
    target: Any = document
    for key in path[:-1]:
        target = target[key]
    if add_key and isinstance(target[path[-1]], dict):
        target[path[-1]][data.draw(st.text(max_size=6))] = replacement
    else:
        target[path[-1]] = replacement
    try:
        fast_validator_for(name)(document)
        fast_ok = True
    except fastjsonschema.JsonSchemaException:
        fast_ok = False
    assert fast_ok == validator_for(name).is_valid(document)
