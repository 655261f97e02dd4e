"""`null` and `undefined` as values: the literal `null`, `void x`, and `undefined`
where the file does not declare a name `undefined` of its own.

`undefined` is an ordinary identifier in JavaScript: a parameter, variable,
import or destructured name may rebind it. Tree-sitter parses that name as an
`undefined` node in a parameter or pattern and as an `identifier` in a
declarator or import, so a file counts as rebinding it when any occurrence of
the word sits in such a place; every `undefined` of that file is then an
ordinary value (`other`), which keeps the flow unknown rather than wrong.
"""

from __future__ import annotations

from tree_sitter import Node

_WORD = b"undefined"
# Nodes a name `undefined` parses as when the file declares or rebinds it.
_NAMES = frozenset(
    {
        "identifier",
        "type_identifier",
        "shorthand_property_identifier_pattern",
        "shorthand_property_identifier",
    }
)
# Parents of an `undefined` node that make it a binding, by the field that holds it
# ("" for any child).
_BINDING_FIELDS = {
    "required_parameter": "pattern",
    "optional_parameter": "pattern",
    "pair_pattern": "value",
    "assignment_pattern": "left",
    "variable_declarator": "name",
    "array_pattern": "",
    "rest_pattern": "",
    "ERROR": "",
}


def is_null_literal(node: Node) -> bool:
    """`null`, or `void x` (which is undefined whatever x is)."""
    if node.type == "null":
        return True
    if node.type != "unary_expression":
        return False
    operator = node.child_by_field_name("operator")
    return operator is not None and operator.type == "void"


def rebinds_undefined(node: Node, data: bytes) -> bool:
    """True when the file holding node may declare its own `undefined`."""
    root = node
    while root.parent is not None:
        root = root.parent
    start = data.find(_WORD)
    while start >= 0:
        found = root.descendant_for_byte_range(start, start + len(_WORD))
        if found is not None and _binds(found, start):
            return True
        start = data.find(_WORD, start + len(_WORD))
    return False


def _binds(node: Node, start: int) -> bool:
    if node.start_byte != start or node.end_byte != start + len(_WORD):
        return False  # part of a longer word, a string or a comment
    if node.type in _NAMES:
        return True
    parent = node.parent
    if node.type != "undefined" or parent is None or parent.type not in _BINDING_FIELDS:
        return False
    field = _BINDING_FIELDS[parent.type]
    if not field:
        return True
    holder = parent.child_by_field_name(field)
    return holder is not None and holder.start_byte == start
