"""A built graph as the records a snapshot and the graph cache hold, and storing them.

`graph` writes these records; `query` and the MCP server store them in the
graph cache too, after the same validation, so a later run of any of them
over an unchanged project binds nothing.
"""

from __future__ import annotations

from typing import Any

from tsograph.exchange import documents
from tsograph.exchange.validation import validate
from tsograph.producers.graph.model import MODES, Graph, edge_record, node_record
from tsograph.producers.graph.project_graph import ProjectGraph


def graph_records(graph: Graph) -> dict[str, Any]:
    return {
        "nodes": [node_record(n) for n in sorted(graph.nodes.values(), key=lambda n: n.id)],
        "edges": [edge_record(e) for e in graph.edges],
        "graphRevision": graph.revision(),
        "limitations": graph.limitations,
        "modeLimitations": {mode: graph.limitations_for(mode) for mode in MODES},
        "statistics": graph.statistics,
        "platform": graph.platform,
    }


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
    )
    validate(document)
    loaded.graph_cache.store(loaded.key, loaded.dependencies, records)
