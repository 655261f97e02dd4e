"""One `tsograph schema` run: the shared state every collector writes into.

Interface (stable; a collector is one function `collect(scan: SchemaScan) -> None`
listed in `schema/collect_all.py` COLLECTORS):

    scan.root                    the project folder (a Path; never written anywhere)
    scan.files                   SchemaSources (producers/schema/walk.py), with Prisma
                                 generator output folders already removed
    scan.data(path) / .text(path)  the bytes / text of a source (None when it cannot be
                                 read: counted once under unreadable-sources:)
    scan.syntax(path)            the SyntaxFile (facts + neutral syntax tree), cached by content
                                 by the project model and shared by all collectors; files
                                 with syntax errors are counted under parse-errors:
    scan.model                   the run's ProjectModel (producers/project/model.py): one
                                 workspace, one tsconfig/jsconfig set, one module resolver
                                 (`scan.resolver()`) for every collector
    scan.source_fact(parsed, offset, channel, method=None, dynamic=False)
                                 a relation-use fact located at `offset` whose symbol is
                                 the graph id of the enclosing declaration; module-level
                                 code has none and is counted under missing-relation-usrs:;
                                 a fact in a test source (kept with --include-tests) is
                                 marked `testSource: true`
    scan.add(fact)               any other fact (declaration-side facts, built with
                                 producers/schema/facts.py)
    scan.note(prefix, reason, count=1, name=None, at=None)
                                 count a limitation cause; rendered once at the end as
                                 `<prefix> <total> <text> (reason: n, …, names…; at places)`;
                                 `at` is the cause's place, `scan.place(parsed, offset)`
    scan.config_notes(notes)     problems of tsconfig/jsconfig/package.json files (the
                                 notes of producers/project loaders), each counted once
                                 under unreadable-module-configs: however many phases
                                 loaded the file; `scan.resolver()` reports the model's
    scan.claim(path, offset)     mark a string literal as interpreted, so the final
                                 strict-uppercase SQL literal pass does not read it again
    scan.read                    files read (for sourceModifiedAt); append schema files too
    scan.probes                  folder listings (`entries`) and lstat kinds (`kind`): a
                                 collector reads the file system through these or through
                                 producers/project/fsread.py, never directly, so a result
                                 kept by the result cache (result_cache.py) knows what it
                                 depended on

A run over an unchanged project takes its whole result from that cache and runs
no collector.

Collectors run in order: the Prisma collector first, because it knows the
generator output folders that every later collector must not read (it removes
them from `scan.files`); the strict SQL literal pass last, because it reads only
the literals no other collector claimed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tsograph.exchange.limitations import Place, counted
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.project.model import CONFIG_TEXT, ProjectModel
from tsograph.producers.project.resolve import Resolver
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema.result_cache import Probes
from tsograph.producers.schema.walk import SchemaSources

Fact = fact_builder.Fact

# What each counted prefix says; a collector may note any prefix of the closed list.
TEXTS = {
    "prisma-schema-not-found:": "Prisma project(s) without a schema file at the CLI's locations",
    "unresolved-prisma-config:": "prisma.config value(s) that are not literals were not evaluated",
    "missing-prisma-schemas:": "configured Prisma schema path(s) do not exist",
    "schema-outside-project:": "Prisma schema path(s) outside the project were not read",
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


@dataclass
class SchemaScan:
    root: Path
    files: SchemaSources
    # The run's one project model (walk, configs, resolver, parsed files), shared by
    # the Prisma and ORM collectors.
    model: ProjectModel
    facts: list[Fact] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    names: dict[str, set[str]] = field(default_factory=dict)
    places: dict[str, set[Place]] = field(default_factory=dict)
    read_failures: Counter[str] = field(default_factory=Counter)
    failed_reads: list[str] = field(default_factory=list)  # the sources behind read_failures
    claimed: set[tuple[str, int]] = field(default_factory=set)
    _config_notes: set[str] = field(default_factory=set)
    _seen: set[str] = field(default_factory=set)
    _parse_errors: set[str] = field(default_factory=set)
    # Folder listings and links looked at outside fsread: dependencies of a cached result.
    probes: Probes = field(init=False)
    # The limitation lines of a result taken from the result cache.
    stored_lines: list[str] | None = None

    def __post_init__(self) -> None:
        self.probes = Probes(self.root)

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

    def config_notes(self, notes: Iterable[str]) -> None:
        for text in notes:
            if text not in self._config_notes:
                self._config_notes.add(text)
                self.note("unreadable-module-configs:", "files", name=text)

    def resolver(self) -> Resolver:
        """The model's module resolver; its configuration problems are reported once."""
        self.config_notes(self.model.config_notes())
        return self.model.resolver

    def data(self, path: str) -> bytes | None:
        data = self.model.data(path)
        if path not in self._seen:
            self._seen.add(path)
            if data is None:
                self.read_failures[self.model.failures[path]] += 1
                self.failed_reads.append(path)
            else:
                self.read.append(self.root / path)
        return data

    def text(self, path: str) -> str | None:
        data = self.data(path)
        return None if data is None else data.decode("utf-8")

    def syntax(self, path: str) -> SyntaxFile | None:
        """The file's facts and neutral syntax tree (cached by content), None when unreadable."""
        found = self.model.syntax(path)
        if found is not None and found.facts.parse_errors:
            self._parse_error(path)
        return found

    def _parse_error(self, path: str) -> None:
        if path not in self._parse_errors:
            self._parse_errors.add(path)
            self.note("parse-errors:", "files", name=path)

    def add(self, fact: Fact) -> None:
        if not fact_builder.admit(self.facts, fact, is_test_source(fact["location"]["path"])):
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
        path = parsed.path
        line, column = parsed.location(offset)
        owner = parsed.owner_at(offset)
        fact = fact_builder.relation_use(
            channel, path, line, column, method=method, dynamic=dynamic, owner_id=owner
        )
        if "symbol" not in fact:
            self.note("missing-relation-usrs:", "module-level", at=(path, line))
        self.add(fact)

    def claim(self, path: str, offset: int) -> None:
        self.claimed.add((path, offset))

    def limitation_lines(self) -> list[str]:
        if self.stored_lines is not None:
            return list(self.stored_lines)
        lines = self.files.limitation_lines(self.read_failures, self.failed_reads)
        return lines + counted_lines(self.counts, self.names, self.places)
