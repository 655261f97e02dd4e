"""Lowering: the tree-sitter Python tree as the neutral syntax form (`syntax_tree.Node`).

One iterative pass with a tree cursor (deep nesting costs no Python stack):
each named grammar node is lowered after its children by the builder
registered for its grammar type. Python reuses the neutral kinds where the
meaning is the same (`def` and `lambda` are `function`, a dict is an
`object`, a list or tuple an `array`, `None` is `null`); what only Python has
gets a kind of its own, listed in `syntax_tree.KINDS` (`annotation`,
`keyword`, `bases`, `comprehension`, `slice`, `set`, `with_item`, …).
A dict key that is not a literal is wrapped in `computed`: `{a: 1}` keys by the
value of `a`, not by the name. Imports inside `if TYPE_CHECKING:` carry the
`type` flag: they never run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node as TSNode

from tsograph.producers.lang.lowering_nodes import lowered, source_text
from tsograph.producers.lang.python.strings import decode_piece
from tsograph.producers.lang.syntax_tree import Node, link_parents

_SKIPPED = frozenset({"comment", "line_continuation", "escape_sequence"})
_STATEMENT_PARENTS = frozenset({"module", "block"})
# Intermediate nodes a builder consumes; "\0captures" and "\0as" are read through "other" nodes
# of patterns, so they are kept there.
_MARKERS = frozenset(
    {"\0start", "\0content", "\0arguments", "\0type_arguments", "\0elif", "\0with", "\0aliased"}
)


@dataclass
class _Frame:
    kind: str
    start: int
    end: int
    slot: str | None
    named: list[tuple[str | None, Node]] = field(default_factory=list)
    tokens: list[tuple[str | None, str]] = field(default_factory=list)

    def part(self, name: str) -> Node | None:
        for field_name, node in self.named:
            if field_name == name:
                return node
        return None

    def unnamed(self) -> list[Node]:
        return [node for field_name, node in self.named if field_name is None]

    def nodes(self) -> list[Node]:
        return [node for _, node in self.named]

    def has(self, token: str) -> bool:
        return any(kind == token for _, kind in self.tokens)


Builder = Callable[[_Frame, bytes], Node | list[Node] | None]
_BUILDERS: dict[str, Builder] = {}


def _builder(*kinds: str) -> Callable[[Builder], Builder]:
    def register(function: Builder) -> Builder:
        for kind in kinds:
            _BUILDERS[kind] = function
        return function

    return register


def lower(root: TSNode, data: bytes) -> Node:
    """The neutral form of a parsed Python file."""
    cursor = root.walk()
    stack: list[_Frame] = [_Frame(root.type, root.start_byte, root.end_byte, None)]
    result: Node | list[Node] | None = None
    entering = True
    on_child = False
    while True:
        if entering:
            on_child = cursor.goto_first_child()
        if on_child:
            node = cursor.node
            assert node is not None
            if node.is_named or node.is_error:
                if node.type not in _SKIPPED:
                    kind = "ERROR" if node.is_error else node.type
                    stack.append(_Frame(kind, node.start_byte, node.end_byte, cursor.field_name))
                    entering = True
                    continue
            else:
                stack[-1].tokens.append((cursor.field_name, node.type))
            if cursor.goto_next_sibling():
                entering = False
                continue
            cursor.goto_parent()
        frame = stack.pop()
        built = _build(frame, data)
        if not stack:
            result = built
            break
        parent = stack[-1]
        if parent.kind in _STATEMENT_PARENTS and isinstance(built, Node):
            built = _as_statement(built)
        if isinstance(built, Node):
            parent.named.append((frame.slot, built))
        elif built is not None:
            parent.named.extend((frame.slot, node) for node in built)
        entering = False
        on_child = cursor.goto_next_sibling()
        if not on_child:
            cursor.goto_parent()
    module = result if isinstance(result, Node) else Node("module", root.start_byte, root.end_byte)
    link_parents(module)
    _mark_type_checking(module)
    return module


_STATEMENT_KINDS = frozenset(
    {
        "function",
        "class",
        "import",
        "if",
        "for_in",
        "while",
        "try",
        "with",
        "return",
        "throw",
        "break",
        "continue",
        "empty",
        "assert",
        "delete",
        "scope_declaration",
        "type_alias",
        "match",
        "error",
        "other",
        "statement",
        "case",
    }
)


def _as_statement(node: Node) -> Node:
    """An expression written as a statement (a call, an assignment) is wrapped in `statement`."""
    if node.kind in _STATEMENT_KINDS:
        return node
    return Node("statement", node.start, node.end, parts={"value": node})


def _build(frame: _Frame, data: bytes) -> Node | list[Node] | None:
    builder = _BUILDERS.get(frame.kind)
    if builder is None:
        # Markers stay only where a pattern's captures are collected from (see _captures).
        kept = [node for node in frame.nodes() if node.kind not in _MARKERS]
        return lowered(frame, "other", frame.kind, items=kept)
    return builder(frame, data)


def _mark_type_checking(module: Node) -> None:
    """Imports under `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`) get the `type` flag."""
    for node in module.walk():
        if node.kind != "if":
            continue
        condition = node.part("condition")
        body = node.part("consequence")
        if condition is None or body is None or not _is_type_checking(condition):
            continue
        for inner in body.walk():
            if inner.kind == "import":
                inner.flags = inner.flags | {"type"}


def _is_type_checking(node: Node) -> bool:
    if node.kind == "identifier":
        return node.value == "TYPE_CHECKING"
    if node.kind == "member":
        prop = node.part("property")
        inner = node.part("object")
        return (
            prop is not None
            and prop.value == "TYPE_CHECKING"
            and inner is not None
            and inner.kind == "identifier"
            and inner.value == "typing"
        )
    return False


# ---- leaves -----------------------------------------------------------------------


@_builder("identifier")
def _identifier(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "identifier", source_text(frame, data))


@_builder("integer", "float")
def _number(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "number", source_text(frame, data))


@_builder("true", "false")
def _boolean(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "boolean", frame.kind)


@_builder("none")
def _none(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "null")


@_builder("ellipsis")
def _ellipsis(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "ellipsis")


@_builder("keyword_separator", "positional_separator")
def _separator(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "parameter_separator", "*" if frame.kind == "keyword_separator" else "/")


@_builder("pass_statement")
def _pass(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "empty")


@_builder("break_statement")
def _break(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "break")


@_builder("continue_statement")
def _continue(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "continue")


# ---- strings ------------------------------------------------------------------------


@_builder("string_start")
def _string_start(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "\0start", source_text(frame, data))


@_builder("string_content", "string_end")
def _string_piece(frame: _Frame, data: bytes) -> None:
    # The text between the quotes is read from the literal's own bytes (see _string): the
    # grammar puts a raw string's backslash-newline in `string_end`.
    return None


@_builder("interpolation")
def _interpolation(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "substitution", parts={"value": frame.part("expression")})


@_builder("format_specifier", "type_conversion", "format_expression")
def _format(frame: _Frame, data: bytes) -> None:
    # How a substitution is formatted adds no value a producer reads.
    return None


@_builder("string")
def _string(frame: _Frame, data: bytes) -> Node:
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


@_builder("concatenated_string")
def _concatenated(frame: _Frame, data: bytes) -> Node:
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


# ---- expressions ----------------------------------------------------------------------


@_builder("attribute")
def _attribute(frame: _Frame, data: bytes) -> Node:
    prop = frame.part("attribute")
    if prop is not None:
        prop = Node("name", prop.start, prop.end, prop.value)
    return lowered(frame, "member", parts={"object": frame.part("object"), "property": prop})


@_builder("subscript")
def _subscript(frame: _Frame, data: bytes) -> Node:
    indexes = [node for name, node in frame.named if name == "subscript"]
    index: Node | None = indexes[0] if len(indexes) == 1 else None
    if len(indexes) > 1:
        index = Node("array", indexes[0].start, indexes[-1].end, "tuple", items=tuple(indexes))
    return lowered(frame, "index", parts={"object": frame.part("value"), "index": index})


@_builder("slice")
def _slice(frame: _Frame, data: bytes) -> Node:
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


@_builder("call")
def _call(frame: _Frame, data: bytes) -> Node:
    arguments = frame.part("arguments")
    items: tuple[Node, ...] = ()
    if arguments is not None:
        items = arguments.items if arguments.kind == "\0arguments" else (arguments,)
    return lowered(frame, "call", parts={"callee": frame.part("function")}, items=items)


@_builder("argument_list")
def _arguments(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "\0arguments", items=frame.nodes())


@_builder("keyword_argument")
def _keyword(frame: _Frame, data: bytes) -> Node:
    name = frame.part("name")
    return lowered(
        frame, "keyword", None if name is None else name.value, parts={"value": frame.part("value")}
    )


@_builder("list_splat", "list_splat_pattern")
def _splat(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "spread", "*", parts={"value": inner[0] if inner else None})


@_builder("dictionary_splat", "dictionary_splat_pattern")
def _dict_splat(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "spread", "**", parts={"value": inner[0] if inner else None})


@_builder("parenthesized_expression")
def _parenthesized(frame: _Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if len(inner) == 1 else lowered(frame, "error", items=inner)


@_builder("list", "list_pattern")
def _list(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "array", items=frame.nodes())


@_builder("tuple", "expression_list", "pattern_list", "tuple_pattern")
def _tuple(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "array", "tuple", items=frame.nodes())


@_builder("set")
def _set(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "set", items=frame.nodes())


_LITERAL_KEYS = frozenset({"string", "number", "boolean", "null"})


@_builder("dictionary")
def _dictionary(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "object", items=frame.nodes())


@_builder("pair")
def _pair(frame: _Frame, data: bytes) -> Node:
    key = frame.part("key")
    if key is not None and key.kind not in _LITERAL_KEYS:
        key = Node("computed", key.start, key.end, parts={"value": key})
    return lowered(frame, "property", parts={"key": key, "value": frame.part("value")})


@_builder(
    "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"
)
def _comprehension(frame: _Frame, data: bytes) -> Node:
    form = frame.kind.split("_")[0].replace("dictionary", "dict").replace("generator", "generator")
    return lowered(
        frame,
        "comprehension",
        form,
        parts={"body": frame.part("body")},
        items=[node for node in frame.unnamed()],
    )


@_builder("for_in_clause")
def _for_clause(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "comprehension_for",
        flags={"async"} if frame.has("async") else (),
        parts={"left": frame.part("left"), "right": frame.part("right")},
    )


@_builder("if_clause")
def _if_clause(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "comprehension_if", parts={"condition": inner[0] if inner else None})


@_builder("lambda")
def _lambda(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "function",
        "lambda",
        parts={"parameters": frame.part("parameters"), "body": frame.part("body")},
    )


@_builder("conditional_expression")
def _conditional(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    parts = dict(zip(("consequence", "condition", "alternative"), inner, strict=False))
    return lowered(frame, "conditional", parts=dict(parts))


@_builder("binary_operator", "boolean_operator")
def _binary(frame: _Frame, data: bytes) -> Node:
    operator = next((token for name, token in frame.tokens if name == "operator"), "")
    return lowered(
        frame, "binary", operator, parts={"left": frame.part("left"), "right": frame.part("right")}
    )


@_builder("comparison_operator")
def _comparison(frame: _Frame, data: bytes) -> Node:
    operators = [token for name, token in frame.tokens if name == "operators"]
    operands = frame.nodes()
    if len(operands) == 2 and len(operators) == 1:
        return lowered(
            frame, "binary", operators[0], parts={"left": operands[0], "right": operands[1]}
        )
    return lowered(frame, "comparison", ",".join(operators), items=operands)


@_builder("unary_operator")
def _unary(frame: _Frame, data: bytes) -> Node:
    operator = next((token for name, token in frame.tokens if name == "operator"), "")
    return lowered(frame, "unary", operator, parts={"value": frame.part("argument")})


@_builder("not_operator")
def _not(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "unary", "not", parts={"value": frame.part("argument")})


@_builder("await")
def _await(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "await", parts={"value": inner[0] if inner else None})


@_builder("yield")
def _yield(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(
        frame,
        "yield",
        flags={"delegate"} if frame.has("from") else (),
        parts={"value": inner[0] if inner else None},
    )


@_builder("named_expression")
def _walrus(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame, "assign", ":=", parts={"left": frame.part("name"), "right": frame.part("value")}
    )


@_builder("type")
def _annotation(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "annotation", parts={"value": inner[0] if inner else None})


@_builder("generic_type")
def _generic(frame: _Frame, data: bytes) -> Node:
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


@_builder("type_parameter")
def _type_arguments(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "\0type_arguments", items=frame.nodes())


@_builder("union_type")
def _union(frame: _Frame, data: bytes) -> Node:
    inner = [
        node.part("value") or node if node.kind == "annotation" else node for node in frame.nodes()
    ]
    return lowered(
        frame,
        "binary",
        "|",
        parts={"left": inner[0] if inner else None, "right": inner[1] if len(inner) > 1 else None},
    )


# ---- statements ---------------------------------------------------------------------


@_builder("module", "block")
def _block(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "module" if frame.kind == "module" else "block", items=frame.nodes())


@_builder("assignment")
def _assignment(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "assign",
        "=",
        parts={
            "left": frame.part("left"),
            "type": frame.part("type"),
            "right": frame.part("right"),
        },
    )


@_builder("augmented_assignment")
def _augmented(frame: _Frame, data: bytes) -> Node:
    operator = next((token for name, token in frame.tokens if name == "operator"), "")
    return lowered(
        frame,
        "assign",
        operator,
        parts={"left": frame.part("left"), "right": frame.part("right")},
    )


@_builder("return_statement")
def _return(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "return", parts={"value": inner[0] if inner else None})


@_builder("raise_statement")
def _raise(frame: _Frame, data: bytes) -> Node:
    value = next((node for name, node in frame.named if name is None), None)
    return lowered(frame, "throw", parts={"value": value, "cause": frame.part("cause")})


@_builder("delete_statement")
def _delete(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    targets = inner[0].items if len(inner) == 1 and inner[0].value == "tuple" else inner
    return lowered(frame, "delete", items=targets)


@_builder("assert_statement")
def _assert(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(
        frame,
        "assert",
        parts={
            "condition": inner[0] if inner else None,
            "message": inner[1] if len(inner) > 1 else None,
        },
    )


@_builder("global_statement", "nonlocal_statement")
def _scope_declaration(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "scope_declaration", frame.kind.split("_")[0], items=frame.nodes())


@_builder("expression_statement")
def _expression_statement(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    if len(inner) == 1:
        return lowered(frame, "statement", parts={"value": inner[0]})
    return lowered(
        frame, "statement", parts={"value": lowered(frame, "array", "tuple", items=inner)}
    )


@_builder("if_statement")
def _if(frame: _Frame, data: bytes) -> Node:
    # `elif` chains become nested `if`s in `alternative`, as `else if` does.
    alternatives = [node for name, node in frame.named if name == "alternative"]
    alternative: Node | None = None
    for clause in reversed(alternatives):
        if clause.kind == "\0elif":
            alternative = Node(
                "if",
                clause.start,
                frame.end,
                parts={
                    name: node
                    for name, node in (
                        ("condition", clause.part("condition")),
                        ("consequence", clause.part("consequence")),
                        ("alternative", alternative),
                    )
                    if node is not None
                },
            )
        else:
            alternative = clause
    return lowered(
        frame,
        "if",
        parts={
            "condition": frame.part("condition"),
            "consequence": frame.part("consequence"),
            "alternative": alternative,
        },
    )


@_builder("elif_clause")
def _elif(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "\0elif",
        parts={"condition": frame.part("condition"), "consequence": frame.part("consequence")},
    )


@_builder("else_clause", "finally_clause")
def _else(frame: _Frame, data: bytes) -> Node | None:
    body = frame.part("body") or next(iter(frame.nodes()), None)
    return body


@_builder("for_statement")
def _for(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "for_in",
        "in",
        flags={"async"} if frame.has("async") else (),
        parts={
            "left": frame.part("left"),
            "right": frame.part("right"),
            "body": frame.part("body"),
            "alternative": frame.part("alternative"),
        },
    )


@_builder("while_statement")
def _while(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "while",
        parts={
            "condition": frame.part("condition"),
            "body": frame.part("body"),
            "alternative": frame.part("alternative"),
        },
    )


@_builder("try_statement")
def _try(frame: _Frame, data: bytes) -> Node:
    handlers = [node for node in frame.unnamed() if node.kind == "catch"]
    rest = [node for node in frame.unnamed() if node.kind == "block"]
    return lowered(
        frame,
        "try",
        parts={
            "body": frame.part("body"),
            "alternative": frame.part("alternative") or (rest[0] if len(rest) > 1 else None),
            "finalizer": rest[-1] if rest else None,
        },
        items=handlers,
    )


@_builder("except_clause", "except_group_clause")
def _except(frame: _Frame, data: bytes) -> Node:
    value = frame.part("value")
    alias: Node | None = None
    if value is not None and value.kind == "\0as":
        alias = value.part("alias")
        value = value.part("value")
    body = next((node for node in frame.unnamed() if node.kind == "block"), None)
    if value is None:
        value = next((node for node in frame.unnamed() if node.kind != "block"), None)
    return lowered(
        frame,
        "catch",
        flags={"group"} if frame.kind == "except_group_clause" or frame.has("*") else (),
        parts={"type": value, "parameter": alias, "body": body},
    )


@_builder("as_pattern")
def _as(frame: _Frame, data: bytes) -> Node:
    inner = frame.unnamed()
    alias = frame.part("alias")
    if alias is None and len(inner) > 1:  # in a case pattern the name after `as` has no field
        alias = inner.pop()
    return lowered(frame, "\0as", parts={"value": inner[0] if inner else None, "alias": alias})


@_builder("as_pattern_target")
def _as_target(frame: _Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@_builder("with_statement")
def _with(frame: _Frame, data: bytes) -> Node:
    clause = next((node for node in frame.unnamed() if node.kind == "\0with"), None)
    return lowered(
        frame,
        "with",
        flags={"async"} if frame.has("async") else (),
        parts={"body": frame.part("body")},
        items=() if clause is None else clause.items,
    )


@_builder("with_clause")
def _with_clause(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "\0with", items=frame.nodes())


@_builder("with_item")
def _with_item(frame: _Frame, data: bytes) -> Node:
    value = frame.part("value")
    alias: Node | None = None
    if value is not None and value.kind == "\0as":
        alias = value.part("alias")
        value = value.part("value")
    return lowered(frame, "with_item", parts={"value": value, "alias": alias})


@_builder("match_statement")
def _match(frame: _Frame, data: bytes) -> Node:
    body = frame.part("body")
    cases = () if body is None else body.items
    return lowered(frame, "match", parts={"value": frame.part("subject")}, items=cases)


@_builder("case_clause")
def _case(frame: _Frame, data: bytes) -> Node:
    patterns = [node for node in frame.unnamed() if node.kind == "match_pattern"]
    value: Node | None = patterns[0] if len(patterns) == 1 else None
    if len(patterns) > 1:  # `case 1, 2:` is a sequence pattern
        value = Node("array", patterns[0].start, patterns[-1].end, "tuple", items=tuple(patterns))
    guard = frame.part("guard")
    body = frame.part("consequence")
    return lowered(
        frame,
        "case",
        parts={"value": value, "guard": None if guard is None else guard.part("condition")},
        items=() if body is None else body.items,
    )


@_builder("case_pattern")
def _case_pattern(frame: _Frame, data: bytes) -> Node:
    """Patterns are matched, not evaluated: kept as written, with the names they capture.

    A capture is a bare name standing as a whole pattern (`case x`, `[x, y]`,
    `{"k": x}`, `Point(x=x)`), a `*rest`/`**rest`, or the name after `as`; a
    dotted name (`Color.RED`) and a class pattern's class are values, not captures.
    """
    inner = frame.nodes()
    if len(inner) == 1 and _is_capture(inner[0]):
        captured = [_identifier_of(inner[0])]
    else:
        captured = [name for node in inner for name in _captures(node)]
    return lowered(frame, "match_pattern", source_text(frame, data), items=captured)


@_builder("splat_pattern")
def _splat_pattern(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "\0captures", items=[n for n in frame.nodes() if n.kind == "identifier"])


@_builder("keyword_pattern")
def _keyword_pattern(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    value = inner[1] if len(inner) > 1 else None
    if value is not None and _is_capture(value):
        return lowered(frame, "\0captures", items=[_identifier_of(value)])
    return lowered(frame, "\0captures", items=[] if value is None else _captures(value))


def _is_capture(node: Node) -> bool:
    return node.kind == "name" and "." not in (node.value or "")


def _identifier_of(node: Node) -> Node:
    return Node("identifier", node.start, node.end, node.value)


def _captures(top: Node) -> list[Node]:
    """The names a lowered pattern captures, in source order (iterative: patterns nest)."""
    found: list[Node] = []
    stack = [top]
    while stack:
        node = stack.pop()
        if node.kind in ("match_pattern", "\0captures"):
            found.extend(node.items)
        elif node.kind == "\0as":
            alias = node.part("alias")
            if alias is not None and alias.kind == "identifier":
                found.append(alias)
            value = node.part("value")
            if value is not None:
                stack.append(value)
        elif node.kind not in ("name", "identifier"):
            stack.extend(reversed(node.children()))
    found.sort(key=lambda name: name.start)
    return found


@_builder("type_alias_statement")
def _type_alias(frame: _Frame, data: bytes) -> Node:
    left = frame.part("left")
    name = left.part("value") if left is not None and left.kind == "annotation" else left
    parameters: Node | None = None
    if name is not None and name.kind == "index":  # `type Alias[T] = …`
        index = name.part("index")
        if index is not None:
            items = index.items if index.kind == "array" else (index,)
            parameters = Node("type_parameters", index.start, index.end, items=items)
        name = name.part("object")
    return lowered(
        frame,
        "type_alias",
        parts={"name": name, "type_parameters": parameters, "type": frame.part("right")},
    )


# ---- imports --------------------------------------------------------------------------


@_builder("dotted_name")
def _dotted(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "name", source_text(frame, data).replace(" ", ""))


@_builder("relative_import")
def _relative(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "name", "".join(source_text(frame, data).split()))


@_builder("import_prefix")
def _import_prefix(frame: _Frame, data: bytes) -> None:
    return None


@_builder("aliased_import")
def _aliased(frame: _Frame, data: bytes) -> Node:
    name = frame.part("name")
    return lowered(
        frame,
        "\0aliased",
        None if name is None else name.value,
        parts={"local": frame.part("alias")},
    )


@_builder("wildcard_import")
def _wildcard(frame: _Frame, data: bytes) -> Node:
    return lowered(frame, "import_named", "*")


@_builder("import_statement")
def _import(frame: _Frame, data: bytes) -> list[Node]:
    # `import a.b as c, d`: one `import` per module; without `as` the first name is bound.
    found: list[Node] = []
    for node in frame.nodes():
        if node.kind == "\0aliased":
            local = node.part("local")
            item = Node(
                "import_namespace", node.start, node.end, parts={"local": local} if local else None
            )
        else:
            first = (node.value or "").split(".")[0]
            local = Node("identifier", node.start, node.start + len(first.encode()), first)
            item = Node(
                "import_namespace", node.start, node.end, "bind-first", parts={"local": local}
            )
        found.append(Node("import", frame.start, frame.end, node.value, items=(item,)))
    return found


@_builder("import_from_statement", "future_import_statement")
def _import_from(frame: _Frame, data: bytes) -> Node:
    module = frame.part("module_name")
    specifier = (
        "__future__"
        if frame.kind == "future_import_statement"
        else ("" if module is None else module.value)
    )
    items: list[Node] = []
    for name, node in frame.named:
        if name == "module_name":
            continue
        if node.kind == "\0aliased":
            items.append(
                Node("import_named", node.start, node.end, node.value, parts=dict(node.parts))
            )
        elif node.kind == "name":
            local = Node("identifier", node.start, node.end, node.value)
            items.append(
                Node("import_named", node.start, node.end, node.value, parts={"local": local})
            )
        elif node.kind == "import_named":
            items.append(node)
    return lowered(frame, "import", specifier, items=items)


# ---- definitions ---------------------------------------------------------------------


@_builder("decorator")
def _decorator(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "decorator", parts={"value": inner[0] if inner else None})


@_builder("decorated_definition")
def _decorated(frame: _Frame, data: bytes) -> Node | None:
    # The definition's node starts at its first decorator: decorators belong to what they decorate.
    decorators = [node for node in frame.nodes() if node.kind == "decorator"]
    definition = frame.part("definition")
    if definition is None:
        return lowered(frame, "error", items=decorators)
    return Node(
        definition.kind,
        frame.start,
        definition.end,
        definition.value,
        definition.flags,
        dict(definition.parts),
        definition.items,
        tuple(decorators),
    )


@_builder("function_definition")
def _function(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "function",
        "declaration",
        flags={"async"} if frame.has("async") else (),
        parts={
            "name": frame.part("name"),
            "parameters": frame.part("parameters"),
            "return_type": frame.part("return_type"),
            "type_parameters": _type_parameters(frame),
            "body": frame.part("body"),
        },
    )


@_builder("parameters", "lambda_parameters")
def _parameters(frame: _Frame, data: bytes) -> Node:
    items = []
    for node in frame.nodes():
        if node.kind in ("parameter", "parameter_separator"):
            items.append(node)
        elif node.kind == "spread":
            flag = "rest" if node.value == "*" else "keywords"
            pattern = node.part("value")
            parts = None if pattern is None else {"pattern": pattern}
            items.append(
                Node("parameter", node.start, node.end, flags=frozenset({flag}), parts=parts)
            )
        else:
            items.append(Node("parameter", node.start, node.end, parts={"pattern": node}))
    return lowered(frame, "parameters", items=items)


@_builder("typed_parameter", "default_parameter", "typed_default_parameter")
def _parameter(frame: _Frame, data: bytes) -> Node:
    name = frame.part("name") or next(iter(frame.unnamed()), None)
    flags: set[str] = set()
    if name is not None and name.kind == "spread":
        flags.add("rest" if name.value == "*" else "keywords")
        name = name.part("value")
    return lowered(
        frame,
        "parameter",
        flags=flags,
        parts={"pattern": name, "type": frame.part("type"), "value": frame.part("value")},
    )


def _type_parameters(frame: _Frame) -> Node | None:
    """PEP 695 `def f[T]()` / `class C[T]:`: the names, as `type_parameters`."""
    found = frame.part("type_parameters")
    if found is None:
        return None
    return Node("type_parameters", found.start, found.end, items=found.items)


@_builder("class_definition")
def _class(frame: _Frame, data: bytes) -> Node:
    body = frame.part("body")
    bases = frame.part("superclasses")
    return lowered(
        frame,
        "class",
        "declaration",
        parts={
            "name": frame.part("name"),
            "bases": None
            if bases is None
            else Node("bases", bases.start, bases.end, items=bases.items),
            "type_parameters": _type_parameters(frame),
        },
        items=() if body is None else body.items,
    )


@_builder("ERROR")
def _error(frame: _Frame, data: bytes) -> Node:
    return lowered(
        frame, "error", items=[node for node in frame.nodes() if not node.kind.startswith("\0")]
    )
