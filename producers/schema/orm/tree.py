"""Reading declarations out of the syntax tree: which names a scope declares, where.

Pure functions over tree-sitter nodes, shared by the evaluator (values.py) and the
collectors: a statement's declared names (with the destructuring path that reaches
each), parameters, imports, global types of scripts and `.d.ts` files, and the
expressions a function returns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.lang.typescript.strings import decode_js_string
from tsograph.producers.lang.typescript.syntax import property_name, string_value, text
from tsograph.producers.schema.syntax import FUNCTIONS


def children(node: Node) -> Iterator[Node]:
    for child in node.named_children:
        if child.type != "comment":
            yield child


def object_value(obj: Node | None, data: bytes, key: str) -> Node | None:
    """The value of the `key: value` pair of an object literal (None for anything else)."""
    if obj is None or obj.type != "object":
        return None
    for item in children(obj):
        if item.type == "pair":
            key_node = item.child_by_field_name("key")
            if key_node is not None and property_name(data, key_node) == key:
                return item.child_by_field_name("value")
    return None


def object_entries(data: bytes, obj: Node) -> Iterator[tuple[str | None, Node, Node]]:
    """(written key, key node, entry) of each `key: value` pair and `{ key }` shorthand of an
    object literal; the key is None where it is computed."""
    for item in children(obj):
        if item.type == "pair":
            key = item.child_by_field_name("key")
            if key is not None:
                yield property_name(data, key), key, item
        elif item.type == "shorthand_property_identifier":
            yield text(data, item), item, item


def string_option(data: bytes, obj: Node | None, key: str) -> str | None:
    """The string literal an object literal gives `key`, if it is one."""
    value = object_value(obj, data, key)
    return None if value is None else string_value(data, value)


def call_arguments(node: Node) -> list[Node]:
    args = node.child_by_field_name("arguments")
    return [] if args is None or args.type != "arguments" else list(children(args))


def pattern_names(
    pattern: Node, data: bytes, path: tuple[str, ...]
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Names a binding pattern declares, each with the property path that reaches it."""
    kind = pattern.type
    if kind == "identifier":
        yield text(data, pattern), path
    elif kind == "object_pattern":
        for item in children(pattern):
            if item.type == "shorthand_property_identifier_pattern":
                name = text(data, item)
                yield name, (*path, name)
            elif item.type == "pair_pattern":
                key = item.child_by_field_name("key")
                value = item.child_by_field_name("value")
                key_name = None if key is None else property_name(data, key)
                if key_name is not None and value is not None:
                    yield from pattern_names(value, data, (*path, key_name))
            elif item.type == "object_assignment_pattern":
                left = item.child_by_field_name("left")
                if left is not None:
                    yield from pattern_names(left, data, (*path, text(data, left)))
    elif kind == "assignment_pattern":
        left = pattern.child_by_field_name("left")
        if left is not None:
            yield from pattern_names(left, data, path)


@dataclass(frozen=True, slots=True)
class Binding:
    """Where a name is declared: the declaring node and, for destructuring, the key path."""

    node: Node
    keys: tuple[str, ...] = ()


GLOBAL_TYPES = ("interface_declaration", "type_alias_declaration", "internal_module")


def global_types(parsed: ParsedFile, declaration_file: bool) -> Iterator[tuple[Node, bytes]]:
    """Top-level types and namespaces of a script or `.d.ts` file, and the types in
    `declare global { }` (wrangler's `interface Env`, `declare namespace Cloudflare`)."""
    is_module = parsed.facts.module_syntax
    for statement in children(parsed.root):
        inner = statement
        if statement.type in ("ambient_declaration", "expression_statement"):
            inner = next(children(statement), statement)
            if inner.type == "statement_block" or text(parsed.data, statement).startswith(
                "declare global"
            ):
                block = next((c for c in children(statement) if c.type == "statement_block"), None)
                for nested in [] if block is None else children(block):
                    if nested.type in GLOBAL_TYPES:
                        yield nested, parsed.data
                continue
        if inner.type in GLOBAL_TYPES and (
            not is_module or (declaration_file and statement.type != "export_statement")
        ):
            yield inner, parsed.data


def parameter_names(function: Node, data: bytes) -> Iterator[tuple[str, Binding]]:
    single = function.child_by_field_name("parameter")
    if single is not None and single.type == "identifier":
        yield text(data, single), Binding(single)
    params = function.child_by_field_name("parameters")
    for param in [] if params is None else children(params):
        pattern = param.child_by_field_name("pattern") if param.type != "identifier" else param
        if pattern is not None:
            for name, keys in pattern_names(pattern, data, ()):
                yield name, Binding(param, keys)


def scope_names(scope: Node, data: bytes) -> Iterator[tuple[str, Binding]]:
    for statement in children(scope):
        yield from declared(statement, data)


def declared(statement: Node, data: bytes) -> Iterator[tuple[str, Binding]]:
    """Every name one statement declares (hoisting ignored)."""
    kind = statement.type
    if kind == "export_statement":
        inner = statement.child_by_field_name("declaration")
        if inner is not None:
            yield from declared(inner, data)
    elif kind in ("lexical_declaration", "variable_declaration"):
        for declarator in children(statement):
            pattern = declarator.child_by_field_name("name")
            if declarator.type == "variable_declarator" and pattern is not None:
                for name, keys in pattern_names(pattern, data, ()):
                    yield name, Binding(declarator, keys)
    elif kind in (
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
    ):
        ident = statement.child_by_field_name("name")
        if ident is not None:
            yield text(data, ident), Binding(statement)
    elif kind == "import_statement":
        yield from imported_names(statement, data)


def imported_names(statement: Node, data: bytes) -> Iterator[tuple[str, Binding]]:
    for clause in children(statement):
        if clause.type != "import_clause":
            continue
        for part in children(clause):
            if part.type == "identifier":
                yield text(data, part), Binding(clause)
            elif part.type == "namespace_import":
                ident = next(children(part), None)
                if ident is not None:
                    yield text(data, ident), Binding(part)
            elif part.type == "named_imports":
                for spec in children(part):
                    alias = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
                    if alias is not None:
                        yield text(data, alias), Binding(spec)


def template_parts(data: bytes, node: Node) -> list[str | Node]:
    """A template literal as its text pieces (escapes decoded, as the runtime cooks
    them: `\\'` is `'`) and the expressions of its substitutions, in order."""
    parts: list[str | Node] = []
    cursor = node.start_byte + 1
    for child in node.named_children:
        if child.type != "template_substitution":
            continue
        parts.append(decode_js_string(data[cursor : child.start_byte].decode("utf-8", "replace")))
        inner = next(children(child), None)
        if inner is not None:
            parts.append(inner)
        cursor = child.end_byte
    parts.append(decode_js_string(data[cursor : node.end_byte - 1].decode("utf-8", "replace")))
    return parts


def plain_template(data: bytes, node: Node) -> str | None:
    """The value of a template literal without substitutions."""
    parts = template_parts(data, node)
    return parts[0] if len(parts) == 1 and isinstance(parts[0], str) else None


def is_const(declarator: Node) -> bool:
    declaration = declarator.parent
    first = None if declaration is None else declaration.child(0)
    return first is not None and first.type == "const"


def args_node_of(args: list[Node]) -> Node | None:
    """The type-arguments node that holds `args` (their common parent)."""
    return args[0].parent if args else None


def returned_expressions(body: Node) -> Iterator[Node]:
    """Expressions a function body returns, not looking into nested functions."""
    stack = [body]
    while stack:
        node = stack.pop()
        for child in reversed(list(children(node))):
            if child.type in FUNCTIONS or child.type in ("class_declaration", "class"):
                continue
            if child.type == "return_statement":
                value = next(children(child), None)
                if value is not None:
                    yield value
                continue
            stack.append(child)
