"""Operations to route-contract facts, and the spec to its document parts.

A fact's channel is the canonical template of the server prefix and the path
key together, so a prefix literal and a path literal are normalised by the
same rules and the length limit applies to the whole. A fact is dynamic when
either the path key or the joined template cannot be matched exactly, and each
dynamic fact is counted.

A path key's `?` or `#` tail (outside a `{parameter}`) is not part of the
channel: a client sends the tail as the query or keeps it as the fragment, so
the server routes on the part before it. Keys that then meet on one method,
channel and anchor give one fact, because a consumer joins contracts by
method and channel: the operation whose key has no tail keeps it, otherwise
the first in spec order (paths in document order, methods in the dialect's
order). Every fact folded away is counted under `contract-coverage:`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tsograph.exchange.templates import Template
from tsograph.exchange.templates import canonicalize
from tsograph.exchange.templates import canonicalize_braced
from tsograph.exchange.templates import encode_literal
from tsograph.exchange.writer import check_fact_budget
from tsograph.producers.openapi import coverage as causes
from tsograph.producers.openapi.coverage import Coverage
from tsograph.producers.openapi.dialects import detect
from tsograph.producers.openapi.operations import Operation
from tsograph.producers.openapi.operations import OperationCollector
from tsograph.producers.openapi.parsing import ParsedSpec
from tsograph.producers.openapi.positions import SourcePositions
from tsograph.producers.openapi.repeats import RepeatedKeys
from tsograph.producers.openapi.server_urls import Prefix


@dataclass(frozen=True)
class Contract:
    facts: list[dict[str, Any]]
    limitations: list[str]


def served_path(key: str) -> tuple[str, bool]:
    """The part of a path key the server routes on, and whether a tail was cut."""
    inside = False
    for index, char in enumerate(key):
        if char == "{":
            inside = True
        elif char == "}":
            inside = False
        elif char in "?#" and not inside:
            return key[:index], True
    return key, False


def _join(prefix: Prefix, path: Template) -> Template:
    """The canonical template of a server prefix followed by a path key."""
    # The prefix is literal text; it is encoded here and not cut, so the
    # length limit applies to the whole channel.
    head = "".join("/" + encode_literal(segment) for segment in prefix.segments)
    joined = canonicalize(head + path.channel)
    if path.dynamic:
        # A path already cut to the length limit can read as exact once
        # re-canonicalized; its own verdict stands.
        return Template(joined.channel, True, path.reason)
    return joined


def build_contract(spec: ParsedSpec, name: str, location_path: str, service: str) -> Contract:
    """The facts and limitations of a parsed spec; `name` is how messages call it."""
    repeats = RepeatedKeys(spec.tree, name, spec.positions)
    # Every root key can change facts, the version first of all.
    repeats.reject_in(spec.root)
    dialect = detect(spec.root, name)
    coverage = Coverage()
    operations = OperationCollector(spec.root, dialect, repeats, coverage).collect()
    check_fact_budget(sum(len(operation.prefixes) for operation in operations))
    facts = _facts(operations, spec.positions, location_path, service, coverage)
    limitations = coverage.lines()
    repeated = repeats.limitation()
    if repeated is not None:
        limitations.append(repeated)
    return Contract(facts, limitations)


def _facts(
    operations: list[Operation],
    positions: SourcePositions,
    location_path: str,
    service: str,
    coverage: Coverage,
) -> list[dict[str, Any]]:
    # The operations of one path item share their path and mostly their prefixes.
    paths: dict[str, tuple[Template, bool]] = {}
    joined: dict[tuple[Prefix, str], Template] = {}
    # (channel, method, anchor) -> (rank of the operation holding it, its fact, its reason)
    held: dict[tuple[str, str, str], tuple[tuple[bool, int], dict[str, Any], str | None]] = {}
    for number, operation in enumerate(operations):
        if operation.path not in paths:
            served, cut = served_path(operation.path)
            paths[operation.path] = (canonicalize_braced(served), cut)
        path, cut = paths[operation.path]
        line, column = positions.of_char(operation.holder.offsets[operation.method])
        rank = (cut, number)
        for prefix in operation.prefixes:
            if (prefix, operation.path) not in joined:
                joined[prefix, operation.path] = _join(prefix, path)
            template = joined[prefix, operation.path]
            identity = (template.channel, operation.method, prefix.anchor)
            holder = held.get(identity)
            if holder is not None:
                if holder[0][1] == number:
                    # The same operation under two servers of one prefix.
                    continue
                loser_cut = max(holder[0], rank)[0]
                coverage.folded(causes.FOLDED_TAIL if loser_cut else causes.FOLDED_SAME_TEMPLATE)
                if holder[0] < rank:
                    continue
            fact: dict[str, Any] = {
                "kind": "route-contract",
                "channel": template.channel,
                "method": operation.method.upper(),
                "location": {"path": location_path, "line": line, "column": column},
                "pathAnchor": prefix.anchor,
                "dynamic": template.dynamic,
                "service": service,
            }
            if operation.operation_id is not None:
                fact["operationId"] = operation.operation_id
                fact["symbol"] = {"qualifiedName": operation.operation_id}
            held[identity] = (rank, fact, template.reason)
    facts = []
    for _, fact, reason in held.values():
        if reason is not None:
            coverage.dynamic(reason)
        facts.append(fact)
    return facts
