"""Builders for the documents tsograph writes.

Producers hand plain values to these functions; the builders add the fixed
fields (format, version, tool), normalise order and leave validation and
rendering to `exchange.writer`. Facts, limitations and every list the spec
calls a set are sorted here, once, by the rules below, so output is
deterministic whatever order a producer found things in.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from tsograph.exchange.errors import UsageError
from tsograph.exchange.version import TOOL_NAME
from tsograph.exchange.version import TOOL_VERSION

Fact = dict[str, Any]

_TIMESTAMP = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$")


def tool() -> dict[str, str]:
    return {"name": TOOL_NAME, "version": TOOL_VERSION}


def timestamp(epoch_seconds: float) -> str:
    """ISO 8601 UTC with milliseconds, the form every document uses."""
    moment = datetime.fromtimestamp(epoch_seconds, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def generated_at(fixed: str | None) -> str:
    """The document time: `--generated-at` when given (checked), else now."""
    if fixed is None:
        return timestamp(datetime.now(tz=UTC).timestamp())
    if not _TIMESTAMP.match(fixed):
        raise UsageError(
            "--generated-at must look like 2026-01-31T12:00:00.000Z (UTC with milliseconds)"
        )
    try:
        datetime.strptime(fixed, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        raise UsageError("--generated-at is not a real calendar time") from None
    return fixed


def source_modified_at(paths: Iterable[Path]) -> str | None:
    """The newest modification time among the files a producer read."""
    newest: float | None = None
    for path in paths:
        try:
            mtime = os.lstat(path).st_mtime
        except OSError:
            continue
        newest = mtime if newest is None else max(newest, mtime)
    return None if newest is None else timestamp(newest)


def project_name(root: Path) -> str:
    """The project's folder name: documents never carry absolute paths.

    The spec writes the POSIX realpath here; tsograph's output rules forbid
    absolute paths, so it writes the last component of that realpath, which
    still tells documents of one checkout apart from another's.
    """
    name = Path(os.path.realpath(root)).name
    return name or "root"


def _fact_key(fact: Mapping[str, Any]) -> tuple[Any, ...]:
    location = fact.get("location") or {}
    return (
        fact.get("channel", ""),
        fact.get("method") or "",
        location.get("path", ""),
        location.get("line", 0),
        location.get("column", 0),
        fact.get("kind", ""),
        orjson.dumps(fact, option=orjson.OPT_SORT_KEYS),
    )


def sort_facts(facts: Iterable[Fact]) -> list[Fact]:
    """Facts by channel, method, location, then full content (exact duplicates dropped)."""
    unique: dict[bytes, Fact] = {}
    for fact in facts:
        unique.setdefault(orjson.dumps(fact, option=orjson.OPT_SORT_KEYS), fact)
    return sorted(unique.values(), key=_fact_key)


def bridge_facts(
    *,
    platform: str,
    target: str | None,
    roles: Sequence[str],
    service: str | None,
    project: str,
    generated: str,
    source_modified: str | None,
    limitations: Iterable[str],
    facts: Iterable[Fact],
    limitation_scopes: Sequence[Mapping[str, Any]] | None = None,
    dispatch: str | None = None,
    source_sets: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": "bridge-facts",
        "version": 1,
        "tool": tool(),
        "platform": platform,
        "target": target,
        "roles": list(roles),
        "service": service,
        "project": project,
        "generatedAt": generated,
        "sourceModifiedAt": source_modified,
        "limitations": sorted(set(limitations)),
        "facts": sort_facts(facts),
    }
    if limitation_scopes:
        document["limitationScopes"] = sorted(
            (dict(scope) for scope in limitation_scopes),
            key=lambda scope: orjson.dumps(scope, option=orjson.OPT_SORT_KEYS),
        )
    if dispatch is not None:
        document["dispatch"] = dispatch
    if source_sets is not None:
        document["sourceSets"] = dict(source_sets)
    return document


def language_traversal(
    *,
    direction: str,
    dispatch: str,
    project: str,
    generated: str,
    graph_revision: str,
    revision: str | None,
    roots: Sequence[Mapping[str, Any]],
    reached: Sequence[Mapping[str, Any]],
    truncation_reasons: Iterable[str],
    limitations: Iterable[str],
    platform: str = "js",
) -> dict[str, Any]:
    reasons = sorted(set(truncation_reasons))
    document: dict[str, Any] = {
        "format": "language-traversal",
        "version": 1,
        "tool": tool(),
        "platform": platform,
        "project": project,
        "generatedAt": generated,
        "direction": direction,
        "dispatch": dispatch,
        "graphRevision": graph_revision,
        "roots": [dict(root) for root in roots],
        "reached": sorted(
            (dict(item) for item in reached),
            key=lambda item: (item["depth"], item["symbol"]["usr"]),
        ),
        "truncated": bool(reasons),
        "truncationReasons": reasons,
        "limitations": sorted(set(limitations)),
    }
    if revision is not None:
        document["revision"] = revision
    return document


def _graph_header(
    format_name: str,
    *,
    project: str,
    generated: str,
    graph_revision: str,
    revision: str | None,
    statistics: Mapping[str, int],
    limitations: Iterable[str],
    mode_limitations: Mapping[str, Iterable[str]] | None = None,
    platform: str = "js",
) -> dict[str, Any]:
    document: dict[str, Any] = {
        "format": format_name,
        "version": 1,
        "tool": tool(),
        "platform": platform,
        "project": project,
        "generatedAt": generated,
        "graphRevision": graph_revision,
        "statistics": dict(sorted(statistics.items())),
        "limitations": sorted(set(limitations)),
    }
    if revision is not None:
        document["revision"] = revision
    if mode_limitations is not None:
        document["modeLimitations"] = {
            mode: sorted(set(lines)) for mode, lines in sorted(mode_limitations.items())
        }
    return document


def graph_snapshot(
    *,
    project: str,
    generated: str,
    graph_revision: str,
    revision: str | None,
    statistics: Mapping[str, int],
    limitations: Iterable[str],
    nodes: Iterable[Mapping[str, Any]],
    edges: Iterable[Mapping[str, Any]],
    mode_limitations: Mapping[str, Iterable[str]] | None = None,
    platform: str = "js",
    relations: Iterable[Mapping[str, Any]] | None = None,
    types: Iterable[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    document = _graph_header(
        "tsograph-graph",
        platform=platform,
        project=project,
        generated=generated,
        graph_revision=graph_revision,
        revision=revision,
        statistics=statistics,
        limitations=limitations,
        mode_limitations=mode_limitations,
    )
    document["nodes"] = sorted((dict(node) for node in nodes), key=lambda node: node["id"])
    document["edges"] = sorted(
        (dict(edge) for edge in edges),
        key=lambda edge: (edge["from"], edge["to"], edge["evidence"]),
    )
    # The details of `graph --details`: absent, not empty, without it.
    if relations is not None:
        document["relations"] = sorted(
            (dict(relation) for relation in relations),
            key=lambda item: (
                item["kind"],
                item["from"],
                item["to"],
                item["site"]["path"],
                item["site"]["line"],
                item["site"]["column"],
            ),
        )
    if types is not None:
        document["types"] = sorted((dict(item) for item in types), key=lambda item: item["id"])
    return document


def graph_ndjson_header(
    *,
    project: str,
    generated: str,
    graph_revision: str,
    revision: str | None,
    statistics: Mapping[str, int],
    limitations: Iterable[str],
    mode_limitations: Mapping[str, Iterable[str]] | None = None,
    platform: str = "js",
) -> dict[str, Any]:
    return _graph_header(
        "tsograph-graph-ndjson",
        platform=platform,
        project=project,
        generated=generated,
        graph_revision=graph_revision,
        revision=revision,
        statistics=statistics,
        limitations=limitations,
        mode_limitations=mode_limitations,
    )
