"""The bridge-facts document both route roles write: target http, one role each."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any
from typing import Protocol

from tsograph.exchange.documents import bridge_facts
from tsograph.exchange.documents import project_name
from tsograph.exchange.documents import source_modified_at
from tsograph.exchange.writer import check_fact_budget
from tsograph.producers.output_formats import emit
from tsograph.producers.service_runs import Target
from tsograph.producers.service_runs import output_of
from tsograph.producers.service_runs import rebase_facts
from tsograph.producers.service_runs import rebase_limitations


class HttpScan(Protocol):
    facts: list[dict[str, Any]]
    limitations: list[str]
    read: list[Path]


def write_http_document(
    args: argparse.Namespace,
    role: str,
    target: Target,
    service: str | None,
    generated: str,
    scan: HttpScan,
    platform: str = "js",
    **extra: Any,
) -> None:
    """Check the fact budget, build the document of a scan of the target's folder with
    its paths and ids rebased onto the target's root, and write it where the target
    says; `extra` adds dispatch (and scopes, whose limitation lines are rebased too).

    `platform` is the language the scan read (js or python).
    `generated` is checked by the caller before any scan, so a bad --generated-at
    is a usage error even for a project that cannot be read.
    """
    check_fact_budget(len(scan.facts))
    folder = target.folder
    if "limitation_scopes" in extra:
        extra["limitation_scopes"] = [
            {**scope, "limitation": rebase_limitations([scope["limitation"]], folder)[0]}
            for scope in extra["limitation_scopes"]
        ]
    document = bridge_facts(
        platform=platform,
        target="http",
        roles=[role],
        service=service,
        project=project_name(target.root),
        generated=generated,
        source_modified=source_modified_at(list(scan.read)),
        limitations=rebase_limitations(scan.limitations, folder),
        facts=rebase_facts(scan.facts, folder),
        source_sets={"tests": "included" if args.include_tests else "excluded"},
        **extra,
    )
    with output_of(target, platform):
        emit(document, args.format)
