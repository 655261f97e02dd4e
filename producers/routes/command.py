"""`tsograph routes --role server|client --project ROOT`: HTTP routes as bridge-facts.

Exit codes: 0 with a document on stdout (zero facts is a valid result, not a
proof of completeness), 2 when the project cannot be read or the output is
too large, 64 for wrong arguments. `--role client` is producers/routes/client/command.py.
"""

from __future__ import annotations

import argparse
from typing import Any

from tsograph.exchange.documents import generated_at
from tsograph.exchange.errors import UsageError
from tsograph.producers.command_args import (
    add_cache_arguments,
    add_output_arguments,
    checked_service,
    syntax_files,
)
from tsograph.producers.help_text import USAGE_ERROR, command_help
from tsograph.producers.routes.client.command import CLIENT_MODEL_HELP, run_client
from tsograph.producers.routes.http_document import write_http_document
from tsograph.producers.routes.node.server import scan_server
from tsograph.producers.service_runs import (
    add_service_arguments,
    output_of,
    rebase_facts,
    rebase_limitations,
    targets,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "routes",
        help="route-decl facts of a server, route-call facts of a client",
        **command_help(
            "Scan a project without running it. --role server: the routes a Next.js app "
            "(App Router route handlers, Pages Router API routes) or a Node backend "
            "(Hono, Express, Fastify, Koa with @koa/router, NestJS) declares, one route-decl "
            "fact per (route, HTTP method). --role client: the requests fetch, axios and ky "
            "calls make, one route-call fact each.",
            [
                (0, "success (zero facts is still success, not a proof of completeness)"),
                (
                    2,
                    "the project (or --client-model file) cannot be read, or the output is "
                    "over the limits",
                ),
                (64, USAGE_ERROR),
            ],
            [
                "tsograph routes --role server --project . --service api > routes.json",
                "tsograph routes --role client --project web --service api > calls.json",
                "tsograph routes --role server --project . --format text",
            ],
        ),
    )
    parser.add_argument(
        "--role",
        required=True,
        choices=["server", "client"],
        help="server: the routes the project declares; client: the requests it sends with "
        "fetch, axios or ky (required)",
    )
    parser.add_argument(
        "--project",
        required=True,
        metavar="ROOT",
        help="the project root: location paths and symbol ids are relative to it (required)",
    )
    parser.add_argument(
        "--service",
        metavar="NAME",
        help="the service name written on the document and on every fact; for clients, "
        "the service that relative calls go to",
    )
    parser.add_argument(
        "--include-tests",
        action="store_true",
        help="also read test sources (*.test.*, *.spec.*, __tests__/); their facts carry "
        "testSource: true",
    )
    parser.add_argument(
        "--client-model", metavar="FILE", help="--role client only: " + CLIENT_MODEL_HELP
    )
    add_service_arguments(parser)
    add_cache_arguments(parser)
    add_output_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    service = None if args.service is None else checked_service(args.service)
    if args.role == "client":
        return run_client(args, service)
    if args.client_model is not None:
        raise UsageError(
            "--client-model applies to --role client only; leave it out or pass --role client"
        )
    generated = generated_at(args.generated_at)
    for target in targets(args, "server"):
        scan = scan_server(target.project, service, args.include_tests, syntax_files(args))
        scopes = [
            {**scope, "limitation": rebase_limitations([scope["limitation"]], target.folder)[0]}
            for scope in scan.scopes
        ]
        with output_of(target):
            write_http_document(
                args,
                "server",
                target.root,
                service,
                generated,
                read=scan.read,
                limitations=rebase_limitations(scan.limitations, target.folder),
                facts=rebase_facts(scan.facts, target.folder),
                limitation_scopes=scopes,
                dispatch=scan.dispatch,
            )
    return 0
