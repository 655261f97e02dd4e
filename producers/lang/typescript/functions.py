"""Functions: declarations, expressions named by where they stand, inline callbacks, parameters.

A function expression is named by its holder (a variable, `export default`,
`exports.x =`, which register it in `named_values` first), by the call it is
passed to (an inline callback, named after the outermost call of its argument
chain) or by the object literal member that holds it. Anywhere else it is
transparent: its code belongs to the enclosing declaration, and only its
parameters are scoped.

An object literal member (a method, accessor or function-valued property) is
named by its key after the keys of the object literals it is nested in (as
property values) and the declaration path of the outermost one's holder: a
variable, field or default export (`const api = { users: { list() {} } }` is
`api.users.list`). An object with no named holder (a call argument, a return
value, an array element) stands in the enclosing scope, so its members extend
that scope's path: `app.use({ handle() {} })` is `#handle` at module level and
`#f.handle` inside `f`. A computed key on the way stops the name: the code
belongs to the module.
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.exchange.symbol_ids import Key
from tsograph.exchange.symbol_ids import callback_segment
from tsograph.producers.lang.drafts import BindingDraft
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import HeadKind
from tsograph.producers.lang.typescript import flows
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.drafts import Scope
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.patterns import pattern_names

This = tuple[HeadKind, str]

# How many enclosing object literals a member name may climb through.
_MEMBER_DEPTH = 8
_CALLS = ("call_expression", "new_expression")
# What _member_path answers when a computed key stops a member's name.
_COMPUTED: tuple[str, ...] = ("[computed]",)
_PARAMETER_PROPERTY_MODIFIERS = frozenset({"accessibility_modifier", "readonly", "override"})


def on_function_declaration(ex: Extractor, node: Node) -> None:
    frame = ex.frame
    name_node = node.child_by_field_name("name")
    body = node.type != "function_signature"
    if name_node is None or not frame.named:
        if body:
            enter_function(ex, node, frame.owner, this_resets=True)
        return
    path = (*frame.path, ex.text(name_node))
    draft = ex.declare_at(
        path,
        "function",
        name_node,
        has_body=body,
        type=syntax.declared_type(ex.data, node.child_by_field_name("return_type")),
    )
    ex.decl_of_node[node.id] = draft.fact.id
    frame.scope.bind(path[-1], ("decl", draft.fact.id))
    if body:
        enter_function(ex, node, draft.fact.id, path=path, this_resets=True)


def on_function_expression(ex: Extractor, node: Node) -> None:
    this_resets = node.type != "arrow_function"
    named = ex.named_values.get(node.id)
    if named is not None:
        enter_function(ex, node, named[0], path=named[1], this_resets=this_resets)
    elif not (ex.frame.named and _named_by_position(ex, node, this_resets)):
        enter_function(ex, node, ex.frame.owner, this_resets=this_resets)
    if node.type == "arrow_function":
        flows.on_expression_body(ex, node)
    own_name = node.child_by_field_name("name")
    declared = ex.decl_of_node.get(node.id)
    if own_name is not None and declared is not None:
        # `function self() { self(); }`: the name is visible inside the function only.
        ex.frame.scope.bind(ex.text(own_name), ("decl", declared))


def _named_by_position(ex: Extractor, node: Node, this_resets: bool) -> bool:
    """Declare a function expression passed to a call or held by an object member."""
    wrapper, parent = syntax.outer(node)
    if parent is None:
        return False
    if parent.type == "arguments":
        return _inline_callback(ex, node, parent, this_resets)
    if parent.type == "pair" and parent.child_by_field_name("value") == wrapper:
        return object_member(ex, node, parent, parent.child_by_field_name("key"), this_resets)
    return False


def enter_function(
    ex: Extractor,
    node: Node,
    owner: str,
    *,
    path: tuple[str, ...] | None = None,
    this_resets: bool,
    this: This | None = None,
    named: bool | None = None,
    properties_of: tuple[str, tuple[str, ...]] | None = None,
) -> None:
    """Push the function's frame and bind its parameters (owned by `owner`)."""
    scope = Scope(ex.frame.scope, function=True)
    if this is None and this_resets:
        this = ("this", "")
    ex.push(node, owner=owner, path=path, scope=scope, this=this, named=named)
    _parameters(ex, node, owner, scope, properties_of)


def _inline_callback(ex: Extractor, node: Node, arguments: Node, this_resets: bool) -> bool:
    call = arguments.parent
    if call is None or call.type not in _CALLS or ex.module_load(call) is not None:
        return False
    anchor = call
    while True:
        _, holder = syntax.outer(anchor)
        if holder is None or holder.type != "arguments":
            break
        outer_call = holder.parent
        if outer_call is None or outer_call.type not in _CALLS:
            break
        anchor = outer_call
    is_new = anchor.type == "new_expression"
    callee_node = anchor.child_by_field_name("constructor" if is_new else "function")
    if callee_node is None:
        return False
    keys: list[Key] = []
    anchor_arguments = anchor.child_by_field_name("arguments")
    if anchor_arguments is not None and anchor_arguments.type == "arguments":
        for argument in anchor_arguments.named_children:
            if argument.type == "comment":
                continue
            key = syntax.callback_key(ex.data, argument)
            if key is None or len(keys) == 2:
                break
            keys.append(key)
    segment = callback_segment(
        syntax.Chain(ex.data, callee_node).callee(ex.data), keys, is_new=is_new
    )
    line, column = ex.loc(node)
    return_type = syntax.declared_type(ex.data, node.child_by_field_name("return_type"))
    ident, path = ex.declare_callback(ex.frame.owner, segment, node.id, line, column, return_type)
    enter_function(ex, node, ident, path=path, this_resets=this_resets)
    return True


def object_member(
    ex: Extractor, node: Node, member: Node, key: Node | None, this_resets: bool
) -> bool:
    """Name a function that is a member of an object literal (see the module docstring)."""
    name = None if key is None else syntax.property_name(ex.data, key)
    if name is None:
        if key is not None and key.type == "computed_property_name":
            enter_function(ex, node, ex.module, this_resets=this_resets, named=False)
            return True
        return False
    path = _member_path(ex, member, name)
    if path is _COMPUTED:
        enter_function(ex, node, ex.module, this_resets=this_resets, named=False)
        return True
    if path is None:
        return False
    draft = ex.declare_at(
        path,
        "function",
        key if key is not None else node,
        has_body=True,
        type=syntax.declared_type(ex.data, node.child_by_field_name("return_type")),
    )
    ex.decl_of_node[node.id] = draft.fact.id
    enter_function(ex, node, draft.fact.id, path=path, this_resets=this_resets)
    return True


def _member_path(ex: Extractor, member: Node, name: str) -> tuple[str, ...] | None:
    """The declaration path of an object literal member named `name`.

    _COMPUTED when a computed key of an enclosing object literal stops the
    name, None past _MEMBER_DEPTH object literals (the member is transparent).
    """
    keys = [name]
    obj = member.parent
    for _ in range(_MEMBER_DEPTH):
        if obj is None or obj.type != "object":
            return None
        holder = ex.holders.get(obj.id)
        if holder is not None:
            return holder + tuple(reversed(keys))
        wrapper, pair = syntax.outer(obj)
        if pair is None or pair.type != "pair" or pair.child_by_field_name("value") != wrapper:
            # No named holder: the object stands in the enclosing scope.
            return ex.frame.path + tuple(reversed(keys))
        key = pair.child_by_field_name("key")
        key_name = None if key is None else syntax.property_name(ex.data, key)
        if key_name is None:
            return _COMPUTED
        keys.append(key_name)
        obj = pair.parent
    return None


def _parameters(
    ex: Extractor,
    node: Node,
    owner: str,
    scope: Scope,
    properties_of: tuple[str, tuple[str, ...]] | None,
) -> None:
    single = node.child_by_field_name("parameter")
    if single is not None:
        line, column = ex.loc(single)
        fact = Binding(ex.text(single), "param", owner, line, column, 0)
        ex.add_binding(BindingDraft(fact), scope)
        return
    parameters = node.child_by_field_name("parameters")
    if parameters is None:
        return
    position = 0
    for parameter in parameters.named_children:
        kind = parameter.type
        if kind == "comment":
            continue
        pattern = parameter
        type_node = default = None
        if kind in ("required_parameter", "optional_parameter"):
            found = parameter.child_by_field_name("pattern")
            if found is None:
                continue
            if found.type == "this":
                continue  # `this: T` declares the receiver type, not a parameter
            pattern = found
            type_node = parameter.child_by_field_name("type")
            default = parameter.child_by_field_name("value")
        elif kind == "assignment_pattern":
            left = parameter.child_by_field_name("left")
            default = parameter.child_by_field_name("right")
            pattern = left if left is not None else parameter
        rest = pattern.type == "rest_pattern"
        if rest:
            pattern = syntax.first_named(pattern) or pattern
        if pattern.type == "identifier":
            name = ex.text(pattern)
            line, column = ex.loc(pattern)
            types = syntax.declared_type(ex.data, type_node)
            init, path = ex.init_of(default), None if rest else ()
            fact = Binding(name, "param", owner, line, column, position, types, None, path)
            draft = BindingDraft(fact, init)
            ex.add_binding(draft, scope)
            if properties_of is not None and _is_parameter_property(parameter):
                class_id, class_path = properties_of
                param_ref = RefDraft(name, scope)
                ex.declare(
                    ex.id_of((*class_path, name)),
                    "field",
                    name,
                    line,
                    column,
                    class_id,
                    has_body=True,
                    type=types,
                    init=InitDraft("alias", param_ref),
                )
        else:
            for ident, keys in pattern_names(ex.data, pattern):
                line, column = ex.loc(ident)
                member_type = (
                    None if keys is None else syntax.property_annotation(ex.data, type_node, keys)
                )
                fact = Binding(
                    ex.text(ident),
                    "param",
                    owner,
                    line,
                    column,
                    position,
                    syntax.declared_type(ex.data, member_type),
                    path=keys,
                )
                ex.add_binding(BindingDraft(fact), scope)
        position += 1


def _is_parameter_property(parameter: Node) -> bool:
    return any(child.type in _PARAMETER_PROPERTY_MODIFIERS for child in parameter.children)
