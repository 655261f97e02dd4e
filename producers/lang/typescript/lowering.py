"""Lowering: the tree-sitter TypeScript/TSX tree as the neutral syntax form (`syntax_tree.Node`).

One iterative pass with a tree cursor: each named grammar node is lowered
after its children, by the builder registered for its grammar type (the
lower_*.py modules fill the registry in lowering_frames.py). Anonymous tokens
(`async`, `static`, `?.`, operators, `const`) become flags and values;
comments are left out; parentheses are dropped. The grammar's names stop
here: producers see only the kinds listed in `syntax_tree.KINDS`.
"""

from __future__ import annotations

from tree_sitter import Node as TSNode

from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.syntax_tree import Node, link_parents

# Imported for their registrations.
from tsograph.producers.lang.typescript import (  # noqa: F401
    lower_declarations,
    lower_expressions,
    lower_statements,
    lower_types,
)
from tsograph.producers.lang.typescript.lowering_frames import (
    BUILDERS,
    SKIPPED,
    Frame,
)


def lower(root: TSNode, data: bytes) -> Node:
    """The neutral form of a parsed file (`data` is the text the tree was parsed from)."""
    cursor = root.walk()
    stack: list[Frame] = [Frame(root.type, root.start_byte, root.end_byte, None)]
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
                if node.type not in SKIPPED:
                    kind = "ERROR" if node.is_error else node.type
                    stack.append(Frame(kind, node.start_byte, node.end_byte, cursor.field_name))
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


def _attach(parent: Frame, field_name: str | None, built: Node | list[Node] | None) -> None:
    if built is None:
        return
    if isinstance(built, Node):
        parent.named.append((field_name, built))
    else:
        parent.named.extend((field_name, node) for node in built)


def _build(frame: Frame, data: bytes) -> Node | list[Node] | None:
    if frame.kind in ("\0token", "\0skip"):
        return None
    builder = BUILDERS.get(frame.kind)
    if builder is None:
        kept = [node for node in frame.nodes() if not node.kind.startswith("\0")]
        return lowered(frame, "other", frame.kind, items=kept)
    return builder(frame, data)
