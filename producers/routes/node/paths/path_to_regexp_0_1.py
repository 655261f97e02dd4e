"""path-to-regexp 0.1.x, Express 4's path syntax (read from path-to-regexp 0.1.13, Express 4.22.3).

A 0.1 path is a regular expression with sugar: `:name` (`[^/]+?`), `:name(re)`,
`:name?` (the preceding `/` is optional with it), `:name*` (the parameter and
then any `/…` rest), `.:name` (a parameter that holds no `.`), `*` (`(.*)`,
any text), and a `.` that is literal. All other text is copied into the
regex as is, so `?`, `+`, `(`, `[`, `|`, `^`, `$` and `\\d`-style escapes are
regex syntax and make the path dynamic here.

Express 4 matches the undecoded pathname, case-insensitively unless
`caseSensitive`, with an optional trailing `/` unless `strict`
(`path += strict ? '' : path.endsWith('/') ? '?' : '/?'`); the path `*` is
Layer's `fast_star` and matches every path.
"""

from __future__ import annotations

import re

from .model import Opaque
from .model import Param
from .model import PathVariant
from .model import Rest
from .model import Shape
from .model import Token
from .model import branch
from .model import render_all
from .model import translation
from .model import unbounded

# path-to-regexp 0.1.13 index.js, the replace() in pathToRegexp.
_SUGAR = re.compile(r"\\.|(/)?(\.)?:(\w+)(\(.*?\))?(\*)?(\?)?|[.*]|/\(", re.ASCII)
_REGEX_SYNTAX = frozenset("?+()[]{}|^$\\")
# Quantifiers bind to the character before them, which is then not a literal.
_QUANTIFIERS = frozenset("?+{")
_ESCAPE_OR_STAR = re.compile(r"\\.|\*")


def translate(path: str) -> tuple[PathVariant, ...]:
    if _top_level_alternation(path):
        return unbounded(path)
    if path == "*":
        return render_all([("/", Rest())], raw=True)
    return translation(
        path, lambda: _shapes(path), undecoded=True, keeps_written_slash=path.endswith("/")
    )


def _shapes(path: str) -> list[Shape]:
    shapes: list[Shape] = [()]
    backtrack = ""
    pos = 0
    last = 0
    for match in _SUGAR.finditer(path):
        between = path[last : match.start()]
        last = match.end()
        shapes = _extend(_unquantified(shapes, between), _text(between))
        text = match.group(0)
        if text[0] == "\\":
            backtrack += text
            pos += 2
            shapes = _extend(shapes, _escape(text[1]))
            continue
        if text == ".":
            backtrack += "\\."
            pos += 1
            shapes = _extend(shapes, ["."])
            continue
        slash, dot, _, capture, star, optional = match.groups()
        if slash or dot:
            backtrack = ""
        else:
            backtrack += path[pos : match.start()]
        pos = match.end()
        if text == "*":
            backtrack = ""
            shapes = _extend(shapes, [Rest()])
            continue
        if text == "/(":
            shapes = _extend(shapes, ["/", Opaque()])
            continue
        groups = _parameter(slash or "", bool(dot), capture, bool(star), backtrack)
        backtrack = ""
        if optional:
            groups = [[], *groups]
        shapes = branch(shapes, groups)
    rest = path[last:]
    return _extend(_unquantified(shapes, rest), _text(rest))


def _top_level_alternation(path: str) -> bool:
    """Whether a `|` outside every group splits the whole regex (`/a|/b` matches `/x/b`)."""
    depth = 0
    escaped = False
    for char in path:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char == "|" and depth == 0:
            return True
    return False


def _unquantified(shapes: list[Shape], following: str) -> list[Shape]:
    """Drop the character a quantifier at the start of `following` makes optional or repeated.

    `_text` handles a quantifier inside its own text; this is the one right
    after an escape or a parameter (`/api\\/?x` matches `/apix`).
    """
    if following[:1] not in _QUANTIFIERS:
        return shapes
    trimmed: list[Shape] = []
    for shape in shapes:
        last = shape[-1] if shape else None
        if isinstance(last, str) and last:
            trimmed.append((*shape[:-1], last[:-1], Opaque()))
            continue
        # A quantified parameter group (`/:id(\\d+){0,1}`) may vanish with
        # its `/`: keep only the literal text before the segment it starts.
        lead = ""
        for token in shape:
            if not isinstance(token, str):
                break
            lead += token
        trimmed.append((lead[: lead.rfind("/")] if "/" in lead else "", Opaque()))
    return trimmed


def _extend(shapes: list[Shape], tokens: list[Token]) -> list[Shape]:
    return [(*shape, *tokens) for shape in shapes]


def _text(text: str) -> list[Token]:
    if not text:
        return []
    cut = next((i for i, char in enumerate(text) if char in _REGEX_SYNTAX), None)
    if cut is None:
        return [text]
    if text[cut] in _QUANTIFIERS:
        cut = max(cut - 1, 0)
    return [text[:cut], Opaque()]


def _escape(char: str) -> list[Token]:
    # `\d`, `\w`, `\b`… are regex classes; an escaped punctuation mark is itself.
    return [Opaque()] if char.isalnum() or char == "_" else [char]


def _parameter(
    slash: str, dot: bool, capture: str | None, star: bool, backtrack: str
) -> list[list[Token]]:
    """The alternatives of one parameter group (`/` or `.`, capture, star)."""
    tokens: list[Token] = [slash] if slash else []
    if dot:
        tokens.append(".")
    if capture is not None:
        # 0.1 rewrites only the first escape-or-star of a capture (a `*` becomes `(.*)`).
        rewritten = _ESCAPE_OR_STAR.sub(
            lambda m: "(.*)" if m.group(0) == "*" else m.group(0), capture[1:-1], count=1
        )
        tokens.append(Param(pattern=rewritten))
    elif dot:
        tokens.append(Param(pattern="[^/.]+"))
    elif backtrack and not backtrack.startswith("/"):
        # `((?:(?!/|<backtrack>).)+?)`: the value may not contain the text that
        # came before it in the segment; no template can say that.
        tokens.append(Opaque())
    else:
        tokens.append(Param())
    if not star:
        return [tokens]
    # `((?:[/].+?)?)` after the value: nothing, or `/` and any non-empty text;
    # with a format it is `[/.]`, which no template can say.
    if dot:
        return [[*tokens, Opaque()]]
    return [tokens, [*tokens, "/", Rest(may_be_empty=False)]]
