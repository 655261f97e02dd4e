"""Destructuring patterns: which names they bind and which property path each reads."""

from __future__ import annotations

from tree_sitter import Node

from tsograph.producers.lang.typescript import syntax


def pattern_names(data: bytes, pattern: Node) -> list[tuple[Node, tuple[str, ...] | None]]:
    """Identifiers a destructuring pattern binds, with the property path each one reads.

    The path is None where no static property path leads to the name (array
    elements, rest elements).
    """
    found: list[tuple[Node, tuple[str, ...] | None]] = []
    pending: list[tuple[Node, tuple[str, ...] | None]] = [(pattern, ())]
    while pending:
        node, keys = pending.pop()
        kind = node.type
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            name_keys = keys
            if kind == "shorthand_property_identifier_pattern" and keys is not None:
                name_keys = (*keys, syntax.text(data, node))
            found.append((node, name_keys))
        elif kind == "object_pattern":
            for child in reversed(node.named_children):
                pending.append((child, keys))
        elif kind == "array_pattern":
            for child in reversed(node.named_children):
                pending.append((child, None))
        elif kind == "pair_pattern":
            key = node.child_by_field_name("key")
            value = node.child_by_field_name("value")
            if value is not None:
                key_name = None if key is None else syntax.property_name(data, key)
                pending.append(
                    (value, None if keys is None or key_name is None else (*keys, key_name))
                )
        elif kind in ("object_assignment_pattern", "assignment_pattern"):
            left = node.child_by_field_name("left")
            if left is not None:
                pending.append((left, keys))
        elif kind == "rest_pattern":
            inner = syntax.first_named(node)
            if inner is not None:
                pending.append((inner, None))
    return found
