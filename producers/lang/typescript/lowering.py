"""Lowering: the tree-sitter TypeScript/TSX tree as the neutral syntax form (`syntax_tree.Node`).

One iterative pass with a tree cursor: each named grammar node is lowered
after its children, by the builder registered for its grammar type. Anonymous
tokens (`async`, `static`, `?.`, operators, `const`) become flags and values;
comments are left out; parentheses are dropped. The grammar's names stop
here: producers see only the kinds listed in `syntax_tree.KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tree_sitter import Node as TSNode

from tsograph.producers.lang.syntax_tree import Node, link_parents
from tsograph.producers.lang.typescript.strings import decode_js_string

_SKIPPED = frozenset({"comment", "html_comment", "hash_bang_line", "jsx_text"})
_ACCESS = frozenset({"public", "private", "protected"})
_MODIFIERS = frozenset(
    {
        "async",
        "static",
        "get",
        "set",
        "abstract",
        "override",
        "readonly",
        "declare",
        "accessor",
    }
)


@dataclass
class _Frame:
    kind: str  # the grammar type
    start: int
    end: int
    slot: str | None  # the grammar field this node fills in its parent
    named: list[tuple[str | None, Node]] = field(default_factory=list)
    tokens: list[tuple[str | None, str, int]] = field(default_factory=list)  # field, text, start

    def part(self, name: str) -> Node | None:
        for field_name, node in self.named:
            if field_name == name:
                return node
        return None

    def parts_named(self, name: str) -> list[Node]:
        return [node for field_name, node in self.named if field_name == name]

    def unnamed(self) -> list[Node]:
        return [node for field_name, node in self.named if field_name is None]

    def nodes(self) -> list[Node]:
        return [node for _, node in self.named]

    def has(self, token: str) -> bool:
        return any(kind == token for _, kind, _ in self.tokens)

    def token(self, field_name: str) -> str | None:
        for name, kind, _ in self.tokens:
            if name == field_name:
                return kind
        return None

    def modifiers(self) -> set[str]:
        found = {kind for _, kind, _ in self.tokens if kind in _MODIFIERS}
        if self.has("*"):
            found.add("generator")
        if self.has("?"):
            found.add("optional")
        found.update(node.value or "" for _, node in self.named if node.kind == "\0modifier")
        return found

    def optional_chain(self) -> bool:
        return self.has("?.") or any(node.kind == "\0optional" for _, node in self.named)


Builder = Callable[[_Frame, bytes], Node | list[Node] | None]
_BUILDERS: dict[str, Builder] = {}


def _builder(*kinds: str) -> Callable[[Builder], Builder]:
    def register(function: Builder) -> Builder:
        for kind in kinds:
            _BUILDERS[kind] = function
        return function

    return register


def _text(frame: _Frame, data: bytes) -> str:
    return data[frame.start : frame.end].decode("utf-8", "replace")


def _node(
    frame: _Frame,
    kind: str,
    value: str | None = None,
    *,
    flags: Iterable[str] = (),
    parts: dict[str, Node | None] | None = None,
    items: Iterable[Node] = (),
    decorators: Iterable[Node] = (),
) -> Node:
    kept = {name: node for name, node in (parts or {}).items() if node is not None}
    return Node(
        kind, frame.start, frame.end, value, frozenset(flags), kept, tuple(items), tuple(decorators)
    )


def lower(root: TSNode, data: bytes) -> Node:
    """The neutral form of a parsed file (`data` is the text the tree was parsed from)."""
    cursor = root.walk()
    stack: list[_Frame] = [_Frame(root.type, root.start_byte, root.end_byte, None)]
    result: Node | list[Node] | None = None
    # `entering`: the cursor stands on the node of stack[-1], its children not visited yet.
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
                stack[-1].tokens.append((cursor.field_name, node.type, node.start_byte))
            if cursor.goto_next_sibling():
                entering = False
                continue
            cursor.goto_parent()
        # All children of stack[-1] are lowered and the cursor stands on its node.
        frame = stack.pop()
        built = _build(frame, data)
        if not stack:
            result = built
            break
        _attach(stack[-1], frame.slot, built)
        entering = False
        on_child = cursor.goto_next_sibling()
        if not on_child:
            cursor.goto_parent()
    module = result if isinstance(result, Node) else Node("module", root.start_byte, root.end_byte)
    link_parents(module)
    return module


def _attach(parent: _Frame, field_name: str | None, built: Node | list[Node] | None) -> None:
    if built is None:
        return
    if isinstance(built, Node):
        parent.named.append((field_name, built))
    else:
        parent.named.extend((field_name, node) for node in built)


def _build(frame: _Frame, data: bytes) -> Node | list[Node] | None:
    if frame.kind in ("\0token", "\0skip"):
        return None
    builder = _BUILDERS.get(frame.kind)
    if builder is None:
        kept = [node for node in frame.nodes() if not node.kind.startswith("\0")]
        return _node(frame, "other", frame.kind, items=kept)
    return builder(frame, data)


# ---- leaves -----------------------------------------------------------------------


@_builder("identifier", "shorthand_property_identifier_pattern")
def _identifier(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "identifier", _text(frame, data))


@_builder(
    "property_identifier",
    "private_property_identifier",
    "statement_identifier",
    "nested_identifier",
    "jsx_namespace_name",
)
def _name(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "name", _text(frame, data))


@_builder("shorthand_property_identifier")
def _shorthand(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "shorthand", _text(frame, data))


@_builder("this", "super", "null", "undefined")
def _keyword(frame: _Frame, data: bytes) -> Node:
    return _node(frame, frame.kind)


@_builder("true", "false")
def _boolean(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "boolean", frame.kind)


@_builder("number")
def _number(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "number", _text(frame, data))


@_builder("string")
def _string(frame: _Frame, data: bytes) -> Node:
    body = data[frame.start + 1 : frame.end - 1].decode("utf-8", "replace")
    return _node(frame, "string", decode_js_string(body))


@_builder("string_fragment", "escape_sequence", "html_character_reference")
def _string_piece(frame: _Frame, data: bytes) -> None:
    return None  # read from the enclosing string's text


@_builder("regex")
def _regex(frame: _Frame, data: bytes) -> Node:
    pattern = frame.part("pattern")
    return _node(frame, "regex", None if pattern is None else pattern.value)


@_builder("regex_pattern", "regex_flags")
def _regex_piece(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "name", _text(frame, data))


@_builder("template_string")
def _template(frame: _Frame, data: bytes) -> Node:
    items: list[Node] = []
    cursor = frame.start + 1
    for substitution in frame.nodes():
        if substitution.start > cursor:
            items.append(_template_text(data, cursor, substitution.start))
        items.append(substitution)
        cursor = substitution.end
    if frame.end - 1 > cursor:
        items.append(_template_text(data, cursor, frame.end - 1))
    return _node(frame, "template", items=items)


def _template_text(data: bytes, start: int, end: int) -> Node:
    raw = data[start:end].decode("utf-8", "replace")
    return Node("template_text", start, end, decode_js_string(raw))


@_builder("template_substitution")
def _substitution(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "substitution", parts={"value": inner[0] if inner else None})


@_builder("meta_property")
def _meta(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "meta", "".join(_text(frame, data).split()))


@_builder("accessibility_modifier", "override_modifier")
def _modifier(frame: _Frame, data: bytes) -> Node:
    # Read by the declaration it modifies (`_Frame.modifiers`), never kept as a node.
    return _node(frame, "\0modifier", _text(frame, data))


# ---- expressions ------------------------------------------------------------------


@_builder("parenthesized_expression")
def _parenthesized(frame: _Frame, data: bytes) -> Node | list[Node] | None:
    inner = frame.nodes()
    if len(inner) == 1:
        return inner[0]
    return _node(frame, "sequence", items=inner) if inner else None


@_builder("member_expression")
def _member(frame: _Frame, data: bytes) -> Node:
    flags = {"optional"} if frame.optional_chain() else set()
    return _node(
        frame,
        "member",
        flags=flags,
        parts={"object": frame.part("object"), "property": frame.part("property")},
    )


@_builder("optional_chain")
def _optional_chain(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "\0optional")


@_builder("subscript_expression")
def _index(frame: _Frame, data: bytes) -> Node:
    flags = {"optional"} if frame.optional_chain() else set()
    return _node(
        frame,
        "index",
        flags=flags,
        parts={"object": frame.part("object"), "index": frame.part("index")},
    )


@_builder("call_expression")
def _call(frame: _Frame, data: bytes) -> Node:
    callee = frame.part("function")
    arguments = frame.part("arguments")
    type_arguments = frame.part("type_arguments")
    if arguments is not None and arguments.kind == "template":
        return _node(
            frame,
            "tagged",
            parts={"tag": callee, "type_arguments": type_arguments, "template": arguments},
        )
    flags = {"optional"} if frame.optional_chain() else set()
    return _node(
        frame,
        "call",
        flags=flags,
        parts={"callee": callee, "type_arguments": type_arguments},
        items=() if arguments is None else arguments.items,
    )


@_builder("import")
def _import_callee(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "name", "import")


@_builder("arguments")
def _arguments(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "sequence", items=frame.nodes())


@_builder("new_expression")
def _new(frame: _Frame, data: bytes) -> Node:
    arguments = frame.part("arguments")
    return _node(
        frame,
        "new",
        parts={"callee": frame.part("constructor"), "type_arguments": frame.part("type_arguments")},
        items=() if arguments is None else arguments.items,
    )


@_builder("await_expression")
def _await(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "await", parts={"value": inner[0] if inner else None})


@_builder("yield_expression")
def _yield(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    flags = {"delegate"} if frame.has("*") else set()
    return _node(frame, "yield", flags=flags, parts={"value": inner[0] if inner else None})


@_builder("unary_expression")
def _unary(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "unary", frame.token("operator"), parts={"value": frame.part("argument")})


@_builder("update_expression")
def _update(frame: _Frame, data: bytes) -> Node:
    operator = frame.token("operator")
    argument = frame.part("argument")
    prefix = argument is not None and argument.start > frame.start
    return _node(
        frame, "update", operator, flags={"prefix"} if prefix else set(), parts={"value": argument}
    )


@_builder("binary_expression")
def _binary(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "binary",
        frame.token("operator"),
        parts={"left": frame.part("left"), "right": frame.part("right")},
    )


@_builder("ternary_expression")
def _conditional(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "conditional",
        parts={
            "condition": frame.part("condition"),
            "consequence": frame.part("consequence"),
            "alternative": frame.part("alternative"),
        },
    )


@_builder("assignment_expression", "augmented_assignment_expression")
def _assign(frame: _Frame, data: bytes) -> Node:
    operator = "=" if frame.kind == "assignment_expression" else frame.token("operator")
    return _node(
        frame,
        "assign",
        operator,
        parts={"left": frame.part("left"), "right": frame.part("right")},
    )


@_builder("sequence_expression")
def _sequence(frame: _Frame, data: bytes) -> Node:
    items: list[Node] = []
    for node in frame.nodes():
        items.extend(node.items if node.kind == "sequence" else (node,))
    return _node(frame, "sequence", items=items)


@_builder("as_expression")
def _as(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    value = inner[0] if inner else None
    if len(inner) < 2 and frame.has("const"):
        return _node(frame, "cast", "as const", parts={"value": value})
    return _node(
        frame, "cast", "as", parts={"value": value, "type": inner[1] if len(inner) > 1 else None}
    )


@_builder("satisfies_expression")
def _satisfies(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(
        frame,
        "cast",
        "satisfies",
        parts={"value": inner[0] if inner else None, "type": inner[1] if len(inner) > 1 else None},
    )


@_builder("non_null_expression")
def _non_null(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "cast", "!", parts={"value": inner[0] if inner else None})


@_builder("type_assertion")
def _type_assertion(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    arguments = inner[0] if inner and inner[0].kind == "type_arguments" else None
    value = inner[-1] if inner and inner[-1] is not arguments else None
    type_ = arguments.items[0] if arguments is not None and arguments.items else None
    return _node(frame, "cast", "<>", parts={"value": value, "type": type_})


@_builder("instantiation_expression")
def _instantiation(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(
        frame,
        "cast",
        "instantiate",
        parts={"value": inner[0] if inner else None, "type": frame.part("type_arguments")},
    )


@_builder("spread_element")
def _spread(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "spread", parts={"value": inner[0] if inner else None})


@_builder("object")
def _object(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "object", items=_with_decorators(frame.nodes()))


@_builder("pair", "pair_pattern")
def _pair(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "property", parts={"key": frame.part("key"), "value": frame.part("value")})


@_builder("computed_property_name")
def _computed(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "computed", parts={"value": inner[0] if inner else None})


@_builder("array")
def _array(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "array", items=frame.nodes())


@_builder("decorator")
def _decorator(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "decorator", parts={"value": inner[0] if inner else None})


# ---- patterns ---------------------------------------------------------------------


@_builder("object_pattern")
def _object_pattern(frame: _Frame, data: bytes) -> Node:
    items = [
        Node("shorthand", node.start, node.end, node.value) if node.kind == "identifier" else node
        for node in frame.nodes()
    ]
    return _node(frame, "object_pattern", items=items)


@_builder("array_pattern")
def _array_pattern(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "array_pattern", items=frame.nodes())


@_builder("assignment_pattern", "object_assignment_pattern")
def _assign_pattern(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame, "assign_pattern", parts={"left": frame.part("left"), "right": frame.part("right")}
    )


@_builder("rest_pattern")
def _rest(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "rest", parts={"value": inner[0] if inner else None})


# ---- functions and classes --------------------------------------------------------

_FUNCTION_FORMS = {
    "function_declaration": "declaration",
    "generator_function_declaration": "declaration",
    "function_expression": "expression",
    "generator_function": "expression",
    "function": "expression",
    "arrow_function": "arrow",
    "method_definition": "method",
    "function_signature": "signature",
    "method_signature": "signature",
    "abstract_method_signature": "signature",
}


@_builder(*_FUNCTION_FORMS)
def _function(frame: _Frame, data: bytes) -> Node:
    flags = frame.modifiers()
    if frame.kind.startswith("generator_"):
        flags.add("generator")
    if frame.kind == "abstract_method_signature":
        flags.add("abstract")
    parameters = frame.part("parameters")
    single = frame.part("parameter")
    if single is not None:  # `x => …`
        parameters = Node(
            "parameters",
            single.start,
            single.end,
            items=(Node("parameter", single.start, single.end, parts={"pattern": single}),),
        )
    return _node(
        frame,
        "function",
        _FUNCTION_FORMS[frame.kind],
        flags=flags,
        parts={
            "name": frame.part("name"),
            "type_parameters": frame.part("type_parameters"),
            "parameters": parameters,
            "return_type": frame.part("return_type"),
            "body": frame.part("body"),
        },
        decorators=[node for node in frame.nodes() if node.kind == "decorator"],
    )


@_builder("formal_parameters")
def _parameters(frame: _Frame, data: bytes) -> Node:
    items = []
    pending: list[Node] = []
    for node in frame.nodes():
        if node.kind == "decorator":
            pending.append(node)
            continue
        parameter = _as_parameter(node)
        if pending:
            parameter.decorators = (*pending, *parameter.decorators)
            pending = []
        items.append(parameter)
    return _node(frame, "parameters", items=items)


def _as_parameter(node: Node) -> Node:
    """JavaScript parameters are bare patterns; TypeScript's are already `parameter`s."""
    if node.kind == "parameter":
        return node
    if node.kind == "assign_pattern":
        return Node(
            "parameter",
            node.start,
            node.end,
            parts={
                name: part
                for name, part in (("pattern", node.part("left")), ("value", node.part("right")))
                if part is not None
            },
        )
    if node.kind == "rest":
        value = node.part("value")
        return Node(
            "parameter",
            node.start,
            node.end,
            flags=frozenset({"rest"}),
            parts={} if value is None else {"pattern": value},
        )
    return Node("parameter", node.start, node.end, parts={"pattern": node})


@_builder("required_parameter", "optional_parameter")
def _parameter(frame: _Frame, data: bytes) -> Node:
    flags = frame.modifiers()
    if frame.kind == "optional_parameter":
        flags.add("optional")
    pattern = frame.part("pattern")
    if pattern is not None and pattern.kind == "rest":
        flags.add("rest")
        pattern = pattern.part("value")
    return _node(
        frame,
        "parameter",
        flags=flags,
        parts={"pattern": pattern, "type": frame.part("type"), "value": frame.part("value")},
        decorators=[node for node in frame.nodes() if node.kind == "decorator"],
    )


@_builder("class_declaration", "abstract_class_declaration", "class")
def _class(frame: _Frame, data: bytes) -> Node:
    flags = {"abstract"} if frame.kind == "abstract_class_declaration" else set()
    heritage = next((node for node in frame.nodes() if node.kind == "\0heritage"), None)
    parts: dict[str, Node | None] = {
        "name": _declared_name(frame.part("name")),
        "type_parameters": frame.part("type_parameters"),
    }
    if heritage is not None:
        parts.update(heritage.parts)
    body = frame.part("body")
    return _node(
        frame,
        "class",
        "expression" if frame.kind == "class" else "declaration",
        flags=flags,
        parts=parts,
        items=() if body is None else body.items,
        decorators=[node for node in frame.nodes() if node.kind == "decorator"],
    )


def _declared_name(name: Node | None) -> Node | None:
    """The grammar spells a declared type's name as a type; it is the name being declared."""
    if name is not None and name.kind == "type_ref":
        return Node("identifier", name.start, name.end, name.value)
    return name


@_builder("class_heritage")
def _heritage(frame: _Frame, data: bytes) -> Node:
    parts: dict[str, Node] = {}
    for node in frame.nodes():
        parts.update(node.parts)
    return Node("\0heritage", frame.start, frame.end, parts=parts)


@_builder("extends_clause")
def _extends(frame: _Frame, data: bytes) -> Node:
    parts = {"base": frame.part("value"), "base_type_arguments": frame.part("type_arguments")}
    return _node(frame, "\0heritage", parts=parts)


@_builder("implements_clause")
def _implements(frame: _Frame, data: bytes) -> Node:
    implements = _node(frame, "type_arguments", items=frame.nodes())
    return Node("\0heritage", frame.start, frame.end, parts={"implements": implements})


@_builder("class_body", "interface_body", "object_type", "enum_body")
def _body(frame: _Frame, data: bytes) -> Node:
    kind = "object_type" if frame.kind == "object_type" else "block"
    return _node(frame, kind, items=_with_decorators(frame.nodes()))


def _with_decorators(nodes: list[Node]) -> list[Node]:
    """Members with the decorators written before them moved onto them."""
    members: list[Node] = []
    pending: list[Node] = []
    for node in nodes:
        if node.kind == "decorator":
            pending.append(node)
            continue
        if pending:
            node.decorators = (*pending, *node.decorators)
            pending = []
        members.append(node)
    return members


@_builder("public_field_definition")
def _field(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "field",
        flags=frame.modifiers(),
        parts={
            "name": frame.part("name"),
            "type": frame.part("type"),
            "value": frame.part("value"),
        },
        decorators=[node for node in frame.nodes() if node.kind == "decorator"],
    )


@_builder("class_static_block")
def _static_block(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "static_block", parts={"body": frame.part("body")})


@_builder("index_signature")
def _index_signature(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "index_signature", parts={"type": frame.part("type")})


@_builder("interface_declaration")
def _interface(frame: _Frame, data: bytes) -> Node:
    extends = next((node for node in frame.unnamed() if node.kind == "\0extends"), None)
    body = frame.part("body")
    return _node(
        frame,
        "interface",
        parts={
            "name": _declared_name(frame.part("name")),
            "type_parameters": frame.part("type_parameters"),
            "extends": None
            if extends is None
            else Node("type_arguments", extends.start, extends.end, items=extends.items),
        },
        items=() if body is None else body.items,
    )


@_builder("extends_type_clause")
def _extends_types(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "\0extends", items=frame.nodes())


@_builder("type_alias_declaration")
def _type_alias(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "type_alias",
        parts={
            "name": _declared_name(frame.part("name")),
            "type_parameters": frame.part("type_parameters"),
            "type": frame.part("value"),
        },
    )


@_builder("enum_declaration")
def _enum(frame: _Frame, data: bytes) -> Node:
    body = frame.part("body")
    members = [
        member
        if member.kind == "enum_member"
        else Node("enum_member", member.start, member.end, parts={"name": member})
        for member in (() if body is None else body.items)
    ]
    flags = {word for word in ("const", "declare") if frame.has(word)}
    return _node(frame, "enum", flags=flags, parts={"name": frame.part("name")}, items=members)


@_builder("enum_assignment")
def _enum_member(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame, "enum_member", parts={"name": frame.part("name"), "value": frame.part("value")}
    )


@_builder("internal_module", "module")
def _namespace(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "namespace", parts={"name": frame.part("name"), "body": frame.part("body")})


@_builder("ambient_declaration")
def _ambient(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "ambient", items=frame.nodes())


# ---- modules ----------------------------------------------------------------------


@_builder("program")
def _program(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "module", items=_with_decorators(frame.nodes()))


@_builder("import_statement")
def _import(frame: _Frame, data: bytes) -> Node:
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
    return _node(
        frame,
        "import",
        None if source is None else source.value,
        flags={"type"} if type_only else set(),
        items=names,
    )


@_builder("import_clause")
def _import_clause(frame: _Frame, data: bytes) -> Node:
    items: list[Node] = []
    for node in frame.nodes():
        if node.kind == "identifier":
            items.append(Node("import_default", node.start, node.end, parts={"local": node}))
        elif node.kind == "\0clause":
            items.extend(node.items)
        else:
            items.append(node)
    return _node(frame, "\0clause", items=items)


@_builder("named_imports")
def _named_imports(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "\0clause", items=frame.nodes())


@_builder("namespace_import")
def _namespace_import(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "import_namespace", parts={"local": inner[0] if inner else None})


@_builder("import_specifier")
def _import_specifier(frame: _Frame, data: bytes) -> Node:
    name = frame.part("name")
    alias = frame.part("alias")
    imported = None if name is None else name.value
    local = alias if alias is not None else name
    if local is not None and local.kind != "identifier":
        local = None  # `import { "a-b" as x }` keeps x; a string alone binds nothing
    return _node(
        frame,
        "import_named",
        imported,
        flags={"type"} if frame.has("type") else set(),
        parts={"local": local},
    )


@_builder("import_require_clause")
def _import_require(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    name = inner[0] if inner else None
    source = frame.part("source")
    return _node(
        frame, "import_equals", None if source is None else source.value, parts={"name": name}
    )


@_builder("import_alias")
def _import_alias(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(
        frame,
        "import_alias",
        parts={"name": inner[0] if inner else None, "value": inner[1] if len(inner) > 1 else None},
    )


@_builder("import_attribute")
def _import_attribute(frame: _Frame, data: bytes) -> None:
    return None


@_builder("export_statement")
def _export(frame: _Frame, data: bytes) -> Node:
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
    return _node(
        frame,
        "export",
        None if source is None else source.value,
        flags=flags,
        parts={"declaration": declaration, "value": value, "namespace": namespace},
        items=names,
    )


@_builder("export_clause")
def _export_clause(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "\0clause", items=frame.nodes())


@_builder("namespace_export")
def _namespace_export(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "\0namespace", parts={"name": inner[0] if inner else None})


@_builder("export_specifier")
def _export_specifier(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "export_name",
        flags={"type"} if frame.has("type") else set(),
        parts={"name": frame.part("name"), "alias": frame.part("alias")},
    )


# ---- statements -------------------------------------------------------------------


@_builder("expression_statement")
def _statement(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    value = inner[0] if len(inner) == 1 else _node(frame, "sequence", items=inner)
    return _node(frame, "statement", parts={"value": value})


@_builder("lexical_declaration", "variable_declaration")
def _declaration(frame: _Frame, data: bytes) -> Node:
    keyword = frame.token("kind") or "var"
    if keyword == "using" and frame.has("await"):
        keyword = "await using"
    return _node(frame, "declaration", keyword, items=frame.nodes())


@_builder("variable_declarator")
def _declarator(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "declarator",
        parts={
            "name": frame.part("name"),
            "type": frame.part("type"),
            "value": frame.part("value"),
        },
    )


@_builder("statement_block", "switch_body")
def _block(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "block", items=frame.nodes())


@_builder("if_statement")
def _if(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "if",
        parts={
            "condition": frame.part("condition"),
            "consequence": frame.part("consequence"),
            "alternative": frame.part("alternative"),
        },
    )


@_builder("else_clause", "finally_clause")
def _clause(frame: _Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@_builder("for_statement")
def _for(frame: _Frame, data: bytes) -> Node:
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
    return _node(frame, "for", parts=parts)


@_builder("for_in_statement")
def _for_in(frame: _Frame, data: bytes) -> Node:
    keyword = frame.token("kind")
    kind = None if keyword is None else Node("name", frame.start, frame.start, keyword)
    return _node(
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


@_builder("while_statement")
def _while(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame, "while", parts={"condition": frame.part("condition"), "body": frame.part("body")}
    )


@_builder("do_statement")
def _do(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame, "do", parts={"condition": frame.part("condition"), "body": frame.part("body")}
    )


@_builder("with_statement")
def _with(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "with", parts={"object": frame.part("object"), "body": frame.part("body")})


@_builder("switch_statement")
def _switch(frame: _Frame, data: bytes) -> Node:
    body = frame.part("body")
    return _node(
        frame,
        "switch",
        parts={"value": frame.part("value")},
        items=() if body is None else body.items,
    )


@_builder("switch_case")
def _case(frame: _Frame, data: bytes) -> Node:
    value = frame.part("value")
    return _node(
        frame,
        "case",
        parts={"value": value},
        items=[node for node in frame.nodes() if node is not value],
    )


@_builder("switch_default")
def _default_case(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "default_case", items=frame.nodes())


@_builder("try_statement")
def _try(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "try",
        parts={
            "body": frame.part("body"),
            "handler": frame.part("handler"),
            "finalizer": frame.part("finalizer"),
        },
    )


@_builder("catch_clause")
def _catch(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "catch",
        parts={
            "parameter": frame.part("parameter"),
            "type": frame.part("type"),
            "body": frame.part("body"),
        },
    )


@_builder("return_statement", "throw_statement")
def _return(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    kind = "return" if frame.kind == "return_statement" else "throw"
    value = (
        inner[0] if len(inner) == 1 else (_node(frame, "sequence", items=inner) if inner else None)
    )
    return _node(frame, kind, parts={"value": value})


@_builder("break_statement", "continue_statement")
def _jump(frame: _Frame, data: bytes) -> Node:
    kind = "break" if frame.kind == "break_statement" else "continue"
    return _node(frame, kind, parts={"label": frame.part("label")})


@_builder("labeled_statement")
def _labeled(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "labeled", parts={"label": frame.part("label"), "body": frame.part("body")})


@_builder("empty_statement")
def _empty(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "empty")


@_builder("debugger_statement")
def _debugger(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "debugger")


@_builder("ERROR")
def _error(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "error", items=frame.nodes())


# ---- JSX --------------------------------------------------------------------------


@_builder("jsx_element")
def _jsx_element(frame: _Frame, data: bytes) -> Node:
    opening = frame.part("open_tag")
    children = [node for node in frame.nodes() if node is not opening and node.kind != "\0closing"]
    name = None if opening is None else opening.part("name")
    attributes = () if opening is None else opening.items
    return _node(frame, "jsx", parts={"name": name}, items=[*attributes, *children])


@_builder("jsx_opening_element", "jsx_self_closing_element")
def _jsx_opening(frame: _Frame, data: bytes) -> Node:
    attributes = frame.parts_named("attribute")
    kind = "jsx" if frame.kind == "jsx_self_closing_element" else "\0opening"
    return _node(frame, kind, parts={"name": frame.part("name")}, items=attributes)


@_builder("jsx_closing_element")
def _jsx_closing(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "\0closing")


@_builder("jsx_attribute")
def _jsx_attribute(frame: _Frame, data: bytes) -> Node:
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
    return _node(frame, "jsx_attribute", parts={"name": name, "value": value})


@_builder("jsx_expression")
def _jsx_expression(frame: _Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


# ---- types ------------------------------------------------------------------------


@_builder(
    "type_annotation",
    "opting_type_annotation",
    "omitting_type_annotation",
    "adding_type_annotation",
    "parenthesized_type",
    "asserts_annotation",
    "type_predicate_annotation",
)
def _annotation(frame: _Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@_builder("type_identifier", "predefined_type", "this_type")
def _type_name(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "type_ref", _text(frame, data))


@_builder("nested_type_identifier")
def _nested_type(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "type_ref", "".join(_text(frame, data).split()))


@_builder("generic_type")
def _generic_type(frame: _Frame, data: bytes) -> Node:
    name = frame.part("name")
    arguments = frame.part("type_arguments")
    return _node(
        frame,
        "type_ref",
        None if name is None else name.value,
        items=() if arguments is None else arguments.items,
    )


@_builder("type_arguments")
def _type_arguments(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "type_arguments", items=frame.nodes())


@_builder("type_parameters")
def _type_parameters(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "type_parameters", items=frame.nodes())


@_builder("type_parameter")
def _type_parameter(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "type_parameter",
        parts={
            "name": _declared_name(frame.part("name")),
            "constraint": frame.part("constraint"),
            "default": frame.part("value"),
        },
    )


@_builder("constraint", "default_type")
def _constraint(frame: _Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@_builder("literal_type")
def _literal_type(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "literal_type", parts={"value": inner[0] if inner else None})


@_builder("union_type", "intersection_type")
def _union(frame: _Frame, data: bytes) -> Node:
    kind = "union" if frame.kind == "union_type" else "intersection"
    items: list[Node] = []
    for node in frame.nodes():
        items.extend(node.items if node.kind == kind else (node,))
    return _node(frame, kind, items=items)


@_builder("array_type")
def _array_type(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "array_type", parts={"element": inner[0] if inner else None})


@_builder("readonly_type")
def _readonly_type(frame: _Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@_builder("tuple_type")
def _tuple_type(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "tuple_type", items=frame.nodes())


@_builder("property_signature")
def _property_signature(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "property_signature",
        flags=frame.modifiers(),
        parts={"name": frame.part("name"), "type": frame.part("type")},
    )


@_builder("function_type", "constructor_type")
def _function_type(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "function_type",
        flags={"new"} if frame.kind == "constructor_type" else set(),
        parts={"parameters": frame.part("parameters"), "return_type": frame.part("return_type")},
    )


@_builder("call_signature", "construct_signature")
def _call_signature(frame: _Frame, data: bytes) -> Node:
    return _node(
        frame,
        "function_type",
        flags={"new"} if frame.kind == "construct_signature" else set(),
        parts={"parameters": frame.part("parameters"), "return_type": frame.part("return_type")},
    )


@_builder("type_query")
def _type_query(frame: _Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return _node(frame, "type_query", parts={"value": inner[0] if inner else None})


_TYPE_OTHER = {
    "index_type_query": "keyof",
    "lookup_type": "lookup",
    "conditional_type": "conditional",
    "infer_type": "infer",
    "template_literal_type": "template",
    "template_type": "template",
    "mapped_type_clause": "mapped",
    "optional_type": "optional",
    "rest_type": "rest",
    "type_predicate": "predicate",
    "asserts": "asserts",
    "existential_type": "existential",
    "flow_maybe_type": "maybe",
}


@_builder(*_TYPE_OTHER)
def _type_other(frame: _Frame, data: bytes) -> Node:
    return _node(frame, "type_other", _TYPE_OTHER[frame.kind], items=frame.nodes())
