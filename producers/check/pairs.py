"""`check --pairs USES DECLS`: the tables and columns code uses against the declared ones.

USES is a `tsograph schema` document. DECLS is either a `tsograph sql-schema`
document (`platform: "sql"`: every fact declares a table or a column) or a
`tsograph schema` document, whose declaration facts are the ones whose
`symbol.usr` is in the `#model:` namespace (Prisma models and fields, Drizzle
tables, TypeORM entities, Sequelize models). When DECLS is the USES file
itself, its declaration facts are the declarations and the others the uses;
otherwise every fact of USES is a use, Prisma's own model facts included,
so a model whose table the migrations never create is reported.

Names: a channel is `schema.table` or `table` (a `.` inside a name is
`%2E`), a use's `method` its column. A use is matched when a declaration has
the same table and, for a column use, the table declares that column. It may
match (an `-unverified` finding, never an error) when the names differ only in
letter case (PostgreSQL folds unquoted names, SQLite ignores case), when one
side names a schema and the other does not (the connection's search path
decides), when the table declares no column at all (a view whose columns were
not read), when either fact is `dynamic`, or when the declaring document has a
gap that can hide declarations (its limitations other than the informational
ones). `relation-decl-without-use` is judged per table: a declared table no
use names; it is `-unverified` when a use may name it, when some use is
dynamic, or when the uses document has a gap that can hide uses.
Facts of test sources are left out and counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tsograph.exchange.limitations import prefix_of
from tsograph.producers.check.channels import Match
from tsograph.producers.check.documents import SQL
from tsograph.producers.check.documents import Document
from tsograph.producers.check.findings import Finding
from tsograph.producers.check.findings import Side

Fact = Mapping[str, Any]

# Limitations that hide no declaration (about uses only, or informational).
_NOT_DECLARATION_GAPS = frozenset(
    {
        "missing-relation-usrs:",
        "skipped-sql-literals:",
        "unresolved-client-receivers:",
        "unresolved-orm-receivers:",
        "unresolved-typed-sql:",
        "dynamic-relation-names:",
        "provenance-truncated:",
        "unsupported-db-packages:",
        "non-relational-stores:",
    }
)
# Limitations that hide no use: chain-only information.
_NOT_USE_GAPS = frozenset({"missing-relation-usrs:"})


def is_declaration(fact: Fact) -> bool:
    return "#model:" in str(fact.get("symbol", {}).get("usr", ""))


@dataclass
class PairsResult:
    findings: list[Finding]
    test_facts: int
    matched: int


def _parts(channel: str) -> tuple[str | None, str]:
    schema, dot, table = channel.rpartition(".")
    return (schema if dot else None), table


def table_match(declared: str, used: str) -> tuple[Match, str | None]:
    if declared == used:
        return Match.YES, None
    (d_schema, d_table), (u_schema, u_table) = _parts(declared), _parts(used)
    if d_table.lower() != u_table.lower():
        return Match.NO, None
    if d_schema is not None and u_schema is not None and d_schema.lower() != u_schema.lower():
        return Match.NO, None
    if d_schema == u_schema and d_table != u_table:
        return Match.MAYBE, "the names differ only in letter case"
    if d_schema != u_schema and (d_schema is None or u_schema is None):
        return Match.MAYBE, "one side names a schema, the other does not"
    return Match.MAYBE, "the names differ only in letter case"


@dataclass
class _Table:
    facts: list[Fact]
    columns: dict[str, list[Fact]]


def _tables(decls: Iterable[Fact]) -> dict[str, _Table]:
    tables: dict[str, _Table] = {}
    for fact in decls:
        table = tables.setdefault(fact["channel"], _Table([], defaultdict(list)))
        table.facts.append(fact)
        if "method" in fact:
            table.columns[fact["method"]].append(fact)
    return tables


def _gaps(document: Document, excluded: frozenset[str]) -> list[str]:
    return [
        f"{document.name}: {line}"
        for line in document.limitations
        if prefix_of(line) not in excluded
    ]


def _use_against(
    use: Fact, tables: Mapping[str, _Table], dynamic_decls: Sequence[Fact]
) -> tuple[Match, list[str], list[Fact]]:
    best, reasons, related = Match.NO, [], []
    column = use.get("method")
    for channel, table in tables.items():
        found, why = table_match(channel, use["channel"])
        if found is Match.NO:
            continue
        if column is not None:
            if column in table.columns:
                hits = table.columns[column]
            elif any(name.lower() == column.lower() for name in table.columns):
                found, why = Match.MAYBE, "the column names differ only in letter case"
                hits = [
                    f for n, fs in table.columns.items() if n.lower() == column.lower() for f in fs
                ]
            elif not table.columns:
                found, why, hits = Match.MAYBE, "the table declares no columns", table.facts
            else:
                continue
        else:
            hits = table.facts
        if found is Match.YES:
            return Match.YES, [], []
        best = Match.MAYBE
        reasons.append(why or "a declaration may match")
        related.extend(hits[:1])
    for fact in dynamic_decls:
        best = Match.MAYBE
        reasons.append("a declaration's name is dynamic")
        related.append(fact)
    return best, reasons, related


def check_pairs(uses_document: Document, decls_document: Document) -> PairsResult:
    same = uses_document.content is decls_document.content or (
        uses_document.name == decls_document.name
    )
    if decls_document.side == SQL:
        decls = list(decls_document.facts)
    else:
        decls = [fact for fact in decls_document.facts if is_declaration(fact)]
    uses = [fact for fact in uses_document.facts if not (same and is_declaration(fact))]
    tests = sum(1 for fact in [*uses, *decls] if fact.get("testSource"))
    uses = [fact for fact in uses if not fact.get("testSource")]
    decls = [fact for fact in decls if not fact.get("testSource")]
    static_decls = [fact for fact in decls if not fact["dynamic"]]
    dynamic_decls = [fact for fact in decls if fact["dynamic"]]
    tables = _tables(static_decls)
    declaration_gaps = _gaps(decls_document, _NOT_DECLARATION_GAPS)
    findings: list[Finding] = []
    matched = 0
    used_tables: dict[str, Match] = {}

    def use_side(fact: Fact) -> Side:
        return Side.of(uses_document.name, fact)

    def decl_side(fact: Fact) -> Side:
        return Side.of(decls_document.name, fact)

    for use in uses:
        found, reasons, related = _use_against(use, tables, dynamic_decls)
        for channel in tables:
            table_found, _ = table_match(channel, use["channel"])
            if table_found is not Match.NO:
                used_tables[channel] = max(used_tables.get(channel, Match.NO), table_found)
        if found is Match.YES:
            matched += 1
            continue
        if use["dynamic"]:
            reasons.insert(0, "the use's name is dynamic")
        reasons.extend(declaration_gaps)
        verdict = "relation-use-without-decl" + ("-unverified" if reasons else "")
        findings.append(
            Finding(verdict, use_side(use), None, reasons, [decl_side(f) for f in related])
        )
    use_gaps = _gaps(uses_document, _NOT_USE_GAPS)
    dynamic_uses = sum(1 for use in uses if use["dynamic"])
    if dynamic_uses:
        use_gaps.append(f"{dynamic_uses} use(s) with a dynamic name")
    for channel, table in sorted(tables.items()):
        seen = used_tables.get(channel, Match.NO)
        if seen is Match.YES:
            continue
        subject = min(table.facts, key=lambda f: "method" in f)
        reasons = (["a use may name it"] if seen is Match.MAYBE else []) + use_gaps
        verdict = "relation-decl-without-use" + ("-unverified" if reasons else "")
        findings.append(Finding(verdict, decl_side(subject), None, reasons, []))
    return PairsResult(findings, tests, matched)
