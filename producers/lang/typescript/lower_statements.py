"""Builders for the module, imports and exports, statements and JSX."""

from __future__ import annotations

from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript.lowering_frames import (
    Frame,
    builder,
    with_decorators,
)

# ---- modules ----------------------------------------------------------------------


@builder("program")
def _program(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "module", items=with_decorators(frame.nodes()))


@builder("import_statement")
def _import(frame: Frame, data: bytes) -> Node:
    source = frame.part("source")
    names: list[Node] = []
    equals: Node | None = None
    for node in frame.unnamed():
        if node.kind == "\0clause":
            names.extend(node.items)
        elif node.kind == "import_equals":
            equals = node
    type_only = frame.has("type")
    if equals is not None:
        return Node(
            "import_equals",
            frame.start,
            frame.end,
            equals.value,
            frozenset({"type"} if type_only else ()),
            dict(equals.parts),
        )
    return lowered(
        frame,
        "import",
        None if source is None else source.value,
        flags={"type"} if type_only else set(),
        items=names,
    )


@builder("import_clause")
def _import_clause(frame: Frame, data: bytes) -> Node:
    items: list[Node] = []
    for node in frame.nodes():
        if node.kind == "identifier":
            items.append(Node("import_default", node.start, node.end, parts={"local": node}))
        elif node.kind == "\0clause":
            items.extend(node.items)
        else:
            items.append(node)
    return lowered(frame, "\0clause", items=items)


@builder("named_imports")
def _named_imports(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "\0clause", items=frame.nodes())


@builder("namespace_import")
def _namespace_import(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "import_namespace", parts={"local": inner[0] if inner else None})


@builder("import_specifier")
def _import_specifier(frame: Frame, data: bytes) -> Node:
    name = frame.part("name")
    alias = frame.part("alias")
    imported = None if name is None else name.value
    local = alias if alias is not None else name
    if local is not None and local.kind != "identifier":
        local = None  # `import { "a-b" as x }` keeps x; a string alone binds nothing
    return lowered(
        frame,
        "import_named",
        imported,
        flags={"type"} if frame.has("type") else set(),
        parts={"local": local},
    )


@builder("import_require_clause")
def _import_require(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    name = inner[0] if inner else None
    source = frame.part("source")
    return lowered(
        frame, "import_equals", None if source is None else source.value, parts={"name": name}
    )


@builder("import_alias")
def _import_alias(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(
        frame,
        "import_alias",
        parts={"name": inner[0] if inner else None, "value": inner[1] if len(inner) > 1 else None},
    )


@builder("import_attribute")
def _import_attribute(frame: Frame, data: bytes) -> None:
    return None


@builder("export_statement")
def _export(frame: Frame, data: bytes) -> Node:
    flags = {word for word in ("default", "type") if frame.has(word)}
    if frame.has("*"):
        flags.add("star")
    if frame.has("="):
        flags.add("equals")
    source = frame.part("source")
    declaration = frame.part("declaration")
    decorators = [node for node in frame.nodes() if node.kind == "decorator"]
    if declaration is not None and decorators:
        declaration.decorators = (*decorators, *declaration.decorators)
    names: list[Node] = []
    namespace: Node | None = None
    value = frame.part("value")
    for node in frame.unnamed():
        if node.kind == "\0clause":
            names.extend(node.items)
        elif node.kind == "\0namespace":
            namespace = node.part("name")
        elif value is None and "equals" in flags and node.kind != "decorator":
            value = node  # `export = e`
    return lowered(
        frame,
        "export",
        None if source is None else source.value,
        flags=flags,
        parts={"declaration": declaration, "value": value, "namespace": namespace},
        items=names,
    )


@builder("export_clause")
def _export_clause(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "\0clause", items=frame.nodes())


@builder("namespace_export")
def _namespace_export(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "\0namespace", parts={"name": inner[0] if inner else None})


@builder("export_specifier")
def _export_specifier(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "export_name",
        flags={"type"} if frame.has("type") else set(),
        parts={"name": frame.part("name"), "alias": frame.part("alias")},
    )


# ---- statements -------------------------------------------------------------------


@builder("expression_statement")
def _statement(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    value = inner[0] if len(inner) == 1 else lowered(frame, "sequence", items=inner)
    return lowered(frame, "statement", parts={"value": value})


@builder("lexical_declaration", "variable_declaration")
def _declaration(frame: Frame, data: bytes) -> Node:
    keyword = frame.token("kind") or "var"
    if keyword == "using" and frame.has("await"):
        keyword = "await using"
    return lowered(frame, "declaration", keyword, items=frame.nodes())


@builder("variable_declarator")
def _declarator(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "declarator",
        parts={
            "name": frame.part("name"),
            "type": frame.part("type"),
            "value": frame.part("value"),
        },
    )


@builder("statement_block", "switch_body")
def _block(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "block", items=frame.nodes())


@builder("if_statement")
def _if(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "if",
        parts={
            "condition": frame.part("condition"),
            "consequence": frame.part("consequence"),
            "alternative": frame.part("alternative"),
        },
    )


@builder("else_clause", "finally_clause")
def _clause(frame: Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@builder("for_statement")
def _for(frame: Frame, data: bytes) -> Node:
    parts = {
        "initializer": frame.part("initializer"),
        "condition": frame.part("condition"),
        "increment": frame.part("increment"),
        "body": frame.part("body"),
    }
    for name in ("initializer", "condition"):
        part = parts[name]
        if part is not None and part.kind == "empty":
            parts[name] = None
        elif part is not None and part.kind == "statement":
            parts[name] = part.part("value")
    return lowered(frame, "for", parts=parts)


@builder("for_in_statement")
def _for_in(frame: Frame, data: bytes) -> Node:
    keyword = frame.token("kind")
    kind = None if keyword is None else Node("name", frame.start, frame.start, keyword)
    return lowered(
        frame,
        "for_in",
        frame.token("operator") or "in",
        flags={"await"} if frame.has("await") else set(),
        parts={
            "kind": kind,
            "left": frame.part("left"),
            "right": frame.part("right"),
            "body": frame.part("body"),
        },
    )


@builder("while_statement")
def _while(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame, "while", parts={"condition": frame.part("condition"), "body": frame.part("body")}
    )


@builder("do_statement")
def _do(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame, "do", parts={"condition": frame.part("condition"), "body": frame.part("body")}
    )


@builder("with_statement")
def _with(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame, "with", parts={"object": frame.part("object"), "body": frame.part("body")}
    )


@builder("switch_statement")
def _switch(frame: Frame, data: bytes) -> Node:
    body = frame.part("body")
    return lowered(
        frame,
        "switch",
        parts={"value": frame.part("value")},
        items=() if body is None else body.items,
    )


@builder("switch_case")
def _case(frame: Frame, data: bytes) -> Node:
    value = frame.part("value")
    return lowered(
        frame,
        "case",
        parts={"value": value},
        items=[node for node in frame.nodes() if node is not value],
    )


@builder("switch_default")
def _default_case(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "default_case", items=frame.nodes())


@builder("try_statement")
def _try(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "try",
        parts={
            "body": frame.part("body"),
            "handler": frame.part("handler"),
            "finalizer": frame.part("finalizer"),
        },
    )


@builder("catch_clause")
def _catch(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "catch",
        parts={
            "parameter": frame.part("parameter"),
            "type": frame.part("type"),
            "body": frame.part("body"),
        },
    )


@builder("return_statement", "throw_statement")
def _return(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    kind = "return" if frame.kind == "return_statement" else "throw"
    value = (
        inner[0]
        if len(inner) == 1
        else (lowered(frame, "sequence", items=inner) if inner else None)
    )
    return lowered(frame, kind, parts={"value": value})


@builder("break_statement", "continue_statement")
def _jump(frame: Frame, data: bytes) -> Node:
    kind = "break" if frame.kind == "break_statement" else "continue"
    return lowered(frame, kind, parts={"label": frame.part("label")})


@builder("labeled_statement")
def _labeled(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame, "labeled", parts={"label": frame.part("label"), "body": frame.part("body")}
    )


@builder("empty_statement")
def _empty(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "empty")


@builder("debugger_statement")
def _debugger(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "debugger")


@builder("ERROR")
def _error(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "error", items=frame.nodes())


# ---- JSX --------------------------------------------------------------------------


@builder("jsx_element")
def _jsx_element(frame: Frame, data: bytes) -> Node:
    opening = frame.part("open_tag")
    children = [node for node in frame.nodes() if node is not opening and node.kind != "\0closing"]
    name = None if opening is None else opening.part("name")
    attributes = () if opening is None else opening.items
    return lowered(frame, "jsx", parts={"name": name}, items=[*attributes, *children])


@builder("jsx_opening_element", "jsx_self_closing_element")
def _jsx_opening(frame: Frame, data: bytes) -> Node:
    attributes = frame.parts_named("attribute")
    kind = "jsx" if frame.kind == "jsx_self_closing_element" else "\0opening"
    return lowered(frame, kind, parts={"name": frame.part("name")}, items=attributes)


@builder("jsx_closing_element")
def _jsx_closing(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "\0closing")


@builder("jsx_attribute")
def _jsx_attribute(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    name = inner[0] if inner else None
    value = inner[1] if len(inner) > 1 else None
    if value is not None and value.kind == "string":
        # JSX attribute strings carry no JavaScript escapes: the text is the value.
        value = Node(
            "string",
            value.start,
            value.end,
            data[value.start + 1 : value.end - 1].decode("utf-8", "replace"),
        )
    return lowered(frame, "jsx_attribute", parts={"name": name, "value": value})


@builder("jsx_expression")
def _jsx_expression(frame: Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None
