"""One `tsograph schema` run over a project's Python sources.

Files are read through the Python value layer (routes/python_client/evaluator.py:
imports resolved by the project's module resolution, constants across files,
classes as values). Collectors run in order: SQLAlchemy/SQLModel models and
Django models first (declaration facts, and the model index the queries
need), then their queries, then SQL text sent through DB-API drivers,
SQLAlchemy `text()` and Django `raw()`.

Facts have the JavaScript producers' shape (producers/schema/facts.py):
declarations carry `<path>#model:<Model>` / `#model:<Model.attr>` usrs, source
facts the graph id of the enclosing declaration (`tsograph graph --language
python`); module-level code has none and is counted under
`missing-relation-usrs:`. Facts and limitation causes are recorded by the same
code as the JavaScript scan's (producers/schema/relation_record.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.test_sources import is_python_test
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.relation_record import RelationRecord
from tsograph.producers.schema.relation_record import counted_lines


@dataclass
class PySchemaScan(RelationRecord):
    project: PyProject
    files: list[str]

    def test_source(self, path: str) -> bool:
        return is_python_test(path)

    def contexts(self) -> list[Context]:
        found = []
        for path in self.files:
            ctx = self.project.context(path)
            if ctx is not None:
                found.append(ctx)
        return found

    def note_at(self, prefix: str, reason: str, ctx: Context, at: Node) -> None:
        """Count a limitation cause whose place is the node `at` of the file `ctx`."""
        self.note(prefix, reason, at=self.place(ctx.syntax, at.start))

    def sql(self, ctx: Context, at: Node, text: str | None) -> None:
        """The relations of SQL text sent at `at`. Unknown text, unknown parts spliced into
        it (an f-string, `%`, `+`) and unreadable relation positions give dynamic facts."""
        if text is None:
            self.note_at("dynamic-relation-names:", "sql-text", ctx, at)
            self.source_fact(ctx.syntax, at.start, "", dynamic=True)
            return
        spliced = HOLE in text
        found = sql_relations.extract_substituted(text.replace(HOLE, sql_relations.SUBSTITUTION))
        for relation in found.relations:
            self.source_fact(ctx.syntax, at.start, relation.name)
        for _ in range(found.unresolved):
            self.note_at("dynamic-relation-names:", "sql-operands", ctx, at)
            self.source_fact(ctx.syntax, at.start, "", dynamic=True)
        if spliced and not found.unresolved:
            # Text spliced into SQL (not bound): any part of it may name a relation.
            self.note_at("dynamic-relation-names:", "spliced-sql", ctx, at)
            self.source_fact(ctx.syntax, at.start, "", dynamic=True)

    def limitation_lines(self) -> list[str]:
        project = self.project
        failures = dict(project.unreadable)
        lines = project.model.sources.limitation_lines(
            dict(Counter(failures.values())) or None, failures
        )
        if project.parse_error_files:
            self.counts["parse-errors:"] = Counter({"files": len(project.parse_error_files)})
        names = {"parse-errors:": project.parse_error_files}
        return lines + counted_lines(dict(sorted(self.counts.items())), names, self.places)
