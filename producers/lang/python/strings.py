"""The value of a Python string literal piece, decoded by Python's own rules.

A literal's prefix decides the rules: `r` keeps every backslash, `b` reads
bytes (no `\\u`, `\\U` or `\\N{}` escapes; each byte is kept as the code point
of the same number), and in an f-string `{{` and `}}` stand for one brace. An
escape Python does not know (`\\q`) keeps its backslash, as Python does; an
`\\N{name}` that names no character is kept as written.
"""

from __future__ import annotations

import re
import unicodedata

_SIMPLE = {
    "\n": "",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
_TEXT_ESCAPE = re.compile(
    r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|N\{([^}\n]*)\}|(\r\n|[\s\S]))"
)
_BYTES_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))")


def _replace(match: re.Match[str]) -> str:
    octal, two, four, eight, named, other = match.groups()
    if octal is not None:
        return chr(int(octal, 8))
    if two is not None:
        return chr(int(two, 16))
    if four is not None:
        return chr(int(four, 16))
    if eight is not None:
        code = int(eight, 16)
        return chr(code) if code <= 0x10FFFF else match.group(0)
    if named is not None:
        try:
            return unicodedata.lookup(named)
        except KeyError:
            return match.group(0)
    if other == "\r\n":
        return ""
    return _SIMPLE.get(other, match.group(0))


def _replace_byte(match: re.Match[str]) -> str:
    octal, two, other = match.groups()
    if octal is not None:
        return chr(int(octal, 8) & 0xFF)
    if two is not None:
        return chr(int(two, 16))
    if other == "\r\n":
        return ""
    return _SIMPLE.get(other, match.group(0))


def decode_piece(body: str, prefix: str) -> str:
    """The value of the text between the quotes (or between substitutions) of a literal."""
    lowered = prefix.lower()
    if "f" in lowered:
        body = body.replace("{{", "{").replace("}}", "}")
    if "r" in lowered or "\\" not in body:
        return body
    if "b" in lowered:
        return _BYTES_ESCAPE.sub(_replace_byte, body)
    return _TEXT_ESCAPE.sub(_replace, body)
