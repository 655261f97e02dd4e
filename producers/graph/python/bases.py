"""Every base a Python class names, read from the neutral syntax tree beside its facts.

The facts of a class keep its first base only (`extends`); C3 needs them all,
in order. The graph's Python reader therefore reads each file's syntax once,
and writes the positional bases of each class into the class declaration's
`implements` (a field Python classes do not otherwise use) as type
references: a dotted name is its chain, a subscript (`Generic[T]`) its
object's chain with one empty type argument, and anything else (a call, a
starred list) the empty chain, which binding reads as a base it cannot see.
Keywords (`metaclass=M`) are no bases.
"""

from __future__ import annotations

import dataclasses

from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.syntax_read import chain
from tsograph.producers.lang.syntax_tree import Node

SUBSCRIPTED = (TypeRef(()),)


def with_bases(path: str, data: bytes) -> FileFacts:
    """The facts of one Python file, each class carrying all its positional bases."""
    from tsograph.producers.lang.python import read_syntax

    syntax = read_syntax(path, data)
    found: dict[tuple[int, int], tuple[TypeRef, ...]] = {}
    pending: list[Node] = [syntax.root]
    while pending:
        node = pending.pop()
        if node.kind == "class":
            name = node.part("name")
            if name is not None:
                found[syntax.location(name.start)] = _bases(node)
        pending.extend(child for child in node.children() if child is not None)
    facts = syntax.facts
    declarations = tuple(
        dataclasses.replace(item, implements=found[(item.line, item.column)])
        if item.kind == "class" and (item.line, item.column) in found
        else item
        for item in facts.declarations
    )
    return dataclasses.replace(facts, declarations=declarations)


def _bases(node: Node) -> tuple[TypeRef, ...]:
    written = node.part("bases")
    if written is None:
        return ()
    bases = []
    for item in written.items:
        if item.kind == "keyword":
            continue
        if item.kind == "index":
            inner = item.part("object")
            names = None if inner is None else chain(inner)
            bases.append(TypeRef(names or (), SUBSCRIPTED if names else ()))
            continue
        bases.append(TypeRef(chain(item) or ()))
    return tuple(bases)
