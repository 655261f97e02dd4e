"""Builders for Python statements, imports and `match` patterns."""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.lowering_nodes import source_text
from tsograph.producers.lang.python.lowering_registry import LOWERING
from tsograph.producers.lang.python.lowering_registry import builder
from tsograph.producers.lang.syntax_tree import Node

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


@builder("module", "block")
def _block(frame: Frame, data: bytes) -> Node:
    # An expression written as a statement is wrapped here, where statements are listed.
    items = [_as_statement(node) for node in frame.nodes()]
    return lowered(frame, "module" if frame.kind == "module" else "block", items=items)


LOWERING.leaf("pass_statement", "empty")
LOWERING.leaf("break_statement", "break")
LOWERING.leaf("continue_statement", "continue")
LOWERING.fields("assignment", "assign", "left type right", "=")


@builder("augmented_assignment")
def _augmented(frame: Frame, data: bytes) -> Node:
    operator = next((token for name, token in frame.tokens if name == "operator"), "")
    return lowered(
        frame,
        "assign",
        operator,
        parts={"left": frame.part("left"), "right": frame.part("right")},
    )


LOWERING.wrap("return_statement", "return")


@builder("raise_statement")
def _raise(frame: Frame, data: bytes) -> Node:
    value = next((node for name, node in frame.named if name is None), None)
    return lowered(frame, "throw", parts={"value": value, "cause": frame.part("cause")})


@builder("delete_statement")
def _delete(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    targets = inner[0].items if len(inner) == 1 and inner[0].value == "tuple" else inner
    return lowered(frame, "delete", items=targets)


LOWERING.ordered("assert_statement", "assert", "condition message")
LOWERING.items("global_statement", "scope_declaration", "global")
LOWERING.items("nonlocal_statement", "scope_declaration", "nonlocal")


@builder("expression_statement")
def _expression_statement(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    if len(inner) == 1:
        return lowered(frame, "statement", parts={"value": inner[0]})
    return lowered(
        frame, "statement", parts={"value": lowered(frame, "array", "tuple", items=inner)}
    )


@builder("if_statement")
def _if(frame: Frame, data: bytes) -> Node:
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


LOWERING.fields("elif_clause", "\0elif", "condition consequence")


@builder("else_clause", "finally_clause")
def _else(frame: Frame, data: bytes) -> Node | None:
    return frame.part("body") or frame.first()


LOWERING.fields(
    "for_statement", "for_in", "left right body alternative", "in", flag_tokens=("async",)
)
LOWERING.fields("while_statement", "while", "condition body alternative")


@builder("try_statement")
def _try(frame: Frame, data: bytes) -> Node:
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


@builder("except_clause", "except_group_clause")
def _except(frame: Frame, data: bytes) -> Node:
    value, alias = _aliased_value(frame.part("value"))
    body = next((node for node in frame.unnamed() if node.kind == "block"), None)
    if value is None:
        value = next((node for node in frame.unnamed() if node.kind != "block"), None)
    return lowered(
        frame,
        "catch",
        flags={"group"} if frame.kind == "except_group_clause" or frame.has("*") else (),
        parts={"type": value, "parameter": alias, "body": body},
    )


@builder("as_pattern")
def _as(frame: Frame, data: bytes) -> Node:
    inner = frame.unnamed()
    alias = frame.part("alias")
    if alias is None and len(inner) > 1:  # in a case pattern the name after `as` has no field
        alias = inner.pop()
    return lowered(frame, "\0as", parts={"value": inner[0] if inner else None, "alias": alias})


LOWERING.transparent("as_pattern_target")


@builder("with_statement")
def _with(frame: Frame, data: bytes) -> Node:
    clause = next((node for node in frame.unnamed() if node.kind == "\0with"), None)
    return lowered(
        frame,
        "with",
        flags={"async"} if frame.has("async") else (),
        parts={"body": frame.part("body")},
        items=() if clause is None else clause.items,
    )


LOWERING.items("with_clause", "\0with")


@builder("with_item")
def _with_item(frame: Frame, data: bytes) -> Node:
    value, alias = _aliased_value(frame.part("value"))
    return lowered(frame, "with_item", parts={"value": value, "alias": alias})


def _aliased_value(value: Node | None) -> tuple[Node | None, Node | None]:
    """`x as y` (an `except` or `with` target): (x, y); anything else: (it, None)."""
    if value is not None and value.kind == "\0as":
        return value.part("value"), value.part("alias")
    return value, None


LOWERING.fields("match_statement", "match", "value=subject", items_from="body")


@builder("case_clause")
def _case(frame: Frame, data: bytes) -> Node:
    patterns = [node for node in frame.unnamed() if node.kind == "match_pattern"]
    value: Node | None = patterns[0] if len(patterns) == 1 else None
    if len(patterns) > 1:  # `case 1, 2:` is a sequence pattern
        value = Node("array", patterns[0].start, patterns[-1].end, "tuple", items=tuple(patterns))
    guard = frame.part("guard")
    parts = {"value": value, "guard": None if guard is None else guard.part("condition")}
    return lowered(frame, "case", parts=parts, items=frame.items_of("consequence"))


@builder("case_pattern")
def _case_pattern(frame: Frame, data: bytes) -> Node:
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


@builder("splat_pattern")
def _splat_pattern(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "\0captures", items=[n for n in frame.nodes() if n.kind == "identifier"])


@builder("keyword_pattern")
def _keyword_pattern(frame: Frame, data: bytes) -> Node:
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


@builder("type_alias_statement")
def _type_alias(frame: Frame, data: bytes) -> Node:
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


# ---- imports ----------------------------------------------------------------------


@builder("dotted_name")
def _dotted(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "name", source_text(frame, data).replace(" ", ""))


@builder("relative_import")
def _relative(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "name", "".join(source_text(frame, data).split()))


LOWERING.dropped("import_prefix")


@builder("aliased_import")
def _aliased(frame: Frame, data: bytes) -> Node:
    name = frame.part("name")
    imported = None if name is None else name.value
    return lowered(frame, "\0aliased", imported, parts={"local": frame.part("alias")})


LOWERING.leaf("wildcard_import", "import_named", "*")


@builder("import_statement")
def _import(frame: Frame, data: bytes) -> list[Node]:
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


@builder("import_from_statement", "future_import_statement")
def _import_from(frame: Frame, data: bytes) -> Node:
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
