"""The lowering walk both front-ends share: registries, table helpers, skipped and unknown types.

A small registry of its own is run over real tree-sitter parses (the pinned
TypeScript grammar), so what is checked is the driver, not either language's
builders; the goldens of fixtures/lang/ check those.
"""

from __future__ import annotations

from tsograph.producers.lang.lowering_driver import Frame
from tsograph.producers.lang.lowering_driver import Lowering
from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.python.lowering_registry import LOWERING as PYTHON
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.syntax_tree import describe
from tsograph.producers.lang.typescript import grammar
from tsograph.producers.lang.typescript.lowering_registry import LOWERING as TYPESCRIPT


def _unknown(frame: Frame, data: bytes) -> Node:
    return lowered(frame, "other", frame.kind, items=frame.nodes())


def _lowering() -> Lowering:
    lowering = Lowering(frozenset({"comment"}), fallback=_unknown)
    lowering.items("program", "module")
    lowering.text("identifier", "identifier")
    lowering.text("number", "number")
    lowering.transparent("parenthesized_expression")
    return lowering


def _lower(lowering: Lowering, source: str) -> Node:
    data = source.encode()
    return lowering.lower(grammar.parse("typescript", data), data)


def test_unregistered_types_go_to_the_fallback_and_skipped_types_are_left_out() -> None:
    root = _lower(_lowering(), "a /* note */ + (1);\n")
    assert describe(root) == (
        "module 0-20\n"
        "  - other 'expression_statement' 0-19\n"
        "    - other 'binary_expression' 0-18\n"
        "      - identifier 'a' 0-1\n"
        "      - number '1' 16-17\n"
    )


def test_fields_keep_the_written_part_order_and_leave_missing_parts_out() -> None:
    lowering = _lowering()
    lowering.fields(
        "binary_expression", "binary", "right left=left", value="+", flag_tokens=("+", "-")
    )
    lowering.fields("if_statement", "if", "condition consequence alternative")
    lowering.items("statement_block", "block")
    root = _lower(lowering, "a + 1;\nif (a) {}\n")
    binary = root.items[0].items[0]
    assert (binary.kind, binary.value, binary.flags) == ("binary", "+", frozenset({"+"}))
    assert list(binary.parts) == ["right", "left"]
    branch = root.items[1]
    assert list(branch.parts) == ["condition", "consequence"]  # no `else`: no alternative
    assert all(child.parent is branch for child in branch.parts.values())


def test_ordered_wrap_items_from_and_tokens() -> None:
    lowering = _lowering()
    lowering.ordered("binary_expression", "pair", "left right extra")
    lowering.wrap("await_expression", "await")
    lowering.fields("call_expression", "call", "callee=function", items_from="arguments")
    lowering.items("arguments", "arguments")

    @lowering.builder("unary_expression")
    def _unary(frame: Frame, data: bytes) -> Node:
        operators = frame.tokens_named("operator")
        return lowered(frame, "unary", frame.token("operator"), items=[], flags=operators)

    root = _lower(lowering, "a * b;\nawait f(1, 2);\n-x;\n")
    pair, call, unary = (statement.items[0] for statement in root.items)
    assert list(pair.parts) == ["left", "right"] and pair.value is None
    awaited = call.part("value")
    assert call.kind == "await" and awaited is not None and awaited.kind == "call"
    assert [item.value for item in awaited.items] == ["1", "2"]
    assert (unary.kind, unary.value, unary.flags) == ("unary", "-", frozenset({"-"}))


def test_each_language_keeps_its_own_builders() -> None:
    # The grammars share type names (`identifier`, `string`, `module`): a builder
    # registered for one language must never lower the other's nodes.
    assert PYTHON.builders is not TYPESCRIPT.builders
    assert PYTHON.builders["module"] is not TYPESCRIPT.builders.get("module")
    assert "program" in TYPESCRIPT.builders and "program" not in PYTHON.builders
