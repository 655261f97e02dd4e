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
from tsograph.producers.command_args import add_cache_arguments
from tsograph.producers.command_args import add_output_arguments
from tsograph.producers.command_args import add_source_arguments
from tsograph.producers.command_args import checked_service
from tsograph.producers.command_args import syntax_files
from tsograph.producers.help_text import add_command
from tsograph.producers.project.languages import LANGUAGES
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes.client.command import CLIENT_MODEL_HELP
from tsograph.producers.routes.client.command import run_client
from tsograph.producers.routes.http_document import HttpScan
from tsograph.producers.routes.http_document import write_http_document
from tsograph.producers.routes.node.server import scan_server
from tsograph.producers.routes.python_server.language import server_language
from tsograph.producers.routes.python_server.route_scan import scan_python_server
from tsograph.producers.service_runs import add_service_arguments
from tsograph.producers.service_runs import targets


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "routes")
    parser.add_argument(
        "--role",
        required=True,
        choices=["server", "client"],
        help="server: the routes the project declares; client: the requests it sends with "
        "fetch, axios, ky or an @hey-api/openapi-ts SDK (Python: requests, httpx, aiohttp, "
        "urllib.request) (required)",
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the sources to read: js (TypeScript/JavaScript) or python. Default for --role "
        "client: python when the project holds Python sources and no TypeScript/JavaScript "
        "ones, else js; for --role server: the language whose servers the project holds "
        "(a project with both needs this)",
    )
    add_source_arguments(parser)
    parser.add_argument(
        "--service",
        metavar="NAME",
        help="the service name written on the document and on every fact; for clients, "
        "the service that relative calls go to",
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
        model = ProjectModel.load(
            target.project, args.include_tests, syntax_files(args), target.enclosing
        )
        scan: HttpScan
        if server_language(model, args.language) == "python":
            found = scan_python_server(model, service)
            platform, scan, scopes = "python", found, found.scopes
            dispatch = "registration-order" if found.first_match else "specificity"
        else:
            node = scan_server(model, service)
            platform, scan, scopes, dispatch = "js", node, node.scopes, node.dispatch
        write_http_document(
            args,
            "server",
            target,
            service,
            generated,
            scan,
            platform=platform,
            limitation_scopes=scopes,
            dispatch=dispatch,
        )
    return 0
