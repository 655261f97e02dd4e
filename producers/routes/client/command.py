"""`tsograph routes --role client --project ROOT`: the requests a web or React Native client sends.

Exit codes: 0 with a document on stdout (zero facts is a valid result, not a
proof of completeness: the coverage limitation is always present), 2 when the
project or the --client-model file cannot be read or the output is too
large, 64 for wrong arguments.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tsograph.exchange.documents import generated_at
from tsograph.exchange.errors import UsageError
from tsograph.exchange.limitations import counted
from tsograph.producers.command_args import syntax_files
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.walk import walk
from tsograph.producers.routes.client.request_scan import scan_project
from tsograph.producers.routes.client.transport_model import load_model
from tsograph.producers.routes.http_document import write_http_document
from tsograph.producers.routes.python_client.request_scan import scan_project as scan_python
from tsograph.producers.service_runs import targets

CLIENT_MODEL_HELP = (
    "JSON file (schemas/client-model-v1.json) declaring opaque transports: "
    '{"version": 1, "transports": [{"source": "src/lib/http.ts", "type": "Http", '
    '"method": "get", "verb": "GET", "pathArgument": 0, "basePrefix": "/api"}]}; '
    "a call matches only when its receiver's declared type is that declaration"
)


def project_language(project: Path, asked: str | None) -> tuple[str, int]:
    """js or python, and how many sources of the other language the choice leaves unread
    (counted only when the language was not asked for): the one asked for, else python
    only for a project whose walk finds Python sources and no TypeScript/JavaScript ones
    (a JavaScript project with a few scripts stays a JavaScript project, as before
    Python was read)."""
    if asked is not None:
        return asked, 0
    sources = walk(project)
    if sources.python_sources and not sources.sources:
        return "python", 0
    return "js", len(sources.python_sources)


def _unread_python(count: int) -> str:
    return counted(
        "client-call-coverage:",
        count,
        "Python source(s) were not read for requests (the project holds TypeScript/"
        "JavaScript too); --language python reads them",
    )


def run_client(args: argparse.Namespace, service: str | None) -> int:
    generated = generated_at(args.generated_at)
    model = load_model(args.client_model) if args.client_model is not None else None
    for target in targets(args, "client"):
        language, unread = project_language(target.project, args.language)
        python = language == "python"
        if python and model is not None:
            raise UsageError("--client-model applies to TypeScript/JavaScript clients only")
        project = ProjectModel.load(
            target.project, args.include_tests, syntax_files(args), target.enclosing
        )
        if python:
            python_scan = scan_python(project, service)
            write_http_document(
                args, "client", target, service, generated, python_scan, platform="python"
            )
            continue
        scan = scan_project(project, service, model)
        if unread:
            scan.limitations.append(_unread_python(unread))
        write_http_document(args, "client", target, service, generated, scan)
    return 0
