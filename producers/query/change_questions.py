"""`changes --base REF` and `impact --base REF`: what a change did, and what it reaches.

Both compare the held build (the work tree) with the graph of the base
commit (base_side.py). `changes` lists the symbols the change added, edited,
moved or removed, in that order and by id. `impact` starts from the symbols
the change wrote (edited, added, moved to) and from the work tree's
symbols that called a removed one in the base, and walks callers as `impact`
does from one symbol: each symbol that reaches the change with its depth,
its strongest tier, the symbol it reaches next (`via`) and, at depth 0, how
the change touched it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.base_side import BaseSide
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.reach import reach_tiers
from tsograph.producers.query.request import Request
from tsograph.producers.query.request import Result
from tsograph.producers.query.request import floor_for_callers

CHANGE_ORDER = ("added", "edited", "moved", "removed")


def _symbol(held: HeldGraph, node_id: str) -> dict[str, Any]:
    return held.any_symbol(node_id)


def _describe(side: BaseSide, result: Result) -> None:
    changes = side.changes
    result.extra["base"] = {
        "commit": side.commit,
        "how": side.how,
        "build": side.held.build,
        "status": side.held.status(),
        "filesMissing": list(side.missing),
    }
    result.extra["files"] = dict(changes.files)
    if changes.inexact:
        # Files whose symbols could not be told apart line by line: all of them count.
        result.extra["inexact"] = list(changes.inexact)


def changes(
    held: HeldGraph, side: BaseSide, request: Request, budget: Budget, result: Result
) -> None:
    found = side.changes
    rows: list[tuple[int, str, dict[str, Any]]] = []
    for change, ids in (("added", found.added), ("edited", found.edited)):
        for node_id in ids:
            budget.tick()
            rows.append((CHANGE_ORDER.index(change), node_id, {"change": change}))
    for old, new in found.moved:
        budget.tick()
        rows.append((CHANGE_ORDER.index("moved"), new, {"change": "moved", "from": old}))
    items = [{**_symbol(held, node_id), **extra} for _, node_id, extra in sorted(rows)]
    for node_id in sorted(found.removed):
        budget.tick()
        items.append({**_symbol(side.held, node_id), "change": "removed"})
    for item in items:
        nested = found.nested.get(item["id"])
        if nested:
            item["nested"] = len(nested)
    result.items = items
    _describe(side, result)


def impact(
    held: HeldGraph, side: BaseSide, request: Request, budget: Budget, result: Result
) -> None:
    found = side.changes
    graph = held.graph
    touched = {node_id: "edited" for node_id in found.edited}
    touched.update((node_id, "added") for node_id in found.added)
    touched.update((new, "moved") for _, new in found.moved)
    starts = [graph.index[node_id] for node_id in sorted(touched) if node_id in graph.index]
    touched_numbers = set(starts)
    # A removed symbol's callers that the work tree still holds lose what they called: they
    # are reached at depth 1 (by the tier of the base's edge), and walked on from there.
    base = side.held
    broken: dict[int, tuple[int, str, str]] = {}
    for node_id in found.removed:
        number = base.graph.index.get(node_id)
        if number is None:
            continue
        for edge in base.incoming[number]:
            budget.tick()
            caller = graph.index.get(base.graph.ids[base.graph.sources[edge]])
            if caller is None or not graph.is_node(caller) or caller in touched_numbers:
                continue
            entry = (1, base.tier(edge), node_id)
            if caller not in broken or _better(entry, broken[caller]):
                broken[caller] = entry
    depth_limit = request.depth or 1  # questions.ask sets impact's default depth
    reached: dict[int, tuple[int, str, str]] = {
        number: (depth, tier, graph.ids[via])
        for number, (depth, tier, via) in reach_tiers(held, starts, budget, depth_limit).items()
    }
    further = reach_tiers(held, list(broken), budget, depth_limit - 1) if broken else {}
    for number, entry in [
        *broken.items(),
        *(
            (number, (depth + 1, tier, graph.ids[via]))
            for number, (depth, tier, via) in further.items()
        ),
    ]:
        if number in touched_numbers:
            continue
        if number not in reached or _better(entry, reached[number]):
            reached[number] = entry
    tiers = set(request.tiers)
    rows = sorted(
        (depth, EVIDENCE_ORDER.index(tier), graph.ids[number], number, tier, via)
        for number, (depth, tier, via) in reached.items()
        if tier in tiers
    )
    items: list[dict[str, Any]] = [
        {
            **held.symbol(number),
            "depth": 0,
            "tier": EVIDENCE_ORDER[0],
            "change": touched[graph.ids[number]],
        }
        for number in starts
    ]
    items.extend(
        {**held.symbol(number), "depth": depth, "tier": tier, "via": via}
        for depth, _, _, number, tier, via in rows
    )
    result.items = items
    result.tiered = True
    floor_for_callers(held, request.tiers, result)
    _describe(side, result)


def _better(entry: tuple[int, str, str], than: tuple[int, str, str]) -> bool:
    """Nearer first, then by the stronger tier."""
    return (entry[0], EVIDENCE_ORDER.index(entry[1])) < (than[0], EVIDENCE_ORDER.index(than[1]))


ANSWERS: dict[str, Callable[[HeldGraph, BaseSide, Request, Budget, Result], None]] = {
    "changes": changes,
    "impact": impact,
}
