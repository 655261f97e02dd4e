"""Classes and their members: methods, constructors, accessors, fields, static blocks, decorators.

Members are named under their class (`Repo.save`); a member with a computed
name is not named and its code belongs to the module. A named class
expression adds its own name after its holder's (`const A = class B {}` is
`A.B`). An anonymous class expression (`mixin(class extends Base {})`) adds
no segment: its members extend the enclosing path, and the class itself is a
record with an internal id and no node (see `_declare_anonymous`), so that
binding still sees its members, `extends` and `this`.
A decorator's code belongs to what it decorates: a class decorator to the
class, a method, accessor or field decorator to that member, a parameter
decorator to the method or constructor whose parameter it is (a member with a
computed name leaves it to the module).
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.producers.lang.drafts import DeclDraft
from tsograph.producers.lang.facts import DeclarationKind
from tsograph.producers.lang.facts import replace
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.drafts import Scope
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.functions import This
from tsograph.producers.lang.typescript.functions import enter_function
from tsograph.producers.lang.typescript.functions import object_member

# Where a class expression is not a value that escapes (see _class_value_use).
_NOT_VALUE_USES = frozenset(
    {"new_expression", "class_heritage", "extends_clause", "expression_statement"}
)
_METHODS = ("method_definition", "method_signature", "abstract_method_signature")


def on_class(ex: Extractor, node: Node) -> None:
    frame = ex.frame
    info = ex.named_values.get(node.id)
    own_name = node.child_by_field_name("name")
    scope: Scope | None = None
    if info is not None and own_name is not None and node.type == "class":
        # `const A = class B {}`: the holder names the class, then its own name does.
        info = _declare_class(ex, node, own_name, (*info[1], ex.text(own_name)), info[0])
    elif info is None and frame.named:
        if own_name is not None:
            path = (*frame.path, ex.text(own_name))
            info = _declare_class(ex, node, own_name, path, frame.owner)
            if node.type in syntax.CLASS_DECLARATIONS:
                frame.scope.bind(path[-1], ("decl", info[0]))
        elif node.type == "class":
            info = _declare_anonymous(ex, node)
    if node.type == "class":
        _class_value_use(ex, node)
        if own_name is not None and info is not None:
            # A class expression's own name is visible inside the class only.
            scope = Scope(frame.scope, function=False)
            scope.bind(ex.text(own_name), ("decl", info[0]))
    ex.classes[node.id] = info
    if info is None:
        ex.push(node, scope=scope)
        return
    declaration = ex.decls[info[0]]
    for child in node.children:
        if child.type == "class_heritage":
            _heritage(ex, child, declaration)
    if declaration.fact.name:
        ex.push(node, owner=info[0], path=info[1], scope=scope)
    else:
        # The anonymous class's own code (its heritage, static initializers) runs where
        # the class expression is evaluated: it stays the holder's.
        ex.push(node, scope=scope)


def _declare_class(
    ex: Extractor, node: Node, name_node: Node, path: tuple[str, ...], parent: str
) -> tuple[str, tuple[str, ...]]:
    draft = ex.declare_at(path, "class", name_node, has_body=True, parent=parent)
    ex.decl_of_node[node.id] = draft.fact.id
    return draft.fact.id, path


def _declare_anonymous(ex: Extractor, node: Node) -> tuple[str, tuple[str, ...]]:
    """An anonymous class expression: a class for binding, with no id segment and no node.

    Its members extend the enclosing declaration path (`new class extends Base
    { m() {} }()` in `f` declares `f.m`). Its own record has an internal id (a
    NUL, which no symbol id contains, and its byte offset) and an empty name.
    """
    frame = ex.frame
    line, column = ex.loc(node)
    ident = f"{ex.id_prefix}\x00class@{node.start_byte}"
    ex.declare(ident, "class", "", line, column, frame.owner, has_body=True)
    ex.decl_of_node[node.id] = ident
    return ident, frame.path


def _class_value_use(ex: Extractor, node: Node) -> None:
    """A class expression used as a value (passed, returned, stored in an object).

    Its constructions cannot be listed then, as for a named class passed as a
    value. Not a value use: `new class {}()`, a holder that names it (`const
    A = class {}`, `export default`, `exports.x =`), `extends`, and static
    access (`(class { static m() {} }).m()`).
    """
    if node.id in ex.named_values:
        return
    wrapper, parent = syntax.outer(node)
    if parent is None or parent.type in _NOT_VALUE_USES:
        return
    if parent.type == "member_expression" and parent.child_by_field_name("object") == wrapper:
        return
    if parent.type == "arguments":
        call = parent.parent
        if call is not None and ex.module_load(call) is None:
            ex.use(node, "callback")
        return
    ex.use(node, "reference")


def _heritage(ex: Extractor, heritage: Node, declaration: DeclDraft) -> None:
    for clause in heritage.named_children:
        if clause.type == "extends_clause":
            value = clause.child_by_field_name("value")
            if value is not None:
                declaration.extends = ex.value_ref(value)
        elif clause.type == "implements_clause":
            implements = tuple(
                syntax.type_ref(ex.data, item, 0)
                for item in clause.named_children
                if item.type != "comment"
            )
            declaration.fact = replace(declaration.fact, implements=implements)


def _class_of(ex: Extractor, body: Node | None) -> tuple[str, tuple[str, ...]] | None:
    owner = None if body is None else body.parent
    return None if owner is None else ex.classes.get(owner.id)


def _modifiers(node: Node, name: Node | None) -> set[str]:
    """Keyword children before the member's name (static, get, set, async, …)."""
    found = set()
    for child in node.children:
        if name is not None and child.start_byte >= name.start_byte:
            break
        if not child.is_named:
            found.add(child.type)
    return found


def on_method(ex: Extractor, node: Node) -> None:
    parent = node.parent
    if parent is None:
        return
    if parent.type == "class_body":
        _class_method(ex, node, parent.parent)
    elif parent.type == "object" and node.type == "method_definition":
        name = node.child_by_field_name("name")
        if not (ex.frame.named and object_member(ex, node, node, name, True)):
            enter_function(ex, node, ex.frame.owner, this_resets=True)


def _class_method(ex: Extractor, node: Node, class_node: Node | None) -> None:
    info = None if class_node is None else ex.classes.get(class_node.id)
    has_body = node.type == "method_definition"
    name_node = node.child_by_field_name("name")
    name = None if name_node is None else syntax.property_name(ex.data, name_node)
    modifiers = _modifiers(node, name_node)
    static = "static" in modifiers
    class_id = "" if info is None else info[0]
    this: This = ("static-this" if static else "this", class_id)
    if name is None or name_node is None:
        if has_body:
            enter_function(ex, node, ex.module, this_resets=False, this=this, named=False)
        return
    if info is None or not ex.frame.named:
        if has_body:
            enter_function(ex, node, ex.frame.owner, this_resets=False, this=this)
        return
    kind: DeclarationKind
    if "get" in modifiers or "set" in modifiers:
        kind = "accessor"
    elif name == "constructor" and not static and name_node.type == "property_identifier":
        kind = "constructor"
    else:
        kind = "method"
    path = info[1] + (name,)
    draft = ex.declare_at(
        path,
        kind,
        name_node,
        has_body=has_body,
        parent=class_id,
        static=static,
        type=syntax.declared_type(ex.data, node.child_by_field_name("return_type")),
    )
    ex.decl_of_node[node.id] = draft.fact.id
    if has_body:
        enter_function(
            ex,
            node,
            draft.fact.id,
            path=path,
            this_resets=False,
            this=this,
            properties_of=info if kind == "constructor" else None,
        )


def on_field(ex: Extractor, node: Node) -> None:
    info = _class_of(ex, node.parent)
    name_node = node.child_by_field_name("name")
    name = None if name_node is None else syntax.property_name(ex.data, name_node)
    static = "static" in _modifiers(node, name_node)
    this: This = ("static-this" if static else "this", "" if info is None else info[0])
    if name is None or name_node is None:
        ex.push(node, owner=ex.module, this=this, named=False)
        return
    if info is None or not ex.frame.named:
        ex.push(node, this=this)
        return
    value = node.child_by_field_name("value")
    path = info[1] + (name,)
    draft = ex.declare_at(
        path,
        "field",
        name_node,
        has_body=value is not None,
        parent=info[0],
        static=static,
        type=syntax.declared_type(ex.data, node.child_by_field_name("type"))
        or syntax.value_cast(ex.data, value),
    )
    ex.push(node, owner=draft.fact.id, path=path, this=this)
    if value is not None and draft.init is None:
        # Summarised inside the field's frame: `this` in an initializer is the instance.
        draft.init = ex.init_of(value)
        if syntax.unwrap(value).type == "object":
            ex.holders[syntax.unwrap(value).id] = path


def on_static_block(ex: Extractor, node: Node) -> None:
    info = _class_of(ex, node.parent)
    scope = Scope(ex.frame.scope, function=True)
    ex.push(node, scope=scope, this=("static-this", "" if info is None else info[0]))


def on_decorator(ex: Extractor, node: Node) -> None:
    """A decorator's code belongs to the declaration it decorates.

    Class, field and parameter decorators sit inside the node they decorate,
    whose frame is already open; a method or accessor decorator precedes its
    method in the class body, so the method's frame is opened early for it.
    """
    parent = node.parent
    if parent is not None and parent.type == "class_body":
        _decorated_method(ex, node, parent)
    expression = syntax.first_named(node)
    if expression is None:
        return
    called = syntax.unwrap(expression)
    if called.type == "call_expression":
        # The sweep reaches the call next; its site is a decorator's, not a plain call's.
        ex.decorator_calls.add(called.id)
    else:
        ex.site(node, "decorator", expression, None)


def _decorated_method(ex: Extractor, node: Node, body: Node) -> None:
    member = node.next_named_sibling
    while member is not None and member.type in ("decorator", "comment"):
        member = member.next_named_sibling
    if member is None or member.type not in _METHODS:
        return
    info = _class_of(ex, body)
    name_node = member.child_by_field_name("name")
    name = None if name_node is None else syntax.property_name(ex.data, name_node)
    if name is None:
        ex.push(node, owner=ex.module, named=False)
    elif info is not None and ex.frame.named:
        path = info[1] + (name,)
        ex.push(node, owner=ex.id_of(path), path=path)
