"""Variable declarators: declarations, local bindings, module loads and destructuring.

A declarator whose value is a function or class declares it under the
variable's name, at any depth. Other module-level variables with an
initializer are `variable` declarations that own their initializer's code.
Everything else is a local binding with its declared type and initializer
summary. `require('x')` and `await import('x')` bind imports: the name stays
bound to the import (binding follows the module through it), and a
module-level variable so initialized is a `variable` declaration as well,
with a require / import initializer, like any other module-level variable.
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.producers.lang.drafts import BindingDraft
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import Import
from tsograph.producers.lang.facts import ImportKind
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.drafts import Scope
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.patterns import pattern_names


def on_declarator(ex: Extractor, node: Node) -> None:
    frame = ex.frame
    name_node = node.child_by_field_name("name")
    if name_node is None:
        return
    statement = node.parent
    is_var = statement is not None and statement.type == "variable_declaration"
    scope = frame.scope.var_scope() if is_var else frame.scope
    value = node.child_by_field_name("value")
    load_node = None if value is None else syntax.unwrap_value(value)
    load = None if load_node is None else ex.module_load(load_node)
    if load is not None and load_node is not None:
        ex.consumed.add(load_node.id)
        _bind_load(ex, name_node, load, load_node, scope)
        if name_node.type == "identifier" and frame.module_level and frame.named:
            path = (*frame.path, ex.text(name_node))
            types = syntax.declared_type(ex.data, node.child_by_field_name("type"))
            draft = ex.declare_at(
                path, "variable", name_node, has_body=True, type=types, init=ex.init_of(value)
            )
            ex.push(node, owner=draft.fact.id, path=path)
        return
    if name_node.type != "identifier":
        _bind_pattern(ex, name_node, value, scope)
        return
    name = ex.text(name_node)
    shown = None if value is None else syntax.unwrap(value)
    # Without an annotation, `= x as T` declares the variable as T.
    types = syntax.declared_type(ex.data, node.child_by_field_name("type")) or syntax.value_cast(
        ex.data, value
    )
    if (
        shown is not None
        and frame.named
        and (shown.type in syntax.FUNCTIONS or shown.type in syntax.CLASSES)
    ):
        is_class = shown.type in syntax.CLASSES
        path = (*frame.path, name)
        return_type = shown.child_by_field_name("return_type")
        inner = shown.child_by_field_name("name") if is_class else None
        if inner is not None:
            # `const A = class B {}`: A holds the class A.B (named when the class is reached).
            draft = ex.declare_at(
                path,
                "variable",
                name_node,
                has_body=True,
                type=types,
                init=InitDraft("class", RefDraft(node=shown.id)),
            )
            ex.named_values[shown.id] = (draft.fact.id, path)
            scope.bind(name, ("decl", ex.id_of((*path, ex.text(inner)))))
            return
        draft = ex.declare_at(
            path,
            "class" if is_class else "function",
            name_node,
            has_body=True,
            type=types or syntax.declared_type(ex.data, return_type),
        )
        ex.named_values[shown.id] = (draft.fact.id, path)
        ex.decl_of_node[shown.id] = draft.fact.id
        scope.bind(name, ("decl", draft.fact.id))
        return
    if frame.module_level and frame.named and value is not None:
        path = (*frame.path, name)
        draft = ex.declare_at(
            path, "variable", name_node, has_body=True, type=types, init=ex.init_of(value)
        )
        scope.bind(name, ("decl", draft.fact.id))
        if shown is not None and shown.type == "object":
            ex.holders[shown.id] = path
        ex.push(node, owner=draft.fact.id, path=path)
        return
    line, column = ex.loc(name_node)
    fact = Binding(name, "local", frame.owner, line, column, -1, types)
    ex.add_binding(BindingDraft(fact, ex.init_of(value)), scope)
    if shown is not None and shown.type == "object" and frame.named:
        ex.holders[shown.id] = (*frame.path, name)


def _bind_load(
    ex: Extractor, name_node: Node, load: tuple[ImportKind, str], call: Node, scope: Scope
) -> None:
    kind, specifier = load
    if name_node.type == "identifier":
        local = ex.text(name_node)
        index = ex.add_import(Import(kind, specifier, "*", local, *ex.loc(name_node)), scope)
        ex.load_of_node[call.id] = index
        return
    whole: int | None = None
    for ident, keys in pattern_names(ex.data, name_node):
        if keys is not None and len(keys) == 1:
            ex.add_import(Import(kind, specifier, keys[0], ex.text(ident), *ex.loc(ident)), scope)
            continue
        if whole is None:
            whole = ex.add_import(Import(kind, specifier, "*", "", *ex.loc(call)))
            ex.load_of_node[call.id] = whole
        _bind_local(ex, ident, keys, RefDraft(node=call.id), scope)


def _bind_pattern(ex: Extractor, pattern: Node, value: Node | None, scope: Scope) -> None:
    source = None if value is None else ex.value_ref(value)
    for ident, keys in pattern_names(ex.data, pattern):
        _bind_local(ex, ident, keys, source, scope)


def _bind_local(
    ex: Extractor,
    ident: Node,
    keys: tuple[str, ...] | None,
    source: RefDraft | None,
    scope: Scope,
) -> None:
    init = None
    if source is not None:
        if keys is None:
            init = InitDraft("other")
        else:
            alias = RefDraft(
                source.name, source.scope, source.node, source.ready, source.members + keys
            )
            init = InitDraft("alias", alias)
    line, column = ex.loc(ident)
    fact = Binding(ex.text(ident), "local", ex.frame.owner, line, column)
    ex.add_binding(BindingDraft(fact, init), scope)
