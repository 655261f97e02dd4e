"""`tsograph validate FILE...`: check documents against the schemas tsograph writes by.

Each file is a JSON document (bridge-facts, language-traversal, tsograph-graph)
or a tsograph-graph NDJSON export. The first error is named by its file and
JSON pointer (and line, in an export) on one line of stderr with a fix, and
the exit code is 2; when every file is valid, one
line per file goes to stdout and the exit code is 0.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import orjson

from tsograph.exchange.errors import InputError
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.references import check_graph
from tsograph.exchange.validation import kind_of
from tsograph.exchange.validation import validate
from tsograph.exchange.validation import validator_for
from tsograph.exchange.writer import MAX_OUTPUT_CHARS
from tsograph.producers.command_args import json_problem
from tsograph.producers.command_args import ndjson_records
from tsograph.producers.command_args import read_input_file
from tsograph.producers.command_args import shown
from tsograph.producers.help_text import add_command
from tsograph.schemas import SCHEMA_FILES

# Saved graph snapshots may be larger than exchange documents.
MAX_FILE_BYTES = 128 * 1024 * 1024


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "validate")
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="a document to check: JSON, or an NDJSON graph export (at most 128 MiB)",
    )
    parser.set_defaults(run=run)


_FIX_SCHEMA = "correct that value or write the document again with tsograph"
_KINDS = "a bridge-facts, language-traversal or tsograph-graph document (JSON or NDJSON)"


def _read(path: str) -> bytes:
    return read_input_file(path, shown(path), MAX_FILE_BYTES, f"pass {_KINDS}")


def _is_ndjson(data: bytes) -> bool:
    first, _, rest = data.partition(b"\n")
    if not rest.strip():
        return False
    try:
        header = orjson.loads(first)
    except orjson.JSONDecodeError:
        return False
    return isinstance(header, dict) and header.get("format") == "tsograph-graph-ndjson"


def check_file(path: str) -> str:
    """Validate one file; returns its format name or raises InputError naming the problem."""
    name = shown(path)
    data = _read(path)
    if _is_ndjson(data):
        return _check_ndjson(name, data)
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise InputError(f"{name}: {json_problem(error)}; pass {_KINDS}") from None
    if not isinstance(document, dict) or document.get("format") not in SCHEMA_FILES:
        raise InvalidDocumentError(f"{name}: is {kind_of(document)}; pass {_KINDS}", "/format")
    try:
        validate(document)
    except InvalidDocumentError as error:
        raise InvalidDocumentError(
            f"{name}: invalid at {error}; {_FIX_SCHEMA}", error.pointer
        ) from None
    if document["format"] != "tsograph-graph" and len(data.decode("utf-8")) > MAX_OUTPUT_CHARS:
        raise InvalidDocumentError(
            f"{name}: larger than the exchange limit of 16 Mi characters; "
            "consumers refuse it, so narrow the input and write it again",
            "",
        )
    return str(document["format"])


def _check_ndjson(name: str, data: bytes) -> str:
    lines = data.split(b"\n")
    try:
        validate(orjson.loads(lines[0]), "tsograph-graph-ndjson")
    except InvalidDocumentError as error:
        raise InvalidDocumentError(
            f"{name}: line 1: invalid at {error}; {_FIX_SCHEMA}", error.pointer
        ) from None
    record_validator = validator_for("tsograph-graph-ndjson-record")
    # Records by kind with their line numbers, for the rules across records.
    records: dict[str, list[Any]] = {"nodes": [], "edges": []}
    lines_of: dict[str, list[int]] = {"nodes": [], "edges": []}
    for number, record in ndjson_records(
        lines[1:],
        2,
        lambda number, problem: (
            f"{name}: line {number}: {problem}; "
            "write the export again with tsograph graph --format ndjson"
        ),
    ):
        errors = sorted(record_validator.iter_errors(record), key=lambda e: list(map(str, e.path)))
        if errors:
            where = "/" + "/".join(map(str, errors[0].absolute_path))
            raise InvalidDocumentError(
                f"{name}: line {number}: invalid at {where}: the record does not follow its "
                f"schema; {_FIX_SCHEMA}",
                where,
            )
        kind = "nodes" if record["record"] == "node" else "edges"
        records[kind].append(record)
        lines_of[kind].append(number)
    for where, message in check_graph(records):
        kind, index, rest = where.split("/", 3)[1:]
        raise InvalidDocumentError(
            f"{name}: line {lines_of[kind][int(index)]}: invalid at /{rest}: {message}; "
            f"{_FIX_SCHEMA}",
            f"/{rest}",
        )
    return "tsograph-graph-ndjson"


def run(args: argparse.Namespace) -> int:
    verdicts = [f"{shown(path)}: valid {check_file(path)} document" for path in args.files]
    sys.stdout.write("".join(line + "\n" for line in verdicts))
    return 0
