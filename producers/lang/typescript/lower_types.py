"""Builders for written types: references, unions, object types, function types and the rest."""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.lowering_nodes import source_text
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript.lowering_registry import LOWERING
from tsograph.producers.lang.typescript.lowering_registry import builder
from tsograph.producers.lang.typescript.lowering_registry import declared_parts

# ---- types ------------------------------------------------------------------------


LOWERING.transparent(
    "type_annotation",
    "opting_type_annotation",
    "omitting_type_annotation",
    "adding_type_annotation",
    "parenthesized_type",
    "asserts_annotation",
    "type_predicate_annotation",
    "constraint",
    "default_type",
    "readonly_type",
)
LOWERING.text(("type_identifier", "predefined_type", "this_type"), "type_ref")


@builder("nested_type_identifier")
def _nested_type(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "type_ref", "".join(source_text(frame, data).split()))


@builder("generic_type")
def _generic_type(frame: Frame, data: bytes) -> Node:
    name = frame.part("name")
    arguments = frame.items_of("type_arguments")
    return lowered(frame, "type_ref", None if name is None else name.value, items=arguments)


LOWERING.items("type_arguments", "type_arguments")
LOWERING.items("type_parameters", "type_parameters")


@builder("type_parameter")
def _type_parameter(frame: Frame, data: bytes) -> Node:
    parts = declared_parts(frame, constraint="constraint", default="value")
    return lowered(frame, "type_parameter", parts=parts)


LOWERING.wrap("literal_type", "literal_type")


@builder("union_type", "intersection_type")
def _union(frame: Frame, data: bytes) -> Node:
    kind = "union" if frame.kind == "union_type" else "intersection"
    items: list[Node] = []
    for node in frame.nodes():
        items.extend(node.items if node.kind == kind else (node,))
    return lowered(frame, kind, items=items)


LOWERING.wrap("array_type", "array_type", "element")
LOWERING.items("tuple_type", "tuple_type")


@builder("function_type", "constructor_type", "call_signature", "construct_signature")
def _function_type(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame,
        "function_type",
        flags={"new"} if frame.kind in ("constructor_type", "construct_signature") else set(),
        parts={"parameters": frame.part("parameters"), "return_type": frame.part("return_type")},
    )


LOWERING.wrap("type_query", "type_query")


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
