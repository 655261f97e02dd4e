"""JavaScript's own rules for the literals evaluators fold (checked with node v20.20.2)."""

from __future__ import annotations

from tsograph.producers.values.javascript import fold
from tsograph.producers.values.javascript import js_string
from tsograph.producers.values.javascript import number
from tsograph.producers.values.unknown import UNKNOWN


def test_numbers_as_written() -> None:
    assert number("0x1f") == 31
    assert number("1_000") == 1000
    assert number("1.5") == 1.5
    assert number("1n") is UNKNOWN  # a BigInt is not modelled


def test_plus_with_a_string_uses_string_conversion() -> None:
    assert fold("+", "/v", 2.0) == "/v2"  # String(2.0) === "2"
    assert fold("+", True, "x") == "truex"
    assert fold("+", None, "x") == "nullx"
    assert fold("+", 1, 2) is UNKNOWN  # arithmetic is not modelled
    assert fold("+", "a", UNKNOWN) is UNKNOWN


def test_equality_of_scalars_only() -> None:
    assert fold("===", "a", "a") is True
    assert fold("!==", 1, 2) is True
    assert fold("===", "a", UNKNOWN) is UNKNOWN
    assert js_string(False) == "false"
