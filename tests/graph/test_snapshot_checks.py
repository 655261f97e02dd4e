"""The column checks of snapshot records agree with the JSON Schema, record by record.

Random records are drawn valid and then mutated one field at a time (wrong
type, missing or extra key, empty or repeated list items, out-of-range numbers,
strings that break a pattern, including the trailing newline Python's `$`
accepts); for each, records_valid must say what jsonschema says.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import validate
from tsograph.exchange.validation import validator_for
from tsograph.producers.graph.snapshot_checks import records_valid
from tsograph.producers.graph.snapshot_checks import validate_snapshot

NODE_KINDS = ["module", "function", "method", "class", "variable"]
EDGE_KINDS = ["call", "new", "callback", "reference", "jsx", "alias", "initializer", "contains"]
ENTRIES = ["route-handler", "scheduled", "page", "middleware"]
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -3,
    1.0,
    2.5,
    "",
    "x",
    "a\n",
    "\n",
    "a\nb",
    "a\u2028",
    "/abs",
    "C:/x",
    "a\\b",
    "../up",
    "ok/./x",
    "direct",
    "call",
    "function",
    [],
    ["call"],
    ["call", "call"],
    {},
    {"direct": 1},
    {"path": "a.ts", "line": 1, "column": 1},
    "y" * 8193,
]

# Valid values only: a test case then mutates at most one record.
texts = st.one_of(
    st.sampled_from(["src/a.ts#f", "src/b.ts#C.m", "a.ts", "é.ts#ü", "a.ts#x\n"]),
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs"), blacklist_characters="\u2028\u2029"
        ),
        min_size=1,
        max_size=12,
    ),
)
paths = st.sampled_from(["src/a.ts", "a/b/c.tsx", "a/.x/b.ts", "a..b/c.ts", "é.ts"])
integers = st.integers(1, 5)


@st.composite
def node_records(draw: st.DrawFn) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": draw(texts),
        "kind": draw(st.sampled_from(NODE_KINDS)),
        "location": {"path": draw(paths), "line": draw(integers), "column": draw(integers)},
    }
    if draw(st.booleans()):
        record["entries"] = draw(
            st.lists(st.sampled_from(ENTRIES), min_size=1, max_size=3, unique=True)
        )
    if draw(st.booleans()):
        modes = draw(
            st.lists(st.sampled_from(["direct", "bound", "candidates"]), min_size=1, max_size=3)
        )
        record["unresolvedCalls"] = {mode: draw(integers) for mode in modes}
    return record


@st.composite
def edge_records(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "from": draw(texts),
        "to": draw(texts),
        "kinds": draw(st.lists(st.sampled_from(EDGE_KINDS), min_size=1, max_size=3, unique=True)),
        "evidence": draw(st.sampled_from(["direct", "bound", "candidate"])),
    }


def mutate(draw: st.DrawFn, record: dict[str, Any]) -> Any:
    """One random change somewhere in the record."""
    choice = draw(st.integers(1, 4))
    if choice == 1:
        return draw(st.sampled_from(ODD_VALUES))  # not an object at all
    # Pick a container: the record or one of its nested objects and lists.
    containers: list[Any] = [record]
    containers += [value for value in record.values() if isinstance(value, dict | list)]
    target = draw(st.sampled_from(containers))
    if isinstance(target, dict):
        if choice == 2 and target:
            del target[draw(st.sampled_from(sorted(target)))]
        elif choice == 3:
            target[draw(st.sampled_from(["extra", "id", "line", "direct", "kinds"]))] = draw(
                st.sampled_from(ODD_VALUES)
            )
        elif target:
            target[draw(st.sampled_from(sorted(target)))] = draw(st.sampled_from(ODD_VALUES))
    elif target:
        if choice == 2:
            target.append(target[0])
        else:
            target[draw(st.integers(0, len(target) - 1))] = draw(st.sampled_from(ODD_VALUES))
    else:
        target.append(draw(st.sampled_from(ODD_VALUES)))
    return record


@st.composite
def record_lists(draw: st.DrawFn) -> tuple[list[Any], list[Any]]:
    nodes = draw(st.lists(node_records(), max_size=3))
    edges = draw(st.lists(edge_records(), max_size=3))
    records: list[list[Any]] = [nodes, edges]
    which = draw(st.integers(-1, len(nodes) + len(edges) - 1))  # -1: all stay valid
    if which >= 0:
        kind, position = (0, which) if which < len(nodes) else (1, which - len(nodes))
        records[kind][position] = mutate(draw, records[kind][position])
    return nodes, edges


def snapshot(nodes: Any, edges: Any) -> dict[str, Any]:
    return {
        "format": "tsograph-graph",
        "version": 1,
        "tool": {"name": "tsograph", "version": "0.1.0"},
        "platform": "js",
        "project": "p",
        "generatedAt": "2026-01-01T00:00:00.000Z",
        "graphRevision": "sha256:" + "0" * 64,
        "statistics": {},
        "limitations": [],
        "nodes": nodes,
        "edges": edges,
    }


@settings(max_examples=600, deadline=None)
@given(record_lists())
def test_records_valid_agrees_with_the_schema(records: tuple[list[Any], list[Any]]) -> None:
    nodes, edges = records
    expected = validator_for("tsograph-graph").is_valid(snapshot(nodes, edges))
    assert records_valid(nodes, edges) == expected


@settings(max_examples=150, deadline=None)
@given(record_lists(), st.sampled_from([None, "x", 3, {"a": 1}]))
def test_validate_snapshot_reports_what_the_schema_validator_reports(
    records: tuple[list[Any], list[Any]], odd_project: Any
) -> None:
    nodes, edges = records
    document = snapshot(nodes, edges)
    if odd_project is not None:
        document["project"] = odd_project
    outcomes: list[str | None] = []
    for check in (validate_snapshot, lambda d: validate(d, "tsograph-graph")):
        try:
            check(orjson.loads(orjson.dumps(document)))
            outcomes.append(None)
        except InvalidDocumentError as error:
            outcomes.append(error.message)
    assert outcomes[0] == outcomes[1]


def test_a_trailing_newline_passes_as_the_schema_validator_lets_it() -> None:
    # jsonschema applies "pattern" with re.search, whose "$" also matches
    # before a final newline; the column checks must not be stricter or looser.
    location = {"path": "a.ts", "line": 1, "column": 1}
    node = {"id": "a.ts#f\n", "kind": "function", "location": location}
    assert validator_for("tsograph-graph").is_valid(snapshot([node], []))
    assert records_valid([node], [])
    node["id"] = "a.ts#f\n\n"
    assert not validator_for("tsograph-graph").is_valid(snapshot([node], []))
    assert not records_valid([node], [])


@st.composite
def detail_lists(draw: st.DrawFn) -> tuple[list[Any], list[Any]]:
    """The relations and types of a --details snapshot, at most one record mutated."""
    location = st.fixed_dictionaries({"path": paths, "line": integers, "column": integers})
    relations = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "kind": st.sampled_from(["extends", "implements", "overrides", "imports"]),
                    "from": texts,
                    "to": texts,
                    "evidence": st.sampled_from(["direct", "bound", "candidate"]),
                    "site": location,
                }
            ),
            max_size=3,
        )
    )
    types = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "id": texts,
                    "kind": st.sampled_from(["interface", "type", "enum"]),
                    "location": location,
                }
            ),
            max_size=3,
        )
    )
    records: list[list[Any]] = [relations, types]
    which = draw(st.integers(-1, len(relations) + len(types) - 1))  # -1: all stay valid
    if which >= 0:
        kind, position = (0, which) if which < len(relations) else (1, which - len(relations))
        records[kind][position] = mutate(draw, records[kind][position])
    return relations, types


@settings(max_examples=150, deadline=None)
@given(detail_lists())
def test_details_are_judged_as_the_schema_validator_judges_them(
    details: tuple[list[Any], list[Any]],
) -> None:
    relations, types = details
    document = {**snapshot([], []), "relations": relations, "types": types}
    outcomes: list[str | None] = []
    for check in (validate_snapshot, lambda d: validate(d, "tsograph-graph")):
        try:
            check(orjson.loads(orjson.dumps(document)))
            outcomes.append(None)
        except InvalidDocumentError as error:
            outcomes.append(error.message)
    assert outcomes[0] == outcomes[1]


_SITE = {"path": "a.ts", "line": 1, "column": 1}
_RELATION = {
    "kind": "extends",
    "from": "a.ts#A",
    "to": "a.ts#B",
    "evidence": "direct",
    "site": _SITE,
}
_TYPE = {"id": "a.ts#T", "kind": "interface", "location": _SITE}


@pytest.mark.parametrize(
    ("relation", "type_declaration"),
    [
        ({**_RELATION, "evidence": "guessed"}, _TYPE),
        ({**_RELATION, "kind": "calls"}, _TYPE),
        ({**_RELATION, "site": {**_SITE, "line": 0}}, _TYPE),
        ({**_RELATION, "extra": 1}, _TYPE),
        (_RELATION, {**_TYPE, "kind": "class"}),
        (_RELATION, {**_TYPE, "id": "a.ts#T\n\n"}),
        (_RELATION, {**_TYPE, "location": "a.ts"}),
    ],
)
def test_each_detail_rule_is_checked(
    relation: dict[str, Any], type_declaration: dict[str, Any]
) -> None:
    document = {**snapshot([], []), "relations": [relation], "types": [type_declaration]}
    with pytest.raises(InvalidDocumentError) as expected:
        validate(document, "tsograph-graph")
    with pytest.raises(InvalidDocumentError) as found:
        validate_snapshot(document)
    assert found.value.message == expected.value.message
