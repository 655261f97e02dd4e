"""Reading JSON with comments and trailing commas (tsconfig.json, jsconfig.json).

TypeScript accepts `//` and `/* */` comments and trailing commas in its config
files; plain JSON parsers do not. The text is rewritten with comments and
trailing commas blanked out (string contents untouched, offsets kept) and then
parsed strictly. Size is bounded by the caller.
"""

from __future__ import annotations

from typing import Any

import orjson


class JsoncError(ValueError):
    """The text is not JSON even after comments and trailing commas are removed."""


def strip_jsonc(text: str) -> str:
    out: list[str] = []
    i = 0
    n = len(text)
    pending_comma: int | None = None  # index in `out` of a comma that may be trailing
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            pending_comma = None
            i = end
            continue
        if char == "/" and i + 1 < n and text[i + 1] == "/":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        if char == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:end]))
            i = end
            continue
        if char == ",":
            pending_comma = len(out)
        elif char in "}]" and pending_comma is not None:
            out[pending_comma] = " "
            pending_comma = None
        elif not char.isspace():
            pending_comma = None
        out.append(char)
        i += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def loads(data: bytes) -> Any:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise JsoncError("not UTF-8") from error
    try:
        return orjson.loads(strip_jsonc(text))
    except orjson.JSONDecodeError as error:
        raise JsoncError(f"not JSON ({error.msg})") from None
