"""A cheap check of a language-traversal document's reached records.

Up to 100,000 reached records go through the compiled JSON Schema validator
in seconds, almost all of it one function call per record and per string. As
snapshot_checks.py does for snapshots, these checks state the rules of the
schema's `reached` items (patterns, bounds and enums read from the schema
file itself) once per column: types by set, keys by key set, strings once per
distinct value. They are stricter where that is simpler (only `int` is an
integer, a pattern must match the whole string), because only acceptance is
taken from them: records they reject are validated again with the whole
document, which then reports exactly what it reported before.
tests/graph/test_traversal_checks.py compares the result with
exchange.validation on random valid and mutated records.
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

FORMAT = "language-traversal"


class _Rules:
    """The schema's `reached` item rules, in the form the column checks use."""

    def __init__(self, schema: dict[str, Any]) -> None:
        definitions = schema["$defs"]
        reached = schema["properties"]["reached"]
        item = reached["items"]
        self.max_items: int = reached["maxItems"]
        self.required = frozenset(item["required"])
        self.allowed = frozenset(item["properties"])
        symbol = item["properties"]["symbol"]
        self.symbol_required = frozenset(symbol["required"])
        self.symbol_allowed = frozenset(symbol["properties"])
        self.location_keys = frozenset(definitions["location"]["properties"])
        text = definitions["symbolText"]
        self.text = (re.compile(text["pattern"]), text["minLength"], text["maxLength"])
        path = definitions["relativePath"]
        self.path = (re.compile(path["pattern"]), path["minLength"], path["maxLength"])
        self.node_kinds = frozenset(definitions["nodeKind"]["enum"])
        self.edge_kinds = frozenset(definitions["edgeKind"]["enum"])
        self.evidence = frozenset(definitions["evidence"]["enum"])
        self.entries = frozenset(definitions["entries"]["items"]["enum"])
        depth = item["properties"]["depth"]
        self.depth = (depth["minimum"], depth["maximum"])
        roots = item["properties"]["roots"]
        self.roots = (roots["minItems"], roots["maxItems"], roots["items"]["minimum"])
        count = definitions["count"]
        self.count = (count["minimum"], count["maximum"])


@cache
def _rules() -> _Rules:
    return _Rules(orjson.loads(schema_path(FORMAT).read_bytes()))


def validate_traversal(document: Any) -> None:
    """Validate a language-traversal document exactly as `validate(document)` does.

    When every reached record passes the column checks, only the rest of the
    document goes through the schema validator: the schema has no rule across
    records, so they cannot make it invalid in any other way; the rules across
    records (exchange/references.py) then run on the whole document.
    """
    if isinstance(document, dict) and reached_valid(document.get("reached")):
        validate({**document, "reached": []}, FORMAT)
        # The rules across records (via, root indices) need the records themselves.
        check_references(document, FORMAT)
    else:
        validate(document, FORMAT)


def reached_valid(records: Any) -> bool:
    """True only when every record satisfies the schema (some valid ones may be refused)."""
    rules = _rules()
    if not isinstance(records, list) or len(records) > rules.max_items:
        return False
    if not records:
        return True
    if not all(type(record) is dict for record in records):
        return False
    try:
        return _records_valid(records, rules)
    except (KeyError, TypeError):
        # A missing key, or an unhashable value where a string or number belongs.
        return False


def _records_valid(records: list[dict[str, Any]], rules: _Rules) -> bool:
    for keys in set(map(frozenset, records)):
        if not rules.required <= keys <= rules.allowed:
            return False
    symbols = list(map(itemgetter("symbol"), records))
    if not all(type(symbol) is dict for symbol in symbols):
        return False
    for keys in set(map(frozenset, symbols)):
        if not rules.symbol_required <= keys <= rules.symbol_allowed:
            return False
    texts = set(map(itemgetter("usr"), symbols))
    texts.update(map(itemgetter("qualifiedName"), symbols))
    texts.update(map(itemgetter("via"), records))
    if not _texts_valid(texts, rules.text):
        return False
    if not set(map(itemgetter("kind"), symbols)) <= rules.node_kinds:
        return False
    if not set(map(itemgetter("evidence"), records)) <= rules.evidence:
        return False
    if not _locations_valid(list(map(itemgetter("location"), symbols)), rules):
        return False
    if not _ints_within(list(map(itemgetter("depth"), records)), *rules.depth):
        return False
    if not _roots_valid(list(map(itemgetter("roots"), records)), rules):
        return False
    relationships = list(map(itemgetter("relationships"), records))
    if not all(type(value) is list for value in relationships):
        return False
    if not all(
        _enum_array(distinct, rules.edge_kinds) for distinct in set(map(tuple, relationships))
    ):
        return False
    return _optional_fields_valid(records, symbols, rules)


def _optional_fields_valid(
    records: list[dict[str, Any]], symbols: list[dict[str, Any]], rules: _Rules
) -> bool:
    for record in records:
        if "rootsTruncated" in record and record["rootsTruncated"] is not True:
            return False
    counts = [record["unresolvedCalls"] for record in records if "unresolvedCalls" in record]
    if not _ints_within(counts, *rules.count):
        return False
    entries = [symbol["entries"] for symbol in symbols if "entries" in symbol]
    if not all(type(value) is list for value in entries):
        return False
    return all(_enum_array(distinct, rules.entries) for distinct in set(map(tuple, entries)))


def _locations_valid(locations: list[Any], rules: _Rules) -> bool:
    if not all(type(location) is dict for location in locations):
        return False
    if set(map(frozenset, locations)) - {rules.location_keys}:
        return False
    if not _texts_valid(set(map(itemgetter("path"), locations)), rules.path):
        return False
    lines = list(map(itemgetter("line"), locations))
    columns = list(map(itemgetter("column"), locations))
    return _ints_within(lines, 1, None) and _ints_within(columns, 1, None)


def _roots_valid(lists: list[Any], rules: _Rules) -> bool:
    fewest, most, smallest = rules.roots
    if not all(type(value) is list and fewest <= len(value) <= most for value in lists):
        return False
    values = [value for roots in lists for value in roots]
    if not _ints_within(values, smallest, None):
        return False
    return all(len(set(roots)) == len(roots) for roots in lists)


def _ints_within(values: list[Any], low: int, high: int | None) -> bool:
    """Every value an `int` (not a bool) from low to high; an empty list passes."""
    if not values:
        return True
    if set(map(type, values)) != {int}:
        return False
    return min(values) >= low and (high is None or max(values) <= high)


def _enum_array(items: Iterable[Any], allowed: frozenset[str]) -> bool:
    """minItems 1, uniqueItems, every item one of the allowed strings."""
    values = list(items)
    if not values or not all(type(value) is str and value in allowed for value in values):
        return False
    return len(set(values)) == len(values)


def _texts_valid(values: set[Any], rule: tuple[re.Pattern[str], int, int]) -> bool:
    pattern, low, high = rule
    match = pattern.fullmatch
    return all(
        type(value) is str and low <= len(value) <= high and match(value) is not None
        for value in values
    )
