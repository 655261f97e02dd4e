"""Which tree-sitter grammar reads a file, and the one query that finds what facts need.

Which suffix takes which grammar is in lang/suffixes.py.

The query captures every node a fact can start from under one name; the
extractor walks the captures in source order instead of visiting every node
in Python, which is where the time would go.
"""

from __future__ import annotations

from functools import cache

from tree_sitter import Node
from tree_sitter import Parser
from tree_sitter import Query
from tree_sitter import QueryCursor
from tree_sitter_language_pack import get_language
from tree_sitter_language_pack import get_parser

from tsograph.producers.lang.suffixes import GRAMMAR_BY_SUFFIX
from tsograph.producers.lang.suffixes import Grammar

_CAPTURED = """
[
  (function_declaration) (generator_function_declaration) (function_signature)
  (function_expression) (arrow_function) (generator_function)
  (method_definition) (method_signature) (abstract_method_signature)
  (class_declaration) (abstract_class_declaration) (class)
  (public_field_definition) (class_static_block)
  (variable_declarator) (call_expression) (new_expression) (decorator)
  (import_statement) (export_statement) (assignment_expression)
  (augmented_assignment_expression) (return_statement)
  (statement_block) (for_statement) (for_in_statement) (catch_clause) (switch_body)
  (internal_module) (ambient_declaration)
  (interface_declaration) (type_alias_declaration) (enum_declaration)
  (shorthand_property_identifier)
  (as_expression) (satisfies_expression)
] @n
(arguments [(identifier) (member_expression)] @n)
(pair value: [(identifier) (member_expression)] @n)
(array [(identifier) (member_expression)] @n)
(return_statement [(identifier) (member_expression)] @n)
(variable_declarator value: [(identifier) (member_expression)] @n)
(assignment_expression right: [(identifier) (member_expression)] @n)
(export_statement value: [(identifier) (member_expression)] @n)
(binary_expression operator: "instanceof" right: [(identifier) (member_expression)] @n)
"""

_JSX = """
[(jsx_opening_element) (jsx_self_closing_element)] @n
(jsx_expression [(identifier) (member_expression)] @n)
"""


# `<T>x` exists in the typescript grammar only (tsx reads `<T>` as JSX).
_ASSERTIONS = """
(type_assertion) @n
"""


def grammar_for(path: str) -> Grammar:
    """The grammar for a source path (tsx for anything not TypeScript)."""
    dot = path.rfind(".")
    return GRAMMAR_BY_SUFFIX.get(path[dot:].lower() if dot >= 0 else "", "tsx")


@cache
def _parser(grammar: Grammar) -> Parser:
    return get_parser(grammar)


@cache
def _query(grammar: Grammar) -> Query:
    source = _CAPTURED + (_JSX if grammar == "tsx" else _ASSERTIONS)
    return Query(get_language(grammar), source)


def parse(grammar: Grammar, data: bytes) -> Node:
    return _parser(grammar).parse(data).root_node


def captures(grammar: Grammar, root: Node) -> list[Node]:
    """The captured nodes in source order, an enclosing node before the nodes inside it."""
    nodes = QueryCursor(_query(grammar)).captures(root).get("n", [])
    nodes.sort(key=_order)
    return nodes


def _order(node: Node) -> tuple[int, int]:
    start, end = node.byte_range
    return start, -end
