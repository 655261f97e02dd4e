"""`tsograph openapi SPEC --service NAME`: a spec's operations as a bridge-facts document.

Exit codes: 0 with a document on stdout (zero facts is a valid result, not a
proof of completeness), 2 when the spec cannot be read or accepted, 64 for
wrong arguments. Failures print one line naming the cause and a fix.
"""

from __future__ import annotations

import argparse
from typing import Any

from tsograph.exchange.documents import bridge_facts
from tsograph.exchange.documents import generated_at
from tsograph.exchange.documents import project_name
from tsograph.exchange.documents import source_modified_at
from tsograph.producers.command_args import add_output_arguments
from tsograph.producers.command_args import checked_service
from tsograph.producers.help_text import add_command
from tsograph.producers.openapi.contract import build_contract
from tsograph.producers.openapi.parsing import parse_spec
from tsograph.producers.openapi.spec_file import locate
from tsograph.producers.openapi.spec_file import read
from tsograph.producers.output_formats import emit


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "openapi")
    parser.add_argument(
        "spec", metavar="SPEC_FILE", help="the spec to read, JSON or YAML, at most 16 MiB"
    )
    parser.add_argument(
        "--service",
        required=True,
        metavar="NAME",
        help="the service name written on the document and on every fact (required)",
    )
    parser.add_argument(
        "--project",
        metavar="ROOT",
        help="the join root the location paths are relative to (default: the spec's folder)",
    )
    add_output_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    service = checked_service(args.service)
    generated = generated_at(args.generated_at)
    spec = locate(args.spec, args.project)
    parsed = parse_spec(read(spec), spec.relative)
    contract = build_contract(parsed, spec.relative, spec.relative, service)
    document = bridge_facts(
        platform="openapi",
        target="http",
        roles=["server"],
        service=service,
        project=project_name(spec.project_root),
        generated=generated,
        source_modified=source_modified_at([spec.path]),
        limitations=contract.limitations,
        facts=contract.facts,
    )
    emit(document, args.format)
    return 0
