"""The held roots, depth and via of a traversal without the level-by-level pass.

With thousands of roots the level-synchronous pass (traversal.py) ORs long bit
sets once per symbol per level that brings it new bits; in the reverse
direction of a service-like graph almost every symbol gains bits at about
twenty levels. When no shortest path from a root can be as long as the depth
budget, the budget cuts nothing, and two cheaper passes give the same result:

* the roots reaching a symbol are those reaching its strongly connected
  component, so one pass over the components in topological order, with one
  OR per edge between components, gives every symbol's smallest roots;
* depth, nearest root and via need only the two nearest roots of a symbol
  (ordered by distance, then index): its own index may be one of them, and the
  nearest root of a symbol is among the two nearest of the predecessor on its
  shortest path (a root nearer there would be nearer here too). A
  breadth-first pass in which each symbol accepts at most two roots finds them.

`depth_bound` decides whether the budget can be reached: within one component
every distance is at most the in- plus out-eccentricity of one member (a path
between two members never leaves the component), and along the components in
topological order those bounds add up with one step per edge between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tsograph.producers.graph.indexed import ModeEdges


@dataclass
class Condensed:
    component: list[int]  # per symbol: its component's position in `order`, -1 if unreached
    order: list[list[int]]  # the reached components, in topological order (roots first)


def within_budget(
    forward: list[list[int]],
    backward: list[list[int]] | None,
    starts: Sequence[int],
    max_depth: int,
) -> Condensed | None:
    """The components reachable from `starts` when the depth budget cuts nothing, else None.

    `backward` (the reversed lists) is built here when not given.
    """
    if _some_symbol_at(forward, starts, max_depth):
        # Cheaper than condensing: a symbol that far from every start is that
        # far from some start, so the budget is reached.
        return None
    condensed = condense(forward, starts)
    if backward is None:
        backward = [[] for _ in forward]
        for source, targets in enumerate(forward):
            for target in targets:
                backward[target].append(source)
    return condensed if depth_bound(forward, backward, condensed) < max_depth else None


def _some_symbol_at(forward: list[list[int]], starts: Sequence[int], distance: int) -> bool:
    """Whether some symbol lies exactly `distance` steps from the nearest start."""
    seen = bytearray(len(forward))
    frontier = list(dict.fromkeys(starts))
    for number in frontier:
        seen[number] = 1
    for _ in range(distance):
        following = []
        for number in frontier:
            for target in forward[number]:
                if not seen[target]:
                    seen[target] = 1
                    following.append(target)
        if not following:
            return False
        frontier = following
    return True


def condense(forward: list[list[int]], starts: Sequence[int]) -> Condensed:
    """The strongly connected components reachable from `starts` (iterative Tarjan)."""
    size = len(forward)
    index = [-1] * size
    low = [0] * size
    on_stack = [False] * size
    stack: list[int] = []
    found: list[list[int]] = []  # Tarjan finds sinks first
    counter = 0
    for start in starts:
        if index[start] != -1:
            continue
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack[start] = True
        work = [(start, iter(forward[start]))]
        while work:
            node, successors = work[-1]
            descended = False
            for target in successors:
                if index[target] == -1:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack[target] = True
                    work.append((target, iter(forward[target])))
                    descended = True
                    break
                if on_stack[target] and index[target] < low[node]:
                    low[node] = index[target]
            if descended:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    members.append(member)
                    if member == node:
                        break
                found.append(members)
    found.reverse()
    component = [-1] * size
    for position, members in enumerate(found):
        for member in members:
            component[member] = position
    return Condensed(component, found)


def depth_bound(forward: list[list[int]], backward: list[list[int]], condensed: Condensed) -> int:
    """An upper bound on the distance from any reached symbol to any symbol it reaches."""
    component = condensed.component
    longest = [0] * len(condensed.order)
    for position, members in enumerate(condensed.order):
        start = longest[position]
        if len(members) > 1:
            start += _eccentricity(forward, component, members[0], position) + _eccentricity(
                backward, component, members[0], position
            )
        longest[position] = start
        for member in members:
            for target in forward[member]:
                other = component[target]
                if other != position and longest[other] < start + 1:
                    longest[other] = start + 1
    return max(longest, default=0)


def _eccentricity(adjacency: list[list[int]], component: list[int], start: int, inside: int) -> int:
    """The largest breadth-first distance from `start` within one component."""
    seen = {start}
    frontier = [start]
    distance = 0
    while True:
        following = []
        for node in frontier:
            for target in adjacency[node]:
                if component[target] == inside and target not in seen:
                    seen.add(target)
                    following.append(target)
        if not following:
            return distance
        distance += 1
        frontier = following


def smallest_roots(
    forward: list[list[int]],
    condensed: Condensed,
    roots: Sequence[tuple[int, int]],
    keep: int | None,
) -> list[int]:
    """Per component: the bits of the `keep` smallest root indices (all: None) that reach it."""
    component = condensed.component
    bits = [0] * len(condensed.order)
    for index, number in roots:
        bits[component[number]] |= 1 << index
    for position, members in enumerate(condensed.order):
        held = bits[position]
        if keep is not None and held.bit_count() > keep:
            held = keep_smallest(held, keep)
            bits[position] = held
        for member in members:
            for target in forward[member]:
                other = component[target]
                if other != position:
                    bits[other] |= held
    return bits


def keep_smallest(bits: int, keep: int) -> int:
    """`bits` with only its `keep` smallest set bits."""
    # The binary text, least significant bit first, split at its ones: the
    # position of the keep-th one is the length of the text before it.
    gaps = bin(bits)[:1:-1].split("1", keep)[:keep]
    last = sum(map(len, gaps)) + keep - 1
    return bits & ((1 << (last + 1)) - 1)


def nearest_two(
    edges: ModeEdges, roots: Sequence[tuple[int, int]], own: dict[int, int], max_depth: int
) -> tuple[dict[int, int], dict[int, int]]:
    """Depth and via of every symbol reached from a root other than its own.

    Each symbol accepts at most two roots, in the order (distance, index); a
    root spreads on from the symbols that accepted it. The via of a symbol is
    the smallest symbol that accepted its nearest root one level earlier and
    has an edge to it: the sources of a level are visited in ascending order,
    so the first source to bring a root to a symbol is that smallest one.
    """
    forward = edges.forward
    accepted: dict[int, list[int]] = {}
    frontier: list[tuple[int, int]] = []
    for index, number in roots:
        accepted.setdefault(number, []).append(index)
        frontier.append((number, index))
    depth: dict[int, int] = {}
    via: dict[int, int] = {}
    level = 0
    while frontier and level < max_depth:
        level += 1
        frontier.sort()
        arriving: dict[int, dict[int, int]] = {}
        for source, index in frontier:
            for target in forward[source]:
                sources = arriving.get(target)
                if sources is None:
                    arriving[target] = {index: source}
                elif index not in sources:
                    sources[index] = source
        frontier = []
        for target, sources in arriving.items():
            held = accepted.get(target)
            if held is None:
                held = accepted[target] = []
            elif len(held) == 2:
                continue
            for index in sorted(sources):
                if index in held:
                    continue
                held.append(index)
                frontier.append((target, index))
                if target not in depth and own.get(target) != index:
                    depth[target] = level
                    via[target] = sources[index]
                if len(held) == 2:
                    break
    return depth, via
