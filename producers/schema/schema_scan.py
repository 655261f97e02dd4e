"""One `tsograph schema` run: the shared state every collector writes into.

Interface (stable; a collector is one function `collect(scan: SchemaScan) -> None`
listed in `schema/collect_all.py` collectors()):

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

`note`, `place`, `add` and `source_fact` are the ones every schema scan shares
(relation_record.py), as is the declaration-fact helper `declaration`.

A run over an unchanged project takes its whole result from that cache and runs
no collector.

Collectors run in order: the Prisma collector first, because it knows the
generator output folders that every later collector must not read (it removes
them from `scan.files`); the strict SQL literal pass last, because it reads only
the literals no other collector claimed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.resolve import Resolver
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.schema.relation_record import RelationRecord
from tsograph.producers.schema.relation_record import counted_lines
from tsograph.producers.schema.result_cache import Probes
from tsograph.producers.schema.walk import SchemaSources


@dataclass
class SchemaScan(RelationRecord):
    root: Path
    files: SchemaSources
    # The run's one project model (walk, configs, resolver, parsed files), shared by
    # the Prisma and ORM collectors.
    model: ProjectModel
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
    # The facts passed the bridge-facts checks (collect_all.facts_pass), or come from a
    # result kept only once they had: the document writes them unchecked.
    facts_checked: bool = False

    def __post_init__(self) -> None:
        self.probes = Probes(self.root)

    def test_source(self, path: str) -> bool:
        return is_test_source(path)

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

    def claim(self, path: str, offset: int) -> None:
        self.claimed.add((path, offset))

    def limitation_lines(self) -> list[str]:
        if self.stored_lines is not None:
            return list(self.stored_lines)
        lines = self.files.limitation_lines(self.read_failures, self.failed_reads)
        return lines + counted_lines(self.counts, self.names, self.places)
