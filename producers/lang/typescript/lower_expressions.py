"""Builders for literals, names, expressions and destructuring patterns."""

from __future__ import annotations

from tsograph.producers.lang.lowering_nodes import lowered, source_text
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript.lowering_frames import (
    Frame,
    builder,
    with_decorators,
)
from tsograph.producers.lang.typescript.strings import decode_js_string

# ---- leaves -----------------------------------------------------------------------


@builder("identifier", "shorthand_property_identifier_pattern")
def _identifier(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "identifier", source_text(frame, data))


@builder(
    "property_identifier",
    "private_property_identifier",
    "statement_identifier",
    "nested_identifier",
    "jsx_namespace_name",
)
def _name(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "name", source_text(frame, data))


@builder("shorthand_property_identifier")
def _shorthand(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "shorthand", source_text(frame, data))


@builder("this", "super", "null", "undefined")
def _keyword(frame: Frame, data: bytes) -> Node:
    return lowered(frame, frame.kind)


@builder("true", "false")
def _boolean(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "boolean", frame.kind)


@builder("number")
def _number(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "number", source_text(frame, data))


@builder("string")
def _string(frame: Frame, data: bytes) -> Node:
    body = data[frame.start + 1 : frame.end - 1].decode("utf-8", "replace")
    return lowered(frame, "string", decode_js_string(body))


@builder("string_fragment", "escape_sequence", "html_character_reference")
def _string_piece(frame: Frame, data: bytes) -> None:
    return None  # read from the enclosing string's text


@builder("regex")
def _regex(frame: Frame, data: bytes) -> Node:
    pattern = frame.part("pattern")
    return lowered(frame, "regex", None if pattern is None else pattern.value)


@builder("regex_pattern", "regex_flags")
def _regex_piece(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "name", source_text(frame, data))


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


@builder("template_substitution")
def _substitution(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "substitution", parts={"value": inner[0] if inner else None})


@builder("meta_property")
def _meta(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "meta", "".join(source_text(frame, data).split()))


@builder("accessibility_modifier", "override_modifier")
def _modifier(frame: Frame, data: bytes) -> Node:
    # Read by the declaration it modifies (`Frame.modifiers`), never kept as a node.
    return lowered(frame, "\0modifier", source_text(frame, data))


# ---- expressions ------------------------------------------------------------------


@builder("parenthesized_expression")
def _parenthesized(frame: Frame, data: bytes) -> Node | list[Node] | None:
    inner = frame.nodes()
    if len(inner) == 1:
        return inner[0]
    return lowered(frame, "sequence", items=inner) if inner else None


@builder("member_expression")
def _member(frame: Frame, data: bytes) -> Node:
    flags = {"optional"} if frame.optional_chain() else set()
    return lowered(
        frame,
        "member",
        flags=flags,
        parts={"object": frame.part("object"), "property": frame.part("property")},
    )


@builder("optional_chain")
def _optional_chain(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "\0optional")


@builder("subscript_expression")
def _index(frame: Frame, data: bytes) -> Node:
    flags = {"optional"} if frame.optional_chain() else set()
    return lowered(
        frame,
        "index",
        flags=flags,
        parts={"object": frame.part("object"), "index": frame.part("index")},
    )


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
    flags = {"optional"} if frame.optional_chain() else set()
    return lowered(
        frame,
        "call",
        flags=flags,
        parts={"callee": callee, "type_arguments": type_arguments},
        items=() if arguments is None else arguments.items,
    )


@builder("import")
def _import_callee(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "name", "import")


@builder("arguments")
def _arguments(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "sequence", items=frame.nodes())


@builder("new_expression")
def _new(frame: Frame, data: bytes) -> Node:
    arguments = frame.part("arguments")
    return lowered(
        frame,
        "new",
        parts={"callee": frame.part("constructor"), "type_arguments": frame.part("type_arguments")},
        items=() if arguments is None else arguments.items,
    )


@builder("await_expression")
def _await(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "await", parts={"value": inner[0] if inner else None})


@builder("yield_expression")
def _yield(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    flags = {"delegate"} if frame.has("*") else set()
    return lowered(frame, "yield", flags=flags, parts={"value": inner[0] if inner else None})


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


@builder("ternary_expression")
def _conditional(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "conditional",
        parts={
            "condition": frame.part("condition"),
            "consequence": frame.part("consequence"),
            "alternative": frame.part("alternative"),
        },
    )


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
    inner = frame.nodes()
    value = inner[0] if inner else None
    if len(inner) < 2 and frame.has("const"):
        return lowered(frame, "cast", "as const", parts={"value": value})
    return lowered(
        frame, "cast", "as", parts={"value": value, "type": inner[1] if len(inner) > 1 else None}
    )


@builder("satisfies_expression")
def _satisfies(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(
        frame,
        "cast",
        "satisfies",
        parts={"value": inner[0] if inner else None, "type": inner[1] if len(inner) > 1 else None},
    )


@builder("non_null_expression")
def _non_null(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "cast", "!", parts={"value": inner[0] if inner else None})


@builder("type_assertion")
def _type_assertion(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    arguments = inner[0] if inner and inner[0].kind == "type_arguments" else None
    value = inner[-1] if inner and inner[-1] is not arguments else None
    type_ = arguments.items[0] if arguments is not None and arguments.items else None
    return lowered(frame, "cast", "<>", parts={"value": value, "type": type_})


@builder("instantiation_expression")
def _instantiation(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(
        frame,
        "cast",
        "instantiate",
        parts={"value": inner[0] if inner else None, "type": frame.part("type_arguments")},
    )


@builder("spread_element")
def _spread(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "spread", parts={"value": inner[0] if inner else None})


@builder("object")
def _object(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "object", items=with_decorators(frame.nodes()))


@builder("pair", "pair_pattern")
def _pair(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame, "property", parts={"key": frame.part("key"), "value": frame.part("value")}
    )


@builder("computed_property_name")
def _computed(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "computed", parts={"value": inner[0] if inner else None})


@builder("array")
def _array(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "array", items=frame.nodes())


@builder("decorator")
def _decorator(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "decorator", parts={"value": inner[0] if inner else None})


# ---- patterns ---------------------------------------------------------------------


@builder("object_pattern")
def _object_pattern(frame: Frame, data: bytes) -> Node:
    items = [
        Node("shorthand", node.start, node.end, node.value) if node.kind == "identifier" else node
        for node in frame.nodes()
    ]
    return lowered(frame, "object_pattern", items=items)


@builder("array_pattern")
def _array_pattern(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "array_pattern", items=frame.nodes())


@builder("assignment_pattern", "object_assignment_pattern")
def _assign_pattern(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame, "assign_pattern", parts={"left": frame.part("left"), "right": frame.part("right")}
    )


@builder("rest_pattern")
def _rest(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "rest", parts={"value": inner[0] if inner else None})
