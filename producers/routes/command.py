"""`tsograph routes --role server --project ROOT`: declared HTTP routes as bridge-facts.

Exit codes: 0 with a document on stdout (zero facts is a valid result, not a
proof of completeness), 2 when the project cannot be read or the output is
too large, 64 for wrong arguments. `--role client` is producers/routes/client/command.py.
"""

from __future__ import annotations

import argparse
import os
import re
import stat
from pathlib import Path
from typing import Any

from exchange.documents import bridge_facts, generated_at, project_name, source_modified_at
from exchange.errors import InputError, UsageError
from exchange.writer import check_fact_budget, write_document
from producers.routes.client.command import CLIENT_MODEL_HELP, run_client
from producers.routes.node.server import scan_server

_MAX_SERVICE_CHARS = 256
_SERVICE_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _service(name: str) -> str:
    if not name or len(name) > _MAX_SERVICE_CHARS or _SERVICE_FORBIDDEN.search(name):
        raise UsageError(
            f"--service must be 1 to {_MAX_SERVICE_CHARS} characters without control characters"
        )
    return name


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "routes",
        help="route-decl facts of a Next.js project",
        description=(
            "Scan a Next.js project (App Router route handlers, Pages Router API routes) "
            "without running it and write a bridge-facts document with one route-decl "
            "fact per (route, HTTP method)."
        ),
        epilog="Exit codes: 0 success, 2 unreadable project or oversized output, 64 usage error.",
    )
    parser.add_argument(
        "--role",
        required=True,
        choices=["server", "client"],
        help="server: route declarations; client: fetch/axios/ky requests (route calls)",
    )
    parser.add_argument("--project", required=True, help="the project root")
    parser.add_argument("--service", help="service name written on the document and every fact")
    parser.add_argument(
        "--include-tests", action="store_true", help="also emit route files that look like tests"
    )
    parser.add_argument(
        "--client-model", metavar="FILE", help="--role client only: " + CLIENT_MODEL_HELP
    )
    parser.add_argument("--format", choices=["json"], default="json", help="output format")
    parser.add_argument(
        "--generated-at",
        metavar="TIMESTAMP",
        help="fix generatedAt (UTC with milliseconds) for reproducible output",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    service = None if args.service is None else _service(args.service)
    if args.role == "client":
        return run_client(args, service)
    if args.client_model is not None:
        raise UsageError("--client-model applies to --role client only")
    generated = generated_at(args.generated_at)
    root = Path(args.project)
    try:
        info = os.stat(root)
    except OSError:
        raise InputError("the project folder cannot be read; check --project") from None
    if not stat.S_ISDIR(info.st_mode):
        raise InputError("--project is not a folder; pass the project root")
    scan = scan_server(root, service, args.include_tests)
    check_fact_budget(len(scan.facts))
    document = bridge_facts(
        platform="js",
        target="http",
        roles=["server"],
        service=service,
        project=project_name(root),
        generated=generated,
        source_modified=source_modified_at(scan.read),
        limitations=scan.limitations,
        facts=scan.facts,
        limitation_scopes=scan.scopes,
        dispatch=scan.dispatch,
        source_sets={"tests": "included" if args.include_tests else "excluded"},
    )
    write_document(document)
    return 0
