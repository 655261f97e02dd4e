"""What one `tsograph schema` run records, whichever language it reads.

The JavaScript scan (schema_scan.SchemaScan) and the Python scan
(schema/python/relation_scan.PySchemaScan) find relations their own way but write
them the same: a fact built by facts.py, kept unless its names cannot be written
(`invalid-relation-names:`) and marked `testSource` in a test source; a source fact
named by the declaration around it (module-level code counted under
`missing-relation-usrs:`); a declaration fact named `<path>#model:<Model>`; limitation
causes counted by prefix with their names and places, rendered by `counted_lines`.
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from collections import Counter
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tsograph.exchange.limitations import Place
from tsograph.exchange.limitations import counted
from tsograph.exchange.symbol_ids import model_id
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.project.model import CONFIG_TEXT
from tsograph.producers.schema import facts as fact_builder

Fact = fact_builder.Fact

# What each counted prefix says; a collector may note any prefix of the closed list.
TEXTS = {
    "prisma-schema-not-found:": "Prisma project(s) without a schema file at the CLI's locations",
    "unresolved-prisma-config:": "prisma.config value(s) that are not literals were not evaluated",
    "missing-prisma-schemas:": "configured Prisma schema path(s) do not exist",
    "schema-outside-project:": (
        "Prisma schema path(s) or workspace database package(s) outside the project were not read"
    ),
    "non-relational-stores:": "non-relational store(s) have no relations",
    "prisma-naming-unverified:": "name(s) differ between candidate Prisma versions (dynamic)",
    "prisma-8-surface-unscanned:": "Prisma 8 contract files or client API not scanned",
    "unparsed-schema-lines:": "Prisma schema line(s) not understood were skipped",
    "unresolved-field-types:": "Prisma field type(s) name no model, enum or scalar",
    "ignored-prisma-elements:": "@ignore/@@ignore element(s) are absent from the client",
    "unresolved-generator-outputs:": "Prisma generator output(s) could not be located",
    "unresolved-typed-sql:": "TypedSQL file(s) or folder(s) could not be read",
    "unsupported-db-packages:": "file(s) use database packages that are not interpreted",
    "dynamic-relation-names:": "relation name(s) computed at run time (dynamic facts)",
    "skipped-sql-literals:": "lowercase SQL-like string literal(s) were not read (strict mode)",
    "unresolved-client-receivers:": "delegate call(s) on receivers not proven to be a client",
    "unresolved-orm-receivers:": "ORM call(s) on receivers whose provenance is not proven",
    "orm-naming-unverified:": "ORM name(s) depend on options that could not be read",
    "unreadable-orm-declarations:": "ORM declaration(s) could not be read statically",
    "provenance-truncated:": "provenance tracing stopped at its bound",
    "missing-relation-usrs:": "fact(s) in module-level code have no enclosing declaration",
    "invalid-relation-names:": "relation name(s) with control characters or over 1024 characters",
    "parse-errors:": "source file(s) with syntax errors (facts kept from the rest)",
    "unreadable-module-configs:": CONFIG_TEXT,
}


def counted_lines(
    counts: Mapping[str, Counter[str]],
    names: Mapping[str, Iterable[str]],
    places: Mapping[str, set[Place]],
) -> list[str]:
    """One line per limitation prefix counted (TEXTS says what it counts), in the order of
    `counts`, with the reasons when there is more than one, and its names and places."""
    lines: list[str] = []
    for prefix, reasons in counts.items():
        breakdown = dict(reasons) if len(reasons) > 1 else None
        lines.append(
            counted(
                prefix,
                sum(reasons.values()),
                TEXTS[prefix],
                breakdown=breakdown,
                names=names.get(prefix),
                places=places.get(prefix),
            )
        )
    return lines


@dataclass(kw_only=True)
class RelationRecord(ABC):
    facts: list[Fact] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    names: dict[str, set[str]] = field(default_factory=dict)
    places: dict[str, set[Place]] = field(default_factory=dict)

    @abstractmethod
    def test_source(self, path: str) -> bool:
        """Whether the language's test conventions make `path` a test source."""

    def note(
        self,
        prefix: str,
        reason: str,
        count: int = 1,
        name: str | None = None,
        *,
        at: Place | None = None,
    ) -> None:
        self.counts.setdefault(prefix, Counter())[reason] += count
        if name is not None:
            self.names.setdefault(prefix, set()).add(name)
        if at is not None:
            self.places.setdefault(prefix, set()).add(at)

    @staticmethod
    def place(parsed: SyntaxFile, offset: int) -> Place:
        """The `(path, line)` of a byte offset of a source, for `note(at=…)`."""
        return parsed.path, parsed.location(offset)[0]

    def add(self, fact: Fact) -> None:
        if not fact_builder.admit(self.facts, fact, self.test_source(fact["location"]["path"])):
            self.note("invalid-relation-names:", "names")

    def source_fact(
        self,
        parsed: SyntaxFile,
        offset: int,
        channel: str,
        *,
        method: str | None = None,
        dynamic: bool = False,
    ) -> None:
        """A relation-use fact at `offset` named by the declaration around it."""
        line, column = parsed.location(offset)
        owner = parsed.owner_at(offset)
        fact = fact_builder.relation_use(
            channel, parsed.path, line, column, method=method, dynamic=dynamic, owner_id=owner
        )
        if "symbol" not in fact:
            self.note("missing-relation-usrs:", "module-level", at=(parsed.path, line))
        self.add(fact)

    def declaration(
        self,
        parsed: SyntaxFile,
        offset: int,
        channel: str,
        qualified: str,
        method: str | None = None,
        *,
        model_path: str | None = None,
        dynamic: bool = False,
    ) -> None:
        """A declaration fact written at `offset` of the model or table (or its column
        `method`); its `#model:` usr names the file that declares the model, `model_path`
        when that is not the file it is written in (a base class, an association)."""
        line, column = parsed.location(offset)
        self.add(
            fact_builder.relation_use(
                channel,
                parsed.path,
                line,
                column,
                method=method,
                qualified_name=qualified,
                usr=model_id(model_path or parsed.path, qualified),
                dynamic=dynamic,
            )
        )
