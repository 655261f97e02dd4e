"""reach and impact: one multi-source, level-synchronous pass over the call graph.

All roots start together at depth 0. Each symbol keeps the root indices that
reached it, with the level at which each first arrived; an index stops
spreading through a symbol that already holds ROOT_SPREAD_CAP smaller indices,
because it can no longer change that symbol's listed roots, depth or via, and
so the work per symbol stays bounded even with thousands of roots.

* depth: the shortest distance from any other root (a root's own index never
  counts for itself);
* via: the predecessor on a shortest path from the nearest root (ties: the
  smallest root index, then the smallest predecessor id);
* roots: the smallest MAX_LISTED_ROOTS indices, `rootsTruncated` beyond;
* evidence: a per-root lower bound. For every root that reaches the symbol
  within the depth budget, the strongest tier whose graph alone reaches it;
  the weakest of those. Computed exactly with one bit per root per tier (as
  Python integers) unless that would need more than EXACT_EVIDENCE_BYTES, in
  which case it falls back to the weakest non-direct edge upstream of the
  symbol (never stronger than the truth) and says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from exchange.limitations import counted
from producers.graph.model import EVIDENCE_ORDER, MODE_TIERS, Graph

ROOT_SPREAD_CAP = 65
MAX_LISTED_ROOTS = 64
MAX_UNRESOLVED = 1_000_000
EXACT_EVIDENCE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 128
MAX_REACHED = 100_000
DECLARATION_ID_MARKERS = ("#model:", "#typedsql:")

Adjacency = dict[str, list[str]]


@dataclass
class Traversal:
    roots: list[dict[str, Any]]
    reached: list[dict[str, Any]]
    truncation_reasons: set[str] = field(default_factory=set)
    limitations: list[str] = field(default_factory=list)
    missing_roots: list[str] = field(default_factory=list)


@dataclass
class _Pairs:
    """The mode's edges in traversal direction, merged per ordered pair."""

    forward: Adjacency
    backward: Adjacency
    kinds: dict[tuple[str, str], set[str]]
    rank: dict[tuple[str, str], int]  # strongest evidence rank carrying the pair


def _pairs(graph: Graph, tiers: Sequence[str], reverse: bool) -> _Pairs:
    kinds: dict[tuple[str, str], set[str]] = {}
    rank: dict[tuple[str, str], int] = {}
    for edge in graph.edges:
        if edge.evidence not in tiers:
            continue
        pair = (edge.target, edge.source) if reverse else (edge.source, edge.target)
        kinds.setdefault(pair, set()).update(edge.kinds)
        tier = EVIDENCE_ORDER.index(edge.evidence)
        rank[pair] = min(rank.get(pair, tier), tier)
    forward: Adjacency = {}
    backward: Adjacency = {}
    for source, target in sorted(kinds):
        forward.setdefault(source, []).append(target)
        backward.setdefault(target, []).append(source)
    return _Pairs(forward, backward, kinds, rank)


def _dedupe(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def _spread(
    pairs: _Pairs, roots: Sequence[tuple[int, str]], max_depth: int
) -> tuple[dict[str, dict[int, int]], set[str], bool]:
    """Level by level: first arrival level per (symbol, root index), overflow, depth cut."""
    held: dict[str, dict[int, int]] = {}
    own: dict[str, int] = {}
    frontier: dict[str, list[int]] = {}
    for index, node_id in roots:
        held.setdefault(node_id, {})[index] = 0
        own[node_id] = index
        frontier.setdefault(node_id, []).append(index)
    overflow: set[str] = set()
    # For symbols holding ROOT_SPREAD_CAP indices: the largest of them.
    ceiling: dict[str, int] = {}
    depth_cut = False
    level = 0
    while frontier:
        if level == max_depth:
            depth_cut = any(
                not any(i != own.get(target) for i in held.get(target, {}))
                for source in frontier
                for target in pairs.forward.get(source, ())
            )
            break
        arriving: dict[str, list[int]] = {}
        for source, indexes in frontier.items():
            for target in pairs.forward.get(source, ()):
                slots = held.setdefault(target, {})
                for index in indexes:
                    if index in slots:
                        continue
                    if len(slots) >= ROOT_SPREAD_CAP and index > ceiling[target]:
                        # Already ROOT_SPREAD_CAP smaller indices here: this root can
                        # change no listed roots, depth or via downstream.
                        overflow.add(target)
                        continue
                    slots[index] = level + 1
                    arriving.setdefault(target, []).append(index)
                    if len(slots) > ROOT_SPREAD_CAP:
                        del slots[ceiling[target]]
                        overflow.add(target)
                    if len(slots) == ROOT_SPREAD_CAP:
                        ceiling[target] = max(slots)
        frontier = arriving
        level += 1
    return held, overflow, depth_cut


def _reach_bits(
    adjacency: Adjacency, roots: Sequence[tuple[int, str]], max_depth: int
) -> dict[str, int]:
    """For each symbol, one bit per root that reaches it within the depth budget."""
    visited: dict[str, int] = {}
    for index, node_id in roots:
        visited[node_id] = visited.get(node_id, 0) | (1 << index)
    frontier = dict(visited)
    for _ in range(max_depth):
        arriving: dict[str, int] = {}
        for source, bits in frontier.items():
            for target in adjacency.get(source, ()):
                new = bits & ~visited.get(target, 0)
                if new:
                    visited[target] = visited.get(target, 0) | new
                    arriving[target] = arriving.get(target, 0) | new
        if not arriving:
            break
        frontier = arriving
    return visited


class _Evidence:
    """Evidence per reached symbol for one mode, exact or approximated."""

    def __init__(
        self,
        graph: Graph,
        mode: str,
        pairs: _Pairs,
        roots: Sequence[tuple[int, str]],
        reached: Iterable[str],
        max_depth: int,
    ) -> None:
        self.tiers = MODE_TIERS[mode]
        self.own = {node_id: index for index, node_id in roots}
        self.approximated = False
        self.sub_bits: list[dict[str, int]] = []
        self.mode_bits: dict[str, int] = {}
        self.weakness: dict[str, int] = {}
        if len(self.tiers) == 1:
            return
        needed = len(roots) * max(1, len(graph.nodes)) * len(self.tiers) // 8
        if needed > EXACT_EVIDENCE_BYTES:
            self.approximated = True
            self.weakness = _upstream_weakness(pairs, roots, set(reached))
            return
        self.mode_bits = _reach_bits(pairs.forward, roots, max_depth)
        for size in range(1, len(self.tiers)):
            # A pair is in the graph of the first `size` tiers when its strongest edge is.
            sub: Adjacency = {}
            for (source, target), rank in pairs.rank.items():
                if rank < size:
                    sub.setdefault(source, []).append(target)
            self.sub_bits.append(_reach_bits(sub, roots, max_depth))

    def of(self, node_id: str) -> str:
        if len(self.tiers) == 1:
            return "direct"
        if self.approximated:
            return EVIDENCE_ORDER[self.weakness.get(node_id, 0)]
        own = self.own.get(node_id)
        bits = self.mode_bits.get(node_id, 0)
        if own is not None:
            bits &= ~(1 << own)
        for rank, sub in enumerate(self.sub_bits):
            if bits & ~sub.get(node_id, 0) == 0:
                return EVIDENCE_ORDER[rank]
        return EVIDENCE_ORDER[len(self.tiers) - 1]


def _upstream_weakness(
    pairs: _Pairs, roots: Sequence[tuple[int, str]], reached: set[str]
) -> dict[str, int]:
    """The weakest evidence rank of any edge on some path from a root (a safe lower bound)."""
    weakness: dict[str, int] = {}
    pending = [node_id for _, node_id in roots]
    for node_id in pending:
        weakness[node_id] = 0
    while pending:
        source = pending.pop()
        for target in pairs.forward.get(source, ()):
            if target not in reached:
                continue
            value = max(weakness[source], pairs.rank[(source, target)])
            if value > weakness.get(target, -1):
                weakness[target] = value
                pending.append(target)
    return weakness


def _symbol(graph: Graph, node_id: str, *, full: bool) -> dict[str, Any]:
    symbol: dict[str, Any] = {"usr": node_id, "qualifiedName": node_id}
    if full:
        node = graph.nodes[node_id]
        symbol["kind"] = node.kind
        symbol["location"] = dict(node.location)
    return symbol


def _unresolved(graph: Graph, node_id: str, mode: str) -> int:
    return graph.nodes[node_id].unresolved.get(mode, 0)


def traverse(
    graph: Graph,
    ids: Iterable[str],
    *,
    direction: str,
    mode: str,
    max_depth: int = MAX_DEPTH,
    max_reached: int = MAX_REACHED,
) -> Traversal:
    requested = _dedupe(ids)
    present = [
        (index, node_id) for index, node_id in enumerate(requested) if node_id in graph.nodes
    ]
    reverse = direction == "dependents"
    pairs = _pairs(graph, MODE_TIERS[mode], reverse)
    held, overflow, depth_cut = _spread(pairs, present, max_depth)
    own = {node_id: index for index, node_id in present}

    listed: list[tuple[int, str, dict[int, int]]] = []
    for node_id, slots in held.items():
        others = {i: d for i, d in slots.items() if i != own.get(node_id)}
        if others:
            listed.append((min(others.values()), node_id, others))
    listed.sort(key=lambda item: (item[0], item[1]))
    result = Traversal(roots=[], reached=[])
    if depth_cut:
        result.truncation_reasons.add("depth")
    if len(listed) > max_reached:
        listed = listed[:max_reached]
        result.truncation_reasons.add("max-reached")

    evidence = _Evidence(graph, mode, pairs, present, held.keys(), max_depth)
    capped: set[str] = set()
    for depth, node_id, others in listed:
        nearest = min(i for i, d in others.items() if d == depth)
        via = min(
            p for p in pairs.backward.get(node_id, ()) if held.get(p, {}).get(nearest) == depth - 1
        )
        indexes = sorted(others)
        item: dict[str, Any] = {
            "symbol": _symbol(graph, node_id, full=True),
            "via": via,
            "depth": depth,
            "roots": indexes[:MAX_LISTED_ROOTS],
            "relationships": sorted(pairs.kinds[(via, node_id)]),
            "evidence": evidence.of(node_id),
        }
        if len(indexes) > MAX_LISTED_ROOTS or node_id in overflow:
            item["rootsTruncated"] = True
        count = _unresolved(graph, node_id, mode)
        if count:
            item["unresolvedCalls"] = min(count, MAX_UNRESOLVED)
            if count > MAX_UNRESOLVED:
                capped.add(node_id)
        result.reached.append(item)

    for node_id in requested:
        if node_id not in graph.nodes:
            result.roots.append({"id": node_id})
            result.missing_roots.append(node_id)
            continue
        root: dict[str, Any] = {"id": node_id, "symbol": _symbol(graph, node_id, full=False)}
        count = _unresolved(graph, node_id, mode)
        if count:
            root["unresolvedCalls"] = min(count, MAX_UNRESOLVED)
            if count > MAX_UNRESOLVED:
                capped.add(node_id)
        result.roots.append(root)

    if result.missing_roots:
        result.truncation_reasons.add("root-not-found")
        result.limitations.append(_root_not_found(result.missing_roots))
    if evidence.approximated:
        result.limitations.append(
            counted(
                "evidence-approximated:",
                len(result.reached),
                "reached symbol(s) carry a lower bound of their evidence "
                "(exact per-root evidence would need more than 64 MiB)",
            )
        )
    if capped:
        result.limitations.append(
            counted(
                "unresolved-calls-capped:",
                len(capped),
                f"symbol(s) have more than {MAX_UNRESOLVED} unresolved calls; the count is capped",
            )
        )
    entry_line = _non_http_entries(graph, [n for _, n in present] + [n for _, n, _ in listed])
    if entry_line:
        result.limitations.append(entry_line)
    return result


def is_declaration_id(node_id: str) -> bool:
    return any(marker in node_id for marker in DECLARATION_ID_MARKERS)


def _root_not_found(missing: Sequence[str]) -> str:
    declarations = sum(1 for node_id in missing if is_declaration_id(node_id))
    unknown = len(missing) - declarations
    return counted(
        "root-not-found:",
        len(missing),
        "root id(s) are not graph nodes and were not traversed",
        breakdown={"declaration-ids": declarations, "unknown-ids": unknown},
    )


def _non_http_entries(graph: Graph, node_ids: Iterable[str]) -> str | None:
    kinds: dict[str, int] = {}
    symbols = 0
    for node_id in dict.fromkeys(node_ids):
        other = [e for e in graph.nodes[node_id].entries if e != "route-handler"]
        if other:
            symbols += 1
            for entry in other:
                kinds[entry] = kinds.get(entry, 0) + 1
    if not symbols:
        return None
    return counted(
        "non-http-entries:",
        symbols,
        "symbol(s) in this traversal are entry points that no HTTP route reaches",
        breakdown=kinds,
    )
