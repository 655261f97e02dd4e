"""reach and impact: one multi-source, level-synchronous pass over the call graph.

All roots start together at depth 0. Every symbol holds a bit set (a Python
integer, bit i for root index i) of the roots that reached it; a level ORs the
sets of the symbols that gained bits into their successors, so the work of a
level is one integer operation per edge, whatever the number of roots. A
symbol keeps at most ROOT_SPREAD_CAP indices, the smallest: an index that
would be the 66th is not kept and does not spread on, because the 65 smaller
ones reach everything it reaches, no later than it does, so it can change no
listed roots, depth or via downstream. That bounds the bits per symbol even
with 10,000 roots. Arrivals of one level count as simultaneous.

* depth: the shortest distance from any other root (a root's own index never
  counts for itself), fixed at the first level that brings another index;
* via: the predecessor on a shortest path from the nearest root (ties: the
  smallest root index, then the smallest predecessor id);
* roots: the smallest MAX_LISTED_ROOTS indices; `rootsTruncated` when more
  than that many other roots reach the symbol within the depth budget. A
  symbol holding 65 indices may be reached by more that were stopped upstream;
  such a stop is recorded with its level and passed downstream within the
  depth budget, which tells exactly whether a 66th root reaches a symbol;
* evidence: a per-root lower bound. For every root that reaches the symbol
  within the depth budget, the strongest tier whose graph alone reaches it;
  the weakest of those. Computed exactly with one bit per root per tier unless
  that would need more than EXACT_EVIDENCE_BYTES, in which case it falls back
  to the weakest non-direct edge upstream of the symbol (never stronger than
  the truth) and says so.

With more than ROOT_SPREAD_CAP roots, when no shortest path from a root can
be as long as the depth budget, condensed.py computes the same held indices,
depth and via with one pass over strongly connected components and one
breadth-first pass keeping each symbol's two nearest roots; the level-by-level
pass is the definition and the fallback (tests/graph/test_traversal.py runs
both against the per-root algorithm).

Symbols are numbered in id order (see indexed.py), so every tie on ids is a
comparison of integers.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from itertools import accumulate
from itertools import count as ascending
from operator import add
from typing import Any

from tsograph.exchange.limitations import counted
from tsograph.producers.graph.condensed import Condensed
from tsograph.producers.graph.condensed import keep_smallest
from tsograph.producers.graph.condensed import nearest_two
from tsograph.producers.graph.condensed import smallest_roots
from tsograph.producers.graph.condensed import within_budget
from tsograph.producers.graph.indexed import IndexedGraph
from tsograph.producers.graph.indexed import ModeEdges
from tsograph.producers.graph.indexed import mode_edges
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.model import MODE_TIERS
from tsograph.producers.graph.model import Graph

ROOT_SPREAD_CAP = 65
MAX_LISTED_ROOTS = 64
MAX_UNRESOLVED = 1_000_000
EXACT_EVIDENCE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 128
MAX_REACHED = 100_000
DECLARATION_ID_MARKERS = ("#model:", "#typedsql:")
# Up to this many surplus indices, trimming to the cap removes the largest
# one at a time; beyond, it finds the cut in the binary text.
_TRIM_ONE_BY_ONE = 2
# The ceiling of a symbol that holds fewer than ROOT_SPREAD_CAP indices.
_UNBOUNDED = 1 << 62
# With fewer roots the level-by-level pass handles bit sets of at most 65 bits
# and is cheaper than condensing the graph first; the results are the same.
CONDENSED_MIN_ROOTS = ROOT_SPREAD_CAP + 1


@dataclass
class Traversal:
    roots: list[dict[str, Any]]
    reached: list[dict[str, Any]]
    truncation_reasons: set[str] = field(default_factory=set)
    limitations: list[str] = field(default_factory=list)
    missing_roots: list[str] = field(default_factory=list)


def _dedupe(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def _drop_largest(bits: int, count: int) -> int:
    """`bits` without its `count` largest set bits."""
    if count <= _TRIM_ONE_BY_ONE:
        for _ in range(count):
            bits &= (1 << (bits.bit_length() - 1)) - 1
        return bits
    # The binary text, least significant bit first, split at its ones: the
    # position of the keep-th one is the length of the text before it.
    keep = bits.bit_count() - count
    gaps = bin(bits)[:1:-1].split("1", keep)[:keep]
    last = sum(map(len, gaps)) + keep - 1
    return bits & ((1 << (last + 1)) - 1)


@dataclass
class _Spread:
    held: list[int]  # per symbol: the kept root bits (at most ROOT_SPREAD_CAP)
    depth: dict[int, int]  # symbols reached from another root: their depth
    via: dict[int, int]  # ... and the predecessor on a shortest path from the nearest root
    stopped: dict[int, int]  # symbol -> first level an index was stopped there
    depth_cut: bool
    # From the condensed pass: per symbol, the ROOT_SPREAD_CAP + 1 smallest
    # indices that reach it, which tell directly whether a 66th root does.
    wide: list[int] | None = None
    condensed: Condensed | None = None  # the components, when the condensed passes ran


def _spread_fastest(
    edges: ModeEdges, roots: Sequence[tuple[int, int]], max_depth: int, own: dict[int, int]
) -> _Spread:
    """The condensed passes when they apply (see condensed.py), else the level-by-level one."""
    if len(roots) >= CONDENSED_MIN_ROOTS:
        starts = [number for _, number in roots]
        condensed = within_budget(edges.forward, edges.backward, starts, max_depth)
        if condensed is not None:
            wide_bits = smallest_roots(edges.forward, condensed, roots, ROOT_SPREAD_CAP + 1)
            held_bits = [
                keep_smallest(bits, ROOT_SPREAD_CAP) if bits.bit_count() > ROOT_SPREAD_CAP else bits
                for bits in wide_bits
            ]
            held = [held_bits[c] if c >= 0 else 0 for c in condensed.component]
            wide = [wide_bits[c] if c >= 0 else 0 for c in condensed.component]
            depth, via = nearest_two(edges, roots, own, max_depth)
            return _Spread(held, depth, via, {}, False, wide, condensed)
    return _spread(edges, roots, max_depth, own)


def _spread(
    edges: ModeEdges, roots: Sequence[tuple[int, int]], max_depth: int, own: dict[int, int]
) -> _Spread:
    """Level by level: kept root bits per symbol, depth, via, and where indices stopped."""
    forward, backward = edges.forward, edges.backward
    held = [0] * edges.size
    # Once a symbol holds ROOT_SPREAD_CAP indices: the bits below its largest it lacks.
    free = [0] * edges.size
    # The bit length of a symbol's largest index once it holds ROOT_SPREAD_CAP:
    # an arriving index at or above it is stopped.
    ceiling = [_UNBOUNDED] * edges.size
    depth: dict[int, int] = {}
    via: dict[int, int] = {}
    stopped: dict[int, int] = {}
    frontier: dict[int, int] = {}
    for index, number in roots:
        held[number] = frontier[number] = 1 << index
    level = 0
    depth_cut = False
    while frontier:
        if level == max_depth:
            depth_cut = any(
                target not in depth for source in frontier for target in forward[source]
            )
            break
        arriving: dict[int, int] = {}
        for source, bits in frontier.items():
            for target in forward[source]:
                if target in arriving:
                    arriving[target] |= bits
                else:
                    arriving[target] = bits
        level += 1
        gained: dict[int, int] = {}
        for target, bits in arriving.items():
            top = ceiling[target]
            if top == _UNBOUNDED:
                # Positive masks only: operations on negative integers are slow.
                new = bits ^ (bits & held[target])
                if not new:
                    continue
                kept = held[target] | new
                count = kept.bit_count()
                if count < ROOT_SPREAD_CAP:
                    held[target] = kept
                    gained[target] = new
                    if target not in depth:
                        _first_arrival(target, new, own, frontier, backward, level, depth, via)
                    continue
                if count > ROOT_SPREAD_CAP:
                    kept = _drop_largest(kept, count - ROOT_SPREAD_CAP)
                    stopped.setdefault(target, level)
            else:
                if bits.bit_length() > top and target not in stopped:
                    stopped[target] = level  # ROOT_SPREAD_CAP smaller indices are here
                new = bits & free[target]
                if not new:
                    continue
                # Every new bit lies below the largest held one: as many of the
                # largest go (usually one: the largest held).
                added = new.bit_count()
                kept = held[target] | new
                kept = kept ^ (1 << (top - 1)) if added == 1 else _drop_largest(kept, added)
                stopped.setdefault(target, level)
            top = ceiling[target] = kept.bit_length()
            held[target] = kept
            free[target] = ((1 << top) - 1) ^ kept
            new &= kept
            if new:
                gained[target] = new
                if target not in depth:
                    _first_arrival(target, new, own, frontier, backward, level, depth, via)
        frontier = gained
    return _Spread(held, depth, via, stopped, depth_cut)


def _first_arrival(
    target: int,
    new: int,
    own: dict[int, int],
    frontier: dict[int, int],
    backward: list[list[int]],
    level: int,
    depth: dict[int, int],
    via: dict[int, int],
) -> None:
    """Depth and via, when the first index other than the symbol's own arrives."""
    other = new & ~(1 << own[target]) if target in own else new
    if other:
        lowest = other & -other  # the nearest root: the smallest index at this depth
        depth[target] = level
        via[target] = min(p for p in backward[target] if frontier.get(p, 0) & lowest)


def _beyond_cap(edges: ModeEdges, stopped: dict[int, int], max_depth: int) -> dict[int, int]:
    """Symbols that a root beyond the cap reaches, with the first level it does.

    An index stopped at a symbol at level L reaches every successor d steps
    further at level L + d at the latest, and there too 65 smaller indices
    arrive no later; so within the depth budget the successor has a 66th root.
    """
    forward = edges.forward
    first = dict(stopped)
    by_level: dict[int, list[int]] = {}
    for number, level in stopped.items():
        by_level.setdefault(level, []).append(number)
    for level in range(1, max_depth):
        for number in by_level.get(level, ()):
            if first[number] != level:
                continue
            for target in forward[number]:
                if first.get(target, max_depth + 1) > level + 1:
                    first[target] = level + 1
                    by_level.setdefault(level + 1, []).append(target)
    return first


def _reach_bits(
    adjacency: list[list[int]], roots: Sequence[tuple[int, int]], max_depth: int
) -> list[int]:
    """For each symbol, one bit per root that reaches it within the depth budget."""
    if len(roots) >= CONDENSED_MIN_ROOTS:
        # Many roots: when the budget cuts nothing, one pass over the components.
        starts = [number for _, number in roots]
        condensed = within_budget(adjacency, None, starts, max_depth)
        if condensed is not None:
            reaching = smallest_roots(adjacency, condensed, roots, None)
            return [reaching[c] if c >= 0 else 0 for c in condensed.component]
    visited = [0] * len(adjacency)
    frontier: dict[int, int] = {}
    for index, number in roots:
        visited[number] |= 1 << index
        frontier[number] = visited[number]
    for _ in range(max_depth):
        arriving: dict[int, int] = {}
        get = arriving.get
        for source, bits in frontier.items():
            for target in adjacency[source]:
                arriving[target] = get(target, 0) | bits
        gained: dict[int, int] = {}
        for target, bits in arriving.items():
            new = bits & ~visited[target]
            if new:
                visited[target] |= new
                gained[target] = new
        if not gained:
            break
        frontier = gained
    return visited


class _Evidence:
    """Evidence per reached symbol for one mode, exact or approximated."""

    def __init__(
        self,
        graph: IndexedGraph,
        mode: str,
        edges: ModeEdges,
        roots: Sequence[tuple[int, int]],
        held: list[int],
        max_depth: int,
        condensed: Condensed | None,
    ) -> None:
        self.tiers = MODE_TIERS[mode]
        self.own = {number: index for index, number in roots}
        self.approximated = False
        self.sub_bits: list[list[int]] = []
        self.mode_bits: list[int] = []
        self.weakness: dict[int, int] = {}
        if len(self.tiers) == 1:
            return
        needed = len(roots) * max(1, graph.node_count) * len(self.tiers) // 8
        if needed > EXACT_EVIDENCE_BYTES:
            self.approximated = True
            self.weakness = _upstream_weakness(edges, len(self.tiers), held)
            return
        if condensed is not None:
            # The spread's components: the budget cuts nothing in the mode's graph.
            reaching = smallest_roots(edges.forward, condensed, roots, None)
            self.mode_bits = [reaching[c] if c >= 0 else 0 for c in condensed.component]
        else:
            self.mode_bits = _reach_bits(edges.forward, roots, max_depth)
        for size in range(1, len(self.tiers)):
            # A pair is in the graph of the first `size` tiers when its strongest edge is.
            self.sub_bits.append(_reach_bits(edges.adjacency(size), roots, max_depth))

    def of(self, number: int) -> str:
        if len(self.tiers) == 1:
            return "direct"
        if self.approximated:
            return EVIDENCE_ORDER[self.weakness.get(number, 0)]
        bits = self.mode_bits[number]
        own = self.own.get(number)
        if own is not None:
            bits &= ~(1 << own)
        for rank, sub in enumerate(self.sub_bits):
            if bits & ~sub[number] == 0:
                return EVIDENCE_ORDER[rank]
        return EVIDENCE_ORDER[len(self.tiers) - 1]


def _upstream_weakness(edges: ModeEdges, tier_count: int, held: list[int]) -> dict[int, int]:
    """The weakest evidence rank of any edge on some path from a root (a safe lower bound).

    Every symbol a root reaches within the depth budget is reached along a path
    of such symbols, so the symbols downstream of a rank-r pair, walking only
    through reached symbols, are exactly those with a path through an edge of
    rank r or weaker.
    """
    forward, size = edges.forward, edges.size
    weakness: dict[int, int] = {}
    for rank in range(1, tier_count):
        pending = [
            pair % size
            for pair, pair_rank in edges.rank.items()
            if pair_rank >= rank and held[pair // size] and held[pair % size]
        ]
        while pending:
            number = pending.pop()
            if weakness.get(number, 0) >= rank:
                continue
            weakness[number] = rank
            pending.extend(t for t in forward[number] if held[t] and weakness.get(t, 0) < rank)
    return weakness


def _bit_indexes(bits: int, limit: int) -> list[int]:
    """The positions of the lowest `limit` set bits, ascending."""
    # Split the binary text (least significant bit first) at its ones: the
    # position of the k-th one is the length of the text before it.
    gaps = bin(bits)[:1:-1].split("1", limit)[:-1]
    return list(map(add, accumulate(map(len, gaps)), ascending()))


def traverse(
    graph: Graph | IndexedGraph,
    ids: Iterable[str],
    *,
    direction: str,
    mode: str,
    max_depth: int = MAX_DEPTH,
    max_reached: int = MAX_REACHED,
    phases: dict[str, float] | None = None,
) -> Traversal:
    """`phases`, when given, receives the seconds each step took (benchmarks/reach.py)."""
    clock = _Clock(phases)
    indexed = graph if isinstance(graph, IndexedGraph) else IndexedGraph.from_graph(graph)
    requested = _dedupe(ids)
    numbers = indexed.index
    present = [
        (index, numbers[node_id])
        for index, node_id in enumerate(requested)
        if node_id in numbers and indexed.is_node(numbers[node_id])
    ]
    own = {number: index for index, number in present}
    edges = mode_edges(indexed, len(MODE_TIERS[mode]), direction == "dependents")
    clock.lap("mode edges")
    spread = _spread_fastest(edges, present, max_depth, own)
    clock.lap("spread")
    held, depth = spread.held, spread.depth
    size = edges.size
    listed = sorted(depth, key=lambda number: depth[number] * size + number)
    result = Traversal(roots=[], reached=[])
    if spread.depth_cut:
        result.truncation_reasons.add("depth")
    if len(listed) > max_reached:
        listed = listed[:max_reached]
        result.truncation_reasons.add("max-reached")

    evidence = _Evidence(indexed, mode, edges, present, held, max_depth, spread.condensed)
    clock.lap("evidence")
    beyond: dict[int, int] | None = None
    capped: set[int] = set()
    ids_of = indexed.ids
    for number in listed:
        if not indexed.is_node(number):
            # A hand-edited snapshot whose edge names no node; reported as before.
            raise KeyError(ids_of[number])
        bits = held[number]
        if number in own:
            bits &= ~(1 << own[number])
        others = bits.bit_count()
        via = spread.via[number]
        item: dict[str, Any] = {
            "symbol": _symbol(indexed, number),
            "via": ids_of[via],
            "depth": depth[number],
            "roots": _bit_indexes(bits, MAX_LISTED_ROOTS),
            "relationships": sorted(set(edges.kinds[via * size + number])),
            "evidence": evidence.of(number),
        }
        truncated = others > MAX_LISTED_ROOTS
        if spread.wide is not None:
            wide = spread.wide[number]
            if number in own:
                wide &= ~(1 << own[number])
            truncated = wide.bit_count() > MAX_LISTED_ROOTS
        elif not truncated and held[number].bit_count() == ROOT_SPREAD_CAP:
            # Exactly the cap held, own index included: a 66th root may have been stopped.
            if beyond is None:
                beyond = _beyond_cap(edges, spread.stopped, max_depth)
            truncated = number in beyond
        if truncated:
            item["rootsTruncated"] = True
        _count_unresolved(item, indexed, number, mode, capped)
        result.reached.append(item)

    for node_id in requested:
        number_or_none = numbers.get(node_id)
        if number_or_none is None or not indexed.is_node(number_or_none):
            result.roots.append({"id": node_id})
            result.missing_roots.append(node_id)
            continue
        root: dict[str, Any] = {"id": node_id, "symbol": {"usr": node_id, "qualifiedName": node_id}}
        _count_unresolved(root, indexed, number_or_none, mode, capped)
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
    entry_line = _non_http_entries(indexed, [n for _, n in present] + listed)
    if entry_line:
        result.limitations.append(entry_line)
    clock.lap("records")
    return result


class _Clock:
    def __init__(self, phases: dict[str, float] | None) -> None:
        self.phases = phases
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        if self.phases is not None:
            now = time.perf_counter()
            self.phases[name] = self.phases.get(name, 0.0) + now - self.last
            self.last = now


def _symbol(graph: IndexedGraph, number: int) -> dict[str, Any]:
    node_id = graph.ids[number]
    location = graph.locations[number]
    return {
        "usr": node_id,
        "qualifiedName": node_id,
        "kind": graph.kinds[number],
        "location": dict(location) if location is not None else None,
    }


def _count_unresolved(
    item: dict[str, Any], graph: IndexedGraph, number: int, mode: str, capped: set[int]
) -> None:
    """The node's unresolved calls of `mode` on its item, capped; `capped` notes a cut count."""
    counts = graph.unresolved.get(number)
    count = counts.get(mode, 0) if counts else 0
    if count:
        item["unresolvedCalls"] = min(count, MAX_UNRESOLVED)
        if count > MAX_UNRESOLVED:
            capped.add(number)


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


def _non_http_entries(graph: IndexedGraph, numbers: Iterable[int]) -> str | None:
    kinds: dict[str, int] = {}
    symbols = 0
    marked = graph.entries
    for number in dict.fromkeys(numbers):
        if number not in marked:
            continue
        other = [e for e in marked[number] if e != "route-handler"]
        if other:
            symbols += 1
            for entry in other:
                kinds[entry] = kinds.get(entry, 0) + 1
    if not symbols:
        return None
    return counted(
        "non-http-entries:",
        symbols,
        "symbol(s) in this traversal are entry points by a kind other than route-handler, "
        "which the isthmus http join does not cover",
        breakdown=kinds,
    )
