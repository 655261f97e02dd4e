"""A graph's merged edges, one file at a time, kept per file between incremental runs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tsograph.producers.graph.model import Edge
from tsograph.producers.graph.model import Node
from tsograph.producers.graph.model import edge_order
from tsograph.producers.graph.model import strongest_edges

if TYPE_CHECKING:
    from tsograph.producers.graph.file_memo import FileMemo


def strongest_by_file(
    direct: dict[str, list[Edge]],
    dispatched: dict[str, list[Edge]],
    nodes: Mapping[str, Node],
    memo: FileMemo | None,
) -> list[Edge]:
    """strongest_edges of the whole graph, one file at a time.

    Every edge starts at a node of the file whose facts made it (a call site's
    owner, a declaration holding a callback, an export, a class or the module),
    so the edges merged into one belong to one file; and every id of a file
    starts with its path and `#`, so each file's sorted edges are one run of
    the sorted whole. An incremental run reuses a file's result when its edges
    are those of the previous run.
    """
    merged: list[Edge] = []
    for path in sorted(direct.keys() | dispatched.keys(), key=lambda path: path + "#"):
        edges = tuple(
            edge
            for edge in (*direct.get(path, ()), *dispatched.get(path, ()))
            if edge.source in nodes and edge.target in nodes
        )
        kept = None if memo is None else memo.strongest(path, edges)
        if kept is None:
            kept = tuple(strongest_edges(edges))
            if memo is not None:
                memo.keep_strongest(path, edges, kept)
        merged.extend(kept)
    # Already in order but for file paths holding `#` (then this sort does the work).
    return sorted(merged, key=edge_order)
