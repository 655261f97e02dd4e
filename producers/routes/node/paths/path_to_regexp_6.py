"""path-to-regexp 6.x, the path syntax of @koa/router 12 and 13 (read from path-to-regexp 6.3.0).

Tokens (`lexer`/`parse` in dist/index.js): `:name` (ASCII word characters),
`(pattern)`, a modifier `?`, `*` or `+` after a parameter or group, `{…}`
groups with a prefix and suffix, and `\\x` for a literal `x`. A parameter
takes the `/` or `.` right before it as its prefix, so `/:id?` makes the
slash optional too. A modifier anywhere else, a capturing group inside a
pattern, a pattern starting with `?` and two parameters without text
between them are errors at registration.

@koa/router 13.1.1 (lib/layer.js) compiles with `end: true, strict: false,
sensitive: false` and matches the undecoded `ctx.path`: case-insensitive, and
`[\\/#\\?]?$` makes one trailing slash optional.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Opaque
from .model import Param
from .model import PathRejected
from .model import PathVariant
from .model import Shape
from .model import Token
from .model import branch
from .model import translation

_DELIMITER = "/#?"
_PREFIXES = "./"
_DEFAULT_PATTERN = r"[^\/#\?]+?"
_REGEX_SPECIALS = frozenset(".+*?=^!:${}()[]|/\\")


@dataclass(frozen=True, slots=True)
class _Key:
    prefix: str
    suffix: str
    pattern: str
    modifier: str
    named: bool


def translate(path: str) -> tuple[PathVariant, ...]:
    return translation(path, lambda: _shapes(path), undecoded=True)


def _shapes(path: str) -> list[Shape]:
    shapes: list[Shape] = [()]
    for token in _parse(path):
        shapes = branch(shapes, _options(token))
    return shapes


def _options(token: str | _Key) -> list[list[Token]]:
    """The alternatives one parsed token stands for."""
    if isinstance(token, str):
        return [[token]]
    body: list[Token]
    if token.pattern:
        body = [token.prefix, Param(pattern=token.pattern), token.suffix]
    else:
        body = [token.prefix + token.suffix]
    if token.modifier == "":
        return [body]
    if token.modifier == "?":
        return [[], body]
    # `*` and `+` repeat the group; each repetition must match the pattern, so
    # a `{**}` (which allows empty segments) would say too much.
    repeated = [*body, token.suffix + token.prefix, Opaque()]
    return [[], body, repeated] if token.modifier == "*" else [body, repeated]


def _lex(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in "*+?":
            tokens.append(("MODIFIER", char))
            i += 1
        elif char == "\\":
            tokens.append(("ESCAPED_CHAR", text[i + 1 : i + 2]))
            i += 2
        elif char == "{":
            tokens.append(("OPEN", char))
            i += 1
        elif char == "}":
            tokens.append(("CLOSE", char))
            i += 1
        elif char == ":":
            j = i + 1
            while j < len(text) and (text[j].isascii() and (text[j].isalnum() or text[j] == "_")):
                j += 1
            if j == i + 1:
                raise PathRejected("missing parameter name")
            tokens.append(("NAME", text[i + 1 : j]))
            i = j
        elif char == "(":
            pattern, i = _lex_pattern(text, i)
            tokens.append(("PATTERN", pattern))
        else:
            tokens.append(("CHAR", char))
            i += 1
    tokens.append(("END", ""))
    return tokens


def _lex_pattern(text: str, start: int) -> tuple[str, int]:
    count = 1
    pattern = ""
    j = start + 1
    if text[j : j + 1] == "?":
        raise PathRejected("pattern cannot start with ?")
    while j < len(text):
        if text[j] == "\\":
            pattern += text[j : j + 2]
            j += 2
            continue
        if text[j] == ")":
            count -= 1
            if count == 0:
                j += 1
                break
        elif text[j] == "(":
            count += 1
            if text[j + 1 : j + 2] != "?":
                raise PathRejected("capturing groups are not allowed")
        pattern += text[j]
        j += 1
    if count:
        raise PathRejected("unbalanced pattern")
    if not pattern:
        raise PathRejected("missing pattern")
    return pattern, j


def _escape(text: str) -> str:
    return "".join("\\" + char if char in _REGEX_SPECIALS else char for char in text)


class _Parser:
    def __init__(self, path: str) -> None:
        self.tokens = _lex(path)
        self.i = 0
        self.result: list[str | _Key] = []

    def try_consume(self, kind: str) -> str | None:
        if self.i < len(self.tokens) and self.tokens[self.i][0] == kind:
            self.i += 1
            return self.tokens[self.i - 1][1]
        return None

    def must_consume(self, kind: str) -> str:
        value = self.try_consume(kind)
        if value is None:
            raise PathRejected(f"expected {kind}")
        return value

    def consume_text(self) -> str:
        result = ""
        while True:
            value = self.try_consume("CHAR")
            if value is None:
                value = self.try_consume("ESCAPED_CHAR")
            # An escape at the very end lexes as an empty character, which ends the text.
            if not value:
                return result
            result += value

    def safe_pattern(self, prefix: str) -> str:
        previous = self.result[-1] if self.result else None
        previous_text = prefix or (previous if isinstance(previous, str) else "")
        if previous is not None and not previous_text:
            raise PathRejected("must have text between two parameters")
        if not previous_text or any(char in previous_text for char in _DELIMITER):
            return _DEFAULT_PATTERN
        return f"(?:(?!{_escape(previous_text)})[^\\/#\\?])+?"


def _parse(path: str) -> list[str | _Key]:
    """path-to-regexp 6.3.0 `parse`, with the same errors."""
    parser = _Parser(path)
    text = ""
    while parser.i < len(parser.tokens):
        char = parser.try_consume("CHAR")
        name = parser.try_consume("NAME")
        pattern = parser.try_consume("PATTERN")
        if name or pattern:
            prefix = char or ""
            if prefix not in _PREFIXES or prefix == "":
                text += prefix
                prefix = ""
            if text:
                parser.result.append(text)
                text = ""
            parser.result.append(
                _Key(
                    prefix=prefix,
                    suffix="",
                    pattern=pattern or parser.safe_pattern(prefix),
                    modifier=parser.try_consume("MODIFIER") or "",
                    named=bool(name),
                )
            )
            continue
        value = char or parser.try_consume("ESCAPED_CHAR")
        if value:
            text += value
            continue
        if text:
            parser.result.append(text)
            text = ""
        if parser.try_consume("OPEN") is not None:
            prefix = parser.consume_text()
            group_name = parser.try_consume("NAME") or ""
            group_pattern = parser.try_consume("PATTERN") or ""
            suffix = parser.consume_text()
            parser.must_consume("CLOSE")
            parser.result.append(
                _Key(
                    prefix=prefix,
                    suffix=suffix,
                    pattern=(
                        parser.safe_pattern(prefix)
                        if group_name and not group_pattern
                        else group_pattern
                    ),
                    modifier=parser.try_consume("MODIFIER") or "",
                    named=bool(group_name),
                )
            )
            continue
        parser.must_consume("END")
    _check_repeats(parser.result)
    return parser.result


def _check_repeats(tokens: list[str | _Key]) -> None:
    # tokensToRegexp: `*`/`+` on a parameter without prefix or suffix throws.
    for token in tokens:
        if not isinstance(token, _Key) or not token.pattern:
            continue
        if token.modifier in ("*", "+") and not token.prefix and not token.suffix:
            raise PathRejected("can not repeat without a prefix and suffix")
