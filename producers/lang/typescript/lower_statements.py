"""Builders for the module, imports and exports, statements and JSX."""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript.lowering_registry import LOWERING
from tsograph.producers.lang.typescript.lowering_registry import builder
from tsograph.producers.lang.typescript.lowering_registry import with_decorators

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


LOWERING.items("named_imports", "\0clause")
LOWERING.wrap("namespace_import", "import_namespace", "local")


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
    source = frame.part("source")
    specifier = None if source is None else source.value
    return lowered(frame, "import_equals", specifier, parts={"name": frame.first()})


LOWERING.ordered("import_alias", "import_alias", "name value")
LOWERING.dropped("import_attribute")


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


LOWERING.items("export_clause", "\0clause")
LOWERING.wrap("namespace_export", "\0namespace", "name")
LOWERING.fields("export_specifier", "export_name", "name alias", flag_tokens=("type",))


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


LOWERING.fields("variable_declarator", "declarator", "name type value")
LOWERING.items(("statement_block", "switch_body"), "block")
LOWERING.fields("if_statement", "if", "condition consequence alternative")
LOWERING.transparent("else_clause", "finally_clause")


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


LOWERING.fields("while_statement", "while", "condition body")
LOWERING.fields("do_statement", "do", "condition body")
LOWERING.fields("with_statement", "with", "object body")


LOWERING.fields("switch_statement", "switch", "value", items_from="body")


@builder("switch_case")
def _case(frame: Frame, data: bytes) -> Node:
    value = frame.part("value")
    statements = [node for node in frame.nodes() if node is not value]
    return lowered(frame, "case", parts={"value": value}, items=statements)


LOWERING.items("switch_default", "default_case")
LOWERING.fields("try_statement", "try", "body handler finalizer")
LOWERING.fields("catch_clause", "catch", "parameter type body")


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


LOWERING.fields("break_statement", "break", "label")
LOWERING.fields("continue_statement", "continue", "label")
LOWERING.fields("labeled_statement", "labeled", "label body")
LOWERING.leaf("empty_statement", "empty")
LOWERING.leaf("debugger_statement", "debugger")
LOWERING.items("ERROR", "error")


# ---- JSX --------------------------------------------------------------------------


@builder("jsx_element")
def _jsx_element(frame: Frame, data: bytes) -> Node:
    opening = frame.part("open_tag")
    children = [node for node in frame.nodes() if node is not opening and node.kind != "\0closing"]
    name = None if opening is None else opening.part("name")
    attributes = frame.items_of("open_tag")
    return lowered(frame, "jsx", parts={"name": name}, items=[*attributes, *children])


@builder("jsx_opening_element", "jsx_self_closing_element")
def _jsx_opening(frame: Frame, data: bytes) -> Node:
    attributes = frame.parts_named("attribute")
    kind = "jsx" if frame.kind == "jsx_self_closing_element" else "\0opening"
    return lowered(frame, kind, parts={"name": frame.part("name")}, items=attributes)


LOWERING.leaf("jsx_closing_element", "\0closing")


@builder("jsx_attribute")
def _jsx_attribute(frame: Frame, data: bytes) -> Node:
    name = frame.first()
    value = frame.nth(1)
    if value is not None and value.kind == "string":
        # JSX attribute strings carry no JavaScript escapes: the text is the value.
        value = Node(
            "string",
            value.start,
            value.end,
            data[value.start + 1 : value.end - 1].decode("utf-8", "replace"),
        )
    return lowered(frame, "jsx_attribute", parts={"name": name, "value": value})


LOWERING.transparent("jsx_expression")
