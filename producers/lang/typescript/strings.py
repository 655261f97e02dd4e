"""The value of a JavaScript string literal, from the text between its quotes.

Keys of callback ids and import specifiers are compared by value, so escapes
are decoded the way JavaScript does: `\\n`, `\\x41`, `\\u0041`, `\\u{1F600}`,
line continuations, and a surrogate pair written as two `\\u` escapes becomes
one character. An escape JavaScript rejects is kept as written rather than
guessed at.
"""

from __future__ import annotations

import re

_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))")
_LINE_CONTINUATIONS = ("\n", "\r", "\r\n", "\u2028", "\u2029")


def _replace(match: re.Match[str]) -> str:
    braced, four, two, other = match.groups()
    if braced is not None:
        code = int(braced, 16)
        return chr(code) if code <= 0x10FFFF else match.group(0)
    if four is not None:
        return chr(int(four, 16))
    if two is not None:
        return chr(int(two, 16))
    if other in _LINE_CONTINUATIONS:
        return ""
    return _SIMPLE.get(other, other)


def _join_surrogates(text: str) -> str:
    if not any(0xD800 <= ord(char) <= 0xDFFF for char in text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def decode_js_string(body: str) -> str:
    """The value of a string literal given the text between its quotes."""
    if "\\" not in body:
        return body
    return _join_surrogates(_ESCAPE.sub(_replace, body))
