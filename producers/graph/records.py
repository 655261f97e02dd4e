"""A built graph as the records a snapshot and the graph cache hold, and storing them.

`graph` writes these records; `query` and the MCP server store them in the
graph cache too, after the same validation, so a later run of any of them
over an unchanged project binds nothing.
"""

from __future__ import annotations

from typing import Any

from tsograph.exchange import documents
from tsograph.producers.graph.model import MODES
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import edge_record
from tsograph.producers.graph.model import node_record
from tsograph.producers.graph.model import relation_record
from tsograph.producers.graph.model import type_record
from tsograph.producers.graph.project_graph import ProjectGraph
from tsograph.producers.graph.snapshot_checks import validate_snapshot


def graph_records(graph: Graph, *, details: bool = True) -> dict[str, Any]:
    """Every record of a graph, details included (edge sites, relations, types): the form
    the graph cache keeps, so `query` finds them whichever command built the graph.
    Without `details`, the records of a plain snapshot, equal to `without_details` of
    them but not built and then dropped (a graph server's answer)."""
    records = {
        "nodes": [node_record(n) for n in sorted(graph.nodes.values(), key=lambda n: n.id)],
        "edges": [edge_record(e, details=details) for e in graph.edges],
        "graphRevision": graph.revision(),
        "limitations": graph.limitations,
        "modeLimitations": {mode: graph.limitations_for(mode) for mode in MODES},
        "statistics": graph.statistics,
        "platform": graph.platform,
    }
    if details:
        records["relations"] = [relation_record(r) for r in graph.relations]
        records["types"] = [type_record(t) for t in graph.types]
    return records


def without_details(records: dict[str, Any]) -> dict[str, Any]:
    """The records of a plain snapshot: no edge sites, relations or types (`graph` writes
    them only with --details, so a snapshot without it reads as it always did)."""
    edges = [
        {key: value for key, value in edge.items() if key != "sites"} if "sites" in edge else edge
        for edge in records["edges"]
    ]
    plain = {key: value for key, value in records.items() if key not in ("relations", "types")}
    return {**plain, "edges": edges}


def store_validated(loaded: ProjectGraph, records: dict[str, Any]) -> None:
    """Cache a freshly built graph once its snapshot passes validation (as `graph` does)."""
    document = documents.graph_snapshot(
        project=documents.project_name(loaded.roots.project),
        generated=documents.generated_at(None),
        graph_revision=records["graphRevision"],
        revision=None,
        statistics=records["statistics"],
        limitations=records["limitations"],
        mode_limitations=records["modeLimitations"],
        nodes=records["nodes"],
        edges=records["edges"],
        platform=records["platform"],
        relations=records.get("relations"),
        types=records.get("types"),
    )
    validate_snapshot(document)
    loaded.graph_cache.store(loaded.key, loaded.dependencies, records)
