"""Builders for Python leaves, strings, expressions and written types."""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.python.lowering_registry import LOWERING
from tsograph.producers.lang.python.lowering_registry import builder
from tsograph.producers.lang.python.strings import decode_piece
from tsograph.producers.lang.syntax_tree import Node

# ---- leaves -----------------------------------------------------------------------

LOWERING.text("identifier", "identifier")
LOWERING.text(("integer", "float"), "number")
LOWERING.leaf("true", "boolean", "true")
LOWERING.leaf("false", "boolean", "false")
LOWERING.leaf("none", "null")
LOWERING.leaf("ellipsis", "ellipsis")
LOWERING.leaf("keyword_separator", "parameter_separator", "*")
LOWERING.leaf("positional_separator", "parameter_separator", "/")

# ---- strings ----------------------------------------------------------------------

LOWERING.text("string_start", "\0start")
# The text between the quotes is read from the literal's own bytes (see _string): the
# grammar puts a raw string's backslash-newline in `string_end`.
LOWERING.dropped("string_content", "string_end")
LOWERING.fields("interpolation", "substitution", "value=expression")
# How a substitution is formatted adds no value a producer reads.
LOWERING.dropped("format_specifier", "type_conversion", "format_expression")


@builder("string")
def _string(frame: Frame, data: bytes) -> Node:
    opening = next((node.value or "" for node in frame.nodes() if node.kind == "\0start"), "")
    prefix = opening.rstrip("'\"")
    quote = opening[len(prefix) :]
    body_start = frame.start + len(opening.encode())
    body_end = frame.end
    if len(quote) and data[frame.start : frame.end].endswith(quote.encode()):
        body_end = max(body_start, frame.end - len(quote))
    substitutions = [node for node in frame.nodes() if node.kind == "substitution"]
    pieces: list[Node] = []
    position = body_start
    for gap_end, substitution in [(node.start, node) for node in substitutions] + [
        (body_end, None)
    ]:
        if gap_end > position:
            text = data[position:gap_end].decode("utf-8", "replace")
            pieces.append(Node("template_text", position, gap_end, decode_piece(text, prefix)))
        if substitution is not None:
            pieces.append(substitution)
            position = substitution.end
    flags = {"bytes"} if "b" in prefix.lower() else set()
    if "f" in prefix.lower():
        return lowered(frame, "template", flags=flags, items=pieces)
    return lowered(frame, "string", "".join(piece.value or "" for piece in pieces), flags=flags)


@builder("concatenated_string")
def _concatenated(frame: Frame, data: bytes) -> Node:
    strings = frame.nodes()
    flags = strings[0].flags if strings else frozenset()
    if all(node.kind == "string" for node in strings):
        return lowered(frame, "string", "".join(node.value or "" for node in strings), flags=flags)
    items: list[Node] = []
    for node in strings:
        if node.kind == "string":
            items.append(Node("template_text", node.start, node.end, node.value))
        else:
            items.extend(node.items)
    return lowered(frame, "template", flags=flags, items=items)


# ---- expressions ------------------------------------------------------------------


@builder("attribute")
def _attribute(frame: Frame, data: bytes) -> Node:
    prop = frame.part("attribute")
    if prop is not None:
        prop = Node("name", prop.start, prop.end, prop.value)
    return lowered(frame, "member", parts={"object": frame.part("object"), "property": prop})


@builder("subscript")
def _subscript(frame: Frame, data: bytes) -> Node:
    indexes = [node for name, node in frame.named if name == "subscript"]
    index: Node | None = indexes[0] if len(indexes) == 1 else None
    if len(indexes) > 1:
        index = Node("array", indexes[0].start, indexes[-1].end, "tuple", items=tuple(indexes))
    return lowered(frame, "index", parts={"object": frame.part("value"), "index": index})


@builder("slice")
def _slice(frame: Frame, data: bytes) -> Node:
    # `a:b:c`: which of the three are written follows from the colons around them.
    parts: dict[str, Node | None] = {}
    names = ("start", "stop", "step")
    slot = 0
    position = frame.start
    for node in frame.nodes():
        slot = min(slot + data[position : node.start].count(b":"), 2)
        parts[names[slot]] = node
        position = node.end
    return lowered(frame, "slice", parts=parts)


@builder("call")
def _call(frame: Frame, data: bytes) -> Node:
    arguments = frame.part("arguments")
    items: tuple[Node, ...] = ()
    if arguments is not None:
        items = arguments.items if arguments.kind == "\0arguments" else (arguments,)
    return lowered(frame, "call", parts={"callee": frame.part("function")}, items=items)


LOWERING.items("argument_list", "\0arguments")


@builder("keyword_argument")
def _keyword(frame: Frame, data: bytes) -> Node:
    name = frame.part("name")
    return lowered(
        frame, "keyword", None if name is None else name.value, parts={"value": frame.part("value")}
    )


LOWERING.wrap(("list_splat", "list_splat_pattern"), "spread", value="*")
LOWERING.wrap(("dictionary_splat", "dictionary_splat_pattern"), "spread", value="**")


@builder("parenthesized_expression")
def _parenthesized(frame: Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if len(inner) == 1 else lowered(frame, "error", items=inner)


LOWERING.items(("list", "list_pattern"), "array")
LOWERING.items(("tuple", "expression_list", "pattern_list", "tuple_pattern"), "array", "tuple")
LOWERING.items("set", "set")
LOWERING.items("dictionary", "object")


_LITERAL_KEYS = frozenset({"string", "number", "boolean", "null"})


@builder("pair")
def _pair(frame: Frame, data: bytes) -> Node:
    key = frame.part("key")
    if key is not None and key.kind not in _LITERAL_KEYS:
        key = Node("computed", key.start, key.end, parts={"value": key})
    return lowered(frame, "property", parts={"key": key, "value": frame.part("value")})


@builder(
    "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"
)
def _comprehension(frame: Frame, data: bytes) -> Node:
    form = frame.kind.split("_")[0].replace("dictionary", "dict").replace("generator", "generator")
    return lowered(
        frame,
        "comprehension",
        form,
        parts={"body": frame.part("body")},
        items=[node for node in frame.unnamed()],
    )


LOWERING.fields("for_in_clause", "comprehension_for", "left right", flag_tokens=("async",))
LOWERING.wrap("if_clause", "comprehension_if", "condition")
LOWERING.fields("lambda", "function", "parameters body", "lambda")
LOWERING.ordered("conditional_expression", "conditional", "consequence condition alternative")


@builder("binary_operator", "boolean_operator")
def _binary(frame: Frame, data: bytes) -> Node:
    operator = next((token for name, token in frame.tokens if name == "operator"), "")
    return lowered(
        frame, "binary", operator, parts={"left": frame.part("left"), "right": frame.part("right")}
    )


@builder("comparison_operator")
def _comparison(frame: Frame, data: bytes) -> Node:
    operators = [token for name, token in frame.tokens if name == "operators"]
    operands = frame.nodes()
    if len(operands) == 2 and len(operators) == 1:
        return lowered(
            frame, "binary", operators[0], parts={"left": operands[0], "right": operands[1]}
        )
    return lowered(frame, "comparison", ",".join(operators), items=operands)


@builder("unary_operator")
def _unary(frame: Frame, data: bytes) -> Node:
    operator = next((token for name, token in frame.tokens if name == "operator"), "")
    return lowered(frame, "unary", operator, parts={"value": frame.part("argument")})


LOWERING.fields("not_operator", "unary", "value=argument", "not")
LOWERING.wrap("await", "await")


@builder("yield")
def _yield(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(
        frame,
        "yield",
        flags={"delegate"} if frame.has("from") else (),
        parts={"value": inner[0] if inner else None},
    )


LOWERING.fields("named_expression", "assign", "left=name right=value", ":=")

# ---- written types ----------------------------------------------------------------

LOWERING.wrap("type", "annotation")


@builder("generic_type")
def _generic(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    head = inner[0] if inner else None
    arguments = inner[1] if len(inner) > 1 else None
    index: Node | None = None
    if arguments is not None:
        args = [
            node.part("value") or node if node.kind == "annotation" else node
            for node in arguments.items
        ]
        index = (
            args[0]
            if len(args) == 1
            else Node("array", arguments.start, arguments.end, "tuple", items=tuple(args))
        )
    return lowered(frame, "index", parts={"object": head, "index": index})


LOWERING.items("type_parameter", "\0type_arguments")


@builder("union_type")
def _union(frame: Frame, data: bytes) -> Node:
    inner = [
        node.part("value") or node if node.kind == "annotation" else node for node in frame.nodes()
    ]
    return lowered(
        frame,
        "binary",
        "|",
        parts={"left": inner[0] if inner else None, "right": inner[1] if len(inner) > 1 else None},
    )
