"""Drizzle ORM (drizzle-orm 0.45.3): table declarations and the queries that use them.

Tables: `pgTable`/`sqliteTable`/`mysqlTable` and the view builders take the table name
as written (a literal or a constant such as `TABLE_NAMES.users`); `pgSchema('s').table(…)`
qualifies it; `pgTableCreator(fn)` applies `fn` when it is a template or concatenation
around its parameter. A column is the builder's name argument, else its object key
(spreads of constant objects included) converted by the `casing` option (drizzle-orm
casing.js: `toSnakeCase`, `toCamelCase`) — only when every `drizzle()` call and
`drizzle.config.*` agree on it; otherwise such columns are not named and the run says
`orm-naming-unverified:`. Names that are not constants are `unreadable-orm-declarations:`.

Uses on proven databases (and transactions): `from`/joins/`insert`/`update`/`delete`/
`$count` with a table argument, `.values()`/`.set()` keys, `t.column` anywhere,
`db.query.<key>.findMany/findFirst` with `columns` and `with` (through `relations()`),
and the `sql` tagged template.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_read import template_text
from tsograph.producers.lang.syntax_read import top_level
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.orm import packages
from tsograph.producers.schema.orm.collector import OrmCollector
from tsograph.producers.schema.orm.declarations import CALLS
from tsograph.producers.schema.orm.declarations import call_arguments
from tsograph.producers.schema.orm.declarations import callee_of
from tsograph.producers.schema.orm.declarations import is_object_property
from tsograph.producers.schema.orm.declarations import key_name
from tsograph.producers.schema.orm.declarations import literal_string
from tsograph.producers.schema.orm.declarations import written_entries
from tsograph.producers.schema.orm.orm_evaluator import Evaluator
from tsograph.producers.schema.orm.orm_evaluator import Hook
from tsograph.producers.schema.orm.orm_run import DYNAMIC
from tsograph.producers.schema.orm.orm_run import UNREADABLE
from tsograph.producers.schema.orm.orm_run import UNRESOLVED
from tsograph.producers.schema.orm.orm_run import UNVERIFIED
from tsograph.producers.schema.orm.orm_run import OrmRun
from tsograph.producers.schema.orm.orm_run import chain_root
from tsograph.producers.schema.orm.orm_run import method_of
from tsograph.producers.schema.orm.receivers import PkgRef
from tsograph.producers.schema.orm.receivers import Val

_WORDS = re.compile(r"[\da-z]+|[A-Z]+(?![a-z])|[A-Z][\da-z]+")
TABLE_METHODS = frozenset(
    {
        "from",
        "leftJoin",
        "rightJoin",
        "innerJoin",
        "fullJoin",
        "crossJoin",
        "leftJoinLateral",
        "innerJoinLateral",
        "crossJoinLateral",
        "insert",
        "update",
        "delete",
        "$count",
    }
)
VIEW_FINISHERS = frozenset({"as", "existing", "enableRLS", "withRLS"})
CASINGS = frozenset({"snake_case", "camelCase"})
# A casing the code sets but no rule proves: a setting, not the value layer's UNKNOWN.
UNPROVEN_CASING = "?"


def to_snake_case(key: str) -> str:
    """drizzle-orm 0.45.3 casing.js toSnakeCase."""
    words = _WORDS.findall(key.replace("'", "").replace("\u2019", ""))
    return "_".join(word.lower() for word in words)


def to_camel_case(key: str) -> str:
    """drizzle-orm 0.45.3 casing.js toCamelCase."""
    words = _WORDS.findall(key.replace("'", "").replace("\u2019", ""))
    return "".join(
        word.lower() if index == 0 else word[0].upper() + word[1:]
        for index, word in enumerate(words)
    )


def convert(casing: str | None, key: str) -> str:
    if casing == "snake_case":
        return to_snake_case(key)
    if casing == "camelCase":
        return to_camel_case(key)
    return key


@dataclass
class Column:
    key: str
    key_node: Node
    explicit: str | None  # the builder's name argument


@dataclass(eq=False)
class Table:
    path: str
    name: str  # the table name as written (after a creator)
    schema: str | None
    name_node: Node
    call: Node
    columns: list[Column] = field(default_factory=list)
    relations: dict[str, Table] = field(default_factory=dict)

    @property
    def channel(self) -> str:
        return fact_builder.channel(self.name, self.schema)

    def variable(self, data: bytes) -> str:
        """The name the table is declared under (`users`), else its table name."""
        node: Node | None = self.call
        while node is not None and node.parent is not None:
            parent = node.parent
            if parent.kind == "declarator":
                name = parent.part("name")
                return (
                    self.name
                    if name is None
                    else data[name.start : name.end].decode("utf-8", "replace")
                )
            if not _wraps(parent, node):
                break
            node = parent
        return self.name


def _wraps(parent: Node, node: Node) -> bool:
    """True when `parent` continues the expression `node` (`t.x`, `t(…)`, `t as T`)."""
    if parent.kind == "member":
        return parent.part("object") is node
    if parent.kind in CALLS:
        return callee_of(parent) is node
    return parent.kind == "cast" and parent.value in ("as", "as const", "satisfies")


class Drizzle(OrmCollector):
    """The Drizzle part of one run: hooks for the evaluator and the three passes."""

    def __init__(self) -> None:
        self.tables: dict[tuple[str, int], Table] = {}
        self.casing: str | None = None
        self.casing_known = True
        # Spans of table and relations() declarations: `users.id` inside them declares
        # a key or a relation, it does not query anything.
        self.declaration_spans: dict[str, list[tuple[int, int]]] = {}
        self.unreadable: set[str] = set()  # files with table or column names that are not constants

    # ---- evaluator hooks -----------------------------------------------------------

    def hooks(self) -> dict[str, Hook]:
        return {"package-call": self.package_call, "method": self.method, "call": self.call}

    def package_call(self, ev: Evaluator, path: str, node: Node, target: Val) -> Val | None:
        ref: PkgRef = target.ref
        if ref.package != "drizzle-orm":
            return None
        args = call_arguments(node)
        if ref.name == "drizzle":
            return self.drizzle_value(ev, path, node)
        if ref.name in packages.DRIZZLE_TABLES:
            return self._table(ev, path, node, args, None, None)
        if ref.name in packages.DRIZZLE_SCHEMAS and args:
            schema = ev.constant(path, args[0])
            return None if schema is None else Val("drizzle-schema", schema)
        if ref.name in packages.DRIZZLE_CREATORS and args:
            return Val("drizzle-creator", (path, args[0]))
        return None

    def method(self, ev: Evaluator, path: str, node: Node, info: Val) -> Val | None:
        receiver, name = info.ref
        if receiver.kind == "drizzle-schema" and name in ("table", "view", "materializedView"):
            return self._table(ev, path, node, call_arguments(node), receiver.ref, None)
        if receiver.kind == "drizzle-table" and name in VIEW_FINISHERS:
            return Val(receiver.kind, receiver.ref)
        return None

    def call(self, ev: Evaluator, path: str, node: Node, target: Val) -> Val | None:
        if target.kind != "drizzle-creator":
            return None
        creator_path, function = target.ref
        return self._table(ev, path, node, call_arguments(node), None, (creator_path, function))

    def drizzle_value(self, ev: Evaluator, path: str, node: Node) -> Val:
        """`drizzle(...)`: the database value, carrying its `schema` option's value."""
        for arg in call_arguments(node):
            arg = unwrap_value(arg)
            if arg.kind == "object":
                schema = _object_value(arg, "schema")
                if schema is not None:
                    return Val("drizzle", ev.value(path, schema))
        return Val("drizzle")

    # ---- declarations -----------------------------------------------------------------

    def _table(
        self,
        ev: Evaluator,
        path: str,
        node: Node,
        args: list[Node],
        schema: str | None,
        creator: tuple[str, Node] | None,
    ) -> Val | None:
        key = (path, node.start)
        if key in self.tables:
            return Val("drizzle-table", self.tables[key])
        written = ev.constant(path, args[0]) if args else None
        if written is None:
            self.unreadable.add(path)
            return None
        name = written if creator is None else _apply_creator(ev, creator, written)
        if name is None:
            return None
        table = Table(path, name, schema, args[0], node)
        self.tables[key] = table
        if len(args) > 1:
            self._columns(ev, path, args[1], table, 0)
        return Val("drizzle-table", table)

    def _columns(
        self,
        ev: Evaluator,
        path: str,
        node: Node,
        table: Table,
        depth: int,
        anchor: Node | None = None,
    ) -> None:
        """Columns of an object of builders; `anchor` locates keys read in another file."""
        node = unwrap_value(node)
        if node.kind == "function" and node.value in ("arrow", "expression") and depth == 0:
            body = node.part("body")
            if body is not None:
                self._columns(ev, path, body, table, depth + 1)
            return
        if node.kind != "object" or depth > 4:
            return
        for item in node.items:
            if item.kind == "property":
                key_node = item.part("key")
                key = key_name(key_node)
                value = item.part("value")
                if key is None or key_node is None or value is None:
                    continue
                located = key_node if anchor is None else anchor
                argument = _builder_argument(value)
                explicit = None
                if argument is not None and argument.kind != "object":  # not a config
                    explicit = ev.constant(path, argument)
                    if explicit is None:
                        self.unreadable.add(path)  # a column name computed at run time
                        continue
                table.columns.append(Column(key, located, explicit))
            elif item.kind == "spread":
                spread = ev.value(path, item.part("value"))
                if spread is not None and spread.kind == "object":
                    # Keys spread in from another file are located at the spread itself.
                    inner = anchor if anchor is not None or spread.ref[0] == path else item
                    self._columns(ev, spread.ref[0], spread.ref[1], table, depth + 1, inner)

    def column_name(self, column: Column) -> str | None:
        if column.explicit is not None:
            return column.explicit
        return convert(self.casing, column.key) if self.casing_known else None

    def read_options(self, run: OrmRun) -> None:
        """Every `drizzle()` call's and drizzle.config.*'s casing must agree."""
        found: set[str | None] = set()
        seen_any = False
        for path in run.paths:
            data = run.evaluator.data(path)
            if path.rpartition("/")[2].startswith("drizzle.config."):
                seen_any = True
                found.add(_casing_in(run.file(path).root))
            if b"drizzle" not in data:
                continue
            for call in run.calls(path):
                target = run.evaluator.value(path, callee_of(call))
                if (
                    target is not None
                    and target.kind == "pkg"
                    and (
                        target.ref.package,
                        target.ref.name,
                    )
                    == ("drizzle-orm", "drizzle")
                ):
                    seen_any = True
                    found.add(_casing_of_call(run.evaluator, path, call))
        if not seen_any:
            return
        if len(found) == 1 and UNPROVEN_CASING not in found:
            self.casing = next(iter(found))
        else:
            self.casing_known = False

    def declare(self, run: OrmRun) -> None:
        for path in run.paths:
            data = run.evaluator.data(path)
            if b"drizzle-orm" not in data:
                continue
            for declarator in _module_declarators(run.file(path).root):
                value = run.evaluator.value(path, declarator.part("value"))
                if value is None or value.kind != "drizzle-table":
                    continue
                table: Table = value.ref
                if table.path != path:
                    continue
                self._declare(run, table)
                self._span(path, declarator)
            self._relations(run, path)
        for path in sorted(self.unreadable):
            run.note(UNREADABLE, "drizzle-names", name=path)

    def _declare(self, run: OrmRun, table: Table) -> None:
        data = run.evaluator.data(table.path)
        variable = table.variable(data)
        run.declare(table.path, table.name_node, table.channel, variable)
        for column in table.columns:
            name = self.column_name(column)
            if name is None:
                run.note(UNVERIFIED, "drizzle-casing", name=f"{table.path}#{variable}.{column.key}")
                continue
            run.declare(
                table.path, column.key_node, table.channel, f"{variable}.{column.key}", name
            )

    def _relations(self, run: OrmRun, path: str) -> None:
        """`relations(users, ({ many, one }) => ({ posts: many(posts) }))`: key -> table."""
        ev = run.evaluator
        for call in run.calls(path):
            target = ev.value(path, callee_of(call))
            if target is None or target.kind != "pkg" or target.ref.name != "relations":
                continue
            args = call_arguments(call)
            source = ev.value(path, args[0]) if len(args) == 2 else None
            if source is None or source.kind != "drizzle-table":
                continue
            self._span(path, call)
            body = unwrap_value(args[1]).part("body")
            body = None if body is None else unwrap_value(body)
            if body is None or body.kind != "object":
                continue
            for item in body.items:
                key_node = item.part("key") if item.kind == "property" else None
                value = item.part("value") if item.kind == "property" else None
                key = key_name(key_node)
                if key is None or value is None or unwrap_value(value).kind not in CALLS:
                    continue
                related = call_arguments(unwrap_value(value))
                found = ev.value(path, related[0]) if related else None
                if found is not None and found.kind == "drizzle-table":
                    source.ref.relations[key] = found.ref

    def _span(self, path: str, node: Node) -> None:
        self.declaration_spans.setdefault(path, []).append((node.start, node.end))

    def _in_declaration(self, path: str, node: Node) -> bool:
        return any(start <= node.start < end for start, end in self.declaration_spans.get(path, ()))

    # ---- uses --------------------------------------------------------------------------

    def uses(self, run: OrmRun) -> None:
        for path in run.paths:
            data = run.evaluator.data(path)
            if not self.tables and b"drizzle" not in data:
                continue
            for node in run.nodes(path):
                if node.kind == "member":
                    self._column_reference(run, path, node)
                elif node.kind in CALLS:
                    self._call(run, path, node)

    def _is_db(self, run: OrmRun, path: str, receiver: Node) -> bool:
        """True when the chain starts at a proven database or transaction: a Drizzle
        table passed to anything else is a call on an untraced receiver."""
        value = run.evaluator.value(path, chain_root(receiver))
        return value is not None and value.kind == "drizzle"

    def _call(self, run: OrmRun, path: str, call: Node) -> None:
        ev = run.evaluator
        args = call_arguments(call)
        tagged = call.part("template")
        if tagged is not None:
            target = ev.value(path, call.part("tag"))
            if (
                target is not None
                and target.kind == "pkg"
                and (target.ref.package, target.ref.name) == ("drizzle-orm", "sql")
            ):
                self._sql_template(run, path, tagged)
            return
        shape = method_of(call)
        if shape is None:
            return
        method, _, receiver = shape
        if method in TABLE_METHODS and args:
            table = ev.value(path, args[0])
            if table is None or table.kind != "drizzle-table":
                if self._is_db(run, path, receiver) and not self._subquery(run, path, args[0]):
                    # A table the query names but no rule reads (an item of a map, an
                    # alias()): a dynamic use, as for knex's table expressions.
                    run.use(path, args[0], "", dynamic=True)
                    run.note(DYNAMIC, "drizzle-table", at=(path, call))
                return
            if self._is_db(run, path, receiver):
                run.use(path, args[0], table.ref.channel)
            else:
                run.note(UNRESOLVED, "drizzle", at=(path, call))
            return
        if method in ("values", "set") and args:
            statement = self._statement_table(run, path, receiver)
            if statement is not None:
                for item in args:
                    self._keys(run, path, item, statement)
            return
        if method in ("findMany", "findFirst") and receiver.kind == "member":
            self._relational(run, path, receiver, args)

    def _subquery(self, run: OrmRun, path: str, node: Node) -> bool:
        """`q.as("sq")`, written in place or held by a const: a subquery, whose own tables
        are uses where it is built."""
        node = unwrap_value(node)
        if node.kind == "identifier" and node.value:
            binding = run.evaluator.lookup(path, node, node.value)
            if binding is None or binding.node.kind != "declarator" or binding.keys != ():
                return False
            initializer = binding.node.part("value")
            if initializer is None:
                return False
            node = unwrap_value(initializer)
        shape = method_of(node) if node.kind in CALLS else None
        return shape is not None and shape[0] == "as"

    def _statement_table(self, run: OrmRun, path: str, node: Node) -> Table | None:
        """The table of the `insert(t)`/`update(t)` call a `.values()`/`.set()` chains on."""
        while node.kind in CALLS:
            shape = method_of(node)
            if shape is None:
                return None
            method, _, receiver = shape
            if method in ("insert", "update"):
                args = call_arguments(node)
                table = run.evaluator.value(path, args[0]) if args else None
                if table is None or table.kind != "drizzle-table":
                    return None
                return table.ref if self._is_db(run, path, receiver) else None
            node = receiver
        return None

    def _keys(self, run: OrmRun, path: str, node: Node, table: Table) -> None:
        node = unwrap_value(node)
        if node.kind == "array":
            for item in node.items:
                self._keys(run, path, item, table)
            return
        if node.kind != "object":
            return
        columns = {column.key: column for column in table.columns}
        for key, key_node, _ in written_entries(node):
            column = columns.get(key or "")
            name = None if column is None else self.column_name(column)
            if name is not None:
                run.use(path, key_node, table.channel, name)

    def _column_reference(self, run: OrmRun, path: str, node: Node) -> None:
        obj = node.part("object")
        prop = node.part("property")
        if obj is None or prop is None or obj.kind not in ("identifier", "member"):
            return
        key = prop.value
        if key is None:
            return
        value = run.evaluator.value(path, obj)
        if value is None or value.kind != "drizzle-table" or self._in_declaration(path, node):
            return
        table: Table = value.ref
        for column in table.columns:
            if column.key == key:
                name = self.column_name(column)
                if name is not None:
                    run.use(path, prop, table.channel, name)
                return

    def _relational(self, run: OrmRun, path: str, receiver: Node, args: list[Node]) -> None:
        """`db.query.<key>.findMany({ columns, with })`."""
        key_node = receiver.part("property")
        query = receiver.part("object")
        if key_node is None or query is None or query.kind != "member":
            return
        query_prop = query.part("property")
        db_node = query.part("object")
        if query_prop is None or db_node is None or query_prop.value != "query":
            return
        db = run.evaluator.value(path, db_node)
        if db is None:
            run.note(UNRESOLVED, "drizzle-query", at=(path, key_node))
            return
        if db.kind != "drizzle":
            return
        key = key_node.value or ""
        table = run.evaluator.member(path, db.ref, key)
        if table is None or table.kind != "drizzle-table":
            run.note(UNRESOLVED, "drizzle-query-schema", at=(path, key_node))
            return
        run.use(path, key_node, table.ref.channel)
        if args:
            self._options(run, path, args[0], table.ref, 0)

    def _options(self, run: OrmRun, path: str, node: Node, table: Table, depth: int) -> None:
        node = unwrap_value(node)
        if node.kind != "object" or depth > 8:
            return
        columns = _object_value(node, "columns")
        if columns is not None:
            self._keys(run, path, columns, table)
        related = _object_value(node, "with")
        related = None if related is None else unwrap_value(related)
        if related is None or related.kind != "object":
            return
        for item in related.items:
            if item.kind != "property":
                continue
            key_node = item.part("key")
            key = key_name(key_node)
            target = None if key is None else table.relations.get(key)
            if target is None or key_node is None:
                continue
            run.use(path, key_node, target.channel)
            value = item.part("value")
            if value is not None:
                self._options(run, path, value, target, depth + 1)

    def _sql_template(self, run: OrmRun, path: str, template: Node) -> None:
        """Drizzle's `sql` tag: `${table}` and `${table.column}` are named; other
        substitutions are bind parameters."""
        ev = run.evaluator

        def named(inner: Node | None) -> str:
            value = ev.value(path, inner)
            return (
                _quoted(value.ref)
                if value is not None and value.kind == "drizzle-table"
                else sql_relations.SUBSTITUTION
            )

        sql_text = template_text(template, named)
        if not sql_relations.looks_like_sql(sql_text):
            run.scan.claim(path, template.start)
            return
        found = sql_relations.extract_substituted(sql_text)
        for relation in found.relations:
            run.use(path, template, relation.name)
        if found.unresolved:
            run.use(path, template, "", dynamic=True)
            run.note("dynamic-relation-names:", "sql", at=(path, template))
        run.scan.claim(path, template.start)


def _quoted(table: Table) -> str:
    """The table as Drizzle writes it into SQL: each name a quoted identifier."""
    names = [table.name] if table.schema is None else [table.schema, table.name]
    return ".".join('"' + name.replace('"', '""') + '"' for name in names)


def _builder_argument(value: Node) -> Node | None:
    """The first argument of the builder call a column chain starts with
    (`"full_name"` in `text("full_name").notNull()`), None without arguments."""
    node = unwrap_value(value)
    while node.kind in CALLS:
        callee = callee_of(node)
        if callee is None:
            return None
        if callee.kind == "member":
            inner = callee.part("object")
            if inner is not None and unwrap_value(inner).kind in CALLS:
                node = unwrap_value(inner)
                continue
        args = call_arguments(node)
        return unwrap_value(args[0]) if args else None
    return None


def _object_value(obj: Node, key: str) -> Node | None:
    for item in obj.items:
        if item.kind == "property":
            if key_name(item.part("key")) == key:
                return item.part("value")
        elif item.kind == "shorthand" and item.value == key:
            return item
    return None


def _casing_of_call(ev: Evaluator, path: str, call: Node) -> str | None:
    """The casing of `drizzle(client, config)`, `drizzle(url, config)` or
    `drizzle({ connection, casing })` (drizzle-orm 0.45.3 signatures); UNPROVEN_CASING when the
    config is not an object the evaluator can read."""
    args = call_arguments(call)
    first = ev.value(path, args[0]) if args else None
    if len(args) >= 2:
        config = ev.value(path, args[1])
    elif first is not None and first.kind == "object":
        config = first
    else:
        return None
    if config is None or config.kind != "object":
        return UNPROVEN_CASING
    config_path, obj = config.ref
    if any(item.kind == "spread" for item in obj.items):
        return UNPROVEN_CASING
    value = _object_value(obj, "casing")
    if value is None:
        return None
    written = ev.constant(config_path, value)
    return written if written in CASINGS else UNPROVEN_CASING


def _casing_in(root: Node) -> str | None:
    """The `casing` key of a drizzle.config file's object literals (defineConfig({...}))."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.kind == "property" and is_object_property(node) and static_key(node) == "casing":
            written = literal_string(node.part("value"))
            return written if written in CASINGS else UNPROVEN_CASING
        stack.extend(node.children())
    return None


def _apply_creator(ev: Evaluator, creator: tuple[str, Node], name: str) -> str | None:
    """`pgTableCreator((name) => `app_${name}`)` applied to a literal name, when static."""
    path, function = creator
    function = unwrap_value(function)
    if function.kind != "function" or function.value != "arrow":
        return None
    params = function.part("parameters")
    first = params.items[0] if params is not None and params.items else None
    param = None if first is None else first.part("pattern")
    body = function.part("body")
    if param is None or body is None:
        return None
    parameter = ev.text(path, param)
    body = unwrap_value(body)
    if body.kind == "template":
        others: list[Node | None] = []

        def applied(inner: Node | None) -> str:
            if inner is None or ev.text(path, inner) != parameter:
                others.append(inner)
            return name

        text = template_text(body, applied)
        return None if others else text
    if body.kind == "binary":
        pieces: list[str] = []
        for side in (body.part("left"), body.part("right")):
            if side is None:
                return None
            if side.kind == "identifier" and side.value == parameter:
                pieces.append(name)
            else:
                literal = literal_string(side)
                if literal is None:
                    return None
                pieces.append(literal)
        return "".join(pieces)
    return None


def _module_declarators(root: Node) -> list[Node]:
    statements = top_level(root, ("declaration",))
    return [d for inner in statements for d in inner.items if d.kind == "declarator"]
