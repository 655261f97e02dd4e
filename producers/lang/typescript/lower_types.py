"""Builders for written types: references, unions, object types, function types and the rest."""

from __future__ import annotations

from tsograph.producers.lang.lowering_nodes import lowered, source_text
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript.lowering_frames import (
    Frame,
    builder,
    declared_name,
)

# ---- types ------------------------------------------------------------------------


@builder(
    "type_annotation",
    "opting_type_annotation",
    "omitting_type_annotation",
    "adding_type_annotation",
    "parenthesized_type",
    "asserts_annotation",
    "type_predicate_annotation",
)
def _annotation(frame: Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@builder("type_identifier", "predefined_type", "this_type")
def _type_name(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "type_ref", source_text(frame, data))


@builder("nested_type_identifier")
def _nested_type(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "type_ref", "".join(source_text(frame, data).split()))


@builder("generic_type")
def _generic_type(frame: Frame, data: bytes) -> Node:
    name = frame.part("name")
    arguments = frame.part("type_arguments")
    return lowered(
        frame,
        "type_ref",
        None if name is None else name.value,
        items=() if arguments is None else arguments.items,
    )


@builder("type_arguments")
def _type_arguments(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "type_arguments", items=frame.nodes())


@builder("type_parameters")
def _type_parameters(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "type_parameters", items=frame.nodes())


@builder("type_parameter")
def _type_parameter(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "type_parameter",
        parts={
            "name": declared_name(frame.part("name")),
            "constraint": frame.part("constraint"),
            "default": frame.part("value"),
        },
    )


@builder("constraint", "default_type")
def _constraint(frame: Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@builder("literal_type")
def _literal_type(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "literal_type", parts={"value": inner[0] if inner else None})


@builder("union_type", "intersection_type")
def _union(frame: Frame, data: bytes) -> Node:
    kind = "union" if frame.kind == "union_type" else "intersection"
    items: list[Node] = []
    for node in frame.nodes():
        items.extend(node.items if node.kind == kind else (node,))
    return lowered(frame, kind, items=items)


@builder("array_type")
def _array_type(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "array_type", parts={"element": inner[0] if inner else None})


@builder("readonly_type")
def _readonly_type(frame: Frame, data: bytes) -> Node | None:
    inner = frame.nodes()
    return inner[0] if inner else None


@builder("tuple_type")
def _tuple_type(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "tuple_type", items=frame.nodes())


@builder("property_signature")
def _property_signature(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "property_signature",
        flags=frame.modifiers(),
        parts={"name": frame.part("name"), "type": frame.part("type")},
    )


@builder("function_type", "constructor_type")
def _function_type(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "function_type",
        flags={"new"} if frame.kind == "constructor_type" else set(),
        parts={"parameters": frame.part("parameters"), "return_type": frame.part("return_type")},
    )


@builder("call_signature", "construct_signature")
def _call_signature(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "function_type",
        flags={"new"} if frame.kind == "construct_signature" else set(),
        parts={"parameters": frame.part("parameters"), "return_type": frame.part("return_type")},
    )


@builder("type_query")
def _type_query(frame: Frame, data: bytes) -> Node:
    inner = frame.nodes()
    return lowered(frame, "type_query", parts={"value": inner[0] if inner else None})


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


@builder(*_TYPE_OTHER)
def _type_other(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "type_other", _TYPE_OTHER[frame.kind], items=frame.nodes())
