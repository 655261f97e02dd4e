"""`tsograph trace`: per route, the tables and columns it touches and the services it calls.

    tsograph trace --project ROOT --routes DECL.json --uses USES.json
                   [--calls CALLS.json] [--reach REACH.json] [--route 'METHOD PATH']

Without --reach, the project's graph is built (as `tsograph reach` would,
`--dispatch` default bound) with every selected handler as a root.
`--route` selects the declarations that answer one request: the method (an
`ANY` route answers every method) and a path, either a template as the
documents write it (`/api/items/{}`) or a concrete path (`/api/items/42`).
No route matching it is a usage error (exit 64); otherwise exit 0.

The JSON form (`schemas/tsograph-trace-v1.json`) is
`{format: "tsograph-trace", version: 1, tool, routes: [{method, channel,
location, usr?, evidence?, reached?, tables: [{channel, columns, evidence,
symbols}], calls: [{service?, method, channel, evidence, symbols}], notes}]}`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

import orjson

from tsograph.exchange.documents import tool
from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.exchange.validation import validate
from tsograph.producers.check.channels import Match
from tsograph.producers.check.channels import ServerFlags
from tsograph.producers.check.channels import channel_match
from tsograph.producers.check.documents import CALL
from tsograph.producers.check.documents import DECL
from tsograph.producers.check.documents import USES
from tsograph.producers.check.documents import read_documents
from tsograph.producers.check.documents import read_json
from tsograph.producers.check.documents import validated
from tsograph.producers.check.trace import index_by_usr
from tsograph.producers.check.trace import reached_per_root
from tsograph.producers.check.trace import route_entry
from tsograph.producers.command_args import add_choice
from tsograph.producers.diagrams import output as diagrams
from tsograph.producers.diagrams.trace_diagram import trace_diagram
from tsograph.producers.graph.command import add_project_options
from tsograph.producers.graph.model import MODES
from tsograph.producers.help_text import add_command

_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "trace")
    add_project_options(parser)
    parser.add_argument("--routes", required=True, metavar="DECL.json", help="routes --role server")
    parser.add_argument("--uses", required=True, metavar="USES.json", help="a schema document")
    parser.add_argument("--calls", metavar="CALLS.json", help="a routes --role client document")
    parser.add_argument("--reach", metavar="REACH.json", help="a reach document of the handlers")
    parser.add_argument("--route", metavar="'METHOD PATH'", help="only the routes for one request")
    add_choice(
        parser,
        "--dispatch",
        MODES,
        "bound",
        "edges followed when the reach is built here (default bound)",
    )
    add_choice(
        parser,
        "--format",
        ("text", "json", *diagrams.DIAGRAM_FORMATS),
        "text",
        "text for a terminal or CI log (default), json for tools, mermaid or dot: a diagram",
    )
    diagrams.add_max_nodes(parser)
    parser.set_defaults(run=run)


def _one(path: str, side: str, what: str) -> list[dict[str, Any]]:
    document = read_documents([path], what)[0]
    if document.side != side:
        raise UsageError(f"{document.name}: is not {what}")
    return document.facts


def _selected(routes: list[dict[str, Any]], wanted: str | None) -> list[dict[str, Any]]:
    routes = [route for route in routes if not route.get("testSource")]
    if wanted is None:
        return routes
    method, _, path = wanted.strip().partition(" ")
    method, path = method.upper(), path.strip()
    if method not in _METHODS or not path.startswith("/"):
        raise UsageError("--route takes 'METHOD PATH', for example 'GET /api/items/{}'")
    chosen = [
        route
        for route in routes
        if route["method"] in (method, "ANY")
        and (
            route["channel"] == path
            or (
                not route["dynamic"]
                and route["pathAnchor"] == "root"
                and channel_match(route["channel"], ServerFlags.of(route), path) is Match.YES
            )
        )
    ]
    if not chosen:
        raise UsageError(f"--route {wanted}: no route of --routes answers it")
    return chosen


def _reach_from_file(path: str) -> dict[str, Any]:
    what = "a language-traversal document written by tsograph reach"
    name, content, _ = read_json(path, what)
    content = validated(name, content, what)
    if content.get("format") != "language-traversal" or content["direction"] != "dependencies":
        raise InputError(f"{name}: is not a reach (dependencies) traversal; pass {what}")
    return content


def _reach_built(args: argparse.Namespace, roots: list[str]) -> dict[str, Any]:
    # Imported here: building a graph pulls in the whole front-end, which a run
    # with --reach never needs.
    from tsograph.producers.graph.project_graph import load_from_arguments
    from tsograph.producers.graph.traversal import traverse

    loaded = load_from_arguments(args)
    result = traverse(loaded.graph, roots, direction="dependencies", mode=args.dispatch)
    return {
        "roots": result.roots,
        "reached": result.reached,
        "truncationReasons": list(result.truncation_reasons),
    }


def build(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """The report, and the traversal it joined (which a diagram draws)."""
    routes = _selected(_one(args.routes, DECL, "a routes --role server document"), args.route)
    uses = index_by_usr(_one(args.uses, USES, "a tsograph schema document"))
    calls = (
        index_by_usr(_one(args.calls, CALL, "a routes --role client document"))
        if args.calls
        else {}
    )
    handlers = sorted({r["symbol"]["usr"] for r in routes if "usr" in r.get("symbol", {})})
    traversal = _reach_from_file(args.reach) if args.reach else _reach_built(args, handlers)
    per_root = reached_per_root(traversal)
    truncation = sorted(set(traversal.get("truncationReasons", ())))
    entries = [
        route_entry(
            route,
            per_root.get(route.get("symbol", {}).get("usr", "")),
            uses,
            calls,
            truncation,
        )
        for route in routes
    ]
    entries.sort(
        key=lambda e: (e["channel"], e["method"], e["location"]["path"], e["location"]["line"])
    )
    report = {"format": "tsograph-trace", "version": 1, "tool": tool(), "routes": entries}
    validate(report)
    return report, traversal


def as_text(report: Mapping[str, Any]) -> bytes:
    lines: list[str] = []
    for route in report["routes"]:
        where = route["location"]
        handler = route.get("usr", "(no symbol id)")
        lines.append(
            f"{route['method']} {route['channel']}  {handler}  "
            f"({where['path']}:{where['line']}:{where['column']})"
        )
        for table in route["tables"]:
            columns = f" ({', '.join(table['columns'])})" if table["columns"] else ""
            lines.append(f"  table {table['channel']}{columns}  [{table['evidence']}]")
        for call in route["calls"]:
            service = f"{call['service']} " if "service" in call else ""
            lines.append(
                f"  calls {service}{call['method']} {call['channel']}  [{call['evidence']}]"
            )
        if not route["tables"] and not route["calls"]:
            lines.append("  touches no table and calls no service that the documents show")
        if "evidence" in route:
            lines.append(f"  weakest step: {route['evidence']}")
        for note in route["notes"]:
            lines.append(f"  note: {note}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def run(args: argparse.Namespace) -> int:
    cap = diagrams.max_nodes(args)
    report, traversal = build(args)
    if args.format in diagrams.DIAGRAM_FORMATS:
        diagrams.write_diagram(trace_diagram(report, traversal, max_nodes=cap), args.format)
        return 0
    if args.format == "json":
        data = orjson.dumps(report, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    else:
        data = as_text(report)
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0
