"""Rules of bridge-facts documents that the JSON Schema cannot state.

Each rule yields (JSON pointer, message) pairs; `exchange.validation` reports
the first one. The rules:

* every limitationScopes entry passes `scopes.validate_scope`, no entry appears
  twice, and only a document with the server role carries scopes (they bound
  server-side gaps);
* `dispatch` describes how a server picks a declaration, so it appears only in
  code (js or python) documents with the server role; `order` follows
  `scopes.validate_order`;
* a dynamicScope follows `scopes.validate_dynamic_scope`;
* a catchAllPrefix decl is the prefix without the `{**}`, so its channel does
  not end in `{**}`, and it carries symbol.usr because consumers pair it with
  its catch-all handler by that id;
* route-contract facts come from openapi documents, relation-use facts from code
  (js, python) or sql documents, every other kind from code documents; route-contract and
  route-decl facts need the server role, route-call facts the client role;
* a static HTTP channel is exactly what the canonicalizer writes and not
  dynamic by its rules: a dot segment, which clients remove before sending,
  makes a channel dynamic, and so does a template over the length limit.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

import orjson

from tsograph.exchange import scopes
from tsograph.exchange.jsonpointer import pointer

Document = dict[str, Any]

FORMAT = "bridge-facts"
HTTP_KINDS = ("route-contract", "route-decl", "route-call")
# The platforms of documents read from code: TypeScript/JavaScript and Python.
CODE_PLATFORMS = ("js", "python")
# relation-use facts come from code or from DDL (sql, `tsograph sql-schema`).
PLATFORMS_OF_KIND = {"route-contract": ("openapi",), "relation-use": (*CODE_PLATFORMS, "sql")}
DEFAULT_PLATFORMS = CODE_PLATFORMS
ROLE_OF_KIND = {"route-contract": "server", "route-decl": "server", "route-call": "client"}

Fact = Mapping[str, Any]
# A fact rule names the offending field and says why.
FactRule = Callable[[Document, Fact], tuple[str, str] | None]


def check_limitation_scopes(document: Document) -> Iterator[tuple[str, str]]:
    entries = document.get("limitationScopes", [])
    if entries and "server" not in document.get("roles", ()):
        yield "/limitationScopes", "only a document with the server role has limitation scopes"
    seen: set[bytes] = set()
    for index, entry in enumerate(entries):
        problem = scopes.validate_scope(entry, document.get("limitations", ()))
        key = orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)
        if problem is None and key in seen:
            problem = "the same scope entry appears twice"
        seen.add(key)
        if problem:
            yield pointer(["limitationScopes", index]), problem


def check_dispatch(document: Document) -> Iterator[tuple[str, str]]:
    if "dispatch" in document and not _is_code_server(document):
        yield "/dispatch", "only a js or python document with the server role declares dispatch"
    yield from scopes.validate_order(document)


def _is_code_server(document: Document) -> bool:
    return document.get("platform") in CODE_PLATFORMS and "server" in document.get("roles", ())


def check_facts(document: Document) -> Iterator[tuple[str, str]]:
    for index, fact in enumerate(document.get("facts", [])):
        for rule in FACT_RULES:
            found = rule(document, fact)
            if found:
                field, message = found
                yield pointer(["facts", index, field]), message


def _platform_rule(document: Document, fact: Fact) -> tuple[str, str] | None:
    wanted = PLATFORMS_OF_KIND.get(fact["kind"], DEFAULT_PLATFORMS)
    if document.get("platform") in wanted:
        return None
    return "kind", f'a {fact["kind"]} fact belongs in a "{wanted[0]}" document'


def _role_rule(document: Document, fact: Fact) -> tuple[str, str] | None:
    role = ROLE_OF_KIND.get(fact["kind"])
    if role is None or role in document.get("roles", ()):
        return None
    return "kind", f'a {fact["kind"]} fact needs the "{role}" role'


def _dynamic_scope_rule(_: Document, fact: Fact) -> tuple[str, str] | None:
    problem = scopes.validate_dynamic_scope(fact)
    return ("dynamicScope", problem) if problem else None


def _catch_all_prefix_rule(_: Document, fact: Fact) -> tuple[str, str] | None:
    if "catchAllPrefix" not in fact:
        return None
    if str(fact.get("channel", "")).endswith("/{**}"):
        return "catchAllPrefix", "a catchAllPrefix channel is the prefix without its {**}"
    if "usr" not in fact.get("symbol", {}):
        return "catchAllPrefix", "a catchAllPrefix decl needs symbol.usr"
    return None


def _static_channel_rule(_: Document, fact: Fact) -> tuple[str, str] | None:
    if fact["kind"] not in HTTP_KINDS or fact.get("dynamic") is not False:
        return None
    problem = scopes.static_template_problem(fact["channel"])
    return ("channel", problem) if problem else None


FACT_RULES: tuple[FactRule, ...] = (
    _platform_rule,
    _role_rule,
    _dynamic_scope_rule,
    _catch_all_prefix_rule,
    _static_channel_rule,
)

# Per document format, the checks `exchange.validation` runs after the schema.
SEMANTIC_CHECKS: dict[str, list[Callable[[Document], Iterable[tuple[str, str]]]]] = {
    FORMAT: [check_limitation_scopes, check_dispatch, check_facts],
}
