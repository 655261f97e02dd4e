"""`tsograph validate FILE...`: check documents against the schemas tsograph writes by.

Each file is a JSON document (bridge-facts, language-traversal, tsograph-graph)
or a tsograph-graph NDJSON export. The first error is named by its JSON pointer
on one line of stderr, and the exit code is 2; when every file is valid, one
line per file goes to stdout and the exit code is 0.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import orjson

from exchange.errors import InputError, InvalidDocumentError
from exchange.validation import validate, validator_for
from exchange.writer import MAX_OUTPUT_CHARS

# Saved graph snapshots may be larger than exchange documents.
MAX_FILE_BYTES = 128 * 1024 * 1024


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check documents against tsograph's JSON Schemas",
        description="Check bridge-facts, language-traversal and tsograph-graph documents.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a JSON or NDJSON document")
    parser.set_defaults(run=run)


def shown(path: str) -> str:
    """How a file is named in messages: as given, but never as an absolute path."""
    return Path(path).name if Path(path).is_absolute() else path


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise InputError(
            f"{shown(path)}: cannot be read ({error.strerror or 'I/O error'})"
        ) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{shown(path)}: larger than {MAX_FILE_BYTES} bytes")
    return data


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
    """Validate one file; returns its format name or raises InvalidDocumentError."""
    data = _read(path)
    if _is_ndjson(data):
        return _check_ndjson(path, data)
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise InvalidDocumentError(f"not JSON ({error.msg} at byte {error.pos})", "") from None
    validate(document)
    if document["format"] != "tsograph-graph" and len(data.decode("utf-8")) > MAX_OUTPUT_CHARS:
        raise InvalidDocumentError("larger than the exchange limit of 16 Mi characters", "")
    return str(document["format"])


def _check_ndjson(path: str, data: bytes) -> str:
    lines = data.split(b"\n")
    validate(orjson.loads(lines[0]), "tsograph-graph-ndjson")
    record_validator = validator_for("tsograph-graph-ndjson-record")
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            raise InvalidDocumentError(f"line {number}: not JSON", "") from None
        errors = sorted(record_validator.iter_errors(record), key=lambda e: list(map(str, e.path)))
        if errors:
            where = "/" + "/".join(map(str, errors[0].absolute_path))
            raise InvalidDocumentError(f"line {number}: {where}: record is invalid", where)
    return "tsograph-graph-ndjson"


def run(args: argparse.Namespace) -> int:
    verdicts = []
    for path in args.files:
        try:
            verdicts.append(f"{shown(path)}: valid {check_file(path)} document")
        except InvalidDocumentError as error:
            raise InvalidDocumentError(
                f"{shown(path)}: invalid at {error}", error.pointer
            ) from None
    sys.stdout.write("".join(line + "\n" for line in verdicts))
    return 0
