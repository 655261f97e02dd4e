"""Who reaches a set of symbols through call edges, per evidence tier: the walk impact,
routes, tests and `impact --base` share."""

from __future__ import annotations

from collections import deque

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph


def reach_tiers(
    held: HeldGraph, starts: list[int], budget: Budget, depth_limit: int
) -> dict[int, tuple[int, str, int]]:
    """Per symbol that reaches one of `starts`: depth, the strongest tier a whole path has,
    and the symbol it reaches next (via)."""
    found: dict[int, tuple[int, str, int]] = {}
    for rank, tier in enumerate(EVIDENCE_ORDER):
        depth_of = dict.fromkeys(starts, 0)
        queue = deque(starts)
        while queue:
            number = queue.popleft()
            depth = depth_of[number]
            if depth == depth_limit:
                continue
            for edge in held.incoming[number]:
                budget.tick()
                if held.graph.ranks[edge] > rank:
                    continue
                other = held.graph.sources[edge]
                if other in depth_of:
                    continue
                depth_of[other] = depth + 1
                queue.append(other)
                if other not in found:
                    found[other] = (depth + 1, tier, number)
    for start in starts:
        found.pop(start, None)
    return found
