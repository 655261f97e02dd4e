"""Blocks, loops, catch clauses and namespaces open scopes; ambient and type code is skipped."""

from __future__ import annotations

from tree_sitter import Node

from tsograph.producers.lang.drafts import BindingDraft
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import MemberKind
from tsograph.producers.lang.facts import MemberType
from tsograph.producers.lang.facts import TypeDeclaration
from tsograph.producers.lang.facts import TypeKind
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.typescript.drafts import Scope
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.patterns import pattern_names
from tsograph.producers.lang.typescript.syntax import NO_TYPE
from tsograph.producers.lang.typescript.syntax import declared_type
from tsograph.producers.lang.typescript.syntax import type_ref
from tsograph.producers.lang.typescript.syntax import unite_types

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
    element = _element_init(ex, node)  # read in the enclosing scope, before the loop's own
    scope = Scope(ex.frame.scope, function=False)
    ex.push(node, scope=scope)
    left = node.child_by_field_name("left")
    if node.type != "for_in_statement" or left is None:
        return
    kind = node.child_by_field_name("kind")
    target = scope.var_scope() if kind is not None and kind.type == "var" else scope
    for ident, _ in pattern_names(ex.data, left):
        line, column = ex.loc(ident)
        init = element if ident == left and element is not None else InitDraft("other")
        fact = Binding(ex.text(ident), "local", ex.frame.owner, line, column)
        ex.add_binding(BindingDraft(fact, init), target)


def _element_init(ex: Extractor, node: Node) -> InitDraft | None:
    """`for (const x of xs)` declares x as an element of xs (binding reads xs's type)."""
    if node.type != "for_in_statement" or node.child_by_field_name("kind") is None:
        return None
    operator = node.child_by_field_name("operator")
    right = node.child_by_field_name("right")
    if operator is None or operator.type != "of" or right is None:
        return None
    return InitDraft("element", ex.value_ref(right))


def on_catch(ex: Extractor, node: Node) -> None:
    scope = Scope(ex.frame.scope, function=False)
    ex.push(node, scope=scope)
    parameter = node.child_by_field_name("parameter")
    if parameter is None:
        return
    for ident, _ in pattern_names(ex.data, parameter):
        line, column = ex.loc(ident)
        fact = Binding(ex.text(ident), "local", ex.frame.owner, line, column)
        ex.add_binding(BindingDraft(fact, InitDraft("other")), scope)


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
        members, extends, member_types = _shape(ex, node)
        ex.types.append(
            TypeDeclaration(
                ex.text(name_node),
                kind,
                line,
                column,
                members,
                extends,
                member_types,
                _aliases(ex, node),
                _callable(node),
            )
        )
    ex.skip_until = node.end_byte


_SIGNATURES = frozenset({"method_signature", "property_signature"})
_CALLABLE_SIGNATURES = frozenset({"call_signature", "construct_signature"})


def _callable(node: Node) -> bool:
    """Whether values of the type may be called: a call or construct signature of its own,
    or a type alias whose value is not an object type or an intersection of them."""
    if node.type == "interface_declaration":
        body = node.child_by_field_name("body")
        return body is not None and any(
            signature.type in _CALLABLE_SIGNATURES for signature in body.named_children
        )
    if node.type != "type_alias_declaration":
        return False
    value = node.child_by_field_name("value")
    parts = (
        value.named_children if value is not None and value.type == "intersection_type" else [value]
    )
    for part in parts:
        if part is not None and part.type in ("predefined_type", "literal_type"):
            continue
        if part is None or part.type not in ("object_type", *_NAMED_TYPES):
            return True
        if part.type == "object_type" and any(
            signature.type in _CALLABLE_SIGNATURES for signature in part.named_children
        ):
            return True
    return False


_NAMED_TYPES = frozenset({"type_identifier", "generic_type", "nested_type_identifier"})


def _shape(
    ex: Extractor, node: Node
) -> tuple[tuple[str, ...], tuple[TypeRef, ...], tuple[MemberType, ...]]:
    """Declared member names, extended named types and member types of an interface
    or type alias."""
    bodies: list[Node] = []
    named: list[Node] = []
    if node.type == "interface_declaration":
        body = node.child_by_field_name("body")
        bodies += [body] if body is not None else []
        for child in node.named_children:
            if child.type == "extends_type_clause":
                named += [part for part in child.named_children if part.type in _NAMED_TYPES]
    elif node.type == "type_alias_declaration":
        value = node.child_by_field_name("value")
        parts = (
            value.named_children
            if value is not None and value.type == "intersection_type"
            else [value]
        )
        for part in parts:
            if part is not None and part.type == "object_type":
                bodies.append(part)
            elif part is not None and part.type in _NAMED_TYPES:
                named.append(part)
    members: list[str] = []
    types: dict[str, tuple[MemberKind, tuple[TypeRef, ...]]] = {}
    for body in bodies:
        for signature in body.named_children:
            name = signature.child_by_field_name("name") if signature.type in _SIGNATURES else None
            if name is not None and name.type == "property_identifier":
                members.append(ex.text(name))
                _member_type(ex, signature, ex.text(name), types)
    extends = tuple(type_ref(ex.data, part, 0) for part in named)
    member_types = tuple((name, kind, each) for name, (kind, each) in types.items())
    return tuple(dict.fromkeys(members)), extends, member_types


def _member_type(
    ex: Extractor,
    signature: Node,
    name: str,
    types: dict[str, tuple[MemberKind, tuple[TypeRef, ...]]],
) -> None:
    """Record a signature's declared type; overloads of a method are united (an
    overload without a return type returns `any`, the empty type)."""
    if signature.type == "method_signature":
        kind: MemberKind = "method"
        declared = declared_type(ex.data, signature.child_by_field_name("return_type"))
    else:
        kind = "property"
        declared = declared_type(ex.data, signature.child_by_field_name("type"))
    known = types.get(name)
    if known is None:
        types[name] = (kind, declared or (NO_TYPE,))
        return
    united = unite_types(known[1], declared) or (NO_TYPE,)
    types[name] = (known[0] if known[0] == kind else "property", united)


def _aliases(ex: Extractor, node: Node) -> tuple[TypeRef, ...]:
    """What `type A = B` (or `= B | C`) names: the aliased named types, else ()."""
    if node.type != "type_alias_declaration":
        return ()
    value = node.child_by_field_name("value")
    if value is None:
        return ()
    parts = declared_type(ex.data, value)
    return parts if parts and all(part.chain for part in parts) else ()
