"""Assignments and returned values: the facts bound dispatch follows a value through.

`x = v`, `this.store = v` and `obj.a.b = v` are writes of the chain on the
left; `obj[key] = v` is a computed write (the receiver's properties become
unknown); a destructuring assignment writes an unknown value to each name it
binds; `x ||= v` and `x ??= v` add `v` to what `x` holds. A `return` belongs
to the function whose code holds it only when that function has an id of its
own; returns of unnamed functions are not attributed to the function around
them.
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.drafts import ReturnDraft
from tsograph.producers.lang.drafts import WriteDraft
from tsograph.producers.lang.typescript import commonjs
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.patterns import pattern_names

_GENERATORS = frozenset({"generator_function_declaration", "generator_function"})
_FUNCTION_NODES = syntax.FUNCTIONS | _GENERATORS | {"function_declaration", "method_definition"}
_VALUE_OPERATORS = frozenset({"||=", "??=", "&&="})
_PATTERNS = frozenset({"object_pattern", "array_pattern"})


def on_assignment(ex: Extractor, node: Node) -> None:
    commonjs.on_assignment(ex, node)
    _write(ex, node.child_by_field_name("left"), node.child_by_field_name("right"))


def on_augmented_assignment(ex: Extractor, node: Node) -> None:
    operator = node.child_by_field_name("operator")
    if operator is not None and operator.type in _VALUE_OPERATORS:
        _write(ex, node.child_by_field_name("left"), node.child_by_field_name("right"))


def _write(ex: Extractor, left: Node | None, right: Node | None) -> None:
    if left is None or right is None:
        return
    owner = ex.frame.owner
    target = syntax.unwrap(left)
    if target.type in _PATTERNS:
        for name, _ in pattern_names(ex.data, target):
            ex.writes.append(
                WriteDraft(owner, RefDraft(ex.text(name), ex.frame.scope), InitDraft("other"))
            )
        return
    value = ex.init_of(right) or InitDraft("other")
    if target.type == "identifier":
        ex.writes.append(WriteDraft(owner, RefDraft(ex.text(target), ex.frame.scope), value))
    elif target.type == "member_expression":
        chain = syntax.Chain(ex.data, target)
        ex.writes.append(WriteDraft(owner, ex.chain_ref(chain), value, chain.computed))
    elif target.type == "subscript_expression":
        receiver = target.child_by_field_name("object")
        if receiver is not None:
            ex.writes.append(WriteDraft(owner, ex.value_ref(receiver), value, computed=True))


def on_return(ex: Extractor, node: Node) -> None:
    value = syntax.first_named(node)
    if value is None:
        return
    function = _function_of(node)
    if function is None:
        return
    owner = ex.function_owner.get(function.id)
    if owner is None:
        return
    if _is_generator(function):
        # A generator's call returns its iterator; `return v` only ends the iteration.
        # The value still leaves the function (it escapes), but is no call's result.
        owner = ""
    ex.returns.append(ReturnDraft(owner, ex.init_of(value) or InitDraft("other")))


def on_expression_body(ex: Extractor, function: Node) -> None:
    """An arrow function whose body is an expression returns that expression."""
    body = function.child_by_field_name("body")
    owner = ex.function_owner.get(function.id)
    if body is not None and owner is not None and body.type != "statement_block":
        ex.returns.append(ReturnDraft(owner, ex.init_of(body) or InitDraft("other")))


def _function_of(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type not in _FUNCTION_NODES:
        parent = parent.parent
    return parent


def _is_generator(function: Node) -> bool:
    kind = function.type
    if kind == "method_definition":
        return any(child.type == "*" for child in function.children)
    return kind in _GENERATORS
