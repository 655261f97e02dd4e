"""Applying DDL statements, in order, to a catalog of tables and their columns.

sqlglot (30.x) parses each statement; this module only reads the parsed tree:

* `CREATE TABLE` (also `IF NOT EXISTS`, `AS SELECT`) and `CREATE VIEW` add a
  table with its columns: column definitions, or the named outputs of the
  select (a `*` output leaves the columns unknown, so none are declared);
* `ALTER TABLE … ADD COLUMN / DROP COLUMN / RENAME COLUMN … TO … / RENAME TO …`
  change them (several actions in one statement are applied in order);
* `DROP TABLE` / `DROP VIEW` remove them.

Other statements (indexes, constraints, types, grants, data) do not change
which tables and columns exist and are skipped. A statement that starts with
CREATE, ALTER, DROP or RENAME and that sqlglot cannot read (a parse error, or
its fallback `Command` for syntax it does not model) might have changed them,
so it is counted and named by file and line, never guessed.

Names are kept as written. Databases differ in how they fold unquoted names
(PostgreSQL lowercases, SQLite keeps the spelling and ignores case), so the
consumer compares letter case as uncertain instead of this module folding it.
A qualified name is `schema.table`; a `.` inside a name is written `%2E` and
`%` as `%25`, the rule relation-use channels follow.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from dataclasses import field

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError
from sqlglot.errors import TokenError

# sqlglot logs a warning for every statement it falls back on; the count is reported instead.
logging.getLogger("sqlglot").setLevel(logging.CRITICAL)

_CHANGING = frozenset({"CREATE", "ALTER", "DROP", "RENAME"})
_WORD = re.compile(r"[A-Za-z_]+")
# Words that can stand between CREATE/ALTER/DROP and TABLE or VIEW.
_MODIFIERS = frozenset(
    {
        "OR",
        "REPLACE",
        "TEMP",
        "TEMPORARY",
        "UNLOGGED",
        "GLOBAL",
        "LOCAL",
        "MATERIALIZED",
        "VIRTUAL",
        "FOREIGN",
        "RECURSIVE",
        "EXTERNAL",
        "TRANSIENT",
    }
)


@dataclass(frozen=True)
class Place:
    path: str
    offset: int  # character offset of the statement in the decoded file


@dataclass
class Table:
    place: Place
    columns: dict[str, Place] = field(default_factory=dict)


@dataclass
class Catalog:
    tables: dict[str, Table] = field(default_factory=dict)
    unread: list[tuple[str, int]] = field(default_factory=list)  # (path, offset)


def escape(name: str) -> str:
    return name.replace("%", "%25").replace(".", "%2E")


def table_name(table: exp.Table) -> str:
    parts = [part.name for part in (table.args.get("db"), table.this) if part is not None]
    return ".".join(escape(part) for part in parts if part)


@dataclass(frozen=True)
class Statement:
    text: str
    offset: int
    keyword: str


def statements(text: str, dialect: str | None) -> list[Statement]:
    """The statements of a file with their offsets, split at top-level semicolons."""
    tokens = sqlglot.tokenize(text, read=dialect)
    result: list[Statement] = []
    start: int | None = None
    keyword = ""
    for token in tokens:
        if token.token_type == sqlglot.TokenType.SEMICOLON:
            if start is not None:
                result.append(Statement(text[start : token.start], start, keyword))
            start = None
            continue
        if start is None:
            start, keyword = token.start, token.text.upper()
    if start is not None:
        result.append(Statement(text[start:], start, keyword))
    return result


def apply_file(catalog: Catalog, path: str, text: str, dialect: str | None) -> None:
    try:
        parts = statements(text, dialect)
    except TokenError:
        catalog.unread.append((path, 0))
        return
    for statement in parts:
        place = Place(path, statement.offset)
        try:
            tree = sqlglot.parse_one(statement.text, read=dialect)
        except (ParseError, TokenError):
            tree = None
        if tree is None or isinstance(tree, exp.Command):
            if _may_change_tables(statement):
                catalog.unread.append((path, statement.offset))
            continue
        _apply(catalog, tree, place)


def _may_change_tables(statement: Statement) -> bool:
    """Whether an unread statement could create, change or drop a table or view.

    `CREATE TYPE`, `CREATE FUNCTION`, `CREATE EXTENSION` and the like cannot,
    and Prisma's PostgreSQL migrations hold them for every enum.
    """
    if statement.keyword == "RENAME":
        return True
    if statement.keyword not in _CHANGING:
        return False
    words = [word.upper() for word in _WORD.findall(statement.text[:200])][1:]
    for word in words:
        if word in ("TABLE", "VIEW"):
            return True
        if word not in _MODIFIERS:
            return False
    return False


def _apply(catalog: Catalog, tree: exp.Expr, place: Place) -> None:
    if isinstance(tree, exp.Create) and str(tree.args.get("kind", "")).upper() in ("TABLE", "VIEW"):
        _create(catalog, tree, place)
    elif isinstance(tree, exp.Alter) and str(tree.args.get("kind", "")).upper() == "TABLE":
        _alter(catalog, tree, place)
    elif isinstance(tree, exp.Drop) and str(tree.args.get("kind", "")).upper() in ("TABLE", "VIEW"):
        for table in tree.args.get("expressions") or tree.args.get("tables") or []:
            if isinstance(table, exp.Table):
                catalog.tables.pop(table_name(table), None)


def _create(catalog: Catalog, tree: exp.Create, place: Place) -> None:
    target = tree.this
    schema = target if isinstance(target, exp.Schema) else None
    table = schema.this if schema is not None else target
    if not isinstance(table, exp.Table):
        return
    name = table_name(table)
    if tree.args.get("exists") and name in catalog.tables:
        return  # IF NOT EXISTS on a table that is already there does nothing
    created = Table(place)
    if schema is not None:
        for column in schema.expressions:
            if isinstance(column, exp.ColumnDef):
                created.columns[column.name] = place
    query = tree.expression
    if isinstance(query, exp.Query) and "*" not in query.named_selects:
        for output in query.named_selects:
            created.columns[output] = place
    catalog.tables[name] = created


def _alter(catalog: Catalog, tree: exp.Alter, place: Place) -> None:
    target = tree.this
    if not isinstance(target, exp.Table):
        return
    name = table_name(target)
    table = catalog.tables.get(name)
    if table is None:
        if tree.args.get("exists"):
            return  # ALTER TABLE IF EXISTS on a table these files never created
        # The table was made elsewhere (an earlier baseline); the ALTER proves it exists.
        table = catalog.tables[name] = Table(place)
    for action in tree.args.get("actions") or []:
        if isinstance(action, exp.ColumnDef):
            table.columns[action.name] = place
        elif isinstance(action, exp.Drop) and str(action.args.get("kind", "")).upper() == "COLUMN":
            for column in action.args.get("expressions") or action.args.get("tables") or []:
                table.columns.pop(column.name, None)
        elif isinstance(action, exp.RenameColumn):
            old, new = action.this.name, action.args["to"].name
            if old in table.columns:
                del table.columns[old]
            table.columns[new] = place
        elif isinstance(action, exp.AlterRename):
            renamed = action.this
            if isinstance(renamed, exp.Table):
                del catalog.tables[name]
                moved = Table(place, table.columns)
                # A rename keeps the schema unless the new name gives one.
                new_name = table_name(renamed)
                if "." not in new_name and "." in name:
                    new_name = name.rsplit(".", 1)[0] + "." + new_name
                catalog.tables[new_name] = moved
                name, table = new_name, moved
