"""A cheap, exact check of a tsograph-graph snapshot's node and edge records.

A saved traversal validates its snapshot before use. The compiled JSON Schema
validator spends about ten seconds on the 800,000 records of a 200,000-node
graph, almost all of it calling a function per record and per string. These
checks state the same rules as the schema's `node` and `edge` definitions
(patterns, lengths and enums are read from the schema file itself, and a
pattern is applied with `re.search`, as jsonschema applies it) but check each
rule once over a whole column: types by set, keys by key set, strings once per
distinct value. tests/graph/test_snapshot_checks.py compares them with the
jsonschema validator on random valid and mutated records.

Only acceptance is taken from them: a snapshot they reject is validated again
by exchange.validation, which names the first problem exactly as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from operator import itemgetter
from typing import Any

import orjson

from tsograph.exchange.validation import check_references
from tsograph.exchange.validation import validate
from tsograph.schemas import schema_path

FORMAT = "tsograph-graph"
EDGE_KEYS = frozenset(("from", "to", "kinds", "evidence"))
NODE_REQUIRED = frozenset(("id", "kind", "location"))
NODE_KEYS = NODE_REQUIRED | {"entries", "unresolvedCalls"}
LOCATION_KEYS = frozenset(("path", "line", "column"))
SITE_KEYS = LOCATION_KEYS | {"kind"}
COUNT_KEYS = frozenset(("direct", "bound", "candidates"))
# The optional arrays of `graph --details`, checked by column like nodes and edges.
DETAILS = ("relations", "types")
RELATION_KEYS = frozenset(("kind", "from", "to", "evidence", "site"))
TYPE_KEYS = frozenset(("id", "kind", "location"))


class _Rules:
    """The schema's definitions, in the form the column checks use."""

    def __init__(self, definitions: dict[str, Any]) -> None:
        text = definitions["symbolText"]
        self.text_pattern = re.compile(text["pattern"])
        self.text_lengths = (text["minLength"], text["maxLength"])
        path = definitions["relativePath"]
        self.path_pattern = re.compile(path["pattern"])
        self.path_lengths = (path["minLength"], path["maxLength"])
        self.node_kinds = frozenset(definitions["nodeKind"]["enum"])
        self.edge_kinds = frozenset(definitions["edgeKind"]["enum"])
        self.evidence = frozenset(definitions["evidence"]["enum"])
        self.entries = frozenset(definitions["entries"]["items"]["enum"])
        self.relation_kinds = frozenset(definitions["relationKind"]["enum"])
        type_kind = definitions["typeDeclaration"]["properties"]["kind"]
        self.type_kinds = frozenset(type_kind["enum"])


@cache
def _rules() -> _Rules:
    schema = orjson.loads(schema_path(FORMAT).read_bytes())
    return _Rules(schema["$defs"])


def validate_snapshot(document: dict[str, Any]) -> None:
    """Validate a tsograph-graph snapshot exactly as `validate(document, FORMAT)` does.

    When every record passes the column checks, only the rest of the document
    goes through the schema validator; records cannot make a document invalid
    in any other way (the schema has no rule across records), except by the
    rules across records (exchange/references.py), which then run on the whole
    document.
    """
    details: dict[str, list[Any]] = {key: [] for key in DETAILS if key in document}
    if records_valid(document.get("nodes"), document.get("edges")) and _details_valid(document):
        validate({**document, "nodes": [], "edges": [], **details}, FORMAT)
        check_references(document, FORMAT)
    else:
        validate(document, FORMAT)


def records_valid(nodes: Any, edges: Any) -> bool:
    """True exactly when every node and edge record satisfies the schema."""
    if not isinstance(nodes, list) or not isinstance(edges, list):
        return False
    try:
        texts: set[Any] = set()
        if not _edges_valid(edges, texts) or not _nodes_valid(nodes, texts):
            return False
    except TypeError:
        # An unhashable value where a string or number belongs: not valid.
        return False
    return _texts_valid(texts, _rules().text_pattern, _rules().text_lengths)


def _details_valid(document: dict[str, Any]) -> bool:
    """The relations and types of a --details snapshot, when it has them."""
    rules = _rules()
    texts: set[Any] = set()
    try:
        relations = {"kind": rules.relation_kinds, "evidence": rules.evidence}
        if not _detail_valid(document, "relations", RELATION_KEYS, relations, "site", texts):
            return False
        if not _detail_valid(
            document, "types", TYPE_KEYS, {"kind": rules.type_kinds}, "location", texts
        ):
            return False
    except TypeError:
        return False
    return _texts_valid(texts, rules.text_pattern, rules.text_lengths)


def _detail_valid(
    document: dict[str, Any],
    name: str,
    keys: frozenset[str],
    choices: dict[str, frozenset[str]],
    location: str,
    texts: set[Any],
) -> bool:
    """One list of detail records: objects with exactly `keys`, each key of `choices` holding
    one of its values, a valid location under `location`; the other keys' texts go to `texts`."""
    records = document.get(name, [])
    if not isinstance(records, list) or not _all_dicts(records):
        return False
    if not records:
        return True
    if set(map(frozenset, records)) != {keys}:
        return False
    if not all(set(map(itemgetter(key), records)) <= allowed for key, allowed in choices.items()):
        return False
    if not _locations_valid(list(map(itemgetter(location), records))):
        return False
    for key in sorted(keys - choices.keys() - {location}):
        texts.update(map(itemgetter(key), records))
    return True


def _all_dicts(values: list[Any]) -> bool:
    return all(isinstance(value, dict) for value in values)


def _edges_valid(edges: list[Any], texts: set[Any]) -> bool:
    rules = _rules()
    if not edges:
        return True
    if not _all_dicts(edges) or not set(map(len, edges)) <= {len(EDGE_KEYS), len(EDGE_KEYS) + 1}:
        return False
    placed = [edge for edge in edges if len(edge) > len(EDGE_KEYS)]
    if placed and not _sites_valid(placed):
        return False
    try:
        # Four keys (five with sites) and all four required ones present: exactly the
        # allowed keys.
        sources, targets, kinds, evidence = (
            list(map(itemgetter(key), edges)) for key in ("from", "to", "kinds", "evidence")
        )
    except KeyError:
        return False
    if not set(evidence) <= rules.evidence:
        return False
    if not all(isinstance(value, list) for value in kinds):
        return False
    for distinct in set(map(tuple, kinds)):
        if not _enum_array(distinct, rules.edge_kinds):
            return False
    texts.update(sources)
    texts.update(targets)
    return True


def _sites_valid(edges: list[dict[str, Any]]) -> bool:
    """The optional `sites` of edges: a non-empty list of distinct places, each with its
    edge kind. Sites with anything but int lines and columns are left to the schema
    validator (uniqueItems counts 1 and 1.0 as equal)."""
    places: list[Any] = []
    for edge in edges:
        sites = edge.get("sites")
        if not isinstance(sites, list) or not sites or not _all_dicts(sites):
            return False
        places.extend(sites)
    if set(map(frozenset, places)) != {SITE_KEYS}:
        return False
    if not set(map(itemgetter("kind"), places)) <= _rules().edge_kinds:
        return False
    if not _locations_valid([{key: place[key] for key in LOCATION_KEYS} for place in places]):
        return False
    key = itemgetter("path", "line", "column", "kind")
    for edge in edges:
        written = list(map(key, edge["sites"]))
        if any(type(line) is not int or type(column) is not int for _, line, column, _ in written):
            return False
        if len(set(written)) != len(written):
            return False
    return True


def _locations_valid(locations: list[Any]) -> bool:
    rules = _rules()
    if not _all_dicts(locations) or not set(map(frozenset, locations)) <= {LOCATION_KEYS}:
        return False
    paths = set(map(itemgetter("path"), locations))
    if not _texts_valid(paths, rules.path_pattern, rules.path_lengths):
        return False
    return all(
        _integers_at_least(list(map(itemgetter(key), locations)), 1) for key in ("line", "column")
    )


def _nodes_valid(nodes: list[Any], texts: set[Any]) -> bool:
    rules = _rules()
    if not nodes:
        return True
    if not _all_dicts(nodes):
        return False
    for keys in set(map(frozenset, nodes)):
        if not NODE_REQUIRED <= keys <= NODE_KEYS:
            return False
    if not set(map(itemgetter("kind"), nodes)) <= rules.node_kinds:
        return False
    if not _locations_valid(list(map(itemgetter("location"), nodes))):
        return False
    for node in nodes:
        if len(node) > len(NODE_REQUIRED) and not _optional_fields_valid(node):
            return False
    texts.update(map(itemgetter("id"), nodes))
    return True


def _optional_fields_valid(node: dict[str, Any]) -> bool:
    if "entries" in node:
        entries = node["entries"]
        if not isinstance(entries, list) or not _enum_array(entries, _rules().entries):
            return False
    if "unresolvedCalls" in node:
        counts = node["unresolvedCalls"]
        if not isinstance(counts, dict) or not counts or not set(counts) <= COUNT_KEYS:
            return False
        if not _integers_at_least(list(counts.values()), 1):
            return False
    return True


def _enum_array(items: Iterable[Any], allowed: frozenset[str]) -> bool:
    """minItems 1, uniqueItems, every item one of the allowed strings."""
    values = list(items)
    if not values or not all(isinstance(value, str) and value in allowed for value in values):
        return False
    return len(set(values)) == len(values)


def _is_integer(value: Any) -> bool:
    # jsonschema's Draft 2020-12 integer: an int that is not a bool, or a whole float.
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _integers_at_least(values: list[Any], low: int) -> bool:
    if set(map(type, values)) <= {int}:
        return not values or min(values) >= low
    return all(_is_integer(value) and value >= low for value in values)


def _texts_valid(values: set[Any], pattern: re.Pattern[str], lengths: tuple[int, int]) -> bool:
    low, high = lengths
    search = pattern.search
    return all(
        isinstance(value, str) and low <= len(value) <= high and search(value) is not None
        for value in values
    )
