"""Who reaches a symbol through call edges, per evidence tier: the walk impact, routes and
tests share."""

from __future__ import annotations

from collections import deque

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph


def reach_tiers(
    held: HeldGraph, start: int, budget: Budget, depth_limit: int
) -> dict[int, tuple[int, str, int]]:
    """Per symbol that reaches `start`: depth, the strongest tier a whole path has, via."""
    found: dict[int, tuple[int, str, int]] = {}
    for rank, tier in enumerate(EVIDENCE_ORDER):
        depth_of = {start: 0}
        queue = deque([start])
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
    found.pop(start, None)
    return found
