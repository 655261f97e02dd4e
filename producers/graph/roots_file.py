"""`--roots-from FILE`: traversal root ids read from a JSON file (`-` reads standard input).

Two shapes are accepted, so a pipeline needs no reshaping step:

* a JSON array of id strings, in order (an empty array is a traversal with
  no roots, so "nothing affected" still flows through a pipeline);
* a bridge-facts v1 document (`"format": "bridge-facts"`): the ids are its
  facts' `symbol.usr` values in fact order, so the route-call facts of
  `tsograph routes --role client`, or any affected subset of them, name the
  client code to traverse. Facts without a `symbol.usr` (contracts, CommonJS
  handlers) name no graph node and are skipped.

Anything else is an input error (exit 2) with one line naming what is wrong;
the file is read at most MAX_ROOTS_FILE_BYTES.
"""

from __future__ import annotations

import sys
from typing import Any

import orjson

from tsograph.exchange.errors import InputError
from tsograph.exchange.validation import kind_of
from tsograph.producers.command_args import json_problem
from tsograph.producers.command_args import read_input_file
from tsograph.producers.command_args import shown

MAX_ROOTS_FILE_BYTES = 64 * 1024 * 1024
# A root id longer than this cannot be written into a language-traversal document.
MAX_ID_CHARS = 8192


_FIX = "pass a JSON array of symbol ids or a bridge-facts document"


def read_root_ids(path: str) -> list[str]:
    label = "--roots-from -" if path == "-" else f"--roots-from {shown(path)}"
    data = _read(path, label)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise InputError(f"{label}: {json_problem(error)}; {_FIX}") from None
    if isinstance(value, list):
        return [_checked(label, item, f"item {index}") for index, item in enumerate(value)]
    if isinstance(value, dict) and value.get("format") == "bridge-facts":
        return _fact_usrs(label, value)
    raise InputError(f"{label}: is {kind_of(value)}; {_FIX}")


def _read(path: str, label: str) -> bytes:
    if path != "-":
        return read_input_file(path, label, MAX_ROOTS_FILE_BYTES, _FIX)
    try:
        data = sys.stdin.buffer.read(MAX_ROOTS_FILE_BYTES + 1)
    except OSError as error:
        cause = (error.strerror or "I/O error").lower()
        raise InputError(f"{label}: standard input cannot be read ({cause})") from None
    if len(data) > MAX_ROOTS_FILE_BYTES:
        raise InputError(f"{label}: larger than 64 MiB; pass fewer ids")
    return data


def _checked(label: str, item: Any, where: str) -> str:
    if not isinstance(item, str) or not item:
        raise InputError(f"{label}: {where} is not a non-empty string; {_FIX}")
    if len(item) > MAX_ID_CHARS:
        raise InputError(
            f"{label}: {where} is longer than {MAX_ID_CHARS} characters; no symbol id is"
        )
    return item


def _fact_usrs(label: str, document: dict[str, Any]) -> list[str]:
    facts = document.get("facts")
    if not isinstance(facts, list):
        raise InputError(
            f"{label}: is a bridge-facts document without a facts array; "
            "pass a document tsograph wrote"
        )
    ids = []
    for index, fact in enumerate(facts):
        symbol = fact.get("symbol") if isinstance(fact, dict) else None
        usr = symbol.get("usr") if isinstance(symbol, dict) else None
        if usr is not None:
            ids.append(_checked(label, usr, f"facts[{index}].symbol.usr"))
    return ids
