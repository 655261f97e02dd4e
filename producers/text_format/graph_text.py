"""The text reading of a tsograph-graph snapshot: counts of nodes, edges and unresolved calls.

Unresolved calls are counted by reason per dispatch mode. The reasons are
the breakdown of each mode's `unresolved-calls:` line, which
exchange.limitations.counted writes as `(reason: n, …)`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from tsograph.exchange.limitations import prefix_of
from tsograph.producers.text_format.table import joined
from tsograph.producers.text_format.table import limitations_section
from tsograph.producers.text_format.table import table

EVIDENCE = ("direct", "bound", "candidate")
MODES = ("direct", "bound", "candidates")
_BREAKDOWN = re.compile(r"\(([^()]*)\)$")
_PART = re.compile(r"^(?P<reason>[^:]+): (?P<count>\d+)$")


def render(document: dict[str, Any]) -> str:
    nodes = document["nodes"]
    edges = document["edges"]
    revision = document.get("revision")
    sections = [
        [
            f"{document['project']}: {len(nodes)} node(s), {len(edges)} edge(s), "
            f"graph {document['graphRevision'][:19]}"
            + (f", git {revision[:12]}" if revision else "")
        ],
        _nodes(nodes),
        _edges(edges),
        _unresolved(document),
        _statistics(document["statistics"]),
        limitations_section(document["limitations"]),
    ]
    return joined(sections)


def _nodes(nodes: list[dict[str, Any]]) -> list[str]:
    kinds = Counter(node["kind"] for node in nodes)
    open_calls = Counter(node["kind"] for node in nodes if "unresolvedCalls" in node)
    entries = Counter(node["kind"] for node in nodes if node.get("entries"))
    rows = [
        [kind, str(kinds[kind]), str(entries[kind]), str(open_calls[kind])]
        for kind in sorted(kinds)
    ]
    return [
        "Nodes by kind:",
        *table(["KIND", "NODES", "ENTRY POINTS", "WITH UNRESOLVED CALLS"], rows),
    ]


def _edges(edges: list[dict[str, Any]]) -> list[str]:
    counts: Counter[tuple[str, str]] = Counter()
    for edge in edges:
        for kind in edge["kinds"]:
            counts[(kind, edge["evidence"])] += 1
    kinds = sorted({kind for kind, _ in counts})
    rows = [[kind, *(str(counts[(kind, tier)]) for tier in EVIDENCE)] for kind in kinds]
    return [
        "Edges by kind and evidence:",
        *table(["KIND", *(tier.upper() for tier in EVIDENCE)], rows),
    ]


def _reasons(limitations: list[str]) -> dict[str, int]:
    for line in limitations:
        if prefix_of(line) != "unresolved-calls:":
            continue
        found = _BREAKDOWN.search(line)
        if found is None:
            return {}
        parts = (_PART.match(part) for part in found.group(1).split(", "))
        return {part["reason"]: int(part["count"]) for part in parts if part}
    return {}


def _unresolved(document: dict[str, Any]) -> list[str]:
    by_mode = document.get("modeLimitations")
    if by_mode:
        columns = {mode: _reasons(by_mode[mode]) for mode in MODES}
    else:
        columns = {"all modes": _reasons(document["limitations"])}
    reasons = sorted({reason for counts in columns.values() for reason in counts})
    if not reasons:
        return ["Unresolved calls by reason: none"]
    rows = [
        [reason, *(str(counts.get(reason, 0)) for counts in columns.values())] for reason in reasons
    ]
    rows.append(["total", *(str(sum(counts.values())) for counts in columns.values())])
    return [
        "Unresolved calls by reason and dispatch mode:",
        *table(["REASON", *(mode.upper() for mode in columns)], rows),
    ]


def _statistics(statistics: dict[str, int]) -> list[str]:
    rows = [[name, str(value)] for name, value in sorted(statistics.items())]
    return ["Statistics:", *table(["NAME", "VALUE"], rows)]
