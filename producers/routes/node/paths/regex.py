"""A conservative reading of the JavaScript regular expressions routers put on parameters.

Only two questions matter for a contract template: can the parameter match
the empty string (then the route also serves the path without it), and can it
match a `/` (then it spans segments and no template says that). The reader
answers both for the common subset of JavaScript regex syntax and gives up
(None) on anything else: back references, unicode property escapes, a
quantifier without an atom, unbalanced groups. Giving up makes the route
dynamic, which is never wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PatternKind = Literal["int", "any", "other"]

# Parameter patterns that accept exactly one or more ASCII digits. JavaScript's
# `\d` is ASCII-only with or without the `u` flag.
_INT_PATTERNS = frozenset({r"\d+", r"\d+?", "[0-9]+", "[0-9]+?", r"[\d]+", r"\d{1,}", "[0-9]{1,}"})
# Patterns that say no more than a plain parameter (one or more non-slash characters).
_ANY_PATTERNS = frozenset(
    {"[^/]+", "[^/]+?", r"[^\/]+", r"[^\/]+?", r"[^\/#\?]+?", "[^/#?]+", "[^/#?]+?"}
)
# Patterns that take any text, slashes included: a catch-all when they fill the end of a path.
REST_PATTERNS = {".*": True, ".+": False, "(.*)": True, ".(.*)": False, "[^]*": True, "[^]+": False}

_CLASS_ESCAPES_WITHOUT_SLASH = frozenset("dwsbB")
_CLASS_ESCAPES_WITH_SLASH = frozenset("DWS")
_CONTROL_ESCAPES = frozenset("tnrvf0")
# Group nesting the reader follows; deeper patterns are given up on, not recursed into.
_MAX_DEPTH = 64


@dataclass(frozen=True, slots=True)
class RegexFacts:
    min_length: int
    crosses_slash: bool
    kind: PatternKind = "other"


class _Unsupported(Exception):
    pass


def analyze(pattern: str) -> RegexFacts | None:
    """Facts of a regex source, or None when the source is outside the supported subset."""
    try:
        parser = _Parser(pattern)
        min_length, slash = parser.alternation()
        if parser.pos != len(pattern):
            return None
    except _Unsupported:
        return None
    kind: PatternKind = "other"
    if pattern in _INT_PATTERNS:
        kind = "int"
    elif pattern in _ANY_PATTERNS:
        kind = "any"
    return RegexFacts(min_length=min_length, crosses_slash=slash, kind=kind)


class _Parser:
    """Recursive descent over the regex; each rule returns (minimum length, may match `/`)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.source[self.pos] if self.pos < len(self.source) else None

    def take(self) -> str:
        if self.pos >= len(self.source):
            raise _Unsupported
        char = self.source[self.pos]
        self.pos += 1
        return char

    def alternation(self) -> tuple[int, bool]:
        lengths: list[int] = []
        slash = False
        while True:
            length, branch_slash = self.sequence()
            lengths.append(length)
            slash = slash or branch_slash
            if self.peek() != "|":
                return min(lengths), slash
            self.pos += 1

    def sequence(self) -> tuple[int, bool]:
        total = 0
        slash = False
        while self.peek() not in (None, "|", ")"):
            length, atom_slash, zero_width = self.atom()
            low = self.quantifier()
            if low is not None and zero_width:
                raise _Unsupported
            total += length * (1 if low is None else low)
            slash = slash or atom_slash
        return total, slash

    def quantifier(self) -> int | None:
        """The minimum repeat count of a quantifier after an atom, None when there is none."""
        char = self.peek()
        low: int | None
        if char in ("*", "?"):
            self.pos += 1
            low = 0
        elif char == "+":
            self.pos += 1
            low = 1
        elif char == "{" and self._counted():
            low = self._counted_low()
        else:
            return None
        if self.peek() == "?":
            self.pos += 1
        if self.peek() in ("*", "+", "?"):
            raise _Unsupported
        return low

    def _counted(self) -> bool:
        close = self.source.find("}", self.pos)
        if close < 0:
            return False
        body = self.source[self.pos + 1 : close]
        low, _, high = body.partition(",")
        return low.isdigit() and (high == "" or high.isdigit()) and low.isascii()

    def _counted_low(self) -> int:
        close = self.source.index("}", self.pos)
        low = int(self.source[self.pos + 1 : close].partition(",")[0])
        self.pos = close + 1
        if low > 1000:
            raise _Unsupported
        return low

    def atom(self) -> tuple[int, bool, bool]:
        """(minimum length, may match `/`, zero width)."""
        char = self.take()
        if char in ("*", "+", "?", "{", "}", "]"):
            raise _Unsupported
        if char in ("^", "$"):
            # An anchor inside a route parameter only matches at the ends of
            # the whole path; whether that can hold depends on the context.
            raise _Unsupported
        if char == ".":
            return 1, True, False
        if char == "[":
            return 1, self.char_class(), False
        if char == "(":
            return self.group()
        if char == "\\":
            return self.escape()
        return 1, char == "/", False

    def group(self) -> tuple[int, bool, bool]:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _Unsupported
        lookaround = False
        if self.peek() == "?":
            self.pos += 1
            kind = self.take()
            if kind in ("=", "!"):
                lookaround = True
            elif kind == "<" and self.peek() in ("=", "!"):
                self.pos += 1
                lookaround = True
            elif kind == "<":
                close = self.source.find(">", self.pos)
                name = self.source[self.pos : close] if close >= 0 else ""
                if not name or not (name.replace("_", "a").replace("$", "a").isalnum()):
                    raise _Unsupported
                self.pos = close + 1
            elif kind != ":":
                raise _Unsupported
        length, slash = self.alternation()
        if self.take() != ")":
            raise _Unsupported
        self.depth -= 1
        if lookaround:
            # A lookaround consumes nothing and only narrows what matches.
            return 0, False, True
        return length, slash, False

    def escape(self) -> tuple[int, bool, bool]:
        char = self.take()
        if char in ("b", "B"):
            return 0, False, True
        if char in _CLASS_ESCAPES_WITHOUT_SLASH:
            return 1, False, False
        if char in _CLASS_ESCAPES_WITH_SLASH:
            return 1, True, False
        if char == "x":
            return 1, self._hex(2) == 0x2F, False
        if char == "u":
            return 1, self._hex(4) == 0x2F, False
        if char in _CONTROL_ESCAPES and (char != "0" or not (self.peek() or "").isdigit()):
            return 1, False, False
        if char.isalnum():
            # Back references, \c, \p{…}, \k<…> and unknown letters.
            raise _Unsupported
        return 1, char == "/", False

    def _hex(self, digits: int) -> int:
        text = self.source[self.pos : self.pos + digits]
        if len(text) != digits or any(c not in "0123456789abcdefABCDEF" for c in text):
            raise _Unsupported
        self.pos += digits
        return int(text, 16)

    def char_class(self) -> bool:
        """Whether a `[...]` class (already past `[`) can match `/`."""
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        listed_slash = False
        previous: int | None = None
        empty = True
        while True:
            char = self.take()
            if char == "]":
                if empty:
                    # `[]` never matches and `[^]` matches anything: both rare enough to give up.
                    raise _Unsupported
                break
            empty = False
            if char == "[":
                raise _Unsupported
            code: int | None
            if char == "\\":
                escaped = self.take()
                if escaped in _CLASS_ESCAPES_WITH_SLASH:
                    listed_slash = True
                    code = None
                elif escaped in "dws":
                    code = None
                elif escaped == "x":
                    code = self._hex(2)
                elif escaped == "u":
                    code = self._hex(4)
                elif escaped.isalnum() and escaped not in _CONTROL_ESCAPES:
                    raise _Unsupported
                else:
                    code = ord(escaped) if not escaped.isalnum() else 0
            elif char == "-" and previous is not None and self.peek() not in ("]", None):
                high = self.take()
                if high == "\\":
                    escaped = self.take()
                    if escaped.isalnum():
                        raise _Unsupported
                    high = escaped
                if previous <= 0x2F <= ord(high):
                    listed_slash = True
                if ord(high) < previous:
                    raise _Unsupported
                previous = None
                continue
            else:
                code = ord(char)
            if code == 0x2F:
                listed_slash = True
            previous = code
        return not listed_slash if negated else listed_slash
