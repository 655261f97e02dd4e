"""Runs conformance/symbol-ids.json against the symbol-id module."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.vectors import case_id
from tests.conformance.vectors import cases
from tests.conformance.vectors import ran
from tsograph.exchange.symbol_ids import ArrayKey
from tsograph.exchange.symbol_ids import CallbackNamer
from tsograph.exchange.symbol_ids import Callee
from tsograph.exchange.symbol_ids import Key
from tsograph.exchange.symbol_ids import NameChainKey
from tsograph.exchange.symbol_ids import StringKey
from tsograph.exchange.symbol_ids import TemplateKey
from tsograph.exchange.symbol_ids import callback_segment
from tsograph.exchange.symbol_ids import cut_utf16
from tsograph.exchange.symbol_ids import model_id
from tsograph.exchange.symbol_ids import module_id
from tsograph.exchange.symbol_ids import symbol_id
from tsograph.exchange.symbol_ids import typedsql_id

FILE = "symbol-ids.json"


def text(raw: Any) -> str:
    """A JSON string, or {"units": [...]}: UTF-16 code units kept one code point each.

    Keeping the units apart is deliberate: it is how a JavaScript string that
    spells a pair as two escapes reaches a producer, and the module must still
    treat the two halves as one character.
    """
    if isinstance(raw, str):
        return raw
    assert set(raw) == {"units"}, raw
    units = raw["units"]
    assert all(isinstance(unit, int) and 0 <= unit <= 0xFFFF for unit in units)
    return "".join(chr(unit) for unit in units)


def callee(raw: dict[str, Any]) -> Callee:
    head = None if raw["head"] is None else text(raw["head"])
    members: list[tuple[str, str]] = []
    for kind, name in raw["members"]:
        assert kind in ("prop", "elem"), kind
        members.append((kind, text(name)))
    return Callee(head, tuple(members))


def key(raw: dict[str, Any]) -> Key:
    assert len(raw) == 1, raw
    if "string" in raw:
        return StringKey(text(raw["string"]))
    if "chain" in raw:
        return NameChainKey(text(raw["chain"]))
    if "array" in raw:
        return ArrayKey(tuple(key(item) for item in raw["array"]))
    template = raw["template"]
    return TemplateKey(
        tuple(text(piece) for piece in template["pieces"]),
        tuple(None if sub is None else text(sub) for sub in template["substitutions"]),
    )


def run(case: dict[str, Any]) -> str | list[str]:
    function = case["function"]
    if function == "symbol_id":
        return symbol_id(text(case["path"]), [text(name) for name in case["names"]])
    if function == "module_id":
        return module_id(text(case["path"]))
    if function == "model_id":
        return model_id(text(case["path"]), text(case["model"]))
    if function == "typedsql_id":
        return typedsql_id(text(case["path"]), text(case["model"]))
    if function == "callback_segment":
        keys = [key(raw) for raw in case["keys"]]
        return callback_segment(callee(case["callee"]), keys, is_new=case["new"])
    if function == "cut_utf16":
        if "limit" in case:
            return cut_utf16(text(case["text"]), case["limit"])
        return cut_utf16(text(case["text"]))
    assert function == "namer", function
    namer = CallbackNamer()
    return [namer.name(text(scope), text(segment)) for scope, segment in case["calls"]]


@pytest.mark.parametrize("case", cases(FILE), ids=case_id)
def test_symbol_id_vector(case: dict[str, Any]) -> None:
    ran(FILE)
    expected = case["expected"]
    result = run(case)
    if isinstance(expected, list):
        assert result == [text(item) for item in expected]
    else:
        assert result == text(expected)


def test_vector_file_covers_every_function() -> None:
    functions = {case["function"] for case in cases(FILE)}
    assert functions == {
        "symbol_id",
        "module_id",
        "model_id",
        "typedsql_id",
        "callback_segment",
        "cut_utf16",
        "namer",
    }
