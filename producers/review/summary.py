"""What the change reaches, as the summary (impact.json) and the packet's whole lists.

Callers are read from the work tree's graph for touched symbols and from the
base graph for removed ones; each list is ordered direct, bound, candidate,
then by nearness (same file, then the longest shared folder), then by id.
The cuts are the code-graph seed's: a symbol with more than HUB callers keeps
its HUB_KEEP nearest in the summary (the possible ones apart, the same way),
the second hop keeps SECOND_HOP callers of each caller, routes are looked for
from the first MAX_ROUTE_SYMBOLS touched symbols, within ROUTE_HOPS hops.
Every cut says what it left out; the packet holds the whole lists.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.diagrams.route_labels import route_gaps
from tsograph.producers.diagrams.route_labels import unhandled_routes
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.held import short_name
from tsograph.producers.query.questions import Request
from tsograph.producers.query.questions import ask
from tsograph.producers.review import uses
from tsograph.producers.review.changes import Changes

# A `file:line` a limitation line names.
PLACE = re.compile(r"[\w./@()\[\]+-]+:\d+")
HUB = 40
HUB_KEEP = 20
SECOND_HOP = 20
MAX_ROUTE_SYMBOLS = 25
ROUTE_HOPS = 3
RELATION_HOPS = 3
# The route question runs inside the review, which has no per-question time limit of its own.
ROUTE_BUDGET_MS = 600_000


@dataclass
class Lists:
    """The whole lists, per key, that the packet writes in pages."""

    callers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    second_hop: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    callees: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # Every item, and what each list's page says of it (complete, reasons, omitted).
    importers: dict[str, uses.Whole] = field(default_factory=dict)  # by module id
    implementers: dict[str, uses.Whole] = field(default_factory=dict)
    references: dict[str, uses.Whole] = field(default_factory=dict)


def _nearness(here: str, there: str) -> tuple[int, int]:
    if here == there:
        return (0, 0)
    shared = os.path.commonpath([here, there]) if "/" in here and "/" in there else ""
    return (1, -len(shared.split("/")) if shared else 0)


def _callers(held: HeldGraph, node_id: str, depth: int) -> list[dict[str, Any]]:
    number = held.graph.index.get(node_id)
    if number is None:
        return []
    here = node_id.partition("#")[0]
    rows = []
    for edge in held.incoming[number]:
        source = held.graph.ids[held.graph.sources[edge]]
        rows.append(
            (
                held.graph.ranks[edge],
                _nearness(here, source.partition("#")[0]),
                source,
                held.edge_item(edge, depth),
            )
        )
    rows.sort(key=lambda row: row[:3])
    return [row[3] for row in rows]


def _callees(held: HeldGraph, node_id: str) -> list[dict[str, Any]]:
    number = held.graph.index[node_id]
    rows = sorted(
        (held.graph.ranks[edge], held.graph.ids[held.graph.targets[edge]], edge)
        for edge in held.outgoing[number]
    )
    return [held.edge_item(edge, 1) for _, _, edge in rows]


def _counts(items: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(EVIDENCE_ORDER, 0)
    for item in items:
        counts[item["tier"]] += 1
    return counts


def hub_cut(items: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The nearest HUB_KEEP of the certain (direct, bound) and of the possible callers apart,
    each only when it has more than HUB; and how many that left out."""
    certain = [item for item in items if item["tier"] != "candidate"]
    possible = [item for item in items if item["tier"] == "candidate"]
    kept: list[dict[str, Any]] = []
    for group in (certain, possible):
        kept += group[:HUB_KEEP] if len(group) > HUB else group
    return kept, len(items) - len(kept)


def _symbol(held: HeldGraph, node_id: str) -> dict[str, Any]:
    return held.symbol(held.graph.index[node_id])


def summarize(
    base: HeldGraph,
    head: HeldGraph,
    changes: Changes,
    relation_uses: list[dict[str, Any]] | None,
) -> tuple[dict[str, Any], Lists]:
    lists = Lists()
    gaps = head.gap_lines("candidates")
    touched = changes.touched()
    callers_block = []
    for side, held, ids in (("head", head, touched), ("base", base, changes.removed)):
        for node_id in ids:
            items = _callers(held, node_id, 1)
            if not items and node_id.endswith("#<module>"):
                continue  # a module's own code has no callers to list
            lists.callers[node_id] = items
            kept, omitted = hub_cut(items)
            reasons = list(held.gap_lines("candidates"))
            if any(item["tier"] == "candidate" for item in items):
                reasons.insert(0, "possible: some callers may reach it only possibly")
            if omitted:
                reasons.insert(
                    0, f"cut: {len(items)} callers, more than {HUB}; the nearest {HUB_KEEP} kept"
                )
            hop_rows = []
            kept_from = {item["from"] for item in kept}
            for item in items:
                second = [hop for hop in _callers(held, item["from"], 2) if hop["from"] != node_id]
                if second:
                    lists.second_hop.setdefault(node_id, []).extend(second)
                if item["from"] not in kept_from:
                    continue
                hop_rows.append(
                    {
                        "caller": item["from"],
                        "callers": second[:SECOND_HOP],
                        "total": len(second),
                        "omitted": max(0, len(second) - SECOND_HOP),
                    }
                )
            callers_block.append(
                {
                    "symbol": _symbol(held, node_id),
                    "version": side,
                    "counts": _counts(items),
                    "total": len(items),
                    "items": kept,
                    "omitted": omitted,
                    "complete": not reasons,
                    "reasons": reasons,
                    "secondHop": hop_rows,
                }
            )
    callees_block = []
    for node_id in touched:
        items = _callees(head, node_id)
        lists.callees[node_id] = items
        unresolved = head.graph.unresolved.get(head.graph.index[node_id], {}).get("candidates", 0)
        callees_block.append(
            {
                "symbol": _symbol(head, node_id),
                "items": items,
                "unresolvedCalls": unresolved,
            }
        )
    use_blocks, lists.implementers, lists.references = uses.symbol_uses(base, head, changes)
    importer_blocks, lists.importers = uses.importers(base, head, changes)
    summary: dict[str, Any] = {
        "touched": {
            "edited": [_symbol(head, key) for key in changes.edited],
            "added": [_nested(_symbol(head, key), changes) for key in changes.added],
            "removed": [_nested(_symbol(base, key), changes) for key in changes.removed],
            "moved": [
                {"from": _symbol(base, old), "to": _symbol(head, new)} for old, new in changes.moved
            ],
            "types": {
                kind: [(base if kind == "removed" else head).type_symbol(key) for key in keys]
                for kind, keys in changes.types.items()
            },
        },
        "files": [
            {"path": path, "status": status, "read": _read_by_graph(base, head, path, status)}
            for path, status in changes.files.items()
        ],
        "readLineByLine": changes.inexact,
        "usedNames": _used_names(base, head, changes),
        "callers": callers_block,
        "callees": callees_block,
        "importers": importer_blocks,
        "implementersAndReferences": use_blocks,
        "routes": _routes(base, head, touched, changes),
        "relationUses": _relations(head, touched, relation_uses),
        "unknowns": _unknowns(head, changes, touched, gaps),
    }
    return summary, lists


def _read_by_graph(base: HeldGraph, head: HeldGraph, path: str, status: str) -> bool:
    """Whether either graph holds the file (a source it read), under its old or new path."""
    old = status[1:] if status.startswith("R") else path
    return module_id(path) in head.graph.index or module_id(old) in base.graph.index


def _nested(symbol: dict[str, Any], changes: Changes) -> dict[str, Any]:
    inside = changes.nested.get(symbol["id"])
    return {**symbol, "nested": sorted(inside)} if inside else symbol


def _used_names(base: HeldGraph, head: HeldGraph, changes: Changes) -> list[dict[str, Any]]:
    """Removed and moved symbols that other files used, with what each user binds now."""
    rows = []
    gone = [(key, None) for key in changes.removed] + list(changes.moved)
    for old, new in gone:
        here = old.partition("#")[0]
        users = [item for item in _callers(base, old, 1) if item["from"].partition("#")[0] != here]
        if not users:
            continue
        name = short_name(old)
        places = []
        for item in users:
            user = item["from"]
            number = head.graph.index.get(user)
            if number is None:
                now: list[str] | None = None
            else:
                # What the user's calls of that name, or of the moved code, reach now.
                now = sorted(
                    {
                        head.graph.ids[head.graph.targets[edge]]
                        for edge in head.outgoing[number]
                        if short_name(head.graph.ids[head.graph.targets[edge]]) == name
                        or head.graph.ids[head.graph.targets[edge]] == new
                    }
                )
            places.append({"user": user, "tier": item["tier"], "bindsNow": now})
        rows.append(
            {
                "symbol": _symbol(base, old),
                "movedTo": new,
                "places": places,
                "total": len(places),
            }
        )
    return rows


def _routes(
    base: HeldGraph, head: HeldGraph, touched: list[str], changes: Changes
) -> dict[str, Any]:
    looked = touched[:MAX_ROUTE_SYMBOLS]
    reached: dict[str, dict[str, Any]] = {}
    for node_id in looked:
        result = ask(head, Request("routes", target=node_id), Budget(ROUTE_BUDGET_MS))
        for item in result.items:
            if not item.get("routes"):
                continue
            row = reached.setdefault(
                item["id"],
                {"handler": item, "routes": item["routes"], "reaches": []},
            )
            row["reaches"].append({"symbol": node_id, "depth": item["depth"], "tier": item["tier"]})
    head_labels = {label for labels in head.routes().values() for label in labels}
    base_labels = {label for labels in base.routes().values() for label in labels}
    return {
        "reached": sorted(
            reached.values(),
            key=lambda row: (min(r["depth"] for r in row["reaches"]), row["handler"]["id"]),
        ),
        "declared": sorted(head_labels - base_labels),
        "removed": sorted(base_labels - head_labels),
        "notLookedFor": len(touched) - len(looked),
        "hops": ROUTE_HOPS,
        # Routes a changed file declares whose handler the graph holds no id for.
        "withoutHandler": [
            {"route": label, "file": path}
            for label, path in (
                unhandled_routes(head.project, head.project_rel) if head.project else []
            )
            if path in changes.files
        ],
        # The routes scan's gaps that name a changed file: registrations, say with a
        # handler it could not resolve, that it declares no route for.
        "gapsInChangedFiles": [
            {"line": line, "places": places}
            for line in (route_gaps(head.project) if head.project else [])
            if (
                places := sorted(
                    {
                        place
                        for place in PLACE.findall(line)
                        if place.rpartition(":")[0] in changes.files
                    }
                )
            )
        ],
    }


def _relations(
    head: HeldGraph, touched: list[str], uses: list[dict[str, Any]] | None
) -> dict[str, Any]:
    if uses is None:
        return {"available": False, "items": []}
    by_symbol: dict[str, list[dict[str, Any]]] = {}
    for fact in uses:
        usr = (fact.get("symbol") or {}).get("usr")
        if usr:
            by_symbol.setdefault(usr, []).append(fact)
    depth_of: dict[str, int] = {}
    frontier = [key for key in touched if key in head.graph.index]
    for key in frontier:
        depth_of[key] = 0
    for depth in range(1, RELATION_HOPS + 1):
        following = []
        for key in frontier:
            for edge in head.outgoing[head.graph.index[key]]:
                target = head.graph.ids[head.graph.targets[edge]]
                if target not in depth_of:
                    depth_of[target] = depth
                    following.append(target)
        frontier = following
    rows = []
    seen: set[tuple[str, str | None, str | None]] = set()
    for key, depth in sorted(depth_of.items(), key=lambda item: (item[1], item[0])):
        # One row per table and column a symbol uses, however many places use it.
        for fact in by_symbol.get(key, ()):
            row = (key, fact.get("channel"), fact.get("method"))
            if row in seen:
                continue
            seen.add(row)
            rows.append({"symbol": key, "depth": depth, "table": row[1], "method": row[2]})
    return {"available": True, "items": rows, "hops": RELATION_HOPS}


def _unknowns(
    head: HeldGraph, changes: Changes, touched: list[str], gaps: list[str]
) -> dict[str, Any]:
    calls = []
    for key in touched:
        counts = head.graph.unresolved.get(head.graph.index[key])
        if counts and counts.get("candidates"):
            calls.append({"symbol": key, "unresolvedCalls": dict(sorted(counts.items()))})
    near = [line for line in gaps if any(path in line for path in changes.files)]
    return {"unresolved": calls, "gapsInChangedFiles": near, "graphGaps": gaps}
