"""Database objects as values: connections, cursors, pools, declarative bases.

A library call that makes one gives a marker `Lib` path, so the value layer
carries it through names, `with … as`, `self.<attr>` and imports like any
library value: `sqlite3.connect(…)` is `Lib(("sqlite3", "<connection>"))`,
its `.cursor()` `Lib(("sqlite3", "<cursor>"))`, and a call of
`Lib(("sqlite3", "<cursor>", "execute"))` sends SQL (dbapi.py).

The entry points, from the drivers' documented APIs: sqlite3.connect
(connection and cursor execute/executemany/executescript), psycopg2.connect
and psycopg.connect / Connection.connect / AsyncConnection.connect (cursor and
connection execute/executemany), pymysql.connect (cursor execute/executemany),
asyncpg.connect and create_pool (execute, executemany, fetch, fetchrow,
fetchval on connections and pools; pool.acquire gives a connection), Django's
`django.db.connection.cursor()`. SQLAlchemy's declarative bases come from
declarative_base() (sqlalchemy.orm, sqlalchemy.ext.declarative),
registry().generate_base() and Flask-SQLAlchemy's `SQLAlchemy().Model`; `MetaData(…)`
makes a MetaData. Each remembers the call that made it (`Lib.origin`): the MetaData
options given there decide the tables' default schema (table_schema.py).
Other calls are the HTTP client's (routes/python_client/libraries.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic
from typing import TypeVar

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_client import libraries
from tsograph.producers.routes.python_client.evaluator import Cls
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.unknown import UNKNOWN

CONNECTION = "<connection>"
CURSOR = "<cursor>"
POOL = "<pool>"
BASE = "<base>"
REGISTRY = "<registry>"
DB = "<db>"
METADATA = "<metadata>"

_CONNECT = {
    ("sqlite3", "connect"): ("sqlite3", CONNECTION),
    ("psycopg2", "connect"): ("psycopg2", CONNECTION),
    ("psycopg", "connect"): ("psycopg", CONNECTION),
    ("psycopg", "Connection", "connect"): ("psycopg", CONNECTION),
    ("psycopg", "AsyncConnection", "connect"): ("psycopg", CONNECTION),
    ("pymysql", "connect"): ("pymysql", CONNECTION),
    ("asyncpg", "connect"): ("asyncpg", CONNECTION),
    ("asyncpg", "create_pool"): ("asyncpg", POOL),
    ("django", "db", "connection", "cursor"): ("django", CURSOR),
    ("sqlalchemy", "orm", "declarative_base"): ("sqlalchemy", BASE),
    ("sqlalchemy", "ext", "declarative", "declarative_base"): ("sqlalchemy", BASE),
    ("sqlalchemy", "orm", "registry"): ("sqlalchemy", REGISTRY),
    ("sqlalchemy", REGISTRY, "generate_base"): ("sqlalchemy", BASE),
    ("flask_sqlalchemy", "SQLAlchemy"): ("flask_sqlalchemy", DB),
    ("sqlalchemy", "MetaData"): ("sqlalchemy", METADATA),
    ("sqlalchemy", "schema", "MetaData"): ("sqlalchemy", METADATA),
    ("sqlalchemy", "sql", "schema", "MetaData"): ("sqlalchemy", METADATA),
    ("sqlmodel", "MetaData"): ("sqlalchemy", METADATA),
    ("flask_sqlalchemy", DB, "MetaData"): ("sqlalchemy", METADATA),
}
# Methods of a handle that give another handle.
_DERIVED = {
    (CONNECTION, "cursor"): CURSOR,
    (POOL, "acquire"): CONNECTION,
}
# Methods that send SQL text (first argument), per handle kind.
SQL_METHODS = {
    CONNECTION: frozenset(
        {"execute", "executemany", "executescript", "fetch", "fetchrow", "fetchval"}
    ),
    CURSOR: frozenset({"execute", "executemany", "executescript"}),
    POOL: frozenset({"execute", "executemany", "fetch", "fetchrow", "fetchval"}),
}


def library_value(
    ev: Evaluator, ctx: Context, call: Node, callee: Lib, args: Arguments[Node]
) -> Value:
    if callee.path == ("functools", "partial"):
        return _partial(ev, ctx, args)
    made = _CONNECT.get(callee.path)
    if made is not None:
        # A base made by `registry(…).generate_base()` holds the registry's MetaData.
        generated = callee.path == ("sqlalchemy", REGISTRY, "generate_base")
        return Lib(made, callee.origin if generated else (ctx.path, call))
    if len(callee.path) == 3:
        derived = _DERIVED.get((callee.path[1], callee.path[2]))
        if derived is not None:
            return Lib((callee.path[0], derived))
    return libraries.library_value(ev, ctx, call, callee, args)


def sql_call(callee: Value) -> bool:
    """Whether calling this value sends SQL text given as its first argument."""
    if not isinstance(callee, Lib) or len(callee.path) != 3:
        return False
    return callee.path[2] in SQL_METHODS.get(callee.path[1], frozenset())


def class_bases(project: PyProject, ctx: Context, cls: Node) -> list[Value]:
    """The values of a class statement's bases (keywords such as `table=True` left out)."""
    bases = cls.part("bases")
    ev = Evaluator(project)
    return [
        ev.value(ctx, item)
        for item in (bases.items if bases is not None else ())
        if item.kind not in ("keyword", "spread")
    ]


K = TypeVar("K")


class ClassKinds(Generic[K]):
    """What each project class is for a collector (a model, a base, …), decided once a
    class from the values of its bases and the kinds of its project parents; a class met
    again while its own kind is being decided (a cycle of bases) counts as `cycle`."""

    def __init__(
        self,
        project: PyProject,
        cycle: K,
        decide: Callable[[Context, Node, list[Value]], K],
    ) -> None:
        self.project = project
        self._cycle = cycle
        self._decide = decide
        self._kinds: dict[int, K] = {}

    def bases(self, ctx: Context, cls: Node) -> list[Value]:
        return class_bases(self.project, ctx, cls)

    def of(self, ctx: Context, cls: Node) -> K:
        key = id(cls)
        if key in self._kinds:
            return self._kinds[key]
        self._kinds[key] = self._cycle
        found = self._decide(ctx, cls, self.bases(ctx, cls))
        self._kinds[key] = found
        return found

    def parent(self, base: Value) -> K | None:
        """The kind of a base that is a project class; None for any other base."""
        if not isinstance(base, Cls):
            return None
        ctx = self.project.context(base.path)
        return None if ctx is None else self.of(ctx, base.node)


def _partial(ev: Evaluator, ctx: Context, args: Arguments[Node]) -> Value:
    """`functools.partial(db.Column, nullable=False)` (redash's `Column`): a library function
    given only options it does not name by, so calls of it make the same values."""
    if len(args.positional) != 1 or args.open or {"name", "key"} & set(args.keywords):
        return UNKNOWN
    function = ev.value(ctx, args.positional[0])
    return function if isinstance(function, Lib) else UNKNOWN
