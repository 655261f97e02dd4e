"""The text reading of a language-traversal document: roots, then each reached symbol.

Reached symbols keep the document's order (depth, then id) and show their
depth, evidence tier, the root indices that reach them, where they are
declared, and the previous symbol on a shortest path.
"""

from __future__ import annotations

from typing import Any

from tsograph.producers.text_format.table import joined
from tsograph.producers.text_format.table import limitations_section
from tsograph.producers.text_format.table import location
from tsograph.producers.text_format.table import table

_VERB = {"dependencies": "reach", "dependents": "impact"}


def render(document: dict[str, Any]) -> str:
    roots = document["roots"]
    reached = document["reached"]
    reasons = document["truncationReasons"]
    truncated = f"yes ({', '.join(reasons)})" if document["truncated"] else "no"
    headline = (
        f"{document['project']}: {_VERB[document['direction']]} ({document['direction']}), "
        f"dispatch {document['dispatch']}, {len(roots)} root(s), {len(reached)} symbol(s) "
        f"reached, truncated: {truncated}"
    )
    return joined(
        [
            [headline],
            _roots(roots),
            _reached(reached),
            limitations_section(document["limitations"]),
        ]
    )


def _roots(roots: list[dict[str, Any]]) -> list[str]:
    rows = [
        [
            str(index),
            "yes" if "symbol" in root else "NOT FOUND",
            str(root.get("unresolvedCalls", 0)),
            root["id"],
        ]
        for index, root in enumerate(roots)
    ]
    return ["Roots:", *table(["#", "NODE", "UNRESOLVED", "ID"], rows)]


def _roots_of(item: dict[str, Any]) -> str:
    text = ",".join(map(str, item["roots"]))
    return text + ",…" if item.get("rootsTruncated") else text


def _reached(reached: list[dict[str, Any]]) -> list[str]:
    if not reached:
        return ["Reached: none"]
    rows = [
        [
            str(item["depth"]),
            item["evidence"],
            _roots_of(item),
            str(item.get("unresolvedCalls", 0)),
            location(item["symbol"]["location"]),
            item["symbol"]["usr"],
            item["via"],
        ]
        for item in reached
    ]
    return [
        "Reached:",
        *table(["DEPTH", "EVIDENCE", "ROOTS", "UNRESOLVED", "AT", "SYMBOL", "VIA"], rows),
    ]
