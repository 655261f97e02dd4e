"""What implements, overrides or names the touched code, and who imports a changed file.

Each list is the answer of the query question of the same name
(producers/query/relation_questions.py), asked of the graph that holds the
symbol: the work tree's for touched symbols and types, the base's for removed
ones and for deleted files. The summary keeps the first SHOWN items of each
list with its total, tier counts and whether it is complete (with the
question's reasons when it is a floor); the packet holds every item.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.held import relation_site
from tsograph.producers.query.questions import Refused
from tsograph.producers.query.questions import Request
from tsograph.producers.query.questions import ask
from tsograph.producers.review.changes import MODULE
from tsograph.producers.review.changes import Changes

SHOWN = 20
# The relation questions run inside the review, which has no per-question time limit.
BUDGET_MS = 600_000
# What a touched symbol itself extends, implements or overrides (read from its own relations).
INHERITS = frozenset({"extends", "implements", "overrides"})


def _counts(items: Iterable[dict[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(EVIDENCE_ORDER, 0)
    for item in items:
        counts[item["tier"]] += 1
    return counts


Whole = tuple[list[dict[str, Any]], dict[str, Any]]  # every item, and what the page says


def _block(
    held: HeldGraph, version: str, question: str, target: str
) -> tuple[dict[str, Any], Whole] | None:
    """The question's answer as a summary block and its whole list; None when the graph
    holds no such symbol or file."""
    try:
        result = ask(held, Request(question, target=target), Budget(BUDGET_MS))
    except Refused:
        return None
    if result.target is None:
        return None
    items = result.items
    block = {
        "target": result.target,
        "version": version,
        "counts": _counts(items),
        "total": len(items),
        "items": items[:SHOWN],
        "omitted": max(0, len(items) - SHOWN),
        "complete": not result.floor,
        "reasons": result.reasons,
        "budgetSpent": result.unexpanded is not None,
    }
    page = {"complete": block["complete"], "reasons": result.reasons}
    # A question the time budget stopped misses a number of items no one counted.
    return block, (items, {**page, "omitted": None if block["budgetSpent"] else 0})


def _inherits(held: HeldGraph, symbol_id: str) -> list[dict[str, Any]]:
    """What the symbol extends, implements or overrides, as its own relations say."""
    return [
        {
            "relation": relation.kind,
            "to": relation.target,
            "tier": relation.evidence,
            "site": relation_site(relation),
        }
        for relation in sorted(
            held.relations_out.get(symbol_id, ()), key=lambda rel: (rel.kind, rel.target)
        )
        if relation.kind in INHERITS
    ]


def symbol_uses(
    base: HeldGraph, head: HeldGraph, changes: Changes
) -> tuple[list[dict[str, Any]], dict[str, Whole], dict[str, Whole]]:
    """Per touched or removed symbol and type: what implements or overrides it, what it
    inherits, and where it is used as a value or named as a type. The summary blocks,
    then the whole implementer and reference lists by id."""
    asked = [
        *(("head", head, key) for key in (*changes.touched(), *changes.types.get("edited", ()))),
        *(("head", head, key) for key in changes.types.get("added", ())),
        *(("base", base, key) for key in (*changes.removed, *changes.types.get("removed", ()))),
    ]
    blocks: list[dict[str, Any]] = []
    implementers: dict[str, Whole] = {}
    references: dict[str, Whole] = {}
    for version, held, key in asked:
        if key.endswith("#" + MODULE):
            continue  # a module is imported, not implemented or named
        implemented = _block(held, version, "implementers", key)
        named = _block(held, version, "references", key)
        if implemented is None or named is None:
            continue
        implementers[key] = implemented[1]
        references[key] = named[1]
        named[0]["uses"] = {
            use: sum(1 for item in named[1][0] if item["use"] == use) for use in ("value", "type")
        }
        inherits = _inherits(held, key)
        if not implemented[1][0] and not named[1][0] and not inherits:
            continue
        blocks.append(
            {
                "symbol": implemented[0].pop("target"),
                "version": version,
                "inherits": inherits,
                "implementers": implemented[0],
                "references": {key: value for key, value in named[0].items() if key != "target"},
            }
        )
    blocks.sort(key=lambda block: (block["version"] != "head", block["symbol"]["id"]))
    return blocks, implementers, references


def importers(
    base: HeldGraph, head: HeldGraph, changes: Changes
) -> tuple[list[dict[str, Any]], dict[str, Whole]]:
    """Per changed file: the modules that import it (the base's for a deleted file)."""
    blocks: list[dict[str, Any]] = []
    lists: dict[str, Whole] = {}
    for path, status in sorted(changes.files.items()):
        version, held = ("base", base) if status == "D" else ("head", head)
        found = _block(held, version, "importers", path)
        if found is None:
            continue
        block, whole = found
        lists[module_id(path)] = whole
        if whole[0]:
            block.pop("target")
            blocks.append({"file": path, **block})
    return blocks, lists
