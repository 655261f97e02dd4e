"""The names a JavaScript binding pattern declares, read one way by every evaluator.

`a`, `{ a, b: c }`, `[a, ...rest]`, `{ a = 1 }`: each name with the identifier
(or shorthand) node that declares it, depth first in source order; a key path
is not kept (the ORM evaluator, which follows destructured members, keeps its
own walk in schema/orm/declarations.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from tsograph.producers.lang.syntax_tree import Node

_PATTERNS = frozenset({"object_pattern", "array_pattern", "property", "assign_pattern", "rest"})


def pattern_names(node: Node) -> Iterator[tuple[str, Node]]:
    """Each name `node` declares, with its identifier or shorthand node."""
    if node.kind == "identifier":
        yield node.value or "", node
        return
    for child in node.items if node.kind in ("object_pattern", "array_pattern") else [node]:
        if child.kind in ("identifier", "shorthand"):
            yield child.value or "", child
        elif child.kind in ("object_pattern", "array_pattern"):
            yield from pattern_names(child)
        elif child.kind in _PATTERNS:
            # a property's pattern is its value, a default's its left side, a rest's its value
            inner = child.part("value") or child.part("left")
            if inner is not None:
                yield from pattern_names(inner)
