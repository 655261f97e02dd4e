"""The text reading of a bridge-facts document: routes, client calls or tables and columns.

Route facts (openapi, routes --role server) are one row each: method, path,
the handler's file:line and what is special about it. Client calls add the
service they go to. Relation-use facts (schema, sql-schema) are grouped by
table: its columns, where the schema or migration declares it and where the
code uses it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tsograph.producers.text_format.table import joined
from tsograph.producers.text_format.table import limitations_section
from tsograph.producers.text_format.table import location
from tsograph.producers.text_format.table import table

ROUTE_KINDS = ("route-contract", "route-decl", "route-call")
# Declaration-side relation-use facts carry `#model:` ids (symbol_ids.model_id).
_DECLARATION_MARK = "#model:"
# How many columns and use sites a table row lists before it counts the rest.
_LISTED = 6


def render(document: dict[str, Any]) -> str:
    facts = document["facts"]
    sections = [[_headline(document)]]
    for kind in ROUTE_KINDS:
        chosen = [fact for fact in facts if fact["kind"] == kind]
        if chosen:
            sections.append(_routes(kind, chosen))
    relations = [fact for fact in facts if fact["kind"] == "relation-use"]
    if relations:
        # Every fact of an sql-schema document (platform sql) declares a table or column.
        sections.append(_relations(relations, declarations_only=document["platform"] == "sql"))
    sections.append(limitations_section(document["limitations"]))
    return joined(sections)


def _headline(document: dict[str, Any]) -> str:
    target = document["target"] or "no target"
    roles = ", ".join(document["roles"])
    service = document["service"]
    named = f", service {service}" if service is not None else ""
    count = len(document["facts"])
    tests = document.get("sourceSets", {}).get("tests")
    tested = f", test sources {tests}" if tests else ""
    return (
        f"{document['project']}: {count} fact(s), {document['platform']} {target} "
        f"({roles}{named}{tested})"
    )


def _path(fact: dict[str, Any]) -> str:
    channel = fact["channel"] or "(unknown)"
    return f"<base>{channel}" if fact.get("pathAnchor") == "base" else channel


def _notes(fact: dict[str, Any]) -> str:
    notes = []
    if fact.get("dynamic"):
        notes.append("dynamic")
    if fact.get("methodDynamic"):
        notes.append("method unknown")
    if fact.get("catchAllPrefix"):
        notes.append("catch-all prefix")
    if fact.get("testSource"):
        notes.append("test source")
    if fact["kind"] == "route-decl" and "usr" not in fact.get("symbol", {}):
        notes.append("no graph id")
    return ", ".join(notes)


def _routes(kind: str, facts: list[dict[str, Any]]) -> list[str]:
    if kind == "route-call":
        headers = ["METHOD", "PATH", "SERVICE", "CALLER", "NOTES"]
        rows = [
            [
                fact["method"],
                _path(fact),
                fact.get("service") or "-",
                location(fact["location"]),
                _notes(fact),
            ]
            for fact in facts
        ]
        title = "Requests (route-call)"
    else:
        where = "SPEC AT" if kind == "route-contract" else "HANDLER"
        headers = ["METHOD", "PATH", where, "NOTES"]
        rows = [
            [fact["method"], _path(fact), location(fact["location"]), _notes(fact)]
            for fact in facts
        ]
        title = "Operations (route-contract)" if kind == "route-contract" else "Routes (route-decl)"
    return [f"{title}: {len(facts)}", *table(headers, rows)]


def _listed(items: list[str]) -> str:
    if not items:
        return "-"
    shown = ", ".join(items[:_LISTED])
    rest = len(items) - _LISTED
    return f"{shown} (+{rest} more)" if rest > 0 else shown


def _places(places: list[tuple[str, int]]) -> str:
    """The first places as `path:line,line; other:line`, then how many more there are."""
    if not places:
        return "-"
    lines: dict[str, list[str]] = {}
    for path, line in places[:_LISTED]:
        lines.setdefault(path, []).append(str(line))
    shown = "; ".join(f"{path}:{','.join(numbers)}" for path, numbers in lines.items())
    rest = len(places) - _LISTED
    return f"{shown} (+{rest} more)" if rest > 0 else shown


def _relations(facts: list[dict[str, Any]], *, declarations_only: bool) -> list[str]:
    columns: dict[str, set[str]] = defaultdict(set)
    declared: dict[str, set[tuple[str, int]]] = defaultdict(set)
    used: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for fact in facts:
        table_name = fact["channel"] or "(computed at run time)"
        if "method" in fact:
            columns[table_name].add(fact["method"])
        where = (fact["location"]["path"], fact["location"]["line"])
        if declarations_only or _DECLARATION_MARK in fact.get("symbol", {}).get("usr", ""):
            if "method" not in fact:
                declared[table_name].add(where)
        else:
            used[table_name].add(where)
    names = sorted({*columns, *declared, *used})
    rows = [
        [
            name,
            _listed(sorted(columns[name])),
            _places(sorted(declared[name])),
            _places(sorted(used[name])),
        ]
        for name in names
    ]
    return [
        f"Tables: {len(names)} (from {len(facts)} relation-use fact(s))",
        *table(["TABLE", "COLUMNS", "DECLARED AT", "USED AT"], rows),
    ]
