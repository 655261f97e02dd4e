"""What a spec must satisfy before a parser sees it.

These checks are linear and cheap, and they bound what the parsers can be
asked to do: the byte size, the encoding, and an estimate of how many values
and how much flow nesting the text holds. The YAML parser keeps roughly a
kilobyte per node, so the value estimate is what keeps memory in check.
"""

from __future__ import annotations

from itertools import accumulate

from tsograph.exchange.errors import InputError
from tsograph.exchange.locations import BOM
from tsograph.exchange.locations import LineIndex

MAX_SPEC_BYTES = 16 * 1024 * 1024
MAX_ESTIMATED_VALUES = 1_500_000
MAX_FLOW_DEPTH = 1_000

_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff")

# Double-quoted strings (JSON and YAML) are skipped when counting brackets, so
# a regular expression in a schema does not count as nesting. Other quoting is
# not recognised; the composers enforce the exact depth afterwards. Escaped
# backslashes and quotes are removed first, then everything but quotes and
# brackets; in what is left every other piece between quotes is outside a
# string, and a string left open runs to the end.
_OUTSIDE_SKELETON = bytes(b for b in range(256) if b not in b'"[]{}')
# Opening brackets step up by one, closing ones down (as signed bytes).
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def check_size(data: bytes, name: str) -> None:
    if len(data) > MAX_SPEC_BYTES:
        raise InputError(
            f"{name}: larger than 16 MiB ({MAX_SPEC_BYTES} bytes); "
            "split the spec into smaller files and run the command on each"
        )


def decode(data: bytes, name: str) -> str:
    """The spec as text without its byte order mark; UTF-8 only."""
    if data.startswith(_WIDE_BOMS) or b"\x00" in data:
        raise InputError(
            f"{name}: is not UTF-8 (it holds NUL bytes or a UTF-16/UTF-32 byte order mark); "
            "save the spec as UTF-8"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = LineIndex(data, count_bom=False).position(error.start)
        raise InputError(
            f"{name}: is not valid UTF-8 (first bad byte at line {line}, column {column}); "
            "save the spec as UTF-8"
        ) from None
    return text[1:] if data.startswith(BOM) else text


def prescan(data: bytes, name: str) -> None:
    """Reject inputs whose value count or flow nesting could exhaust the parser."""
    line_breaks = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    estimate = data.count(b",") + data.count(b":") + line_breaks
    if estimate > MAX_ESTIMATED_VALUES:
        raise InputError(
            f"{name}: holds about {estimate} values (commas, colons and line breaks), more than "
            f"the limit of {MAX_ESTIMATED_VALUES}; split the spec into smaller files"
        )
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = b"".join(unescaped.translate(None, _OUTSIDE_SKELETON).split(b'"')[::2])
    steps = memoryview(brackets.translate(_STEPS)).cast("b")
    depth = max(accumulate(steps), default=0)
    if depth > MAX_FLOW_DEPTH:
        raise InputError(
            f"{name}: flow collections ([ ] and {{ }}) nest {depth} levels deep, more than "
            f"the limit of {MAX_FLOW_DEPTH}; flatten the spec"
        )
