"""Builders for literals, names, expressions and destructuring patterns."""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.lowering_nodes import source_text
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript.lowering_registry import LOWERING
from tsograph.producers.lang.typescript.lowering_registry import builder
from tsograph.producers.lang.typescript.lowering_registry import optional_flag
from tsograph.producers.lang.typescript.lowering_registry import with_decorators
from tsograph.producers.lang.typescript.strings import decode_js_string

# ---- leaves -----------------------------------------------------------------------


LOWERING.text(("identifier", "shorthand_property_identifier_pattern"), "identifier")
LOWERING.text(
    (
        "property_identifier",
        "private_property_identifier",
        "statement_identifier",
        "nested_identifier",
        "jsx_namespace_name",
    ),
    "name",
)
LOWERING.text("shorthand_property_identifier", "shorthand")
for _keyword in ("this", "super", "null", "undefined"):
    LOWERING.leaf(_keyword, _keyword)
LOWERING.leaf("true", "boolean", "true")
LOWERING.leaf("false", "boolean", "false")
LOWERING.text("number", "number")


@builder("string")
def _string(frame: Frame, data: bytes) -> Node:
    body = data[frame.start + 1 : frame.end - 1].decode("utf-8", "replace")
    return lowered(frame, "string", decode_js_string(body))


# Read from the enclosing string's text.
LOWERING.dropped("string_fragment", "escape_sequence", "html_character_reference")


@builder("regex")
def _regex(frame: Frame, data: bytes) -> Node:
    pattern = frame.part("pattern")
    return lowered(frame, "regex", None if pattern is None else pattern.value)


LOWERING.text(("regex_pattern", "regex_flags"), "name")


@builder("template_string")
def _template(frame: Frame, data: bytes) -> Node:
    items: list[Node] = []
    cursor = frame.start + 1
    for substitution in frame.nodes():
        if substitution.start > cursor:
            items.append(_template_text(data, cursor, substitution.start))
        items.append(substitution)
        cursor = substitution.end
    if frame.end - 1 > cursor:
        items.append(_template_text(data, cursor, frame.end - 1))
    return lowered(frame, "template", items=items)


def _template_text(data: bytes, start: int, end: int) -> Node:
    raw = data[start:end].decode("utf-8", "replace")
    return Node("template_text", start, end, decode_js_string(raw))


LOWERING.wrap("template_substitution", "substitution")


@builder("meta_property")
def _meta(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "meta", "".join(source_text(frame, data).split()))


# Read by the declaration it modifies (`lowering_registry.modifiers`), never kept as a node.
LOWERING.text(("accessibility_modifier", "override_modifier"), "\0modifier")


# ---- expressions ------------------------------------------------------------------


@builder("parenthesized_expression")
def _parenthesized(frame: Frame, data: bytes) -> Node | list[Node] | None:
    inner = frame.nodes()
    if len(inner) == 1:
        return inner[0]
    return lowered(frame, "sequence", items=inner) if inner else None


# grammar type -> (kind, the part besides `object`)
_ACCESSES = {
    "member_expression": ("member", "property"),
    "subscript_expression": ("index", "index"),
}


@builder(*_ACCESSES)
def _access(frame: Frame, data: bytes) -> Node:
    kind, key = _ACCESSES[frame.kind]
    parts = {"object": frame.part("object"), key: frame.part(key)}
    return lowered(frame, kind, flags=optional_flag(frame), parts=parts)


LOWERING.leaf("optional_chain", "\0optional")


@builder("call_expression")
def _call(frame: Frame, data: bytes) -> Node:
    callee = frame.part("function")
    arguments = frame.part("arguments")
    type_arguments = frame.part("type_arguments")
    if arguments is not None and arguments.kind == "template":
        return lowered(
            frame,
            "tagged",
            parts={"tag": callee, "type_arguments": type_arguments, "template": arguments},
        )
    parts = {"callee": callee, "type_arguments": type_arguments}
    items = () if arguments is None else arguments.items
    return lowered(frame, "call", flags=optional_flag(frame), parts=parts, items=items)


LOWERING.leaf("import", "name", "import")
LOWERING.items("arguments", "sequence")


LOWERING.fields(
    "new_expression", "new", "callee=constructor type_arguments", items_from="arguments"
)


LOWERING.wrap("await_expression", "await")


@builder("yield_expression")
def _yield(frame: Frame, data: bytes) -> Node:
    flags = {"delegate"} if frame.has("*") else set()
    return lowered(frame, "yield", flags=flags, parts={"value": frame.first()})


@builder("unary_expression")
def _unary(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "unary", frame.token("operator"), parts={"value": frame.part("argument")})


@builder("update_expression")
def _update(frame: Frame, data: bytes) -> Node:
    operator = frame.token("operator")
    argument = frame.part("argument")
    prefix = argument is not None and argument.start > frame.start
    return lowered(
        frame, "update", operator, flags={"prefix"} if prefix else set(), parts={"value": argument}
    )


@builder("binary_expression")
def _binary(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "binary",
        frame.token("operator"),
        parts={"left": frame.part("left"), "right": frame.part("right")},
    )


LOWERING.fields("ternary_expression", "conditional", "condition consequence alternative")


@builder("assignment_expression", "augmented_assignment_expression")
def _assign(frame: Frame, data: bytes) -> Node:
    operator = "=" if frame.kind == "assignment_expression" else frame.token("operator")
    return lowered(
        frame,
        "assign",
        operator,
        parts={"left": frame.part("left"), "right": frame.part("right")},
    )


@builder("sequence_expression")
def _sequence(frame: Frame, data: bytes) -> Node:
    items: list[Node] = []
    for node in frame.nodes():
        items.extend(node.items if node.kind == "sequence" else (node,))
    return lowered(frame, "sequence", items=items)


@builder("as_expression")
def _as(frame: Frame, data: bytes) -> Node:
    value, type_ = frame.first(), frame.nth(1)
    if type_ is None and frame.has("const"):
        return lowered(frame, "cast", "as const", parts={"value": value})
    return lowered(frame, "cast", "as", parts={"value": value, "type": type_})


LOWERING.ordered("satisfies_expression", "cast", "value type", "satisfies")
LOWERING.wrap("non_null_expression", "cast", value="!")


@builder("type_assertion")
def _type_assertion(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    arguments = inner[0] if inner and inner[0].kind == "type_arguments" else None
    value = inner[-1] if inner and inner[-1] is not arguments else None
    type_ = arguments.items[0] if arguments is not None and arguments.items else None
    return lowered(frame, "cast", "<>", parts={"value": value, "type": type_})


@builder("instantiation_expression")
def _instantiation(frame: Frame, data: bytes) -> Node:
    parts = {"value": frame.first(), "type": frame.part("type_arguments")}
    return lowered(frame, "cast", "instantiate", parts=parts)


LOWERING.wrap("spread_element", "spread")


@builder("object")
def _object(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "object", items=with_decorators(frame.nodes()))


LOWERING.fields(("pair", "pair_pattern"), "property", "key value")
LOWERING.wrap("computed_property_name", "computed")
LOWERING.items("array", "array")
LOWERING.wrap("decorator", "decorator")


# ---- patterns ---------------------------------------------------------------------


@builder("object_pattern")
def _object_pattern(frame: Frame, data: bytes) -> Node:
    items = [
        Node("shorthand", node.start, node.end, node.value) if node.kind == "identifier" else node
        for node in frame.nodes()
    ]
    return lowered(frame, "object_pattern", items=items)


LOWERING.items("array_pattern", "array_pattern")
LOWERING.fields(("assignment_pattern", "object_assignment_pattern"), "assign_pattern", "left right")
LOWERING.wrap("rest_pattern", "rest")
