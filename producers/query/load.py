"""The held graph of a project: from the graph cache, or built and then stored in it."""

from __future__ import annotations

from tsograph.producers.graph.project_graph import ProjectGraph
from tsograph.producers.graph.records import graph_records
from tsograph.producers.graph.records import store_validated
from tsograph.producers.query.held import HeldGraph


def hold(loaded: ProjectGraph) -> HeldGraph:
    cached = loaded.cached_records
    if cached is not None:
        build, mode = cached["graphRevision"], "cached"
    else:
        records = graph_records(loaded.graph)
        store_validated(loaded, records)
        build, mode = records["graphRevision"], "built"
    return HeldGraph.of(
        loaded.graph,
        build,
        mode,
        loaded.roots.root,
        loaded.roots.project,
        loaded.roots.project_rel,
    )
