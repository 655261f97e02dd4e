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
`missing-relation-usrs:`. Limitation texts are the JavaScript producer's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tsograph.exchange.limitations import Place
from tsograph.exchange.symbol_ids import model_id
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.project import PyProject, is_python_test
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.schema_scan import counted_lines

Fact = fact_builder.Fact


@dataclass
class PySchemaScan:
    project: PyProject
    files: list[str]
    facts: list[Fact] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    places: dict[str, set[Place]] = field(default_factory=dict)

    def contexts(self) -> list[Context]:
        found = []
        for path in self.files:
            ctx = self.project.context(path)
            if ctx is not None:
                found.append(ctx)
        return found

    def note(
        self, prefix: str, reason: str, ctx: Context | None = None, at: Node | None = None
    ) -> None:
        self.counts.setdefault(prefix, Counter())[reason] += 1
        if ctx is not None and at is not None:
            line = ctx.syntax.location(at.start)[0]
            self.places.setdefault(prefix, set()).add((ctx.path, line))

    def add(self, fact: Fact) -> None:
        if not fact_builder.admit(self.facts, fact, is_python_test(fact["location"]["path"])):
            self.note("invalid-relation-names:", "names")

    def declare(
        self,
        ctx: Context,
        at: Node,
        channel: str,
        qualified: str,
        method: str | None = None,
        *,
        dynamic: bool = False,
        model_path: str | None = None,
    ) -> None:
        """A declaration fact at `at` of a model or table (or its column `method`); its usr
        names the model's file, `model_path` when a base class in another file declares it."""
        line, column = ctx.syntax.location(at.start)
        usr = model_id(model_path or ctx.path, qualified)
        self.add(
            fact_builder.relation_use(
                channel,
                ctx.path,
                line,
                column,
                method=method,
                qualified_name=qualified,
                usr=usr,
                dynamic=dynamic,
            )
        )

    def use(
        self,
        ctx: Context,
        at: Node,
        channel: str,
        *,
        method: str | None = None,
        dynamic: bool = False,
    ) -> None:
        """A source fact at `at`, its symbol the graph id of the code around it."""
        line, column = ctx.syntax.location(at.start)
        owner = ctx.syntax.owner_at(at.start)
        fact = fact_builder.relation_use(
            channel, ctx.path, line, column, method=method, dynamic=dynamic, owner_id=owner
        )
        if "symbol" not in fact:
            self.note("missing-relation-usrs:", "module-level", ctx, at)
        self.add(fact)

    def sql(self, ctx: Context, at: Node, text: str | None) -> None:
        """The relations of SQL text sent at `at`. Unknown text, unknown parts spliced into
        it (an f-string, `%`, `+`) and unreadable relation positions give dynamic facts."""
        if text is None:
            self.note("dynamic-relation-names:", "sql-text", ctx, at)
            self.use(ctx, at, "", dynamic=True)
            return
        spliced = HOLE in text
        found = sql_relations.extract(text.replace(HOLE, "?"))
        for relation in found.relations:
            self.use(ctx, at, relation.name)
        for _ in range(found.unresolved):
            self.note("dynamic-relation-names:", "sql-operands", ctx, at)
            self.use(ctx, at, "", dynamic=True)
        if spliced and not found.unresolved:
            # Text spliced into SQL (not bound): any part of it may name a relation.
            self.note("dynamic-relation-names:", "spliced-sql", ctx, at)
            self.use(ctx, at, "", dynamic=True)

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
