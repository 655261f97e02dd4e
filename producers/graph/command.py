"""`tsograph graph`: the project's call graph as a tsograph-graph v1 snapshot.

JSON (one key-sorted document) or NDJSON (a header line, then one node or
edge record per line). The graph revision is a SHA-256 over ids, kinds,
entries, unresolved counts and edges, not locations; `revision` is the git
HEAD commit of the project read from `.git`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any
from typing import BinaryIO

from tsograph.exchange import documents
from tsograph.exchange.errors import UsageError
from tsograph.exchange.writer import MAX_SNAPSHOT_CHARS
from tsograph.exchange.writer import write_lines
from tsograph.producers.command_args import add_cache_arguments
from tsograph.producers.command_args import add_output_arguments
from tsograph.producers.graph.project_graph import load_from_arguments
from tsograph.producers.graph.records import graph_records
from tsograph.producers.graph.records import store_validated
from tsograph.producers.graph.records import without_details
from tsograph.producers.help_text import add_command
from tsograph.producers.output_formats import emit
from tsograph.producers.project.gitrev import head_revision
from tsograph.producers.project.languages import LANGUAGES


def add_project_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--project", required=True, metavar="ROOT", help="the project folder to read (required)"
    )
    add_graph_options(parser)


def add_graph_options(parser: argparse.ArgumentParser) -> None:
    """How a project is read into its graph: --tsconfig, --workspace and the cache options
    (graph, trace, reach and impact)."""
    parser.add_argument(
        "--tsconfig",
        metavar="FILE",
        help="the compiler config to use, relative to the project (default: its tsconfig.json, "
        "else jsconfig.json)",
    )
    parser.add_argument(
        "--workspace",
        metavar="PATH",
        help="with --project a monorepo root, the package whose tsconfig and entry points "
        "the graph starts from; or the reverse: an enclosing root whose packages calls "
        "may cross. Ids are relative to the outer folder",
    )
    add_cache_arguments(parser)
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the sources to read: js (TypeScript/JavaScript) or python (default: the one "
        "language the project holds; a project with both needs this)",
    )


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "graph")
    add_project_options(parser)
    parser.add_argument(
        "--details",
        action="store_true",
        help="also write each edge's call sites, the relations (extends, implements, "
        "overrides, imports, uses as a type) and the interfaces and type aliases they name "
        "(JSON format only)",
    )
    add_output_arguments(
        parser,
        "tsograph-graph",
        [("ndjson", "a header line, then one node or edge record per line")],
    )
    add_no_server(parser)
    parser.set_defaults(run=run)


def add_no_server(parser: argparse.ArgumentParser) -> None:
    """--no-server: the runs a `tsograph serve` of their scope answers (graph, reach, impact)."""
    parser.add_argument(
        "--no-server",
        action="store_true",
        help="read the project in this process even when a `tsograph serve` of the same "
        "project and options runs",
    )


def run(args: argparse.Namespace) -> int:
    generated = checked_options(args)
    loaded = load_from_arguments(args)
    cached = loaded.cached_records
    stored = cached if cached is not None else graph_records(loaded.graph)
    if cached is None:
        # Every record, details included, is validated once and kept in the graph cache
        # (for query and later runs); what is written below is a part of them.
        store_validated(loaded, stored)
    records = stored if args.details else without_details(stored)
    write(args, generated, loaded.roots.project, records)
    return 0


def checked_options(args: argparse.Namespace) -> str:
    """The document time, once the options that need no project are checked."""
    generated = documents.generated_at(args.generated_at)
    if args.details and args.format == "ndjson":
        raise UsageError("--details is written in the JSON format only; leave out --format ndjson")
    return generated


def write(
    args: argparse.Namespace,
    generated: str,
    project: Path,
    records: dict[str, Any],
    out: BinaryIO | None = None,
) -> None:
    """Write the snapshot of `records` (with details or without, as `args` asks) on stdout
    or `out`: what a graph run prints, whether it built the records or a graph server
    (producers/serve) holds them."""
    header = {
        "project": documents.project_name(project),
        "generated": generated,
        "graph_revision": records["graphRevision"],
        "revision": head_revision(project),
        "statistics": records["statistics"],
        "limitations": records["limitations"],
        "mode_limitations": records["modeLimitations"],
        "platform": records.get("platform", "js"),
    }
    if args.format == "ndjson":
        lines = [{"record": "node", **node} for node in records["nodes"]]
        lines += [{"record": "edge", **edge} for edge in records["edges"]]
        write_lines(documents.graph_ndjson_header(**header), lines, out, trusted=True)
    else:
        document = documents.graph_snapshot(
            **header,
            nodes=records["nodes"],
            edges=records["edges"],
            relations=records.get("relations"),
            types=records.get("types"),
        )
        trusted = ("nodes", "edges", "relations", "types")
        emit(document, args.format, limit=MAX_SNAPSHOT_CHARS, trusted=trusted, out=out)
