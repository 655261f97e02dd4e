"""Builders for functions, parameters, classes and members, interfaces, enums and namespaces."""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_driver import parameter_of
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript.lowering_registry import LOWERING
from tsograph.producers.lang.typescript.lowering_registry import builder
from tsograph.producers.lang.typescript.lowering_registry import declared_parts
from tsograph.producers.lang.typescript.lowering_registry import decorators_of
from tsograph.producers.lang.typescript.lowering_registry import modifiers
from tsograph.producers.lang.typescript.lowering_registry import with_decorators

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


@builder(*_FUNCTION_FORMS)
def _function(frame: Frame, data: bytes) -> Node:
    flags = modifiers(frame)
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
    return lowered(
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
        decorators=decorators_of(frame),
    )


@builder("formal_parameters")
def _parameters(frame: Frame, data: bytes) -> Node:
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
    return lowered(frame, "parameters", items=items)


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


@builder("required_parameter", "optional_parameter")
def _parameter(frame: Frame, data: bytes) -> Node:
    flags = modifiers(frame)
    if frame.kind == "optional_parameter":
        flags.add("optional")
    pattern = frame.part("pattern")
    if pattern is not None and pattern.kind == "rest":
        flags.add("rest")
        pattern = pattern.part("value")
    return parameter_of(frame, pattern, flags, decorators_of(frame))


@builder("class_declaration", "abstract_class_declaration", "class")
def _class(frame: Frame, data: bytes) -> Node:
    flags = {"abstract"} if frame.kind == "abstract_class_declaration" else set()
    heritage = next((node for node in frame.nodes() if node.kind == "\0heritage"), None)
    parts = declared_parts(frame, type_parameters="type_parameters")
    if heritage is not None:
        parts.update(heritage.parts)
    return lowered(
        frame,
        "class",
        "expression" if frame.kind == "class" else "declaration",
        flags=flags,
        parts=parts,
        items=frame.items_of("body"),
        decorators=decorators_of(frame),
    )


@builder("class_heritage")
def _heritage(frame: Frame, data: bytes) -> Node:
    parts: dict[str, Node] = {}
    for node in frame.nodes():
        parts.update(node.parts)
    return Node("\0heritage", frame.start, frame.end, parts=parts)


LOWERING.fields("extends_clause", "\0heritage", "base=value base_type_arguments=type_arguments")


@builder("implements_clause")
def _implements(frame: Frame, data: bytes) -> Node:
    implements = lowered(frame, "type_arguments", items=frame.nodes())
    return Node("\0heritage", frame.start, frame.end, parts={"implements": implements})


@builder("class_body", "interface_body", "object_type", "enum_body")
def _body(frame: Frame, data: bytes) -> Node:
    kind = "object_type" if frame.kind == "object_type" else "block"
    return lowered(frame, kind, items=with_decorators(frame.nodes()))


# grammar type -> (kind, the grammar fields kept as parts)
_MEMBERS = {
    "public_field_definition": ("field", ("name", "type", "value")),
    "property_signature": ("property_signature", ("name", "type")),
}


@builder(*_MEMBERS)
def _member(frame: Frame, data: bytes) -> Node:
    """A class field or a property of an object type: modifiers become flags."""
    kind, fields = _MEMBERS[frame.kind]
    parts = {name: frame.part(name) for name in fields}
    flags = modifiers(frame)
    return lowered(frame, kind, flags=flags, parts=parts, decorators=decorators_of(frame))


LOWERING.fields("class_static_block", "static_block", "body")
LOWERING.fields("index_signature", "index_signature", "type")


@builder("interface_declaration")
def _interface(frame: Frame, data: bytes) -> Node:
    extends = next((node for node in frame.unnamed() if node.kind == "\0extends"), None)
    parts = declared_parts(frame, type_parameters="type_parameters")
    if extends is not None:
        parts["extends"] = Node("type_arguments", extends.start, extends.end, items=extends.items)
    return lowered(frame, "interface", parts=parts, items=frame.items_of("body"))


LOWERING.items("extends_type_clause", "\0extends")


@builder("type_alias_declaration")
def _type_alias(frame: Frame, data: bytes) -> Node:
    parts = declared_parts(frame, type_parameters="type_parameters", type="value")
    return lowered(frame, "type_alias", parts=parts)


@builder("enum_declaration")
def _enum(frame: Frame, data: bytes) -> Node:
    members = [
        member
        if member.kind == "enum_member"
        else Node("enum_member", member.start, member.end, parts={"name": member})
        for member in frame.items_of("body")
    ]
    flags = {word for word in ("const", "declare") if frame.has(word)}
    return lowered(frame, "enum", flags=flags, parts={"name": frame.part("name")}, items=members)


LOWERING.fields("enum_assignment", "enum_member", "name value")
LOWERING.fields(("internal_module", "module"), "namespace", "name body")
LOWERING.items("ambient_declaration", "ambient")
