"""`--graph-file FILE`: a saved graph, as `tsograph graph` writes it in either format.

JSON (one tsograph-graph document) and NDJSON (a tsograph-graph-ndjson header
line, then one node or edge record per line) hold the same header fields and
records, so an NDJSON export is read back into the snapshot it was written
from: records in the order the JSON writer sorts them, then validated like a
JSON snapshot. A file of another kind (a bridge-facts or language-traversal
document, a JSON array) is named by its kind in the message, so the user sees
which output was passed by mistake.
"""

from __future__ import annotations

from typing import Any

import orjson

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.validation import kind_of
from tsograph.exchange.validation import validate
from tsograph.producers.command_args import json_problem
from tsograph.producers.command_args import ndjson_records
from tsograph.producers.command_args import read_input_file
from tsograph.producers.command_args import shown
from tsograph.producers.graph.snapshot_checks import FORMAT
from tsograph.producers.graph.snapshot_checks import validate_snapshot

MAX_SNAPSHOT_BYTES = 128 * 1024 * 1024
NDJSON_FORMAT = "tsograph-graph-ndjson"
_FIX = "pass a snapshot written by tsograph graph (--format json or ndjson)"


def read_snapshot(path: str) -> dict[str, Any]:
    """The validated snapshot in `path` (JSON or NDJSON), as a tsograph-graph document."""
    label = f"--graph-file {shown(path)}"
    data = read_input_file(path, label, MAX_SNAPSHOT_BYTES, _FIX)
    first, _, rest = data.partition(b"\n")
    # Only a first line naming the NDJSON format is parsed alone: a one-line
    # JSON snapshot is not parsed twice.
    header = _ndjson_header(first) if b'"' + NDJSON_FORMAT.encode() + b'"' in first else None
    del first
    if header is not None:
        snapshot = _from_ndjson(label, header, rest)
    else:
        try:
            snapshot = orjson.loads(data)
        except orjson.JSONDecodeError as error:
            raise InputError(f"{label}: {json_problem(error)}; {_FIX}") from None
    del data, rest  # up to 128 MiB that the parsed snapshot no longer needs
    if not isinstance(snapshot, dict) or snapshot.get("format") != FORMAT:
        raise InputError(f"{label}: is {kind_of(snapshot)}, not a tsograph-graph snapshot; {_FIX}")
    try:
        validate_snapshot(snapshot)
    except InvalidDocumentError as error:
        raise InputError(
            f"{label}: not a valid tsograph-graph snapshot (at {error.message}); "
            "write it again with tsograph graph"
        ) from None
    return dict(snapshot)


def _ndjson_header(line: bytes) -> dict[str, Any] | None:
    try:
        header = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return header if isinstance(header, dict) and header.get("format") == NDJSON_FORMAT else None


def _from_ndjson(label: str, header: dict[str, Any], body: bytes) -> dict[str, Any]:
    try:
        validate(header, NDJSON_FORMAT)
    except InvalidDocumentError as error:
        raise InputError(
            f"{label}: line 1 is not a valid NDJSON header (at {error.message}); "
            "write it again with tsograph graph --format ndjson"
        ) from None
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    records = {"node": nodes, "edge": edges}
    for number, record in ndjson_records(
        body.split(b"\n"),
        2,
        lambda number, problem: (
            f"{label}: line {number} is {problem}; "
            "write it again with tsograph graph --format ndjson"
        ),
    ):
        target = records.get(record.pop("record", None)) if isinstance(record, dict) else None
        if target is None:
            raise InputError(
                f"{label}: line {number} is not a node or edge record; "
                "write it again with tsograph graph --format ndjson"
            )
        target.append(record)
    # The JSON writer's order (exchange.documents.graph_snapshot), so both
    # formats of one graph give the same traversal.
    nodes.sort(key=lambda node: str(node.get("id")))
    edges.sort(
        key=lambda edge: (str(edge.get("from")), str(edge.get("to")), str(edge.get("evidence")))
    )
    return {**header, "format": FORMAT, "nodes": nodes, "edges": edges}
