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

from exchange.errors import InputError

MAX_ROOTS_FILE_BYTES = 64 * 1024 * 1024
# A root id longer than this cannot be written into a language-traversal document.
MAX_ID_CHARS = 8192


def read_root_ids(path: str) -> list[str]:
    data = _read(path)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise InputError("--roots-from is not JSON; pass a JSON array of symbol ids") from None
    if isinstance(value, list):
        return [_checked(item, f"item {index}") for index, item in enumerate(value)]
    if isinstance(value, dict) and value.get("format") == "bridge-facts":
        return _fact_usrs(value)
    raise InputError("--roots-from must hold a JSON array of symbol ids or a bridge-facts document")


def _read(path: str) -> bytes:
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_ROOTS_FILE_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_ROOTS_FILE_BYTES + 1)
    except OSError as error:
        raise InputError(f"--roots-from cannot be read ({error.strerror or 'I/O error'})") from None
    if len(data) > MAX_ROOTS_FILE_BYTES:
        raise InputError("--roots-from is larger than 64 MiB")
    return data


def _checked(item: Any, where: str) -> str:
    if not isinstance(item, str) or not item:
        raise InputError(f"--roots-from {where} is not a non-empty string")
    if len(item) > MAX_ID_CHARS:
        raise InputError(f"--roots-from {where} is longer than {MAX_ID_CHARS} characters")
    return item


def _fact_usrs(document: dict[str, Any]) -> list[str]:
    facts = document.get("facts")
    if not isinstance(facts, list):
        raise InputError("--roots-from is a bridge-facts document without a facts array")
    ids = []
    for index, fact in enumerate(facts):
        symbol = fact.get("symbol") if isinstance(fact, dict) else None
        usr = symbol.get("usr") if isinstance(symbol, dict) else None
        if usr is not None:
            ids.append(_checked(usr, f"facts[{index}].symbol.usr"))
    return ids
