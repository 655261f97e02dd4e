"""The calls and member accesses of a file, found by one tree-sitter query.

Collectors look at every call (`db.select()`, `knex('t')`) and member access
(`users.email`); a query runs in C, where walking every node in Python would cost
seconds on a large project.
"""

from __future__ import annotations

from functools import cache

from tree_sitter import Node, Query, QueryCursor
from tree_sitter_language_pack import get_language

from tsograph.producers.lang.typescript.grammar import Grammar, grammar_for

CODE = "[(call_expression) (new_expression) (member_expression)] @n"
ASSIGNMENTS = "(assignment_expression left: (identifier)) @n"


@cache
def _query(grammar: Grammar, source: str) -> Query:
    return Query(get_language(grammar), source)


def code_nodes(path: str, root: Node, source: str = CODE) -> tuple[Node, ...]:
    """The nodes `source` captures (calls, `new` expressions and member accesses by
    default), in source order, outer first."""
    nodes = QueryCursor(_query(grammar_for(path), source)).captures(root).get("n", [])
    nodes.sort(key=lambda node: (node.start_byte, -node.end_byte))
    return tuple(nodes)
