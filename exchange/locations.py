"""1-based lines and 1-based UTF-8 byte columns from source byte offsets.

Columns are counted in bytes of the file as written, so an escape sequence
earlier on the line (`\\u0041`, `\\"`) counts as the bytes that spell it, and a
multi-byte character counts as its UTF-8 length. The producers differ on one
point: `openapi` does not count a leading byte order mark, `routes`, `schema`
and the graph count it as its three bytes. Line breaks are CRLF, CR and LF;
JavaScript sources also break lines at U+2028 and U+2029, as the TypeScript
scanner does.
"""

from __future__ import annotations

import re
from bisect import bisect_right

BOM = b"\xef\xbb\xbf"

_YAML_BREAKS = re.compile(rb"\r\n|\r|\n")
_JS_BREAKS = re.compile(rb"\r\n|\r|\n|\xe2\x80\xa8|\xe2\x80\xa9")


class LineIndex:
    """Maps byte offsets of one file to (line, column), both 1-based."""

    __slots__ = ("_bom_skip", "_starts")

    def __init__(self, data: bytes, *, count_bom: bool, js_breaks: bool = False) -> None:
        breaks = _JS_BREAKS if js_breaks else _YAML_BREAKS
        self._starts = [0, *(match.end() for match in breaks.finditer(data))]
        self._bom_skip = 0 if count_bom or not data.startswith(BOM) else len(BOM)

    def position(self, offset: int) -> tuple[int, int]:
        if offset < 0:
            raise ValueError("offset must not be negative")
        line = bisect_right(self._starts, offset)
        start = self._starts[line - 1]
        column = offset - start + 1
        if line == 1 and self._bom_skip:
            column = max(1, column - self._bom_skip)
        return line, column

    @property
    def line_count(self) -> int:
        return len(self._starts)


def byte_column(line_text: str, char_index: int) -> int:
    """1-based byte column of the character at `char_index` of a decoded line."""
    return len(line_text[:char_index].encode("utf-8", "surrogatepass")) + 1
