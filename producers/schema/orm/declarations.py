"""Reading declarations out of the neutral syntax form: which names a scope declares, where.

Pure functions over syntax nodes, shared by the evaluator (orm_evaluator.py) and the
collectors: global types of scripts and `.d.ts` files, the calls and member accesses of
a file and object literals. Which declaration a name refers to is the value
layer's one scope table (producers/values/scopes.py); `Binding` is what the evaluator
keeps of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values.scopes import Declaration

# What collectors look at: calls (tagged templates are calls too), `new` and member access.
CODE_KINDS = frozenset({"call", "tagged", "new", "member"})
CALLS = ("call", "tagged")
# Nodes whose statements declare names (a function's parameters are looked up apart).
SCOPES = frozenset({"module", "block", "case", "default_case"})
ASSIGNMENTS = frozenset({"assign"})
PROPERTIES = frozenset({"property"})


def code_nodes(root: Node) -> tuple[Node, ...]:
    """Calls, tagged templates, `new` expressions and member accesses below `root`, in
    source order, outer first."""
    return tuple(find_all(root, CODE_KINDS))


def simple_assignments(root: Node) -> Iterator[Node]:
    """`name = value` assignments below `root` (not compound ones, not to members)."""
    for node in find_all(root, ASSIGNMENTS):
        if node.value == "=":
            left = node.part("left")
            if left is not None and left.kind == "identifier":
                yield node


def literal_string(node: Node | None) -> str | None:
    """The value of a string literal itself (no template, nothing unwrapped)."""
    return node.value if node is not None and node.kind == "string" else None


def source_text(data: bytes, node: Node) -> str:
    """The source text of a node, as written."""
    return data[node.start : node.end].decode("utf-8", "replace")


def key_name(node: Node | None) -> str | None:
    """A static property or member name (`a`, `#a`, `"a"`, `1`); None when computed."""
    if node is None or node.kind not in ("name", "identifier", "number", "string"):
        return None
    return node.value


def callee_of(call: Node) -> Node | None:
    """What a call, tagged template or `new` calls."""
    return call.part("tag") if call.kind == "tagged" else call.part("callee")


def call_arguments(node: Node) -> list[Node]:
    """The arguments of a call or `new` (a tagged template has none)."""
    return list(node.items) if node.kind in ("call", "new") else []


def object_value(obj: Node | None, key: str) -> Node | None:
    """The value of the `key: value` property of an object literal (None for anything else)."""
    if obj is None or obj.kind != "object":
        return None
    for item in obj.items:
        if item.kind == "property" and static_key(item) == key:
            return item.part("value")
    return None


def written_entries(obj: Node) -> Iterator[tuple[str | None, Node, Node]]:
    """(written key, key node, entry) of each `key: value` property and `{ key }` shorthand
    of an object literal; the key is None where it is computed."""
    for item in obj.items:
        if item.kind == "property":
            key = item.part("key")
            if key is not None:
                yield key_name(key), key, item
        elif item.kind == "shorthand":
            yield item.value, item, item


def string_option(obj: Node | None, key: str) -> str | None:
    """The string literal an object literal gives `key`, if it is one."""
    return literal_string(object_value(obj, key))


def has_spread(obj: Node) -> bool:
    return any(item.kind == "spread" for item in obj.items)


def object_properties(root: Node) -> list[Node]:
    """The `key: value` properties of the object literals at or below `root`."""
    return [node for node in find_all(root, PROPERTIES) if is_object_property(node)]


def is_object_property(node: Node) -> bool:
    """A `key: value` property of an object literal (not of a destructuring pattern)."""
    return node.kind == "property" and (node.parent is None or node.parent.kind == "object")


@dataclass(frozen=True, slots=True)
class Binding:
    """Where a name is declared: the declaring node and, for destructuring, the key path
    (None where no property path reaches the name: see producers/values/scopes.py)."""

    node: Node
    keys: tuple[str, ...] | None = ()

    @staticmethod
    def of(declaration: Declaration) -> Binding:
        return Binding(declaration.node, declaration.keys)


def is_internal_module(node: Node, data: bytes) -> bool:
    """`namespace X {}`, not `module X {}` / `declare module 'x' {}`."""
    return node.kind == "namespace" and data[node.start : node.start + 9] == b"namespace"


def _global_kind(node: Node, data: bytes) -> bool:
    return node.kind in ("interface", "type_alias") or is_internal_module(node, data)


def global_types(file: SyntaxFile, declaration_file: bool) -> Iterator[Node]:
    """Top-level types and namespaces of a script or `.d.ts` file, and the types in
    `declare global { }` (wrangler's `interface Env`, `declare namespace Cloudflare`)."""
    is_module = file.facts.module_syntax
    data = file.data
    for statement in file.root.items:
        inner = statement
        if statement.kind == "ambient":
            inner = statement.items[0] if statement.items else statement
        elif statement.kind == "statement":
            inner = statement.part("value") or statement
        if inner.kind == "block":  # declare global { … }
            for nested in inner.items:
                if _global_kind(nested, data):
                    yield nested
            continue
        if _global_kind(inner, data) and (
            not is_module or (declaration_file and statement.kind != "export")
        ):
            yield inner


def declared_name(node: Node, data: bytes) -> str | None:
    """The name a class, function, interface, type alias or namespace declares, as written."""
    name = node.part("name")
    if name is None:
        return None
    return name.value if name.value is not None else data[name.start : name.end].decode()


def single_unparenthesized(parameters: Node, data: bytes) -> bool:
    """`x => …`: the one parameter of an arrow written without parentheses."""
    return data[parameters.start : parameters.start + 1] != b"("


def is_const(declarator: Node) -> bool:
    declaration = declarator.parent
    return declaration is not None and declaration.value == "const"
