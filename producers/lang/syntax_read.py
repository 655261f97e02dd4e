"""Small read-only questions over the neutral syntax form, asked the same way by every producer.

Interface:
    unwrap(node)               through every `cast` (`as`, `as const`, `satisfies`, `!`, `<T>x`)
    unwrap_value(node)         unwrap, and through `await`: the value an initializer stands for
    string_value(node)         a string, or a template without substitutions; None otherwise
    template_text(t, sub)      a template's cooked text, substitutions replaced by sub(expression)
    static_key(member)         the static key of an object member (property, shorthand, method)
    object_entries(obj)        (key, key node, value node or None) of the static keys, in order
    object_property(obj, key)  the value node of a static key
    chain(node)                `a.b.c` / `this.x.y` as names, None when not a plain chain
    top_level(module, kinds)   module statements of those kinds, through `export`
    top_level_consts(module)   name -> initializer of module-level `const`s
    is_function(node)          a function with a body (not a signature)
    enclosing_function(node)   the nearest function around a node
    find_all(root, kinds)      the nodes of some kinds below a node, in source order
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Collection

from tsograph.producers.lang.syntax_tree import Node


def unwrap(node: Node) -> Node:
    while node.kind == "cast":
        inner = node.part("value")
        if inner is None:
            return node
        node = inner
    return node


def unwrap_value(node: Node) -> Node:
    node = unwrap(node)
    while node.kind == "await":
        inner = node.part("value")
        if inner is None:
            return node
        node = unwrap(inner)
    return node


def string_value(node: Node) -> str | None:
    node = unwrap(node)
    if node.kind == "string":
        return node.value
    if node.kind == "template":
        if any(item.kind == "substitution" for item in node.items):
            return None
        return "".join(item.value or "" for item in node.items)
    return None


def template_text(template: Node, substitute: Callable[[Node | None], str]) -> str:
    parts: list[str] = []
    for item in template.items:
        if item.kind == "substitution":
            parts.append(substitute(item.part("value")))
        else:
            parts.append(item.value or "")
    return "".join(parts)


def static_key(member: Node) -> str | None:
    """`a: 1`, `"a": 1`, `1: x`, `{ a }`, `a() {}` give their key; computed keys give None."""
    if member.kind == "shorthand":
        return member.value
    if member.kind == "property":
        key = member.part("key")
    elif member.kind == "function":
        key = member.part("name")
    else:
        return None
    if key is None:
        return None
    if key.kind in ("name", "identifier", "number", "string"):
        return key.value
    return None


def object_entries(obj: Node) -> list[tuple[str, Node, Node | None]]:
    found: list[tuple[str, Node, Node | None]] = []
    for member in obj.items:
        key = static_key(member)
        if key is None:
            continue
        if member.kind == "property":
            key_node = member.part("key")
            found.append((key, key_node if key_node is not None else member, member.part("value")))
        else:
            found.append((key, member, None))
    return found


def object_property(obj: Node, key: str) -> Node | None:
    for name, _, value in object_entries(obj):
        if name == key:
            return value
    return None


def chain(node: Node) -> tuple[str, ...] | None:
    """The names of a plain chain (`a.b.c`, `this.x`), unwrapping casts; None otherwise."""
    names: list[str] = []
    node = unwrap(node)
    while node.kind == "member":
        prop = node.part("property")
        inner = node.part("object")
        if prop is None or inner is None or prop.value is None:
            return None
        names.append(prop.value)
        node = unwrap(inner)
    if node.kind == "identifier" and node.value is not None:
        names.append(node.value)
    elif node.kind in ("this", "super"):
        names.append(node.kind)
    else:
        return None
    return tuple(reversed(names))


def top_level(module: Node, kinds: tuple[str, ...]) -> list[Node]:
    found = []
    for statement in module.items:
        inner = statement.part("declaration") if statement.kind == "export" else statement
        if inner is not None and inner.kind in kinds:
            found.append(inner)
    return found


def top_level_consts(module: Node) -> dict[str, Node]:
    found: dict[str, Node] = {}
    for declaration in top_level(module, ("declaration",)):
        if declaration.value != "const":
            continue
        for declarator in declaration.items:
            name = declarator.part("name")
            value = declarator.part("value")
            if name is not None and value is not None and name.kind == "identifier":
                found[name.value or ""] = value
    return found


def is_function(node: Node) -> bool:
    return node.kind == "function" and node.value != "signature"


def enclosing_function(node: Node) -> Node | None:
    for ancestor in node.ancestors():
        if is_function(ancestor):
            return ancestor
    return None


def find_all(root: Node, kinds: Collection[str]) -> list[Node]:
    """The nodes of those kinds at or below `root`, in source order, outer first.

    What `[n for n in root.walk() if n.kind in kinds]` gives, without ordering every
    node's children: one unordered pass, then one sort of what was found (a whole-file
    search is several times cheaper).
    """
    found: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.kind in kinds:
            found.append(node)
        stack.extend(node.decorators)
        stack.extend(node.parts.values())
        stack.extend(node.items)
    found.sort(key=lambda node: (node.start, -node.end))
    return found
