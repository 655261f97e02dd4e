"""Project wrappers around fetch/axios/ky, followed only under the spec's narrow proof.

A function is a wrapper when its body is a single `return <call>` (or an
arrow expression body, `await` allowed), every parameter is a plain name
(`x` or TypeScript's `x?`; no default, rest or destructuring, which rewrite
what the call receives), it is not a class method, and the
call is a request whose arguments use a parameter (ky body readers such as
`.json()` and promise steps `.then/.catch/.finally` after the request are
looked through: they run after it is sent). Function declarations,
`const` arrow/function expressions, their `const` aliases and methods of
closed `const` object literals are reached; class methods, `let`/`var`
bindings and computed members are not.

An invocation is followed by evaluating the wrapper's call with the
invocation's argument values; the fact belongs to the invocation. The
wrapper's own (inner) request stays a fact unless every use of the wrapper
is such an invocation: an exported or escaped wrapper, an invocation with a
spread argument, or a wrapper that is never called keeps it, so a known
call never hides other possible ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from tsograph.producers.routes.client.requests import Outcome
from tsograph.producers.routes.client.scopes import FUNCTIONS, enclosing_function, key_of, text
from tsograph.producers.routes.client.values import (
    MAX_DEPTH,
    Context,
    Evaluator,
    Fn,
    ProjectView,
    argument_nodes,
)

if TYPE_CHECKING:
    from tsograph.producers.routes.client.scan import Scanner

MAX_WRAPPER_DEPTH = 8
_UNWRAP = frozenset(
    {"await_expression", "parenthesized_expression", "as_expression", "non_null_expression"}
)

# ky's response-promise shortcuts (ky 1.14.3 and 2.1.0 responseTypes).
_BODY_READERS = frozenset({"json", "text", "formData", "arrayBuffer", "blob", "bytes"})
_PROMISE_STEPS = frozenset({"then", "catch", "finally"})

WrapperKey = tuple[str, int]


def forwarding_call(function: Node) -> Node | None:
    """The one call a function's body returns, or None when the body does more."""
    if function.type not in FUNCTIONS or not simple_parameters(function):
        return None
    if function.type == "method_definition" and (
        function.parent is None or function.parent.type != "object"
    ):
        return None  # class methods are outside the proven scope
    body = function.child_by_field_name("body")
    if body is None:
        return None
    if body.type == "statement_block":
        statements = [child for child in body.named_children if child.type != "comment"]
        if len(statements) != 1 or statements[0].type != "return_statement":
            return None
        values = [child for child in statements[0].named_children if child.type != "comment"]
        if len(values) != 1:
            return None
        body = values[0]
    while body.type in _UNWRAP and body.named_children:
        body = body.named_children[0]
    return _request_part(body) if body.type == "call_expression" else None


def _request_part(call: Node) -> Node:
    """The request a returned promise chain starts from.

    `ky.get(url).json()` and `api.get(url).then((r) => r.data)` send exactly
    the request they start from: body readers and promise callbacks run after
    it and cannot change it.
    """
    while True:
        callee = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if callee is None or callee.type != "member_expression" or arguments is None:
            return call
        prop = callee.child_by_field_name("property")
        inner = callee.child_by_field_name("object")
        name = text(prop)
        reader = name in _BODY_READERS and not arguments.named_children
        if not (reader or name in _PROMISE_STEPS) or inner is None:
            return call
        if inner.type != "call_expression":
            return call
        call = inner


def simple_parameters(function: Node) -> bool:
    params = function.child_by_field_name("parameters")
    if params is None:
        return function.child_by_field_name("parameter") is not None
    for param in params.named_children:
        if param.type == "identifier":
            continue
        if param.type not in ("required_parameter", "optional_parameter"):
            return False
        pattern = param.child_by_field_name("pattern")
        if pattern is None or pattern.type != "identifier":
            return False
        if param.child_by_field_name("value") is not None:
            return False
    return bool(params.named_children)


class Wrappers:
    def __init__(self, project: ProjectView) -> None:
        self.project = project
        self.invoked: dict[
            WrapperKey, set[tuple[str, int]]
        ] = {}  # wrapper -> represented invocation starts
        self.unrepresented: set[WrapperKey] = set()
        self.exported: set[WrapperKey] = set()
        self.inner: set[WrapperKey] = set()
        self.nodes: dict[WrapperKey, tuple[str, Node]] = {}

    def inner_of(self, ctx: Context, call: Node) -> WrapperKey | None:
        """The wrapper whose forwarded request this call is, when the call uses its parameters."""
        function = enclosing_function(call)
        if function is None:
            return None
        forwarded = forwarding_call(function)
        if forwarded is None or key_of(forwarded) != key_of(call):
            return None
        if not _uses_parameters(ctx, call, function):
            return None
        key = (ctx.path, function.start_byte)
        self.inner.add(key)
        self.nodes[key] = (ctx.path, function)
        return key

    def invoke(
        self, scanner: Scanner, ev: Evaluator, ctx: Context, call: Node, fn: Fn, depth: int
    ) -> Outcome | None:
        """The request of an invocation of `fn` when fn is a wrapper; None otherwise."""
        forwarded = forwarding_call(fn.node)
        if forwarded is None:
            return None
        key = (fn.path, fn.start)
        self.nodes.setdefault(key, (fn.path, fn.node))
        if fn.exported:
            self.exported.add(key)
        target = self.project.context(fn.path)
        args = argument_nodes(call)
        if target is None or args is None or depth >= MAX_WRAPPER_DEPTH or ev.depth > MAX_DEPTH:
            self.unrepresented.add(key)
            return None
        values = tuple(ev.value(ctx, arg) for arg in args)
        inner_ev = Evaluator({**ev.env, key_of(fn.node): values}, ev.depth + 1)
        callee = inner_ev.value(target, forwarded.child_by_field_name("function"))
        outcome = scanner.outcome(inner_ev, target, forwarded, callee, depth + 1)
        if outcome is None:
            return None
        self.invoked.setdefault(key, set()).add(_call_key(ctx.path, call))
        return outcome

    def retained(self) -> set[WrapperKey]:
        """Wrappers whose inner request stays a fact."""
        kept: set[WrapperKey] = set()
        for key in self.inner:
            path, function = self.nodes[key]
            if key in self.exported or key in self.unrepresented:
                kept.add(key)
                continue
            ctx = self.project.context(path)
            invoked = self.invoked.get(key, set())
            if ctx is None or not invoked or not self._only_invoked(ctx, function, invoked):
                kept.add(key)
        return kept

    def _only_invoked(self, ctx: Context, function: Node, invoked: set[tuple[str, int]]) -> bool:
        """Every use of the wrapper's name in its file is a represented invocation."""
        named = _binding_of(function)
        if named is None:
            return False
        declaration, name, member = named
        return _uses_invoked(ctx, declaration, name, member, invoked, 0)


def _uses_invoked(
    ctx: Context,
    declaration: Node,
    name: str,
    member: str | None,
    invoked: set[tuple[str, int]],
    depth: int,
) -> bool:
    """All uses of a binding are represented invocations (through `const` aliases too)."""
    if _inside_export(declaration) or depth > MAX_WRAPPER_DEPTH:
        return False
    for use in _identifiers(ctx.root, name):
        if use.start_byte == _name_start(declaration):
            continue
        binding = ctx.scopes.lookup(use, name)
        if binding is None or key_of(binding.node) != key_of(declaration):
            continue
        parent = use.parent
        if parent is not None and parent.type in ("export_specifier", "export_statement"):
            return False  # `export { name }`, `export default name`
        alias = _const_alias(use if member is None else _member_of(use, member))
        if alias is not None:
            alias_name = alias.child_by_field_name("name")
            if not _uses_invoked(ctx, alias, text(alias_name), None, invoked, depth + 1):
                return False
            continue
        call = _invocation(use, member)
        if call is None or _call_key(ctx.path, call) not in invoked:
            if member is not None and _other_member(use, member):
                continue
            return False
    return True


def _member_of(use: Node, member: str) -> Node | None:
    """`use.member`, when that is what encloses the use."""
    parent = use.parent
    if parent is None or parent.type != "member_expression":
        return None
    prop = parent.child_by_field_name("property")
    return parent if prop is not None and text(prop) == member else None


def _const_alias(use: Node | None) -> Node | None:
    """The declarator of `const alias = use`, when the use is its whole initializer."""
    if use is None:
        return None
    parent = use.parent
    if parent is None or parent.type != "variable_declarator":
        return None
    value = parent.child_by_field_name("value")
    name = parent.child_by_field_name("name")
    declaration = parent.parent
    if value is None or key_of(value) != key_of(use) or name is None or name.type != "identifier":
        return None
    if declaration is None or text(declaration.child(0)) != "const":
        return None
    return parent


def _call_key(path: str, call: Node) -> tuple[str, int]:
    return (path, call.start_byte)


def _uses_parameters(ctx: Context, call: Node, function: Node) -> bool:
    stack = [call]
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            binding = ctx.scopes.lookup(node, text(node))
            if (
                binding is not None
                and binding.kind == "param"
                and key_of(binding.node) == key_of(function)
            ):
                return True
        stack.extend(node.named_children)
    return False


def _binding_of(function: Node) -> tuple[Node, str, str | None] | None:
    """(declaration node, bound name, member name for object methods)."""
    if function.type in ("function_declaration", "generator_function_declaration"):
        name = function.child_by_field_name("name")
        return (function, text(name), None) if name is not None else None
    parent = function.parent
    member: str | None = None
    if function.type == "method_definition":
        key = function.child_by_field_name("name")
        member, parent = text(key), function.parent
    elif parent is not None and parent.type == "pair":
        key = parent.child_by_field_name("key")
        member, parent = text(key), parent.parent
    if member is not None:
        if parent is None or parent.type != "object":
            return None
        parent = parent.parent
    if parent is None or parent.type != "variable_declarator":
        return None
    declaration = parent.parent
    if declaration is None or text(declaration.child(0)) != "const":
        return None
    name = parent.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return None
    return parent, text(name), member


def _name_start(declaration: Node) -> int:
    name = declaration.child_by_field_name("name")
    return name.start_byte if name is not None else -1


def _inside_export(declaration: Node) -> bool:
    """`export const …` / `export function …`: the declaration itself is exported."""
    parent = declaration.parent
    if parent is not None and parent.type in ("lexical_declaration", "variable_declaration"):
        parent = parent.parent
    return parent is not None and parent.type == "export_statement"


def _invocation(use: Node, member: str | None) -> Node | None:
    node = use
    if member is not None:
        parent = node.parent
        if parent is None or parent.type != "member_expression":
            return None
        prop = parent.child_by_field_name("property")
        if prop is None or text(prop) != member:
            return None
        node = parent
    call = node.parent
    if call is None or call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    return call if callee is not None and key_of(callee) == key_of(node) else None


def _other_member(use: Node, member: str) -> bool:
    """`obj.other(...)`: a use of another member, which cannot reach this one."""
    parent = use.parent
    if parent is None or parent.type != "member_expression":
        return False
    prop = parent.child_by_field_name("property")
    if prop is None or prop.type != "property_identifier" or text(prop) == member:
        return False
    obj = parent.child_by_field_name("object")
    return obj is not None and key_of(obj) == key_of(use)


def _identifiers(root: Node, name: str) -> list[Node]:
    found: list[Node] = []
    stack = [root]
    encoded = name.encode("utf-8")
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_property_identifier"):
            if node.text == encoded:
                found.append(node)
            continue
        if node.text is not None and encoded not in node.text:
            continue
        stack.extend(node.children)
    return found
