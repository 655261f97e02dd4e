"""What JavaScript gives for literals: numbers as written, `+` with a string, equality, `String()`.

Only string building and (in)equality of scalars are modelled (paths built from
constants, `if (process.env.X === 'y')` with a known side); anything else is
UNKNOWN.
"""

from __future__ import annotations

from typing import TypeGuard

from tsograph.producers.values.unknown import UNKNOWN
from tsograph.producers.values.unknown import Unknown

Scalar = str | int | float | bool | None


def number(literal: str) -> int | float | Unknown:
    """A numeric literal as written (`10`, `0x1f`, `1_000`, `1.5`)."""
    try:
        return int(literal.replace("_", ""), 0)
    except ValueError:
        try:
            return float(literal.replace("_", ""))
        except ValueError:
            return UNKNOWN


def fold(op: str, left: object, right: object) -> str | bool | Unknown:
    """`a + b` where one side is a string, and `===`/`==`/`!==`/`!=` of two scalars."""
    if op == "+" and isinstance(left, str) and is_scalar(right):
        return left + js_string(right)
    if op == "+" and isinstance(right, str) and is_scalar(left):
        return js_string(left) + right
    if op in ("===", "==", "!==", "!=") and is_scalar(left) and is_scalar(right):
        same = left == right
        return same if op in ("===", "==") else not same
    return UNKNOWN


def is_scalar(value: object) -> TypeGuard[Scalar]:
    return isinstance(value, (str, int, float, bool)) or value is None


def js_string(value: object) -> str:
    """`String(value)` for a scalar."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
