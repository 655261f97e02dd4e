"""Call sites and value uses: calls, `new`, tagged templates, `super(...)`, JSX, function values,
and the types named by casts (`as`, `satisfies`, `<T>`) and `instanceof`.

A site records the callee as written (see syntax.Chain); the head is
classified when the file is finished. `require('x')` and `import('x')` with a
literal are imports, not calls; with any other argument they are counted as
dynamic loads.
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.producers.lang.facts import Import
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
            load_fact = Import(load[0], load[1], "*", "", *ex.loc(node))
            ex.load_of_node[node.id] = ex.add_import(load_fact)
        return
    kind: SiteKind
    if callee_type == "super":
        kind = "super"
    elif node.id in ex.decorator_calls:
        kind = "decorator"  # `@Get()`: the decorated declaration is built by a framework
    elif arguments.type == "template_string":
        kind = "tagged"
    else:
        kind = "call"
    optional = b"?." in ex.data[callee.end_byte : arguments.start_byte]
    ex.site(node, kind, callee, arguments, optional=optional)


def on_new(ex: Extractor, node: Node) -> None:
    constructor = node.child_by_field_name("constructor")
    if constructor is not None:
        ex.site(node, "new", constructor, node.child_by_field_name("arguments"))


def on_jsx(ex: Extractor, node: Node) -> None:
    name = node.child_by_field_name("name")
    if name is None or name.type not in ("identifier", "member_expression"):
        return
    if name.type == "identifier":
        first = ex.data[name.start_byte : name.start_byte + 1]
        if first.islower() or b"-" in ex.data[name.start_byte : name.end_byte]:
            return  # an intrinsic element (<div>, <my-element>)
    ex.site(node, "jsx", name, None)


def on_value(ex: Extractor, node: Node) -> None:
    parent = node.parent
    if parent is not None and parent.type == "arguments":
        call = parent.parent
        if call is not None and ex.module_load(call) is None:
            ex.use(node, "callback")
        return
    if parent is not None and parent.type == "binary_expression":
        # `x instanceof C`, the one binary operand the grammar query captures: C is read
        # as a value (the constructor) and names the type x narrows to.
        ex.narrowing(node)
    ex.use(node, "reference")


def on_cast(ex: Extractor, node: Node) -> None:
    """`x as T`, `<T>x`, `x satisfies T`: T is used as a type where it is written."""
    if node.type == "satisfies_expression":
        named = [child for child in node.named_children if child.type != "comment"]
        type_node = named[-1] if len(named) >= 2 else None
    else:
        type_node = syntax.cast_type(node)
    if type_node is not None:
        ex.type_use(type_node)


def on_shorthand(ex: Extractor, node: Node) -> None:
    ex.use(node, "reference")
