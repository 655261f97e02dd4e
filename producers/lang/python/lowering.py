"""Lowering: the tree-sitter Python tree as the neutral syntax form (`syntax_tree.Node`).

The shared walk (lowering_driver.py) applies the builders the lower_*.py
modules register in lowering_registry.py, one per grammar type. Python reuses
the neutral kinds where the meaning is the same (`def` and `lambda` are
`function`, a dict is an `object`, a list or tuple an `array`, `None` is
`null`); what only Python has gets a kind of its own, listed in
`syntax_tree.KINDS` (`annotation`, `keyword`, `bases`, `comprehension`,
`slice`, `set`, `with_item`, …). A dict key that is not a literal is wrapped
in `computed`: `{a: 1}` keys by the value of `a`, not by the name. Imports
inside `if TYPE_CHECKING:` carry the `type` flag: they never run.
"""

from __future__ import annotations

from tree_sitter import Node as TSNode

# Imported for their registrations.
from tsograph.producers.lang.python import lower_definitions  # noqa: F401
from tsograph.producers.lang.python import lower_expressions  # noqa: F401
from tsograph.producers.lang.python import lower_statements  # noqa: F401
from tsograph.producers.lang.python.lowering_registry import LOWERING
from tsograph.producers.lang.syntax_read import chain
from tsograph.producers.lang.syntax_tree import Node


def lower(root: TSNode, data: bytes) -> Node:
    """The neutral form of a parsed Python file."""
    module = LOWERING.lower(root, data)
    if b"TYPE_CHECKING" in data:  # a walk of the whole tree, for the few files that need it
        _mark_type_checking(module)
    return module


def _mark_type_checking(module: Node) -> None:
    """Imports under `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`) get the `type` flag."""
    for node in module.walk():
        if node.kind != "if":
            continue
        condition = node.part("condition")
        body = node.part("consequence")
        if condition is None or body is None or not _is_type_checking(condition):
            continue
        for inner in body.walk():
            if inner.kind == "import":
                inner.flags = inner.flags | {"type"}


# `TYPE_CHECKING` imported from typing, or read from the module.
_TYPE_CHECKING = frozenset({("TYPE_CHECKING",), ("typing", "TYPE_CHECKING")})


def _is_type_checking(node: Node) -> bool:
    return chain(node) in _TYPE_CHECKING
