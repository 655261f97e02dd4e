"""Blocks, loops, catch clauses and namespaces open scopes; ambient and type code is skipped."""

from __future__ import annotations

from tree_sitter import Node

from producers.lang.facts import TypeDeclaration, TypeKind
from producers.lang.typescript.drafts import BindingDraft, InitDraft, Scope
from producers.lang.typescript.extractor import Extractor
from producers.lang.typescript.patterns import pattern_names

_TYPE_KINDS: dict[str, TypeKind] = {
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
}


def on_block(ex: Extractor, node: Node) -> None:
    frame = ex.frame
    if node.end_byte == frame.end:
        # The body of the function, loop, catch clause or namespace that just opened a scope.
        return
    ex.push(node, scope=Scope(frame.scope, function=False))


def on_loop(ex: Extractor, node: Node) -> None:
    scope = Scope(ex.frame.scope, function=False)
    ex.push(node, scope=scope)
    left = node.child_by_field_name("left")
    if node.type != "for_in_statement" or left is None:
        return
    kind = node.child_by_field_name("kind")
    target = scope.var_scope() if kind is not None and kind.type == "var" else scope
    for ident, _ in pattern_names(ex.data, left):
        line, column = ex.loc(ident)
        ex.add_binding(
            BindingDraft(
                ex.text(ident), "local", ex.frame.owner, line, column, -1, (), InitDraft("other")
            ),
            target,
        )


def on_catch(ex: Extractor, node: Node) -> None:
    scope = Scope(ex.frame.scope, function=False)
    ex.push(node, scope=scope)
    parameter = node.child_by_field_name("parameter")
    if parameter is None:
        return
    for ident, _ in pattern_names(ex.data, parameter):
        line, column = ex.loc(ident)
        ex.add_binding(
            BindingDraft(
                ex.text(ident), "local", ex.frame.owner, line, column, -1, (), InitDraft("other")
            ),
            scope,
        )


def on_namespace(ex: Extractor, node: Node) -> None:
    frame = ex.frame
    name_node = node.child_by_field_name("name")
    if name_node is None or name_node.type == "string":
        ex.skip_until = node.end_byte  # `module "x" {}` declares another module's types
        return
    parts = tuple(part.strip() for part in ex.text(name_node).split("."))
    scope = Scope(frame.scope, function=False)
    ex.push(node, path=frame.path + parts, scope=scope, module_level=frame.module_level)


def on_ambient(ex: Extractor, node: Node) -> None:
    ex.skip_until = node.end_byte  # `declare …` has no code to run


def on_type_declaration(ex: Extractor, node: Node) -> None:
    frame = ex.frame
    name_node = node.child_by_field_name("name")
    if name_node is not None and frame.module_level and not frame.path:
        line, column = ex.loc(name_node)
        kind = _TYPE_KINDS[node.type]
        ex.types.append(TypeDeclaration(ex.text(name_node), kind, line, column))
    ex.skip_until = node.end_byte
