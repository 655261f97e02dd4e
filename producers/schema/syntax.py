"""Small read-only helpers over tree-sitter syntax nodes, shared by schema collectors.

Interface (stable):
    unwrap(node)              strip parentheses, `as`, `satisfies`, `!` and type assertions
    string_value(node)        the value of a string literal or a template without
                              substitutions; None otherwise
    template_text(t, sub)     a template's text, substitutions replaced by sub(expression)
    property_key(pair)        the static key of an object `pair` (or shorthand), None when computed
    object_property(obj, key) the value node of a static key in an object literal
    object_keys(obj)          (key, key node, value node or None) of the static keys, in order
    top_level(root, kinds)    module-level statements of those kinds, exported or not
    top_level_consts(root)    name -> initializer node of module-level `const`s
    walk(node)                every node below `node`, in source order (iterative)
    text(node)                the node's source text
    FUNCTIONS                 the node types that open a function scope
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Iterator

from tree_sitter import Node

from tsograph.producers.lang.typescript.syntax import WRAPPERS

FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "arrow_function",
        "generator_function",
        "method_definition",
    }
)


def text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def unwrap(node: Node) -> Node:
    while node.type in WRAPPERS:
        inner = next((child for child in node.named_children if child.type != "comment"), None)
        if inner is None or inner.type in ("type_annotation",):
            return node
        node = inner
    return node


def _decode_escapes(raw: str) -> str:
    try:
        return json.loads('"' + raw.replace('"', '\\"') + '"') if "\\" in raw else raw
    except ValueError:
        return codecs.decode(raw, "unicode_escape", "replace") if raw.isascii() else raw


def string_value(node: Node) -> str | None:
    node = unwrap(node)
    if node.type == "string":
        parts: list[str] = []
        for child in node.named_children:
            if child.type == "string_fragment":
                parts.append(text(child))
            elif child.type == "escape_sequence":
                parts.append(_decode_escapes(text(child)))
        return "".join(parts)
    if node.type == "template_string":
        parts = []
        for child in node.named_children:
            if child.type == "template_substitution":
                return None
            if child.type == "string_fragment":
                parts.append(text(child))
            elif child.type == "escape_sequence":
                parts.append(_decode_escapes(text(child)))
        return "".join(parts)
    return None


def template_text(template: Node, substitute: Callable[[Node | None], str]) -> str:
    """The cooked text of a template literal, each substitution replaced by what
    `substitute` gives for its expression."""
    parts: list[str] = []
    for child in template.named_children:
        if child.type == "string_fragment":
            parts.append(text(child))
        elif child.type == "escape_sequence":
            parts.append(_decode_escapes(text(child)))
        elif child.type == "template_substitution":
            parts.append(substitute(child.named_children[0] if child.named_children else None))
    return "".join(parts)


def property_key(pair: Node) -> str | None:
    if pair.type == "shorthand_property_identifier":
        return text(pair)
    if pair.type not in ("pair", "method_definition"):
        return None
    key = (
        pair.child_by_field_name("key") if pair.type == "pair" else pair.child_by_field_name("name")
    )
    if key is None:
        return None
    if key.type in ("property_identifier", "identifier", "number"):
        return text(key)
    if key.type == "string":
        return string_value(key)
    return None


def object_keys(obj: Node) -> list[tuple[str, Node, Node | None]]:
    found: list[tuple[str, Node, Node | None]] = []
    for child in obj.named_children:
        name = property_key(child)
        if name is None:
            continue
        if child.type == "pair":
            key = child.child_by_field_name("key")
            found.append(
                (name, key if key is not None else child, child.child_by_field_name("value"))
            )
        else:
            found.append((name, child, None))
    return found


def object_property(obj: Node, key: str) -> Node | None:
    for name, _, value in object_keys(obj):
        if name == key:
            return value
    return None


def top_level(root: Node, kinds: tuple[str, ...]) -> list[Node]:
    """The module's statements of the given kinds, exported or not, in source order."""
    found = []
    for statement in root.named_children:
        inner = (
            statement.child_by_field_name("declaration")
            if statement.type == "export_statement"
            else statement
        )
        if inner is not None and inner.type in kinds:
            found.append(inner)
    return found


def top_level_consts(root: Node) -> dict[str, Node]:
    found: dict[str, Node] = {}
    for declaration in top_level(root, ("lexical_declaration",)):
        if not text(declaration).startswith("const"):
            continue
        for declarator in declaration.named_children:
            if declarator.type != "variable_declarator":
                continue
            name = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if name is not None and value is not None and name.type == "identifier":
                found[text(name)] = value
    return found


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))
