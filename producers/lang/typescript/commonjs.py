"""CommonJS exports: `module.exports = …`, `module.exports.x = …` and `exports.x = …`.

At module level, `module.exports = <function, class or object>` declares
`#default` (like `export default`) and `exports.x = <function or class>`
declares `#x`, so `require('./m')` and `const { x } = require('./m')` have a
declaration to bind to. An object's static keys are exported by name too.
"""

from __future__ import annotations

from tree_sitter import Node

from tsograph.exchange.symbol_ids import DEFAULT
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import ExportKind
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.drafts import ExportDraft
from tsograph.producers.lang.typescript.drafts import declared_export
from tsograph.producers.lang.typescript.extractor import Extractor


def on_assignment(ex: Extractor, node: Node) -> None:
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None or left.type != "member_expression":
        return
    target = syntax.name_chain(ex.data, left)
    if target is None:
        return
    parts = target.split(".")
    kind: ExportKind
    if parts == ["module", "exports"]:
        kind, name = "equals", "="
    elif (len(parts) == 3 and parts[:2] == ["module", "exports"]) or (
        len(parts) == 2 and parts[0] == "exports"
    ):
        kind, name = "commonjs", parts[-1]
    else:
        return
    frame = ex.frame
    at_top = frame.owner == ex.module and frame.named and not frame.path
    value = syntax.unwrap(right)
    property_node = left.child_by_field_name("property")
    line, column = ex.loc(property_node if property_node is not None else left)
    declared = DEFAULT if kind == "equals" else name
    ident = ex.id_of((declared,))
    if at_top and (value.type in syntax.FUNCTIONS or value.type in syntax.CLASSES):
        value_line, value_column = ex.loc(value) if kind == "equals" else (line, column)
        named_class = syntax.class_expression_name(value) is not None
        ex.declare(
            ident,
            # `module.exports = class Widget {}`: default holds the class default.Widget.
            "variable" if named_class else "class" if value.type in syntax.CLASSES else "function",
            declared,
            value_line,
            value_column,
            ex.module,
            has_body=True,
            type=syntax.declared_type(ex.data, value.child_by_field_name("return_type")),
            init=InitDraft("class", RefDraft(node=value.id)) if named_class else None,
        )
        ex.named_values[value.id] = (ident, (declared,))
        if not named_class:
            ex.decl_of_node[value.id] = ident
        class_node = value.id if named_class else None
        ex.exports.append(
            declared_export(Export(kind, name, line, column, ident), class_node, declared)
        )
        return
    if at_top and kind == "equals" and value.type == "object":
        ex.declare_default(value, ex.init_of(value))
        ex.holders[value.id] = (DEFAULT,)
        ex.push(node, owner=ident, path=(DEFAULT,))
        ex.exports.append(declared_export(Export(kind, name, line, column, ident)))
        _object_exports(ex, value)
        return
    ex.exports.append(ExportDraft(Export(kind, name, line, column), ex.value_ref(right)))


def _object_exports(ex: Extractor, value: Node) -> None:
    """`module.exports = { a, b: c, d() {} }` exports a, b and d by name as well."""
    for member in value.named_children:
        kind = member.type
        name: str | None
        if kind == "shorthand_property_identifier":
            key: Node | None = member
            name = ex.text(member)
        else:
            key = member.child_by_field_name("key" if kind == "pair" else "name")
            name = None if key is None else syntax.property_name(ex.data, key)
        if key is None or name is None:
            continue
        if kind == "pair":
            member_value = member.child_by_field_name("value")
            ref = None if member_value is None else ex.value_ref(member_value)
        elif kind == "shorthand_property_identifier":
            ref = RefDraft(name, ex.frame.scope)
        elif kind == "method_definition":
            ref = RefDraft(node=member.id)
        else:
            continue
        line, column = ex.loc(key)
        ex.exports.append(ExportDraft(Export("commonjs", name, line, column), ref))
