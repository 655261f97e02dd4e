"""SQL text a Python project sends: DB-API `execute(...)` on proven connections and cursors,
asyncpg's query methods, and SQLAlchemy's `text(...)`.

The SQL argument is the first one (or `sql=`/`query=`/`operation=`). Text the
value layer proves is read with the shared SQL extractor; text it does not
prove is one dynamic fact. Calls on receivers that are not proven to come from
a driver (handles.py) are not read.
"""

from __future__ import annotations

from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.scopes import nodes
from tsograph.producers.schema.python.handles import sql_call
from tsograph.producers.schema.python.relation_scan import PySchemaScan
from tsograph.producers.values.python.arguments import Arguments

TEXT = frozenset(
    {
        ("sqlalchemy", "text"),
        ("sqlalchemy", "sql", "text"),
        ("sqlalchemy", "sql", "expression", "text"),
        ("sqlmodel", "text"),
    }
)
_DRIVER_FILES = (
    b"sqlite3",
    b"psycopg",
    b"asyncpg",
    b"pymysql",
    b"django",
    b"sqlalchemy",
    b"sqlmodel",
)


def collect(scan: PySchemaScan) -> None:
    for ctx in scan.contexts():
        if not any(word in ctx.syntax.data for word in _DRIVER_FILES):
            continue
        for node in nodes(ctx.root):
            if node.kind != "call":
                continue
            callee_node = node.part("callee")
            if callee_node is None:
                continue
            ev = Evaluator(scan.project)
            callee = ev.value(ctx, callee_node)
            is_text = isinstance(callee, Lib) and callee.path in TEXT
            if not is_text and not sql_call(callee):
                continue
            args = Arguments.of(node)
            sql_node = args.get(0, "text" if is_text else "sql")
            if sql_node is None:
                sql_node = args.keywords.get("query") or args.keywords.get("operation")
            value = ev.value(ctx, sql_node) if sql_node is not None else None
            scan.sql(ctx, node, value if isinstance(value, str) else None)
