"""Builders for Python decorators, functions, parameters and classes."""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_driver import parameter_of
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.python.lowering_registry import LOWERING
from tsograph.producers.lang.python.lowering_registry import builder
from tsograph.producers.lang.syntax_tree import Node

LOWERING.wrap("decorator", "decorator")


@builder("decorated_definition")
def _decorated(frame: Frame, data: bytes) -> Node | None:
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


@builder("function_definition")
def _function(frame: Frame, data: bytes) -> Node:
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


@builder("parameters", "lambda_parameters")
def _parameters(frame: Frame, data: bytes) -> Node:
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


@builder("typed_parameter", "default_parameter", "typed_default_parameter")
def _parameter(frame: Frame, data: bytes) -> Node:
    name = frame.part("name") or next(iter(frame.unnamed()), None)
    flags: set[str] = set()
    if name is not None and name.kind == "spread":
        flags.add("rest" if name.value == "*" else "keywords")
        name = name.part("value")
    return parameter_of(frame, name, flags)


def _type_parameters(frame: Frame) -> Node | None:
    """PEP 695 `def f[T]()` / `class C[T]:`: the names, as `type_parameters`."""
    found = frame.part("type_parameters")
    if found is None:
        return None
    return Node("type_parameters", found.start, found.end, items=found.items)


@builder("class_definition")
def _class(frame: Frame, data: bytes) -> Node:
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
        items=frame.items_of("body"),
    )


@builder("ERROR")
def _error(frame: Frame, data: bytes) -> Node:
    return lowered(
        frame, "error", items=[node for node in frame.nodes() if not node.kind.startswith("\0")]
    )
