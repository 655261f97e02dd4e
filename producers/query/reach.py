"""Who reaches a set of symbols through call edges, per evidence tier: the walk impact,
routes, tests and `impact --base` share."""

from __future__ import annotations

from collections import deque

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.request import Request
from tsograph.producers.query.request import Result
from tsograph.producers.query.request import tiered_target


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


def target_reached_by(
    held: HeldGraph, request: Request, budget: Budget, result: Result, default_depth: int
) -> dict[int, tuple[int, str, int]] | None:
    """impact and tests: what reaches the symbol the target names (set as the answer's
    target) within --depth hops (`default_depth` when not given), as `reach_tiers` gives
    it; None when the name is ambiguous."""
    start = tiered_target(held, request, budget, result)
    if start is None:
        return None
    return reach_tiers(held, [start], budget, request.depth or default_depth)
