"""Raw SQL drivers and Cloudflare D1: SQL passed to proven clients.

* `sql` clients (pg, mysql2, better-sqlite3, sqlite3, node:sqlite, bun:sqlite, libSQL,
  Neon/Vercel pools, PlanetScale, TypeORM query runners): the first argument of
  query/execute/prepare/exec/run/all/get/each, or its `text`/`sql` key (pg and mysql2
  query configs, libSQL `execute({ sql })`); libSQL `batch([...])` reads every item.
* `tag` functions (postgres.js, Neon `neon()`, `@vercel/postgres` `sql`): the tagged
  template, substitutions being bind parameters; `.unsafe(sql)` / `.query(sql)` read
  their argument.
* `d1` bindings: `prepare(sql)` and `exec(sql)`; `batch` holds prepared statements,
  which are read where they are prepared.

A string literal or a same-file `const` string is read; a template string with
substitutions gives the relations it names literally plus one dynamic fact; any other
SQL argument is one dynamic fact. A call shaped like a driver call with literal SQL on
a receiver whose provenance is not proven is counted under unresolved-orm-receivers:.
"""

from __future__ import annotations

from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.orm.collector import OrmCollector
from tsograph.producers.schema.orm.declarations import call_arguments
from tsograph.producers.schema.orm.declarations import key_name
from tsograph.producers.schema.orm.declarations import literal_string
from tsograph.producers.schema.orm.orm_run import DYNAMIC
from tsograph.producers.schema.orm.orm_run import UNRESOLVED
from tsograph.producers.schema.orm.orm_run import OrmRun
from tsograph.producers.schema.orm.orm_run import method_of
from tsograph.producers.schema.orm.orm_run import template_sql

SQL_METHODS = frozenset({"query", "execute", "prepare", "exec", "run", "all", "get", "each"})
TAG_METHODS = frozenset({"unsafe", "query"})
D1_METHODS = frozenset({"prepare", "exec"})
SQL_KINDS = frozenset({"sql", "tag", "d1"})
# Receivers whose SQL methods another collector reads (`query(sql)` on TypeORM and
# Sequelize, `raw` on knex, Drizzle's `sql` templates).
OTHER_COLLECTORS = frozenset(
    {"typeorm-ds", "typeorm-manager", "typeorm-repo", "sequelize", "knex", "drizzle"}
)


class Drivers(OrmCollector):
    def uses(self, run: OrmRun) -> None:
        for path in run.paths:
            for call in run.calls(path):
                if call.kind == "tagged":
                    target = run.evaluator.value(path, call.part("tag"))
                    template = call.part("template")
                    if target is not None and target.kind == "tag" and template is not None:
                        _tagged(run, path, template)
                    continue
                _driver_call(run, path, call)


def _driver_call(run: OrmRun, path: str, call: Node) -> None:
    shape = method_of(call)
    if shape is None:
        return
    method, _, receiver = shape
    if method not in SQL_METHODS and method not in TAG_METHODS and method != "batch":
        return
    value = run.evaluator.value(path, receiver)
    kind = None if value is None else value.kind
    arguments = call_arguments(call)
    if kind in OTHER_COLLECTORS:
        return
    if kind not in SQL_KINDS:
        if method in SQL_METHODS and arguments and _literal_sql(arguments[0]):
            run.note(UNRESOLVED, "sql-driver", at=(path, call))
        return
    if not arguments:
        return
    if kind == "sql" and method in SQL_METHODS:
        statement(run, path, arguments[0])
    elif kind == "sql" and method == "batch":
        _batch(run, path, arguments[0])
    elif (kind == "tag" and method in TAG_METHODS) or (kind == "d1" and method in D1_METHODS):
        statement(run, path, arguments[0])


def statement(run: OrmRun, path: str, node: Node) -> None:
    """One SQL argument: literal, same-file const, `{ text }`/`{ sql }` config, or dynamic."""
    node = unwrap_value(node)
    if run.sql_argument(path, node):
        return
    if node.kind == "object":
        for item in node.items:
            key = item.part("key") if item.kind == "property" else None
            if key is not None and key_name(key) in ("text", "sql"):
                value = item.part("value")
                if value is not None:
                    statement(run, path, value)
                return
    if node.kind == "identifier":
        constant = _const_string(run, path, node)
        if constant is not None:
            run.sql_argument(path, constant, at=node)
            return
    run.use(path, node, "", dynamic=True)
    run.note(DYNAMIC, "sql-arguments", at=(path, node))


def _const_string(run: OrmRun, path: str, node: Node) -> Node | None:
    binding = run.evaluator.lookup(path, node, node.value or "")
    if binding is None or binding.node.kind != "declarator" or binding.keys:
        return None
    declaration = binding.node.parent
    if declaration is None or declaration.value != "const":
        return None
    value = binding.node.part("value")
    value = None if value is None else unwrap_value(value)
    if value is None or value.kind not in ("string", "template"):
        return None
    return value


def _batch(run: OrmRun, path: str, node: Node) -> None:
    node = unwrap_value(node)
    if node.kind != "array":
        run.use(path, node, "", dynamic=True)
        run.note(DYNAMIC, "sql-arguments", at=(path, node))
        return
    for item in node.items:
        statement(run, path, item)


def _tagged(run: OrmRun, path: str, template: Node) -> None:
    written = template_sql(template)
    if written is not None:
        run.sql(path, template, written[0])


def _literal_sql(node: Node) -> bool:
    written = literal_string(unwrap_value(node))
    return written is not None and sql_relations.looks_like_sql(written)
