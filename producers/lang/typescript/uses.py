"""Call sites and value uses: calls, `new`, tagged templates, `super(...)`, JSX, function values.

A site records the callee as written (see syntax.Chain); the head is
classified when the file is finished. `require('x')` and `import('x')` with a
literal are imports, not calls; with any other argument they are counted as
dynamic loads.
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.producers.lang.facts import SiteKind
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.extractor import Extractor


def on_call(ex: Extractor, node: Node) -> None:
    if node.id in ex.consumed:
        return
    callee = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if callee is None or arguments is None:
        return
    callee_type = callee.type
    if callee_type == "import" or (
        callee_type == "identifier" and ex.data[callee.start_byte : callee.end_byte] == b"require"
    ):
        load = ex.module_load(node)
        if load is None:
            ex.dynamic_loads += 1
        else:
            ex.load_of_node[node.id] = ex.add_import(load[0], load[1], "*", "", node)
        return
    kind: SiteKind
    if callee_type == "super":
        kind = "super"
    elif _is_decorator_call(node):
        kind = "decorator"  # `@Get()`: the decorated declaration is built by a framework
    elif arguments.type == "template_string":
        kind = "tagged"
    else:
        kind = "call"
    optional = b"?." in ex.data[callee.end_byte : arguments.start_byte]
    ex.site(node, kind, callee, optional=optional)


def _is_decorator_call(node: Node) -> bool:
    _, holder = syntax.outer(node)
    return holder is not None and holder.type == "decorator"


def on_new(ex: Extractor, node: Node) -> None:
    constructor = node.child_by_field_name("constructor")
    if constructor is not None:
        ex.site(node, "new", constructor)


def on_jsx(ex: Extractor, node: Node) -> None:
    name = node.child_by_field_name("name")
    if name is None or name.type not in ("identifier", "member_expression"):
        return
    if name.type == "identifier":
        first = ex.data[name.start_byte : name.start_byte + 1]
        if first.islower() or b"-" in ex.data[name.start_byte : name.end_byte]:
            return  # an intrinsic element (<div>, <my-element>)
    ex.site(node, "jsx", name)


def on_value(ex: Extractor, node: Node) -> None:
    parent = node.parent
    if parent is not None and parent.type == "arguments":
        call = parent.parent
        if call is not None and ex.module_load(call) is None:
            ex.use(node, "callback")
        return
    ex.use(node, "reference")


def on_shorthand(ex: Extractor, node: Node) -> None:
    ex.use(node, "reference")
