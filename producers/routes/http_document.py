"""The bridge-facts document both route roles write: target http, one role each."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tsograph.exchange.documents import bridge_facts, project_name, source_modified_at
from tsograph.exchange.writer import check_fact_budget
from tsograph.producers.output_formats import emit


def write_http_document(
    args: argparse.Namespace,
    role: str,
    root: Path,
    service: str | None,
    generated: str,
    *,
    read: Iterable[Path],
    limitations: list[str],
    facts: list[dict[str, Any]],
    **extra: Any,
) -> int:
    """Check the fact budget, build the document and write it; `extra` adds scopes or dispatch.

    `generated` is checked by the caller before any scan, so a bad --generated-at
    is a usage error even for a project that cannot be read.
    """
    check_fact_budget(len(facts))
    document = bridge_facts(
        platform="js",
        target="http",
        roles=[role],
        service=service,
        project=project_name(root),
        generated=generated,
        source_modified=source_modified_at(list(read)),
        limitations=limitations,
        facts=facts,
        source_sets={"tests": "included" if args.include_tests else "excluded"},
        **extra,
    )
    emit(document, args.format)
    return 0
