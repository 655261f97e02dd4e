"""path-to-regexp 8.x, the path syntax of Express 5 and @koa/router 14+ (read from 8.4.2).

Tokens (`parse` in dist/index.js): `:name` (a JavaScript identifier or a
`"quoted"` name) matches `[^/]+`; `*name` matches one or more characters of
any kind, slashes included; `{…}` is an optional group; `\\x` is a literal
`x`. Any of `}()[]+?!` outside an escape, a parameter without a name, an
unclosed group, two captures with no text between them and more than 255
group combinations are errors at registration.

Both frameworks compile with `end: true, trailing: true, sensitive: false`
(router 2.3.0 lib/layer.js, @koa/router 15.7.0 compilePathToRegexp) and match
the undecoded path: case-insensitive, and `(?:/$)?` allows one more trailing
`/`. Express 5 first strips trailing slashes from the route unless `strict`
(`loosen`, here `express5_route_path`); @koa/router does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from .model import Opaque
from .model import Param
from .model import PathRejected
from .model import PathVariant
from .model import Rest
from .model import Shape
from .model import Token
from .model import translation

_FORBIDDEN = frozenset("}()[]+?!")
_MAX_COMBINATIONS = 256
_TRAILING_SLASHES = re.compile(r"/+$")


@dataclass(frozen=True, slots=True)
class _Capture:
    wildcard: bool


@dataclass(frozen=True, slots=True)
class _Group:
    tokens: tuple[_Item, ...]


_Item = str | _Capture | _Group


def translate(path: str) -> tuple[PathVariant, ...]:
    return translation(
        path, lambda: [_shape(sequence) for sequence in _flatten(_parse(path))], undecoded=True
    )


def express5_route_path(path: str, *, strict: bool = False) -> str:
    """router 2.3.0 `loosen`: a non-strict route loses its trailing slashes (except `/`)."""
    return path if strict or path == "/" else _TRAILING_SLASHES.sub("", path)


def _is_id_start(char: str) -> bool:
    return char in ("$", "_") or char.isidentifier()


def _is_id_continue(char: str) -> bool:
    return char in ("$", "\u200c", "\u200d") or ("a" + char).isidentifier()


def _parse(path: str) -> tuple[_Item, ...]:
    chars = list(path)
    index = 0

    def consume_until(end: str) -> tuple[_Item, ...]:
        nonlocal index
        output: list[_Item] = []
        text = ""
        while index < len(chars):
            value = chars[index]
            index += 1
            if value == end:
                return (*output, text) if text else tuple(output)
            if value == "\\":
                if index == len(chars):
                    raise PathRejected("unexpected end after \\")
                text += chars[index]
                index += 1
                continue
            if value in (":", "*"):
                name = _name()
                if not name:
                    raise PathRejected("missing parameter name")
                if text:
                    output.append(text)
                    text = ""
                output.append(_Capture(wildcard=value == "*"))
                continue
            if value == "{":
                if text:
                    output.append(text)
                    text = ""
                output.append(_Group(consume_until("}")))
                continue
            if value in _FORBIDDEN:
                raise PathRejected(f"unexpected {value}")
            text += value
        if end:
            raise PathRejected(f"unexpected end, expected {end}")
        return (*output, text) if text else tuple(output)

    def _name() -> str:
        nonlocal index
        name = ""
        if index < len(chars) and _is_id_start(chars[index]):
            while True:
                name += chars[index]
                index += 1
                if index >= len(chars) or not _is_id_continue(chars[index]):
                    return name
        if index < len(chars) and chars[index] == '"':
            quote_start = index
            while index < len(chars):
                index += 1
                if index < len(chars) and chars[index] == '"':
                    index += 1
                    return name
                if index < len(chars) and chars[index] == "\\":
                    index += 1
                name += chars[index] if index < len(chars) else ""
            raise PathRejected(f"unterminated quote at {quote_start}")
        return name

    return consume_until("")


def _flatten(items: tuple[_Item, ...]) -> list[tuple[str | _Capture, ...]]:
    """Every sequence the optional groups allow, in path-to-regexp's order (with first)."""
    options: list[list[tuple[str | _Capture, ...]]] = []
    for item in items:
        if isinstance(item, _Group):
            options.append([*_flatten(item.tokens), ()])
        else:
            options.append([(item,)])
    sequences: list[tuple[str | _Capture, ...]] = []
    for combination in product(*options):
        sequences.append(tuple(token for part in combination for token in part))
        if len(sequences) > _MAX_COMBINATIONS:
            raise PathRejected("too many path combinations")
    if len(sequences) >= _MAX_COMBINATIONS + 1:
        raise PathRejected("too many path combinations")
    return sequences


def _shape(sequence: tuple[str | _Capture, ...]) -> Shape:
    """toRegExpSource: the regex a sequence compiles to, as tokens."""
    tokens: list[Token] = []
    backtrack = ""
    previous_capture = False
    wildcard_seen = False
    for item in sequence:
        if isinstance(item, str):
            tokens.append(item)
            backtrack += item
            continue
        if previous_capture and not backtrack:
            raise PathRejected("missing text before a parameter")
        if item.wildcard:
            # `([^]+)`, unless an earlier wildcard makes it exclude that
            # wildcard's trailing text: that no template can say.
            tokens.append(Opaque() if wildcard_seen else Rest(may_be_empty=False))
            wildcard_seen = True
        else:
            # `[^/]+` for the first capture of a segment; a second capture or
            # one beside a wildcard makes the segment dynamic in rendering.
            tokens.append(Param())
        previous_capture = True
        backtrack = ""
    return tuple(tokens)
