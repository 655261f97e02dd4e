"""Keeping a diagram small: the nearest symbols, and a final node for the rest.

A picture of more than a few dozen boxes is read by nobody, and Mermaid
renderers refuse large inputs (mermaid 11.17.2 and 12.3.0: maxTextSize 50,000
characters, maxEdges 500 by default). So a diagram keeps at most `max_nodes`
nodes, the final node included: the nearest symbols first (by depth; ties in
the order the caller lists them, which the caller makes deterministic), and
when anything is left out, one last node says how many and why.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence

from tsograph.producers.diagrams.model import TIERS
from tsograph.producers.diagrams.model import Diagram
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.diagrams.model import DiagramNode
from tsograph.producers.diagrams.model import LeftOut

DEFAULT_MAX_NODES = 60
MAX_MAX_NODES = 1000
_RANK = {tier: rank for rank, tier in enumerate(TIERS)}


def cut(
    nodes: Sequence[DiagramNode],
    edges: Iterable[DiagramEdge],
    max_nodes: int,
    incomplete: Sequence[str] = (),
    not_given: int = 0,
    cap: str | None = None,
) -> Diagram:
    """The nearest nodes, at most `max_nodes` with the final node.

    `incomplete` holds reasons the caller's own answer is already cut (a depth
    budget, a missing root) or why it left symbols out itself; they go on the
    final node, which is then drawn even when every symbol fits. `not_given`
    counts the symbols the caller left out (trace: those that lead to no
    table), added to the count the final node shows. `cap` names the bound on
    the final node (default: the --max-nodes option).
    """
    ordered = sorted(nodes, key=lambda node: node.depth)  # stable: ties keep the caller's order
    reasons = list(incomplete)
    shown = ordered
    if len(ordered) > max_nodes:
        shown = ordered[: max_nodes - 1]
        bound = cap if cap is not None else f"--max-nodes {max_nodes}"
        reasons.insert(0, f"{bound} keeps the nearest {len(shown)}")
    count = len(ordered) - len(shown) + not_given
    left_out = LeftOut(count, tuple(reasons)) if reasons else None
    return Diagram(tuple(shown), _between(shown, edges), left_out)


def _between(shown: Sequence[DiagramNode], edges: Iterable[DiagramEdge]) -> tuple[DiagramEdge, ...]:
    """Edges whose both ends are drawn, one per pair with its strongest tier, in node order."""
    position = {node.key: index for index, node in enumerate(shown)}
    strongest: dict[tuple[int, int], str] = {}
    for edge in edges:
        source, target = position.get(edge.source), position.get(edge.target)
        if source is None or target is None:
            continue
        pair = (source, target)
        known = strongest.get(pair)
        if known is None or _RANK[edge.tier] < _RANK[known]:
            strongest[pair] = edge.tier
    return tuple(
        DiagramEdge(shown[source].key, shown[target].key, tier)
        for (source, target), tier in sorted(strongest.items())
    )
