"""Syntax-level questions of client provenance: declarations, exports, `require`, types.

declaring_node(decl)  the node provenance reads for a declaration of the value
                      layer's scope table (producers/values/scopes.py): the `import`
                      statement of an imported name, a plain parameter, a
                      destructured parameter's pattern, the declarator, …
default_expression(root)  the value of `export default …` or `module.exports = …`
is_require_or_import(node) a `require(…)` / `import(…)` call, awaited or not
defining_types(declaration)  the type nodes that make a type alias or interface what it
                      is: the alias's right side, the interface's `extends` types (never
                      its body: an interface with a client member is not a client)
prisma_member(node, namespaces, member)  `Prisma.<member>` through a namespace import
"""

from __future__ import annotations

from tsograph.producers.lang.syntax_read import unwrap
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values import modules
from tsograph.producers.values.scopes import Declaration


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


def declaring_node(declaration: Declaration) -> Node:
    """The node client provenance reads for a declaration of the shared scope table: the
    `import` statement of an imported name, the parameter of a plain parameter (its
    annotation, a `$transaction` callback's first), the pattern of a destructured one
    (nothing is proven of it), otherwise the declarator, function, class or clause."""
    node = declaration.node
    if declaration.kind == "import" and node.parent is not None:
        return node.parent
    if declaration.kind == "parameter":
        pattern = node.part("pattern")
        if pattern is not None and pattern is not declaration.name:
            return pattern
    return node


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
