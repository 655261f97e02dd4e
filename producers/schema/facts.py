"""Building relation-use facts: channels and the one fact shape every collector emits.

Interface (stable; used by the Prisma producer and the ORM/driver collectors):

    channel(table, schema=None) -> str
        `schema.table` when qualified, else `table`; each name is one segment, so a
        `.` inside it is written `%2E` and `%` is written `%25`. A name that is
        already a channel (from `sql_relations`, which escapes while it reads) is
        passed straight to `relation_use`.
    relation_use(channel, path, line, column, *, method=None, qualified_name=None,
                 usr=None, dynamic=False, owner_id=None) -> dict
        One `relation-use` fact. `method` is the column (absent for relation facts);
        `qualified_name`/`usr` form `symbol` (absent when both are None); a source
        fact gives `owner_id` instead, the symbol is then `source_symbol(owner_id)`.
        A dynamic fact says a relation is used whose name the code does not fix.
    source_symbol(owner_id) -> str | None
        The symbol of a source fact from `ParsedFile.owner_at(offset)`: the graph id
        itself, or None for module-level code (`<path>#<module>`), which has no
        symbol and is counted under `missing-relation-usrs:` by the caller.
    Invalid names (control characters, over 1024 characters) raise nothing:
    `valid_names(fact)` tells the caller to count them under `invalid-relation-names:`.
"""

from __future__ import annotations

import re
from typing import Any

from tsograph.exchange.symbol_ids import MODULE

Fact = dict[str, Any]

MAX_CHANNEL_CHARS = 1024
_FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_MODULE_SUFFIX = "#" + MODULE


def escape_segment(name: str) -> str:
    """One identifier as one channel segment: `%` -> `%25`, then `.` -> `%2E`."""
    return name.replace("%", "%25").replace(".", "%2E")


def channel(table: str, schema: str | None = None) -> str:
    segment = escape_segment(table)
    return f"{escape_segment(schema)}.{segment}" if schema else segment


def valid_channel(text: str) -> bool:
    return len(text) <= MAX_CHANNEL_CHARS and _FORBIDDEN.search(text) is None


def valid_method(text: str) -> bool:
    return 0 < len(text) <= MAX_CHANNEL_CHARS and _FORBIDDEN.search(text) is None


def valid_names(fact: Fact) -> bool:
    """The fact's channel and method are names a document may hold."""
    return valid_channel(fact["channel"]) and valid_method(fact.get("method", "x"))


def admit(facts: list[Fact], fact: Fact, test_source: bool) -> bool:
    """Append the fact, marked `testSource` when its file is a test source, unless its names
    cannot be written (the caller counts it under `invalid-relation-names:`)."""
    if not valid_names(fact):
        return False
    if test_source:
        fact["testSource"] = True
    facts.append(fact)
    return True


def source_symbol(owner_id: str) -> str | None:
    """The graph id that names a source fact; None for code at module level."""
    return None if owner_id.endswith(_MODULE_SUFFIX) else owner_id


def relation_use(
    channel_name: str,
    path: str,
    line: int,
    column: int,
    *,
    method: str | None = None,
    qualified_name: str | None = None,
    usr: str | None = None,
    dynamic: bool = False,
    owner_id: str | None = None,
) -> Fact:
    if owner_id is not None:
        # Code that uses a relation is named by the declaration around it.
        qualified_name = usr = source_symbol(owner_id)
    fact: Fact = {
        "kind": "relation-use",
        "channel": channel_name,
        "location": {"path": path, "line": line, "column": column},
        "dynamic": dynamic,
    }
    if method is not None:
        fact["method"] = method
    symbol: dict[str, str] = {}
    if qualified_name is not None:
        symbol["qualifiedName"] = qualified_name
    if usr is not None:
        symbol["usr"] = usr
    if symbol:
        fact["symbol"] = symbol
    return fact
