"""`tsograph graph`: the project's call graph as a tsograph-graph v1 snapshot.

JSON (one key-sorted document) or NDJSON (a header line, then one node or
edge record per line). The graph revision is a SHA-256 over ids, kinds,
entries, unresolved counts and edges, not locations; `revision` is the git
HEAD commit of the project read from `.git`.
"""

from __future__ import annotations

import argparse
from typing import Any

from tsograph.exchange import documents
from tsograph.exchange.writer import MAX_SNAPSHOT_CHARS, write_lines
from tsograph.producers.graph.model import MODES, edge_record, node_record
from tsograph.producers.graph.project_graph import load_from_arguments
from tsograph.producers.graph.python.load import LANGUAGES
from tsograph.producers.help_text import USAGE_ERROR, command_help
from tsograph.producers.output_formats import add_format_argument, emit
from tsograph.producers.project.gitrev import head_revision


def add_project_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--project", required=True, metavar="ROOT", help="the project folder to read (required)"
    )
    parser.add_argument(
        "--tsconfig",
        metavar="FILE",
        help="the compiler config to use, relative to the project (default: its tsconfig.json, "
        "else jsconfig.json)",
    )
    parser.add_argument(
        "--workspace",
        metavar="ROOT",
        help="an enclosing folder whose packages calls may cross (ids relative to it)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where per-file facts and whole graphs are cached (default: "
        "$XDG_CACHE_HOME/tsograph or ~/.cache/tsograph)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="parse every file, read and write no cache"
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the sources to read: js (TypeScript/JavaScript) or python (default: the one "
        "language the project holds; a project with both needs this)",
    )


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "graph",
        help="write the project's call graph (tsograph-graph v1)",
        **command_help(
            "Build the TypeScript/JavaScript call graph of a project without running it: one "
            "node per declaration, edges with their evidence tier, unresolved calls by reason.",
            [
                (0, "success"),
                (
                    2,
                    "the project or a config cannot be read, or --tsconfig names no readable "
                    "config",
                ),
                (64, USAGE_ERROR),
            ],
            [
                "tsograph graph --project . > graph.json",
                "tsograph graph --project apps/web --workspace . --format ndjson > graph.ndjson",
                "tsograph graph --project . --format text",
            ],
        ),
    )
    add_project_options(parser)
    parser.add_argument(
        "--generated-at",
        metavar="TIMESTAMP",
        help="fix generatedAt (UTC with milliseconds) for reproducible output",
    )
    add_format_argument(
        parser,
        "tsograph-graph",
        [("ndjson", "a header line, then one node or edge record per line")],
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    generated = documents.generated_at(args.generated_at)
    loaded = load_from_arguments(args)
    graph = loaded.graph
    cached = loaded.cached_records
    if cached is not None:
        records = cached
    else:
        records = {
            "nodes": [node_record(n) for n in sorted(graph.nodes.values(), key=lambda n: n.id)],
            "edges": [edge_record(e) for e in graph.edges],
            "graphRevision": graph.revision(),
            "limitations": graph.limitations,
            "modeLimitations": {mode: graph.limitations_for(mode) for mode in MODES},
            "statistics": graph.statistics,
            "platform": graph.platform,
        }
    header = {
        "project": documents.project_name(loaded.roots.project),
        "generated": generated,
        "graph_revision": records["graphRevision"],
        "revision": head_revision(loaded.roots.project),
        "statistics": records["statistics"],
        "limitations": records["limitations"],
        "mode_limitations": records["modeLimitations"],
        "platform": records.get("platform", "js"),
    }
    if args.format == "ndjson":
        lines = [{"record": "node", **node} for node in records["nodes"]]
        lines += [{"record": "edge", **edge} for edge in records["edges"]]
        write_lines(documents.graph_ndjson_header(**header), lines, trusted=cached is not None)
    else:
        document = documents.graph_snapshot(
            **header, nodes=records["nodes"], edges=records["edges"]
        )
        trusted = ("nodes", "edges") if cached is not None else ()
        emit(document, args.format, limit=MAX_SNAPSHOT_CHARS, trusted=trusted)
    if cached is None:
        # Only records that passed validation above are cached as trusted.
        loaded.graph_cache.store(loaded.key, loaded.dependencies, records)
    return 0
