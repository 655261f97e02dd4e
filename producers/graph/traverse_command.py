"""`tsograph reach` and `tsograph impact`: what a set of symbols reaches, or is reached from.

Both write a language-traversal v1 document. The graph comes from the project
(built as `tsograph graph` builds it, caches included) or from a saved
snapshot (`--graph-file`, JSON or NDJSON, validated, at most 128 MiB; see
snapshot_file.py), which keeps the snapshot's project, revision and graph
revision. Ids that are not graph nodes
stay in `roots` without a symbol; the document is still written, and the
command then exits 64 with the ids on stderr, so a typo stops a pipeline that
checks exit codes while a caller that accepts partial traversals can read it.

Roots are the positional ids followed by the ids of `--roots-from` (see
roots_file.py); at least one positional id is needed without it. With
`--entry-points`, marked roots and reached symbols carry `symbol.entries`
(roots also their location); the `non-http-entries:` count is written
either way, because the default output must stay readable by isthmus-cli
0.11.0, which rejects `symbol.entries`.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from dataclasses import dataclass
from typing import Any
from typing import BinaryIO

from tsograph.exchange import documents
from tsograph.exchange.errors import EXIT_USAGE
from tsograph.exchange.errors import UsageError
from tsograph.producers import progress
from tsograph.producers.command_args import add_choice
from tsograph.producers.command_args import add_output_arguments
from tsograph.producers.diagrams.output import DIAGRAM_FORMATS
from tsograph.producers.diagrams.output import add_max_nodes
from tsograph.producers.diagrams.output import max_nodes
from tsograph.producers.diagrams.output import write_diagram
from tsograph.producers.diagrams.route_labels import route_labels
from tsograph.producers.diagrams.traversal_diagram import RouteLabels
from tsograph.producers.diagrams.traversal_diagram import traversal_diagram
from tsograph.producers.graph import closest_ids
from tsograph.producers.graph.command import add_graph_options
from tsograph.producers.graph.command import add_no_server
from tsograph.producers.graph.indexed import IndexedGraph
from tsograph.producers.graph.model import MODES
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.project_graph import ProjectRoots
from tsograph.producers.graph.project_graph import load_from_arguments
from tsograph.producers.graph.roots_file import read_root_ids
from tsograph.producers.graph.snapshot_file import read_snapshot
from tsograph.producers.graph.traversal import MAX_DEPTH
from tsograph.producers.graph.traversal import MAX_REACHED
from tsograph.producers.graph.traversal import is_declaration_id
from tsograph.producers.graph.traversal import traverse
from tsograph.producers.graph.traversal_checks import validate_traversal
from tsograph.producers.help_text import add_command
from tsograph.producers.output_formats import emit
from tsograph.producers.project.gitrev import head_revision

DIRECTIONS = {"reach": "dependencies", "impact": "dependents"}


def _bounded(low: int, high: int, name: str) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be between {low} and {high}")
        return value

    return parse


def register(subparsers: Any) -> None:
    for name in ("reach", "impact"):
        parser = add_command(subparsers, name)
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--project", metavar="ROOT", help="the project folder to read")
        source.add_argument(
            "--graph-file",
            metavar="FILE",
            help="a saved tsograph-graph snapshot (JSON or NDJSON, at most 128 MiB) instead",
        )
        add_graph_options(parser)
        parser.add_argument(
            "--max-depth",
            metavar="N",
            type=_bounded(1, MAX_DEPTH, "--max-depth"),
            default=MAX_DEPTH,
            help=f"follow at most N edges from a root (1 to {MAX_DEPTH}, the default)",
        )
        parser.add_argument(
            "--max-reached",
            metavar="N",
            type=_bounded(1, MAX_REACHED, "--max-reached"),
            default=MAX_REACHED,
            help=f"list at most N symbols (1 to {MAX_REACHED:,}, the default); a cut "
            "traversal says truncated",
        )
        add_choice(
            parser,
            "--dispatch",
            MODES,
            "bound",
            "which edges to follow: direct (proven by names and types), bound (also "
            "calls every flowing value proves; the default) or candidates (also every "
            "possible implementation)",
        )
        add_output_arguments(
            parser,
            "language-traversal",
            own=[
                ("mermaid", "a Mermaid flowchart of what was reached (at most --max-nodes)"),
                ("dot", "the same diagram in Graphviz DOT"),
            ],
        )
        add_max_nodes(parser)
        parser.add_argument(
            "--entry-points",
            action="store_true",
            help="add symbol.entries to marked roots and reached symbols "
            "(isthmus-cli 0.12.0 or newer reads them)",
        )
        parser.add_argument(
            "--roots-from",
            metavar="FILE",
            help="more root ids, after the positional ones: a JSON array of id strings, "
            "or a bridge-facts document whose facts' symbol.usr are the ids",
        )
        parser.add_argument(
            "ids", nargs="*", metavar="ID", help="root symbol ids, as tsograph graph writes them"
        )
        add_no_server(parser)
        parser.set_defaults(run=run, direction=DIRECTIONS[name])


@dataclass
class TraversalSource:
    """The graph a traversal runs on, and what its document says of where it came from."""

    graph: IndexedGraph
    limitations: list[str]  # the dispatch mode's
    project: str
    revision: str | None
    graph_revision: str
    routes: RouteLabels | None  # a snapshot holds no route paths
    platform: str


def _from_file(path: str, mode: str) -> TraversalSource:
    snapshot = read_snapshot(path)
    # The record lists are dropped here: the traversal needs only the numbered graph.
    graph = IndexedGraph.from_records(snapshot.pop("nodes"), snapshot.pop("edges"))
    by_mode = snapshot.get("modeLimitations")  # an older snapshot has only the global ones
    return TraversalSource(
        graph,
        list(by_mode[mode]) if by_mode else list(snapshot["limitations"]),
        snapshot["project"],
        snapshot.get("revision"),
        snapshot["graphRevision"],
        None,
        snapshot.get("platform", "js"),
    )


def project_source(
    built: Graph, indexed: IndexedGraph, roots: ProjectRoots, mode: str, graph_revision: str
) -> TraversalSource:
    """A project graph as a traversal's source (also what `tsograph serve` answers from)."""
    return TraversalSource(
        indexed,
        built.limitations_for(mode),
        documents.project_name(roots.project),
        head_revision(roots.project),
        graph_revision,
        functools.partial(route_labels, roots.project, roots.project_rel),
        built.platform,
    )


def root_ids(args: argparse.Namespace, cwd: str = "") -> list[str]:
    """The positional ids, then those of --roots-from (a path taken from `cwd`)."""
    ids = list(args.ids)
    if args.roots_from is not None:
        path = args.roots_from if args.roots_from == "-" else os.path.join(cwd, args.roots_from)
        ids += read_root_ids(path)
    elif not ids:
        raise UsageError("give at least one symbol id, or --roots-from with a file of ids")
    return ids


def run(args: argparse.Namespace) -> int:
    generated = documents.generated_at(args.generated_at)
    diagram_cap = max_nodes(args)
    ids = root_ids(args)
    if args.graph_file is not None:
        if args.tsconfig or args.workspace:
            raise UsageError(
                "--tsconfig and --workspace apply to --project, not to --graph-file; "
                "leave them out, or build the graph with --project"
            )
        source = _from_file(args.graph_file, args.dispatch)
    else:
        loaded = load_from_arguments(args)
        cached = loaded.cached_records
        graph_revision = cached["graphRevision"] if cached is not None else loaded.graph.revision()
        indexed = IndexedGraph.from_graph(loaded.graph)
        source = project_source(loaded.graph, indexed, loaded.roots, args.dispatch, graph_revision)
    missing = write_traversal(args, generated, diagram_cap, ids, source, sys.stdout.buffer)
    if missing:
        return report_missing(source.graph, missing)
    return 0


def write_traversal(
    args: argparse.Namespace,
    generated: str,
    diagram_cap: int,
    ids: list[str],
    source: TraversalSource,
    out: BinaryIO,
) -> list[str]:
    """Write the traversal's document or diagram; the roots that are no graph nodes."""
    progress.phase("traversing the graph")
    graph = source.graph
    result = traverse(
        graph,
        ids,
        direction=args.direction,
        mode=args.dispatch,
        max_depth=args.max_depth,
        max_reached=args.max_reached,
    )
    if args.entry_points:
        add_entries(graph, result.roots, result.reached)
    document = documents.language_traversal(
        direction=args.direction,
        dispatch=args.dispatch,
        project=source.project,
        generated=generated,
        graph_revision=source.graph_revision,
        revision=source.revision,
        roots=result.roots,
        reached=result.reached,
        truncation_reasons=result.truncation_reasons,
        limitations=[*source.limitations, *result.limitations],
        platform=source.platform,
    )
    if args.format in DIAGRAM_FORMATS:
        limits = {"max_depth": args.max_depth, "max_reached": args.max_reached}
        diagram = traversal_diagram(
            graph,
            result,
            mode=args.dispatch,
            max_nodes=diagram_cap,
            limits=limits,
            routes=source.routes,
        )
        write_diagram(diagram, args.format, out)
    else:
        emit(document, args.format, check=validate_traversal, out=out)
    return result.missing_roots


def report_missing(graph: IndexedGraph, missing: list[str]) -> int:
    """Name the roots that are no graph nodes on stderr, with the closest ids: exit 64."""
    declarations = [i for i in missing if is_declaration_id(i)]
    unknown = [i for i in missing if not is_declaration_id(i)]
    parts = []
    if unknown:
        parts.append("unknown ids: " + ", ".join(map(closest_ids.printable, unknown)))
    if declarations:
        parts.append(
            "declaration ids no traversal reaches: "
            + ", ".join(map(closest_ids.printable, declarations))
        )
    hints = f"{closest_ids.hint(graph, unknown)}; " if unknown else ""
    progress.clear()
    sys.stderr.write(
        f"tsograph: roots that are not graph nodes ({'; '.join(parts)}); {hints}"
        "the document was written for the other roots; pass ids as tsograph graph "
        "writes them\n"
    )
    return EXIT_USAGE


def add_entries(
    graph: IndexedGraph, roots: list[dict[str, Any]], reached: list[dict[str, Any]]
) -> None:
    """`symbol.entries` on marked roots (with their location) and marked reached symbols."""
    for root in roots:
        symbol = root.get("symbol")
        if symbol is None:
            continue
        number = graph.index[root["id"]]
        entries = graph.entries.get(number)
        location = graph.locations[number]
        if entries and location is not None:
            symbol["entries"] = sorted(entries)
            symbol["location"] = dict(location)
    for item in reached:
        entries = graph.entries.get(graph.index[item["symbol"]["usr"]])
        if entries:
            item["symbol"]["entries"] = sorted(entries)
