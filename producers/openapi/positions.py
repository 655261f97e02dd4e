"""Source offsets to the 1-based line and UTF-8 byte column a fact reports.

The YAML parser counts characters, the JSON reader works on decoded text, and
a location must be counted in bytes of the file as written: an escape such as
`\\u0041` earlier on the line counts as its six bytes, `é` as two. The readers
see the text without its byte order mark, and openapi locations do not count
the mark either, so offsets here are relative to the text after it.
"""

from __future__ import annotations

from tsograph.exchange.locations import BOM
from tsograph.exchange.locations import LineIndex

# Characters between two remembered byte offsets; a lookup encodes at most this many.
_STRIDE = 4096


class SourcePositions:
    """Maps character offsets of the decoded spec to (line, byte column)."""

    __slots__ = ("_bom", "_checkpoints", "_lines", "_text")

    def __init__(self, data: bytes, text: str) -> None:
        self._text = text
        self._bom = len(BOM) if data.startswith(BOM) else 0
        self._lines = LineIndex(data, count_bom=False)
        # Byte offset of every _STRIDE-th character; None when the text is ASCII.
        self._checkpoints: list[int] | None = None
        if not text.isascii():
            checkpoints = [0]
            for start in range(0, len(text), _STRIDE):
                chunk = text[start : start + _STRIDE]
                checkpoints.append(checkpoints[-1] + len(chunk.encode()))
            self._checkpoints = checkpoints

    def byte_offset(self, char_offset: int) -> int:
        """Offset in the text without the byte order mark, in bytes."""
        if self._checkpoints is None:
            return char_offset
        base, rest = divmod(char_offset, _STRIDE)
        start = base * _STRIDE
        tail = self._text[start : start + rest]
        return self._checkpoints[base] + len(tail.encode())

    def of_char(self, char_offset: int) -> tuple[int, int]:
        return self.of_byte(self.byte_offset(char_offset))

    def of_byte(self, byte_offset: int) -> tuple[int, int]:
        """Position of a byte offset counted from the end of the byte order mark."""
        return self._lines.position(byte_offset + self._bom)

    def line_of_char(self, char_offset: int) -> int:
        return self.of_char(char_offset)[0]
