"""The call graph as integers, the form reach and impact traverse.

Symbols are numbered in id order, so "the smallest id" is "the smallest
number" and sorting by (depth, id) is sorting integers. Edges are parallel
arrays. A saved snapshot is turned into this form straight from its records,
without building a Node or Edge object per record: on a 200,000-node graph
those objects alone cost seconds.

An edge may name a symbol that is not a node (a hand-edited snapshot); such
ids get numbers too, so a traversal runs over them exactly as over any id, and
`is_node` tells them apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from itertools import repeat
from operator import add
from operator import itemgetter
from operator import lt
from operator import mul
from typing import Any

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.model import Graph

_RANK = {evidence: rank for rank, evidence in enumerate(EVIDENCE_ORDER)}


@dataclass
class IndexedGraph:
    ids: list[str]  # every symbol id, sorted; a symbol's number is its position
    index: dict[str, int]
    node_count: int  # graph nodes, without ids that only edges name
    kinds: list[str | None]  # None for an id that is not a node
    locations: list[Mapping[str, Any] | None]
    entries: dict[int, tuple[str, ...]]  # only nodes with entries
    unresolved: dict[int, Mapping[str, int]]  # only nodes with unresolved calls
    sources: list[int]
    targets: list[int]
    edge_kinds: list[Sequence[str]]
    ranks: list[int]  # position of the edge's evidence in EVIDENCE_ORDER

    def is_node(self, number: int) -> bool:
        return self.kinds[number] is not None

    @classmethod
    def from_graph(cls, graph: Graph) -> IndexedGraph:
        nodes = graph.nodes
        builder = _Builder(
            nodes.keys(),
            [edge.source for edge in graph.edges],
            [edge.target for edge in graph.edges],
        )
        kinds, locations, entries, unresolved = builder.node_columns()
        for node_id, node in nodes.items():
            number = builder.index[node_id]
            kinds[number] = node.kind
            locations[number] = node.location
            if node.entries:
                entries[number] = tuple(node.entries)
            if node.unresolved:
                unresolved[number] = node.unresolved
        return builder.finish(
            len(nodes),
            [edge.kinds for edge in graph.edges],
            [_RANK[edge.evidence] for edge in graph.edges],
        )

    @classmethod
    def from_records(
        cls, node_records: list[dict[str, Any]], edge_records: list[dict[str, Any]]
    ) -> IndexedGraph:
        """From a validated snapshot's records; a repeated node id keeps its last record."""
        by_id = dict(zip(map(itemgetter("id"), node_records), node_records, strict=True))
        builder = _Builder(
            by_id.keys(),
            list(map(itemgetter("from"), edge_records)),
            list(map(itemgetter("to"), edge_records)),
        )
        kinds, locations, entries, unresolved = builder.node_columns()
        for node_id, record in by_id.items():
            number = builder.index[node_id]
            kinds[number] = record["kind"]
            locations[number] = record["location"]
            if len(record) > 3:
                if "entries" in record:
                    entries[number] = tuple(record["entries"])
                if "unresolvedCalls" in record:
                    unresolved[number] = record["unresolvedCalls"]
        return builder.finish(
            len(by_id),
            list(map(itemgetter("kinds"), edge_records)),
            list(map(_RANK.__getitem__, map(itemgetter("evidence"), edge_records))),
        )


class _Builder:
    def __init__(self, node_ids: Iterable[str], sources: list[str], targets: list[str]) -> None:
        universe = set(node_ids)
        universe.update(sources)
        universe.update(targets)
        self.ids = sorted(universe)
        self.index = dict(zip(self.ids, range(len(self.ids)), strict=True))
        self.sources = list(map(self.index.__getitem__, sources))
        self.targets = list(map(self.index.__getitem__, targets))
        self.kinds: list[str | None] = [None] * len(self.ids)
        self.locations: list[Mapping[str, Any] | None] = [None] * len(self.ids)
        self.entries: dict[int, tuple[str, ...]] = {}
        self.unresolved: dict[int, Mapping[str, int]] = {}

    def node_columns(
        self,
    ) -> tuple[
        list[str | None],
        list[Mapping[str, Any] | None],
        dict[int, tuple[str, ...]],
        dict[int, Mapping[str, int]],
    ]:
        """The per-node columns, empty, for the caller to fill by symbol number."""
        return self.kinds, self.locations, self.entries, self.unresolved

    def finish(
        self, node_count: int, edge_kinds: list[Sequence[str]], ranks: list[int]
    ) -> IndexedGraph:
        return IndexedGraph(
            self.ids,
            self.index,
            node_count,
            self.kinds,
            self.locations,
            self.entries,
            self.unresolved,
            self.sources,
            self.targets,
            edge_kinds,
            ranks,
        )


@dataclass
class ModeEdges:
    """One mode's edges in traversal direction, merged per ordered pair of symbols."""

    size: int  # symbols
    forward: list[list[int]]
    backward: list[list[int]]
    # Per pair (tail * size + head): the merged kinds, and the strongest rank carrying it.
    kinds: dict[int, Sequence[str]]
    rank: dict[int, int]

    def adjacency(self, ranks_below: int) -> list[list[int]]:
        """Forward lists of the pairs whose strongest edge ranks below `ranks_below`."""
        lists: list[list[int]] = [[] for _ in range(self.size)]
        size = self.size
        for pair, rank in self.rank.items():
            if rank < ranks_below:
                lists[pair // size].append(pair % size)
        return lists


def mode_edges(graph: IndexedGraph, tier_count: int, reverse: bool) -> ModeEdges:
    size = len(graph.ids)
    tails, heads = (graph.targets, graph.sources) if reverse else (graph.sources, graph.targets)
    kept = list(map(lt, graph.ranks, repeat(tier_count)))
    tails = list(compress(tails, kept))
    heads = list(compress(heads, kept))
    edge_kinds = list(compress(graph.edge_kinds, kept))
    ranks = list(compress(graph.ranks, kept))
    pairs = list(map(add, map(mul, tails, repeat(size)), heads))
    kinds: dict[int, Sequence[str]] = dict(zip(pairs, edge_kinds, strict=True))
    rank = dict(zip(pairs, ranks, strict=True))
    if len(kinds) != len(pairs):
        # Pairs with edges of several tiers (or repeated edges): merge just those.
        repeated = {pair for pair, count in Counter(pairs).items() if count > 1}
        merged: dict[int, set[str]] = {}
        first = [True] * len(pairs)
        for position, pair in enumerate(pairs):
            if pair in repeated:
                first[position] = pair not in merged
                merged.setdefault(pair, set()).update(edge_kinds[position])
                rank[pair] = min(rank[pair], ranks[position])
        kinds.update((pair, tuple(values)) for pair, values in merged.items())
        tails = list(compress(tails, first))
        heads = list(compress(heads, first))
    forward: list[list[int]] = [[] for _ in range(size)]
    backward: list[list[int]] = [[] for _ in range(size)]
    for tail, head in zip(tails, heads, strict=True):
        forward[tail].append(head)
        backward[head].append(tail)
    return ModeEdges(size, forward, backward, kinds, rank)
