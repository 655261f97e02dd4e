"""Syntax-level name binding for client provenance: what a scope declares.

declarations(scope)   (name, declaring node) of the names a scope node declares
                      directly: parameters of a function, `const`/`let`/`var`
                      declarators, functions and classes, import bindings (their
                      declaring node is the `import` statement)
default_expression(root)  the value of `export default …` or `module.exports = …`
is_require_or_import(node) a `require(…)` / `import(…)` call, awaited or not
defining_types(declaration)  the type nodes that make a type alias or interface what it
                      is: the alias's right side, the interface's `extends` types (never
                      its body: an interface with a client member is not a client)
prisma_member(node, namespaces, member)  `Prisma.<member>` through a namespace import
"""

from __future__ import annotations

from collections.abc import Iterator

from tsograph.producers.lang.syntax_read import is_function, unwrap, unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values import modules
from tsograph.producers.values.patterns import pattern_names


def defining_types(node: Node) -> list[Node]:
    if node.kind == "type_alias":
        value = node.part("type")
        return [] if value is None else [value]
    extends = node.part("extends")
    return [] if extends is None else list(extends.items)


def is_require_or_import(node: Node) -> bool:
    node = unwrap_value(node)
    if node.kind != "call":
        return False
    callee = node.part("callee")
    return modules.is_require(callee) or modules.is_dynamic_import(callee)


def default_expression(root: Node) -> Node | None:
    for statement in root.items:
        if statement.kind == "export":
            value = statement.part("value")
            if value is not None:
                return value
        elif statement.kind == "statement":
            value = modules.module_exports_value(statement)
            if value is not None:
                return value
    return None


def declarations(scope: Node) -> Iterator[tuple[str, Node]]:
    """Names a scope node declares directly, with the node that declares each."""
    if is_function(scope):
        parameters = scope.part("parameters")
        for parameter in parameters.items if parameters is not None else ():
            pattern = parameter.part("pattern")
            if pattern is None:
                continue
            if pattern.kind == "identifier":
                yield pattern.value or "", parameter
            else:
                for local, _ in pattern_names(pattern):
                    yield local, pattern
        own_name = scope.part("name") if scope.value == "expression" else None
        if own_name is not None and "generator" not in scope.flags:
            yield own_name.value or "", scope
        return
    if scope.kind == "catch":
        caught = scope.part("parameter")
        if caught is not None:
            yield from pattern_names(caught)
        return
    statements: list[Node] = list(scope.items)
    if scope.kind == "for":
        initializer = scope.part("initializer")
        statements = [] if initializer is None else [initializer]
    elif scope.kind == "for_in":
        statements = []  # `for (const x of …)` binds x in the loop, not as a declaration here
    for statement in statements:
        inner: Node | None = statement
        if statement.kind == "export":
            inner = statement.part("declaration")
        if inner is None:
            continue
        if inner.kind == "declaration":
            for declarator in inner.items:
                target = declarator.part("name")
                if target is None:
                    continue
                for local, _ in pattern_names(target):
                    yield local, declarator
        elif inner.kind in ("function", "class") and inner.value == "declaration":
            declared = inner.part("name")
            if declared is not None:
                yield declared.value or "", inner
        elif inner.kind == "import":
            for item in inner.items:
                bound = item.part("local")
                if bound is not None:
                    yield bound.value or "", inner  # the statement marks the name as imported


def prisma_member(node: Node, namespaces: set[str], member: str) -> bool:
    node = unwrap(node)
    if node.kind != "member":
        return False
    obj = node.part("object")
    prop = node.part("property")
    return (
        obj is not None
        and prop is not None
        and obj.kind == "identifier"
        and obj.value in namespaces
        and prop.value == member
    )
