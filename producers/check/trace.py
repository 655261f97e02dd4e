"""What a route touches: its handler, followed through a reach traversal, to relations and calls.

For each route-decl fact with a `symbol.usr` (the handler's graph id), the
reached set is the handler itself plus every symbol of the reach document
whose `roots` holds the handler's root index. Relation-use facts and
route-call facts whose `symbol.usr` is in that set are what the route touches
(the exact string join the spec describes: symbol.usr ∈ reach set ∪ {handler}).

Evidence: the handler's own facts are `direct`; a reached symbol carries the
reach document's per-root lower bound (`direct`, `bound` or `candidate`). A
table or call reached through several symbols keeps the strongest of them
(one proof is enough), and the route reports the weakest of its items: the
tier of its weakest step. Unresolved calls of the handler and the reached
symbols are summed, since each may lead to more tables, and a traversal cut
by a budget is named.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

TIERS = ("direct", "bound", "candidate")


def weaker(left: str, right: str) -> str:
    return left if TIERS.index(left) > TIERS.index(right) else right


def stronger(left: str, right: str) -> str:
    return left if TIERS.index(left) < TIERS.index(right) else right


@dataclass
class Reached:
    """The symbols one root reaches, with their evidence, and what is uncertain about it."""

    evidence: dict[str, str] = field(default_factory=dict)
    unresolved: int = 0
    found: bool = True


def reached_per_root(traversal: Mapping[str, Any]) -> dict[str, Reached]:
    roots = traversal["roots"]
    result: dict[str, Reached] = {}
    for root in roots:
        symbol = root.get("symbol")
        entry = Reached(found=symbol is not None)
        if symbol is not None:
            entry.evidence[root["id"]] = "direct"
            entry.unresolved = int(root.get("unresolvedCalls", 0))
        result[root["id"]] = entry
    by_index = [root["id"] for root in roots]
    for item in traversal["reached"]:
        usr = item["symbol"]["usr"]
        for index in item["roots"]:
            entry = result[by_index[index]]
            if usr not in entry.evidence:
                entry.evidence[usr] = item.get("evidence", "direct")
                entry.unresolved += int(item.get("unresolvedCalls", 0))
    return result


@dataclass
class Touched:
    evidence: str
    columns: set[str] = field(default_factory=set)
    symbols: set[str] = field(default_factory=set)


def _usr(fact: Mapping[str, Any]) -> str | None:
    value = fact.get("symbol", {}).get("usr")
    return value if isinstance(value, str) else None


def index_by_usr(facts: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    by_usr: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for fact in facts:
        usr = _usr(fact)
        if usr is not None and "#model:" not in usr and not fact.get("testSource"):
            by_usr[usr].append(fact)
    return by_usr


def route_entry(
    route: Mapping[str, Any],
    reached: Reached | None,
    uses: Mapping[str, list[Mapping[str, Any]]],
    calls: Mapping[str, list[Mapping[str, Any]]],
    truncation: Sequence[str],
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "method": route["method"],
        "channel": route["channel"],
        "location": dict(route["location"]),
        "tables": [],
        "calls": [],
        "notes": [],
    }
    usr = _usr(route)
    if usr is not None:
        entry["usr"] = usr
    if usr is None:
        entry["notes"].append("the handler has no symbol id, so nothing can be followed")
        return entry
    if reached is None or not reached.found:
        entry["notes"].append("the handler is not a node of the reach traversal")
        return entry
    tables: dict[str, Touched] = {}
    requests: dict[tuple[str, str, str], Touched] = {}
    for symbol, tier in sorted(reached.evidence.items()):
        for fact in uses.get(symbol, ()):
            name = fact["channel"] if not fact["dynamic"] else f"(dynamic) {fact['channel']}"
            touched = tables.setdefault(name, Touched(tier))
            touched.evidence = stronger(touched.evidence, tier)
            touched.symbols.add(symbol)
            if "method" in fact:
                touched.columns.add(fact["method"])
        for fact in calls.get(symbol, ()):
            key = (str(fact.get("service", "")), fact["method"], fact["channel"])
            touched = requests.setdefault(key, Touched(tier))
            touched.evidence = stronger(touched.evidence, tier)
            touched.symbols.add(symbol)
    entry["tables"] = [
        {
            "channel": name,
            "columns": sorted(t.columns),
            "evidence": t.evidence,
            "symbols": sorted(t.symbols),
        }
        for name, t in sorted(tables.items())
    ]
    entry["calls"] = [
        {
            **({"service": service} if service else {}),
            "method": method,
            "channel": channel,
            "evidence": t.evidence,
            "symbols": sorted(t.symbols),
        }
        for (service, method, channel), t in sorted(requests.items())
    ]
    tiers = [item["evidence"] for item in [*entry["tables"], *entry["calls"]]]
    if tiers:
        weakest = tiers[0]
        for tier in tiers[1:]:
            weakest = weaker(weakest, tier)
        entry["evidence"] = weakest
    entry["reached"] = len(reached.evidence)
    if reached.unresolved:
        entry["notes"].append(
            f"{reached.unresolved} call(s) in the handler or the code it reaches could not be "
            "linked; they may touch more"
        )
    if truncation:
        entry["notes"].append("the traversal was cut (" + ", ".join(truncation) + ")")
    return entry
