"""knex (3.3.0): query builder chains on proven instances and transactions.

Tables come from `knex('t')`, `from`/`into`/`table` and the join methods, with the
aliases knex itself reads (`'t as a'`, `{ a: 't' }`, see knex lib/formatter/wrappingFormatter.js
wrapString/wrapObject) and `withSchema('s')` qualifying every table of the chain. A
qualified column (`a.col`, `t.col`) names the table behind the alias; an unqualified one
names the only table of a single-table chain. `knex.raw(sql)` is read as SQL;
`knex.schema` (DDL) is not a use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema.orm.collector import OrmCollector
from tsograph.producers.schema.orm.declarations import CALLS
from tsograph.producers.schema.orm.declarations import call_arguments
from tsograph.producers.schema.orm.declarations import callee_of
from tsograph.producers.schema.orm.declarations import key_name
from tsograph.producers.schema.orm.declarations import written_entries
from tsograph.producers.schema.orm.orm_run import DYNAMIC
from tsograph.producers.schema.orm.orm_run import OrmRun
from tsograph.producers.schema.orm.orm_run import chain_root
from tsograph.producers.schema.orm.orm_run import continued
from tsograph.producers.schema.orm.orm_run import method_of

TABLE_METHODS = frozenset({"from", "into", "table"})
JOIN_METHODS = frozenset(
    {
        "join",
        "innerJoin",
        "leftJoin",
        "leftOuterJoin",
        "rightJoin",
        "rightOuterJoin",
        "fullOuterJoin",
        "crossJoin",
    }
)
COLUMN_METHODS = frozenset(
    {
        "select",
        "column",
        "columns",
        "first",
        "pluck",
        "distinct",
        "distinctOn",
        "where",
        "andWhere",
        "orWhere",
        "whereNot",
        "orWhereNot",
        "whereIn",
        "orWhereIn",
        "whereNotIn",
        "orWhereNotIn",
        "whereNull",
        "orWhereNull",
        "whereNotNull",
        "orWhereNotNull",
        "whereBetween",
        "whereNotBetween",
        "whereLike",
        "whereILike",
        "orderBy",
        "groupBy",
        "returning",
        "increment",
        "decrement",
        "count",
        "min",
        "max",
        "sum",
        "avg",
        "having",
    }
)
# Methods whose object argument's keys are columns.
OBJECT_METHODS = frozenset({"insert", "update", "where", "andWhere", "orWhere", "whereNot"})
# knex wrapString: ` as ` (any case) splits an alias; knex also accepts a trailing alias
# only with `as`.
_ALIAS = re.compile(r"\s+as\s+", re.IGNORECASE)
_IDENT = re.compile(r"^[A-Za-z_$][\w$]*$")
# Table arguments that hold a name (not a subquery builder or a callback).
NAME_SHAPES = frozenset(
    {
        "identifier",
        "member",
        "template",
        "binary",
        "index",
    }
)


@dataclass
class _Chain:
    schema: str | None = None
    tables: list[tuple[str, Node]] = field(default_factory=list)  # (table, argument)
    object_aliases: list[tuple[str, Node]] = field(default_factory=list)  # `{ a: 't' }`
    dynamic: list[Node] = field(default_factory=list)  # table arguments that are not constants
    aliases: dict[str, str] = field(default_factory=dict)
    columns: list[tuple[str, Node]] = field(default_factory=list)  # (written column, node)


def _split(written: str) -> tuple[str, str | None]:
    parts = _ALIAS.split(written.strip())
    return (parts[0].strip(), parts[1].strip()) if len(parts) == 2 else (written.strip(), None)


class Knex(OrmCollector):
    def uses(self, run: OrmRun) -> None:
        for path in run.paths:
            for call in run.calls(path):
                if continued(call):
                    continue
                root = chain_root(call)
                value = run.evaluator.value(path, root)
                if value is None or value.kind != "knex":
                    continue
                self._chain(run, path, call, root)

    def _chain(self, run: OrmRun, path: str, outer: Node, root: Node) -> None:
        links: list[tuple[str | None, Node]] = []
        node = outer
        while node is not root:
            if node.kind in CALLS:
                callee = callee_of(node)
                if callee is None:
                    return
                shape = method_of(node)
                if callee is root or unwrap_value(callee) is root:
                    links.append((None, node))
                elif shape is not None:
                    links.append((shape[0], node))
                node = unwrap_value(callee) if shape is None else shape[2]
            elif node.kind == "member":
                prop = node.part("property")
                if prop is not None and prop.value == "schema":
                    return  # knex.schema: DDL
                node = node.part("object") or root
            else:  # `await`, `!`
                node = node.part("value") or root
        links.reverse()
        chain = _Chain()
        for method, call in links:
            args = call_arguments(call)
            if method == "raw" and args:
                run.sql_argument(path, args[0])
                return
            if method == "withSchema" and args:
                chain.schema = run.evaluator.constant(path, args[0])
            elif args and (method is None or method in TABLE_METHODS or method in JOIN_METHODS):
                self._table(run, path, args[0], chain)
            if method in COLUMN_METHODS or method in JOIN_METHODS:
                start = 1 if method in JOIN_METHODS else 0
                for arg in args[start:]:
                    self._column_arg(
                        run, path, arg, chain, method in OBJECT_METHODS or method is None
                    )
            if method in OBJECT_METHODS and method not in COLUMN_METHODS:
                for arg in args[:1]:
                    self._column_arg(run, path, arg, chain, True)
        self._emit(run, path, chain)

    def _table(self, run: OrmRun, path: str, arg: Node, chain: _Chain) -> None:
        arg = unwrap_value(arg)
        written = run.evaluator.constant(path, arg)
        if written is not None:
            table, alias = _split(written)
            chain.tables.append((table, arg))
            if alias:
                chain.aliases[alias] = table
            return
        if arg.kind == "object":  # { alias: 'table' }
            for item in arg.items:
                key = item.part("key") if item.kind == "property" else None
                value = item.part("value") if item.kind == "property" else None
                alias_name = None if key is None else key_name(key)
                table_name = None if value is None else run.evaluator.constant(path, value)
                if table_name is not None and value is not None:
                    chain.tables.append((table_name, value))
                    chain.object_aliases.append((alias_name or "", value))
                    if alias_name:
                        chain.aliases[alias_name] = table_name
            return
        if arg.kind in NAME_SHAPES:  # a table name computed at run time
            found = run.evaluator.value(path, arg)
            if found is None or found.kind == "text":
                chain.dynamic.append(arg)

    def _column_arg(self, run: OrmRun, path: str, arg: Node, chain: _Chain, keys: bool) -> None:
        arg = unwrap_value(arg)
        written = run.evaluator.constant(path, arg)
        if written is not None:
            chain.columns.append((_split(written)[0], arg))
        elif arg.kind == "array":  # column lists, or rows of an insert
            for item in arg.items:
                self._column_arg(run, path, item, chain, keys)
        elif arg.kind == "object" and keys:
            for name, key, _ in written_entries(arg):
                if name is not None:
                    chain.columns.append((name, key))

    def _emit(self, run: OrmRun, path: str, chain: _Chain) -> None:
        def channel(table: str) -> str:
            schema, _, name = table.rpartition(".")
            return fact_builder.channel(name, schema or chain.schema)

        if chain.schema is not None and chain.object_aliases:
            # knex 3.3.0 compiles withSchema('s').from({ a: 't' }) to "s"."[object Object]"
            # (oracle/orm-naming/recorded.json): that query names no table we can write.
            nodes = [node for _, node in chain.object_aliases]
            for node in nodes:
                run.use(path, node, "", dynamic=True)
                run.note(DYNAMIC, "knex-schema-object-aliases", at=(path, node))
            chain.tables = [item for item in chain.tables if item[1] not in nodes]
            for alias, _ in chain.object_aliases:
                chain.aliases.pop(alias, None)
        for node in chain.dynamic:
            run.use(path, node, "", dynamic=True)
            run.note(DYNAMIC, "knex-table-names", at=(path, node))
        names = {table: table for table, _ in chain.tables}
        for table, node in chain.tables:
            run.use(path, node, channel(table))
        single = chain.tables[0][0] if len({t for t, _ in chain.tables}) == 1 else None
        for written, node in chain.columns:
            qualifier, _, column = written.rpartition(".")
            if column == "*" or not _IDENT.match(column):
                continue
            found = (chain.aliases.get(qualifier) or names.get(qualifier)) if qualifier else single
            if found is None:
                continue
            table = found
            run.use(path, node, channel(table), column)
