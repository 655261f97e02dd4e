"""The column check of reached records against exchange.validation, record by record.

Reached records are drawn valid and then mutated once, anywhere in their
nesting (wrong type, missing or extra key, repeated or odd list items,
out-of-range numbers, strings that break a pattern). The column check may
refuse a valid record (it is stricter where that is simpler) but must never
accept an invalid one, must accept the records tsograph writes, and
validate_traversal must report exactly what validate reports.
"""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.graph.test_snapshot_checks import EDGE_KINDS
from tests.graph.test_snapshot_checks import ENTRIES
from tests.graph.test_snapshot_checks import NODE_KINDS
from tests.graph.test_snapshot_checks import ODD_VALUES
from tests.graph.test_traversal import make_graph
from tsograph.exchange import documents
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import validate
from tsograph.exchange.validation import validator_for
from tsograph.producers.graph.traversal import traverse
from tsograph.producers.graph.traversal_checks import reached_valid
from tsograph.producers.graph.traversal_checks import validate_traversal

ODD = [*ODD_VALUES, 0.0, 64, 65, 128, 129, 1_000_000, 1_000_001, 3.0, [1, 1], [0, True]]
texts = st.one_of(
    st.sampled_from(["src/a.ts#f", "src/b.ts#C.m", "é.ts#ü"]),
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs"), blacklist_characters="\u2028\u2029\x85"
        ),
        min_size=1,
        max_size=12,
    ),
)
paths = st.sampled_from(["src/a.ts", "a/b/c.tsx", "a/.x/b.ts", "a..b/c.ts", "é.ts"])


@st.composite
def reached_records(draw: st.DrawFn) -> dict[str, Any]:
    usr = draw(texts)
    symbol: dict[str, Any] = {
        "usr": usr,
        "qualifiedName": usr,
        "kind": draw(st.sampled_from(NODE_KINDS)),
        "location": {
            "path": draw(paths),
            "line": draw(st.integers(1, 9)),
            "column": draw(st.integers(1, 9)),
        },
    }
    if draw(st.booleans()):
        symbol["entries"] = draw(
            st.lists(st.sampled_from(ENTRIES), min_size=1, max_size=3, unique=True)
        )
    record: dict[str, Any] = {
        "symbol": symbol,
        "via": draw(texts),
        "depth": draw(st.integers(1, 128)),
        "roots": draw(
            st.one_of(
                st.lists(st.integers(0, 70), min_size=1, max_size=4, unique=True),
                st.just(list(range(1, 65))),  # the longest list the schema allows
            )
        ),
        "relationships": draw(
            st.lists(st.sampled_from(EDGE_KINDS), min_size=1, max_size=3, unique=True)
        ),
        "evidence": draw(st.sampled_from(["direct", "bound", "candidate"])),
    }
    if draw(st.booleans()):
        record["rootsTruncated"] = True
    if draw(st.booleans()):
        record["unresolvedCalls"] = draw(st.integers(1, 1_000_000))
    return record


def containers(value: Any) -> list[Any]:
    """Every object and array inside `value`, itself included."""
    found = [value]
    children = value.values() if isinstance(value, dict) else value
    for child in children:
        if isinstance(child, dict | list):
            found += containers(child)
    return found


def mutate(draw: st.DrawFn, record: dict[str, Any]) -> Any:
    choice = draw(st.integers(1, 4))
    if choice == 1:
        return draw(st.sampled_from(ODD))
    target = draw(st.sampled_from(containers(record)))
    if isinstance(target, dict):
        keys = sorted(target)
        if choice == 2 and keys:
            del target[draw(st.sampled_from(keys))]
        elif choice == 3 or not keys:
            extra = ["extra", "usr", "line", "entries", "rootsTruncated", "unresolvedCalls"]
            target[draw(st.sampled_from(extra))] = draw(st.sampled_from(ODD))
        else:
            target[draw(st.sampled_from(keys))] = draw(st.sampled_from(ODD))
    elif target and choice == 2:
        target.append(target[0])
    elif target:
        target[draw(st.integers(0, len(target) - 1))] = draw(st.sampled_from(ODD))
    else:
        target.append(draw(st.sampled_from(ODD)))
    return record


@st.composite
def record_lists(draw: st.DrawFn) -> tuple[list[Any], bool]:
    records = draw(st.lists(reached_records(), max_size=3))
    which = draw(st.integers(-1, len(records) - 1))  # -1: all stay valid
    if which >= 0:
        records[which] = mutate(draw, records[which])
    return records, which < 0


def traversal_document(reached: Any) -> dict[str, Any]:
    return {
        "format": "language-traversal",
        "version": 1,
        "tool": {"name": "tsograph", "version": "0.1.0"},
        "platform": "js",
        "project": "p",
        "generatedAt": "2026-01-01T00:00:00.000Z",
        "direction": "dependencies",
        "dispatch": "bound",
        "graphRevision": "sha256:" + "0" * 64,
        "roots": [{"id": "src/a.ts#f"}],
        "reached": reached,
        "truncated": False,
        "truncationReasons": [],
        "limitations": [],
    }


def validates(document: dict[str, Any]) -> bool:
    """The schema's verdict: the column checks state the schema's rules, while the rules
    across records (exchange/references.py) run after them on the whole document."""
    return bool(validator_for("language-traversal").is_valid(document))


@settings(max_examples=500, deadline=None)
@given(record_lists())
def test_accepts_only_valid_records_and_every_record_tsograph_writes(
    drawn: tuple[list[Any], bool],
) -> None:
    records, unchanged = drawn
    valid = validates(traversal_document(records))
    accepted = reached_valid(records)
    if accepted:
        assert valid
    if unchanged:
        assert valid and accepted


@settings(max_examples=200, deadline=None)
@given(record_lists(), st.sampled_from([None, "x", 3, {"a": 1}, ["depth"]]))
def test_validate_traversal_reports_what_validate_reports(
    drawn: tuple[list[Any], bool], odd: Any
) -> None:
    document = traversal_document(drawn[0])
    if odd is not None:
        document["truncationReasons"] = odd
    outcomes: list[str | None] = []
    for check in (validate_traversal, validate):
        try:
            check(orjson.loads(orjson.dumps(document)))
            outcomes.append(None)
        except InvalidDocumentError as error:
            outcomes.append(error.message)
    assert outcomes[0] == outcomes[1]


def test_too_many_records_and_odd_shapes_go_to_the_full_validator() -> None:
    symbol: dict[str, Any] = {"usr": "a", "qualifiedName": "a", "kind": "function"}
    record = {
        "symbol": symbol,
        "via": "b",
        "depth": 1,
        "roots": [0],
        "relationships": ["call"],
        "evidence": "direct",
    }
    symbol["location"] = None
    assert not reached_valid([record])
    symbol["location"] = {"path": "a.ts", "line": 1, "column": 1}
    assert reached_valid([record])
    assert not reached_valid([record] * 100_001)
    assert not reached_valid({"0": record})
    assert not reached_valid([{**record, "via": "b\n"}])  # valid, refused: re.search allows it
    assert validator_for("language-traversal").is_valid(
        traversal_document([{**record, "via": "b\n"}])
    )


def test_a_real_traversal_passes_the_column_check() -> None:
    edges = [(i, (i * 7 + 3) % 30, "direct", "call") for i in range(30)]
    edges += [(i, (i * 5 + 1) % 30, "bound", "new") for i in range(0, 30, 3)]
    graph = make_graph(30, edges, prefix="a.ts#")
    result = traverse(
        graph, ["a.ts#n00", "a.ts#n05", "a.ts#n11"], direction="dependents", mode="bound"
    )
    assert len(result.reached) > 5
    document = documents.language_traversal(
        direction="dependents",
        dispatch="bound",
        project="p",
        generated="2026-01-01T00:00:00.000Z",
        graph_revision="sha256:" + "0" * 64,
        revision=None,
        roots=result.roots,
        reached=result.reached,
        truncation_reasons=result.truncation_reasons,
        limitations=result.limitations,
    )
    assert reached_valid(document["reached"])
    validate_traversal(document)
