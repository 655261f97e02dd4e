"""The Python builder registry the lower_*.py modules fill, and the builder for the rest.

The walk and the table helpers are language-neutral (lowering_driver.py); the
builders live in lower_expressions.py (leaves, strings, expressions, written
types), lower_statements.py (statements, imports, match patterns) and
lower_definitions.py (decorators, functions, parameters, classes).
"""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_driver import Lowering
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.syntax_tree import Node

# Intermediate nodes a builder consumes; "\0captures" and "\0as" are read through "other" nodes
# of patterns, so they are kept there.
_MARKERS = frozenset(
    {"\0start", "\0content", "\0arguments", "\0type_arguments", "\0elif", "\0with", "\0aliased"}
)


def _other(frame: Frame, data: bytes) -> Node:
    """A grammar type no builder handles: `other`, its kind as the value.

    Markers stay only where a pattern's captures are collected from (see lower_statements).
    """
    kept = [node for node in frame.nodes() if node.kind not in _MARKERS]
    return lowered(frame, "other", frame.kind, items=kept)


LOWERING = Lowering(frozenset({"comment", "line_continuation", "escape_sequence"}), fallback=_other)
builder = LOWERING.builder
