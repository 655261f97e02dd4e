"""Project wrappers around fetch/axios/ky, followed only under the spec's narrow proof.

A function is a wrapper when its body is a single `return <call>` (or an
arrow expression body; `await` and type-only wrappings such as `as`,
`satisfies`, `!` and `<T>x` allowed), every parameter is a plain name
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

from typing import Protocol

from tsograph.producers.lang.syntax_read import enclosing_function
from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_read import is_function
from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.requests import Outcome
from tsograph.producers.routes.client.static_values import Context
from tsograph.producers.routes.client.static_values import Evaluator
from tsograph.producers.routes.client.static_values import Fn
from tsograph.producers.routes.client.static_values import ProjectView
from tsograph.producers.routes.client.static_values import Value
from tsograph.producers.routes.client.static_values import argument_nodes
from tsograph.producers.routes.client.static_values import callee_of
from tsograph.producers.routes.client.static_values import is_call

MAX_WRAPPER_DEPTH = 8

# ky's response-promise shortcuts (ky 1.14.3 and 2.1.0 responseTypes).
_BODY_READERS = frozenset({"json", "text", "formData", "arrayBuffer", "blob", "bytes"})
_PROMISE_STEPS = frozenset({"then", "catch", "finally"})

WrapperKey = tuple[str, int]


class OutcomeOf(Protocol):
    """The request of a call with a known callee (the scan's): what a followed wrapper sends."""

    def __call__(
        self, ev: Evaluator, ctx: Context, call: Node, callee: Value, depth: int
    ) -> Outcome | None: ...


def forwarding_call(function: Node) -> Node | None:
    """The one call a function's body returns, or None when the body does more."""
    if not is_function(function) or not simple_parameters(function):
        return None
    if function.value == "method" and (function.parent is None or function.parent.kind != "object"):
        return None  # class methods are outside the proven scope
    body = function.part("body")
    if body is None:
        return None
    if body.kind == "block":
        if len(body.items) != 1 or body.items[0].kind != "return":
            return None
        returned = body.items[0].part("value")
        if returned is None:
            return None
        body = returned
    # Through `await` and every cast (`as`, `satisfies`, `!`, `<T>x`): none changes the call.
    body = unwrap_value(body)
    return _request_part(body) if is_call(body) else None


def _request_part(call: Node) -> Node:
    """The request a returned promise chain starts from.

    `ky.get(url).json()` and `api.get(url).then((r) => r.data)` send exactly
    the request they start from: body readers and promise callbacks run after
    it and cannot change it.
    """
    while call.kind == "call":
        callee = call.part("callee")
        if callee is None or callee.kind != "member":
            return call
        prop = callee.part("property")
        inner = callee.part("object")
        name = prop.value if prop is not None else None
        reader = name in _BODY_READERS and not call.items
        if not (reader or name in _PROMISE_STEPS) or inner is None or not is_call(inner):
            return call
        call = inner
    return call


def simple_parameters(function: Node) -> bool:
    params = function.part("parameters")
    if params is None or not params.items:
        return False
    for param in params.items:
        pattern = param.part("pattern")
        if pattern is None or pattern.kind != "identifier":
            return False
        if param.part("value") is not None or "rest" in param.flags:
            return False
    return True


class Wrappers:
    def __init__(self, project: ProjectView) -> None:
        self.project = project
        # wrapper -> represented invocation starts
        self.invoked: dict[WrapperKey, set[tuple[str, int]]] = {}
        self.unrepresented: set[WrapperKey] = set()
        self.exported: set[WrapperKey] = set()
        self.inner: set[WrapperKey] = set()
        self.nodes: dict[WrapperKey, tuple[str, Node]] = {}

    def inner_of(self, ctx: Context, call: Node) -> WrapperKey | None:
        """The wrapper whose forwarded request this call is, when the call uses its parameters."""
        function = enclosing_function(call)
        if function is None:
            return None
        if forwarding_call(function) is not call:
            return None
        if not _uses_parameters(ctx, call, function):
            return None
        key = (ctx.path, function.start)
        self.inner.add(key)
        self.nodes[key] = (ctx.path, function)
        return key

    def invoke(
        self, outcome_of: OutcomeOf, ev: Evaluator, ctx: Context, call: Node, fn: Fn, depth: int
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
        if target is None or args is None or depth >= MAX_WRAPPER_DEPTH or ev.budget.spent:
            self.unrepresented.add(key)
            return None
        values = tuple(ev.value(ctx, arg) for arg in args)
        inner_ev = Evaluator({**ev.env, fn.node: values}, ev.budget.below())
        callee = inner_ev.value(target, callee_of(forwarded))
        outcome = outcome_of(inner_ev, target, forwarded, callee, depth + 1)
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
        if use is declaration.part("name"):
            continue
        binding = ctx.scopes.lookup(use, name)
        if binding is None or binding.node is not declaration:
            continue
        parent = use.parent
        if parent is not None and parent.kind in ("export_name", "export"):
            return False  # `export { name }`, `export default name`
        alias = _const_alias(use if member is None else _member_of(use, member))
        if alias is not None:
            alias_name = alias.part("name")
            alias_text = alias_name.value if alias_name is not None else None
            if not _uses_invoked(ctx, alias, alias_text or "", None, invoked, depth + 1):
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
    if parent is None or parent.kind != "member":
        return None
    prop = parent.part("property")
    return parent if prop is not None and prop.value == member else None


def _const_alias(use: Node | None) -> Node | None:
    """The declarator of `const alias = use`, when the use is its whole initializer."""
    if use is None:
        return None
    parent = use.parent
    if parent is None or parent.kind != "declarator" or parent.part("value") is not use:
        return None
    name = parent.part("name")
    declaration = parent.parent
    if name is None or name.kind != "identifier":
        return None
    if declaration is None or declaration.value != "const":
        return None
    return parent


def _call_key(path: str, call: Node) -> tuple[str, int]:
    return (path, call.start)


def _uses_parameters(ctx: Context, call: Node, function: Node) -> bool:
    for node in find_all(call, ("identifier",)):
        if node.value is not None:
            binding = ctx.scopes.lookup(node, node.value)
            if binding is not None and binding.kind == "param" and binding.node is function:
                return True
    return False


def _binding_of(function: Node) -> tuple[Node, str, str | None] | None:
    """(declaration node, bound name, member name for object methods)."""
    if function.value == "declaration":
        name = function.part("name")
        if name is None or name.value is None:
            return None
        return function, name.value, None
    parent = function.parent
    member: str | None = None
    if function.value == "method":
        member = static_key(function)
    elif parent is not None and parent.kind == "property":
        member, parent = static_key(parent), parent.parent
    if member is not None:
        if parent is None or parent.kind != "object":
            return None
        parent = parent.parent
    if parent is None or parent.kind != "declarator":
        return None
    declaration = parent.parent
    if declaration is None or declaration.value != "const":
        return None
    name = parent.part("name")
    if name is None or name.kind != "identifier" or name.value is None:
        return None
    return parent, name.value, member


def _inside_export(declaration: Node) -> bool:
    """`export const …` / `export function …`: the declaration itself is exported."""
    parent = declaration.parent
    if parent is not None and parent.kind == "declaration":
        parent = parent.parent
    return parent is not None and parent.kind == "export"


def _invocation(use: Node, member: str | None) -> Node | None:
    node = use
    if member is not None:
        found = _member_of(use, member)
        if found is None:
            return None
        node = found
    call = node.parent
    if call is None or not is_call(call):
        return None
    return call if callee_of(call) is node else None


def _other_member(use: Node, member: str) -> bool:
    """`obj.other(...)`: a use of another member, which cannot reach this one."""
    parent = use.parent
    if parent is None or parent.kind != "member" or parent.part("object") is not use:
        return False
    prop = parent.part("property")
    if prop is None or prop.value is None or prop.value.startswith("#"):
        return False
    return prop.value != member


def _identifiers(root: Node, name: str) -> list[Node]:
    """Every use of `name` as a value in the file (`name`, `{ name }`), in source order."""
    found = find_all(root, ("identifier", "shorthand"))
    return [
        node
        for node in found
        if node.value == name
        and (
            node.kind == "identifier" or (node.parent is not None and node.parent.kind == "object")
        )
    ]
