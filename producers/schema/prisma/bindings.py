"""Syntax-level name binding for client provenance: what a scope declares.

declarations(scope)   (name, declaring node) of the names a scope node declares
                      directly: parameters of a function, `const`/`let`/`var`
                      declarators, functions and classes, import bindings (their
                      declaring node is the statement's `import` keyword)
default_expression(root)  the value of `export default …` or `module.exports = …`
returned_values(body)     the value of each `return` of a function body (None for a bare
                          `return`), not those of nested functions
is_require_or_import(node) a `require(…)` / `import(…)` call, awaited or not
defining_types(declaration)  the type nodes that make a type alias or interface what it
                      is: the alias's right side, the interface's `extends` types (never
                      its body: an interface with a client member is not a client)
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from tsograph.producers.schema import syntax


def defining_types(node: Node) -> list[Node]:
    if node.type == "type_alias_declaration":
        value = node.child_by_field_name("value")
        return [] if value is None else [value]
    return [
        written
        for clause in node.named_children
        if clause.type in ("extends_type_clause", "extends_clause")
        for written in clause.named_children
    ]


def returned_values(body: Node) -> list[Node | None]:
    found: list[Node | None] = []
    pending = list(body.named_children)
    while pending:
        node = pending.pop()
        if node.type in syntax.FUNCTIONS or node.type in ("class", "class_declaration"):
            continue
        if node.type == "return_statement":
            found.append(node.named_children[0] if node.named_children else None)
            continue
        pending.extend(node.named_children)
    return found


def is_require_or_import(node: Node) -> bool:
    node = syntax.unwrap(node)
    if node.type == "await_expression" and node.named_children:
        node = syntax.unwrap(node.named_children[0])
    if node.type != "call_expression":
        return False
    callee = node.child_by_field_name("function")
    return callee is not None and syntax.text(callee) in ("require", "import")


def default_expression(root: Node) -> Node | None:
    for statement in root.named_children:
        if statement.type == "export_statement":
            value = statement.child_by_field_name("value")
            if value is not None:
                return value
        elif statement.type == "expression_statement" and statement.named_children:
            inner = statement.named_children[0]
            if inner.type == "assignment_expression":
                left = inner.child_by_field_name("left")
                if left is not None and syntax.text(left) == "module.exports":
                    return inner.child_by_field_name("right")
    return None


def pattern_names(node: Node) -> Iterator[tuple[str, Node]]:
    if node.type == "identifier":
        yield syntax.text(node), node
        return
    for child in node.named_children:
        if child.type in ("shorthand_property_identifier_pattern", "identifier"):
            yield syntax.text(child), child
        elif child.type in (
            "pair_pattern",
            "object_pattern",
            "array_pattern",
            "assignment_pattern",
            "rest_pattern",
            "object_assignment_pattern",
        ):
            value = child.child_by_field_name("value") or child.child_by_field_name("left")
            yield from pattern_names(value if value is not None else child)


def declarations(scope: Node) -> Iterator[tuple[str, Node]]:
    """Names a scope node declares directly, with the node that declares each."""
    if scope.type in syntax.FUNCTIONS:
        parameters = scope.child_by_field_name("parameters")
        single = scope.child_by_field_name("parameter")
        if single is not None and single.type == "identifier":
            yield syntax.text(single), single
        for parameter in parameters.named_children if parameters else []:
            pattern = parameter.child_by_field_name("pattern")
            if pattern is None:
                continue
            if pattern.type == "identifier":
                yield syntax.text(pattern), parameter
            else:
                for local, _ in pattern_names(pattern):
                    yield local, pattern
        own_name = (
            scope.child_by_field_name("name") if scope.type == "function_expression" else None
        )
        if own_name is not None:
            yield syntax.text(own_name), scope
        return
    if scope.type == "catch_clause":
        caught = scope.child_by_field_name("parameter")
        if caught is not None:
            yield from pattern_names(caught)
        return
    children = scope.named_children
    if scope.type in ("for_statement", "for_in_statement"):
        children = [
            c
            for c in (scope.child_by_field_name("initializer"), scope.child_by_field_name("left"))
            if c is not None
        ]
    for statement in children:
        inner = statement
        if statement.type == "export_statement":
            declaration = statement.child_by_field_name("declaration")
            if declaration is None:
                continue
            inner = declaration
        if inner.type in ("lexical_declaration", "variable_declaration"):
            for declarator in inner.named_children:
                if declarator.type != "variable_declarator":
                    continue
                target = declarator.child_by_field_name("name")
                if target is None:
                    continue
                for local, _ in pattern_names(target):
                    yield local, declarator
        elif inner.type in (
            "function_declaration",
            "generator_function_declaration",
            "class_declaration",
            "abstract_class_declaration",
        ):
            declared = inner.child_by_field_name("name")
            if declared is not None:
                yield syntax.text(declared), inner
        elif inner.type == "import_statement":
            for node in syntax.walk(inner):
                if node.type == "import_specifier":
                    alias = node.child_by_field_name("alias") or node.child_by_field_name("name")
                    if alias is not None:
                        yield syntax.text(alias), import_marker(node)
                elif node.type == "namespace_import" and node.named_children:
                    yield syntax.text(node.named_children[-1]), import_marker(node)
                elif node.type == "import_clause":
                    for child in node.named_children:
                        if child.type == "identifier":
                            yield syntax.text(child), import_marker(child)


def import_marker(node: Node) -> Node:
    """The `import` keyword of the statement: bindings it declares are imports."""
    current: Node | None = node
    while current is not None and current.type != "import_statement":
        current = current.parent
    statement = current if current is not None else node
    return statement.children[0] if statement.children else statement
