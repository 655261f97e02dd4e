"""`tsograph query QUESTION [TARGET] --project ROOT`: one question to the project's call graph.

The graph is the one `tsograph graph` builds, through the same caches. The
answer is a short reading, or with --json the document the MCP tools answer
with. Exit 0 for an answer (a floor and an ambiguous name included), 2 when
the question cannot be answered (the one-line reason on stderr; with --json
the error document on stdout too), 64 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import UsageError
from tsograph.producers import progress
from tsograph.producers.diagrams.answer_diagram import DRAWN
from tsograph.producers.diagrams.answer_diagram import answer_diagram
from tsograph.producers.diagrams.output import DIAGRAM_FORMATS
from tsograph.producers.diagrams.output import add_max_nodes
from tsograph.producers.diagrams.output import max_nodes
from tsograph.producers.diagrams.output import write_diagram
from tsograph.producers.graph.command import add_project_options
from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.help_text import add_command
from tsograph.producers.query.answer import MAX_LIMIT
from tsograph.producers.query.answer import Page
from tsograph.producers.query.answer import answer
from tsograph.producers.query.answer import error_answer
from tsograph.producers.query.base_side import folder_loader
from tsograph.producers.query.base_side import read_base
from tsograph.producers.query.budget import DEFAULT_BUDGET_MS
from tsograph.producers.query.budget import MAX_BUDGET_MS
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.keep import Keeper
from tsograph.producers.query.leases import DEFAULT_KEPT_MB
from tsograph.producers.query.leases import KEPT_MB_ENV
from tsograph.producers.query.questions import DEFAULT_DEPTH
from tsograph.producers.query.questions import MAX_DEPTH
from tsograph.producers.query.questions import QUESTIONS
from tsograph.producers.query.questions import Refused
from tsograph.producers.query.questions import Request
from tsograph.producers.query.questions import ask


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "query")
    parser.add_argument(
        "question",
        choices=QUESTIONS,
        metavar="QUESTION",
        help="the question to ask, one of the list above",
    )
    parser.add_argument("target", nargs="?", help="a name, Class.method, file:line, id or text")
    parser.add_argument("to", nargs="?", help="path: the symbol to reach")
    add_project_options(parser)
    add_kept_option(parser)
    parser.add_argument("--file", metavar="PATH", help="narrow a name to one file")
    parser.add_argument("--depth", type=int, metavar="N", help="how many hops to walk")
    parser.add_argument(
        "--tier",
        metavar="TIERS",
        help="the evidence tiers to follow, comma separated (default: direct,bound,candidate)",
    )
    parser.add_argument(
        "--edges", metavar="KINDS", help="path: the edge kinds to follow, comma separated"
    )
    parser.add_argument(
        "--level", choices=("files", "packages"), default="files", help="cycles: of what"
    )
    parser.add_argument("--text", help="routes: a part of the METHOD /path label")
    parser.add_argument("--base", metavar="REF", help="impact/changes: compare with a base")
    parser.add_argument("--json", action="store_true", help="print the answer document")
    parser.add_argument(
        "--format",
        choices=DIAGRAM_FORMATS,
        help=f"draw the whole answer as a diagram ({', '.join(DRAWN)}; --limit and --cursor "
        "do not apply)",
    )
    add_max_nodes(parser)
    parser.add_argument(
        "--limit", type=int, default=50, metavar="N", help=f"items per page (1 to {MAX_LIMIT})"
    )
    parser.add_argument("--cursor", help="the page an earlier answer named")
    parser.add_argument("--tokens", type=int, metavar="N", help="cut items to about N tokens")
    parser.add_argument(
        "--budget-ms",
        type=int,
        default=DEFAULT_BUDGET_MS,
        metavar="MS",
        help=f"time for the question's own work (default {DEFAULT_BUDGET_MS})",
    )
    parser.set_defaults(run=run)


def add_kept_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kept-builds-mb",
        type=int,
        metavar="MB",
        help="how much of the cache kept builds other processes hold may fill (default: "
        f"${KEPT_MB_ENV}, else {DEFAULT_KEPT_MB}); the newest build is always kept",
    )


def _list(text: str | None, allowed: tuple[str, ...] | None, option: str) -> tuple[str, ...] | None:
    if text is None:
        return None
    values = tuple(part.strip() for part in text.split(",") if part.strip())
    bad = [value for value in values if allowed is not None and value not in allowed]
    if bad or not values:
        raise UsageError(f"{option} takes {', '.join(allowed or ())}, comma separated")
    return values


def request_from(args: argparse.Namespace) -> tuple[Request, Page]:
    if not 1 <= args.limit <= MAX_LIMIT:
        raise UsageError(f"--limit must be between 1 and {MAX_LIMIT}")
    if args.tokens is not None and args.tokens < 1:
        raise UsageError("--tokens must be at least 1")
    if not 1 <= args.budget_ms <= MAX_BUDGET_MS:
        raise UsageError(f"--budget-ms must be between 1 and {MAX_BUDGET_MS}")
    if args.depth is not None:
        top = MAX_DEPTH.get(args.question)
        if top is None:
            raise UsageError(f"--depth does not apply to {args.question}")
        if not 1 <= args.depth <= top:
            raise UsageError(f"--depth of {args.question} must be between 1 and {top}")
    if args.to is not None and args.question != "path":
        raise UsageError(f"{args.question} takes one target")
    tiers = _list(args.tier, EVIDENCE_ORDER, "--tier") or EVIDENCE_ORDER
    request = Request(
        args.question,
        target=args.target,
        to=args.to,
        file=args.file,
        depth=args.depth,
        tiers=tuple(tier for tier in EVIDENCE_ORDER if tier in tiers),
        edges=_list(args.edges, None, "--edges"),
        level=args.level,
        text=args.text,
        base=args.base,
    )
    return request, Page(args.limit, args.cursor, args.tokens)


def _held(keeper: Keeper) -> HeldGraph:
    held = keeper.held()
    if held.notices:
        progress.clear()
        for notice in held.notices:
            sys.stderr.write(f"tsograph: note: {notice}\n")
    held.later_edits = lambda: keeper.changed(held) is not None
    return held


def _write(document: dict[str, Any]) -> None:
    sys.stdout.write(
        orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode() + "\n"
    )


def run(args: argparse.Namespace) -> int:
    request, page = request_from(args)
    cap = max_nodes(args)
    if args.format is not None and (args.json or request.question not in DRAWN):
        raise UsageError(f"--format {args.format} draws {', '.join(DRAWN)}, without --json")
    options = GraphOptions.of(args)
    keeper = Keeper(options)
    try:
        return _answer(args, request, page, cap, _held(keeper), options)
    finally:
        keeper.release()


def _answer(
    args: argparse.Namespace,
    request: Request,
    page: Page,
    cap: int,
    held: HeldGraph,
    options: GraphOptions,
) -> int:
    from tsograph.producers.query.text import render

    try:
        load = folder_loader(options, held)
        result = ask(held, request, Budget(args.budget_ms), lambda ref: read_base(held, ref, load))
        if args.format is not None:
            diagram = answer_diagram(
                held,
                request.question,
                result,
                tiers=request.tiers,
                max_nodes=cap,
                depth=request.depth or DEFAULT_DEPTH.get(request.question),
            )
            write_diagram(diagram, args.format)
            return 0
        document = answer(held, request, result, page)
    except Refused as refusal:
        if args.json:
            _write(error_answer(held, request.question, refusal))
        raise InputError(f"query {request.question}: {refusal.message}") from None
    if args.json:
        _write(document)
    else:
        sys.stdout.write(render(document))
    return 0
