"""The HTTP path-template canonicalizer shared by `openapi`, `routes` and the client side.

A canonical template is the key a consumer joins declarations, contracts and
calls on, so every producer must spell the same route the same way:

* a parameter filling a whole segment is `{}`; a parameter inside a segment
  keeps the literal skeleton around it (`/files/{}.json`); a segment with more
  than one parameter cannot be matched exactly and makes the template dynamic;
* a catch-all of one or more segments is `{**}`, only as the last segment;
* literals are RFC 3986 pchar: unreserved characters are never encoded (a
  written `%41` becomes `A`), every other byte outside pchar is `%XX` with
  uppercase hex, and an existing encoding of a reserved byte stays encoded;
* duplicate slashes, a trailing slash and letter case are kept as written;
* a dot segment (`.`, `..`, `%2E`, …) is dynamic, because clients remove it
  before sending; so is a template longer than 2,048 characters, which the
  consumer rejects.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

MAX_TEMPLATE_CHARS = 2048

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PCHAR_RAW = _UNRESERVED | frozenset("!$&'()*+,;=:@")
_HEX = frozenset("0123456789abcdefABCDEF")
_BRACE_SPLIT = re.compile(r"([{}])")


class Hole(Enum):
    """A non-literal part of a segment."""

    PARAM = "{}"
    CATCH_ALL = "{**}"


PARAM = Hole.PARAM
CATCH_ALL = Hole.CATCH_ALL

Part = str | Hole
Segment = Sequence[Part]

# Why a template is dynamic; producers turn these into limitation breakdowns.
MULTI_PARAMETER = "multi-parameter-segment"
DOT_SEGMENT = "dot-segment"
TOO_LONG = "too-long"
MALFORMED = "malformed-template"


@dataclass(frozen=True)
class Template:
    """A canonical template; `channel` is best effort when `dynamic` is set."""

    channel: str
    dynamic: bool
    reason: str | None = None


def encode_literal(text: str) -> str:
    """Normalise literal path text to RFC 3986 pchar with uppercase `%XX`."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char == "%" and _is_hex_pair(text, i + 1):
            byte = int(text[i + 1 : i + 3], 16)
            decoded = chr(byte)
            out.append(decoded if byte < 0x80 and decoded in _UNRESERVED else f"%{byte:02X}")
            i += 3
            continue
        if char in _PCHAR_RAW:
            out.append(char)
        else:
            out.extend(f"%{b:02X}" for b in char.encode("utf-8", "surrogatepass"))
        i += 1
    return "".join(out)


def _is_hex_pair(text: str, start: int) -> bool:
    return start + 1 < len(text) and text[start] in _HEX and text[start + 1] in _HEX


def _is_dot_segment(encoded: str) -> bool:
    return encoded.replace("%2E", ".") in (".", "..")


def canonicalize_segments(segments: Sequence[Segment]) -> Template:
    """Canonical template of a path given as segments of literal text and holes.

    Literal text is taken as written (it may hold `%XX` escapes). An empty
    sequence is the root path `/`.
    """
    rendered: list[str] = []
    reason: str | None = None
    last = len(segments) - 1
    for index, segment in enumerate(segments):
        text, problem = _render_segment(segment, is_last=index == last)
        rendered.append(text)
        reason = reason or problem
    channel = "/" + "/".join(rendered)
    if reason is None and len(channel) > MAX_TEMPLATE_CHARS:
        reason = TOO_LONG
    if len(channel) > MAX_TEMPLATE_CHARS:
        channel = _cut(channel)
    return Template(channel, reason is not None, reason)


def _render_segment(segment: Segment, *, is_last: bool) -> tuple[str, str | None]:
    holes = [part for part in segment if isinstance(part, Hole)]
    text = "".join(
        part.value if isinstance(part, Hole) else encode_literal(part) for part in segment
    )
    if CATCH_ALL in holes:
        # Judged on the rendering, not the part count: an empty literal beside
        # the catch-all renders as nothing, and literals never render braces,
        # so only a lone catch-all can render as exactly `{**}`.
        if text != CATCH_ALL.value or not is_last:
            return text, MALFORMED
        return text, None
    if len(holes) > 1:
        return text, MULTI_PARAMETER
    if not holes and _is_dot_segment(text):
        return text, DOT_SEGMENT
    return text, None


def _cut(channel: str) -> str:
    """The longest prefix of whole segments that fits the length limit."""
    # A slash just past the limit still ends a segment that fits whole, so the
    # search includes that one position.
    boundary = channel.rfind("/", 0, MAX_TEMPLATE_CHARS + 1)
    return channel[:boundary] if boundary > 0 else "/"


def _split_braced(path: str, *, catch_all: bool) -> list[list[Part]] | None:
    """Split `/a/{x}.json` into segments; None when braces do not balance."""
    if not path.startswith("/"):
        return None
    segments: list[list[Part]] = []
    for raw in path[1:].split("/"):
        parts: list[Part] = []
        literal: list[str] = []
        i = 0
        while i < len(raw):
            char = raw[i]
            if char == "}":
                return None
            if char != "{":
                literal.append(char)
                i += 1
                continue
            close = raw.find("}", i + 1)
            if close < 0 or "{" in raw[i + 1 : close]:
                return None
            if literal:
                parts.append("".join(literal))
                literal = []
            name = raw[i + 1 : close]
            parts.append(CATCH_ALL if catch_all and name == "**" else PARAM)
            i = close + 1
        if literal:
            parts.append("".join(literal))
        segments.append(parts)
    return segments


def canonicalize_braced(path: str) -> Template:
    """Canonicalize an OpenAPI-style path: `{name}` is a parameter, the rest literal."""
    return _canonicalize_text(path, catch_all=False)


def canonicalize(channel: str) -> Template:
    """Re-canonicalize a template in the canonical grammar (`{}` and a final `{**}`).

    Idempotent: for every text t, canonicalize(canonicalize(t).channel) gives
    the same channel, and for t starting with `/` also the same dynamic
    verdict, unless the channel had to be cut to the length limit.
    """
    return _canonicalize_text(channel, catch_all=True)


def _canonicalize_text(path: str, *, catch_all: bool) -> Template:
    relative = not path.startswith("/")
    rooted = "/" + path if relative else path
    segments = _split_braced(rooted, catch_all=catch_all)
    result = (
        _malformed(rooted, catch_all=catch_all)
        if segments is None
        else canonicalize_segments(segments)
    )
    if relative:
        # A path without its leading `/` is malformed whatever else it holds;
        # the rooted reading is only the best-effort channel.
        return Template(result.channel, True, MALFORMED)
    return result


def _malformed(path: str, *, catch_all: bool) -> Template:
    literal = "/".join(_encode_keeping_braces(part) for part in path.split("/"))
    if len(literal) > MAX_TEMPLATE_CHARS:
        # The cut may drop the braces that broke the path; the prefix left is
        # then canonicalized like any other, so the channel stays a fixed point.
        literal = _canonicalize_text(_cut(literal), catch_all=catch_all).channel
    return Template(literal, True, MALFORMED)


def _encode_keeping_braces(text: str) -> str:
    # The braces are what made the path malformed. Writing them as `%7B`/`%7D`
    # would turn the best-effort channel into a valid static template, so a
    # second canonicalization would lose the dynamic verdict.
    return "".join(
        piece if piece in ("{", "}") else encode_literal(piece)
        for piece in _BRACE_SPLIT.split(text)
    )


def segments_of(channel: str) -> list[str]:
    """The segments of a canonical template (`/a//b/` -> ["a", "", "b", ""])."""
    return channel[1:].split("/") if channel.startswith("/") else channel.split("/")
