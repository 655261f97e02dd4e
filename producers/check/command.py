"""`tsograph check DOC...` and `tsograph check --pairs USES DECLS`: join documents, give a verdict.

Exit codes: 0 when no finding fails the run, 3 when one does (an error, or
with `--fail-on warning` any finding), 2 for an unreadable or invalid
document, 64 for a usage error. 1 stays unused, as everywhere in tsograph.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from tsograph.exchange.errors import UsageError
from tsograph.producers.check import report
from tsograph.producers.check.documents import CALL
from tsograph.producers.check.documents import CONTRACT
from tsograph.producers.check.documents import DECL
from tsograph.producers.check.documents import SQL
from tsograph.producers.check.documents import USES
from tsograph.producers.check.documents import Document
from tsograph.producers.check.documents import read_documents
from tsograph.producers.check.http_rules import HttpResult
from tsograph.producers.check.http_rules import check_http
from tsograph.producers.check.pairs import PairsResult
from tsograph.producers.check.pairs import check_pairs
from tsograph.producers.command_args import add_choice
from tsograph.producers.help_text import add_command

EXIT_FINDINGS = 3

_HTTP_WHAT = "route-contract, route-decl or route-call documents (openapi, routes)"
_PAIRS_WHAT = "a schema document and a schema or sql-schema document"


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "check")
    parser.add_argument("documents", nargs="+", metavar="DOC", help="a bridge-facts document")
    parser.add_argument(
        "--pairs",
        action="store_true",
        help="relation uses (first DOC) against declarations (second DOC)",
    )
    add_choice(parser, "--format", sorted(report.RENDERERS), "text", "report form (default text)")
    add_choice(
        parser,
        "--fail-on",
        ("error", "warning"),
        "error",
        "the lowest severity that makes the exit code 3 (default error)",
    )
    parser.set_defaults(run=run)


def _http(documents: list[Document]) -> dict[str, Any]:
    for document in documents:
        if document.side not in (CONTRACT, DECL, CALL):
            raise UsageError(
                f"{document.name}: is a persistence document; check it with "
                "'tsograph check --pairs USES DECLS'"
            )
    result = check_http(documents)
    return _report("http", documents, result, result.answered, result.unchecked_calls)


def _pairs(paths: list[str]) -> dict[str, Any]:
    if len(paths) != 2:
        raise UsageError("--pairs takes two documents: USES (schema) and DECLS (schema or sql)")
    uses = read_documents(paths[:1], _PAIRS_WHAT)[0]
    decls = read_documents(paths[1:], _PAIRS_WHAT)[0]
    if uses.side != USES:
        raise UsageError(f"{uses.name}: USES must be a tsograph schema document")
    if decls.side not in (USES, SQL):
        raise UsageError(f"{decls.name}: DECLS must be a schema or sql-schema document")
    result = check_pairs(uses, decls)
    inputs = [uses] if uses.content == decls.content and uses.name == decls.name else [uses, decls]
    return _report("pairs", inputs, result, result.matched, Counter())


def _report(
    kind: str,
    inputs: Sequence[Document],
    result: HttpResult | PairsResult,
    answered: int,
    unchecked: Mapping[str, int],
) -> dict[str, Any]:
    """The report of either check: the findings and test facts of its result."""
    return report.build(
        kind,
        inputs,
        result.findings,
        answered=answered,
        test_facts=result.test_facts,
        unchecked=unchecked,
    )


def run(args: argparse.Namespace) -> int:
    if args.pairs:
        built = _pairs(list(args.documents))
    else:
        built = _http(read_documents(args.documents, _HTTP_WHAT))
    sys.stdout.buffer.write(report.RENDERERS[args.format](built))
    sys.stdout.buffer.flush()
    summary = built["summary"]
    failing = summary["errors"] + (summary["warnings"] if args.fail_on == "warning" else 0)
    return EXIT_FINDINGS if failing else 0
