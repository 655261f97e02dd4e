"""Python strings as far as the code proves them, and the formatting operations on them.

A `Text` keeps the proven pieces of a string and None for each part that is not
known (a parameter, an environment value, a field formatted in a way its value's
text does not show), so a path under an unproven prefix still has its proven tail.
`%`, `str.format` and the string methods whose result the text proves are read
here once for every evaluator: each hands in its arguments reduced to a `Field`
(their text, an int, or None when not proven text).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from tsograph.producers.values.python.arguments import Arguments

T = TypeVar("T")


@dataclass(frozen=True)
class Text:
    """A string: literal pieces, None for a part that could not be proven."""

    pieces: tuple[str | None, ...]

    @property
    def known(self) -> str | None:
        if any(piece is None for piece in self.pieces):
            return None
        return "".join(piece for piece in self.pieces if piece is not None)

    def __add__(self, other: Text) -> Text:
        return Text((*self.pieces, *other.pieces))

    def rstrip_slash(self) -> Text:
        """`str.rstrip("/")` where the end is proven (an unproven end stays as it is)."""
        pieces = list(self.pieces)
        while pieces and pieces[-1] is not None:
            stripped = pieces[-1].rstrip("/")
            if stripped:
                pieces[-1] = stripped
                break
            pieces.pop()
        return Text(tuple(pieces))

    def lstrip_slash(self) -> Text:
        """`str.lstrip("/")` where the start is proven."""
        pieces = list(self.pieces)
        while pieces and pieces[0] is not None:
            stripped = pieces[0].lstrip("/")
            if stripped:
                pieces[0] = stripped
                break
            pieces.pop(0)
        return Text(tuple(pieces))


def text(value: str) -> Text:
    return Text((value,))


UNKNOWN_TEXT = Text((None,))

# What one formatted argument gives: its text, an int, or None (not proven text).
Field = Text | int | None

# While formatting, an unknown part stands as one character no proven piece may hold
# (a private-use code point; a template holding it literally is not read).
_GAP = "\ue000"


def field_text(field: Field) -> Text:
    if isinstance(field, Text):
        return field
    if isinstance(field, int) and not isinstance(field, bool):
        return text(str(field))
    return UNKNOWN_TEXT


def _flat(value: Text) -> str | None:
    if any(piece is not None and _GAP in piece for piece in value.pieces):
        return None
    return "".join(_GAP if piece is None else piece for piece in value.pieces)


def _pieces(flat: list[str]) -> Text:
    pieces: list[str | None] = []
    for index, part in enumerate("".join(flat).split(_GAP)):
        if index:
            pieces.append(None)
        if part:
            pieces.append(part)
    return Text(tuple(pieces))


def _formatted(field: Field) -> str:
    flat = _flat(field_text(field))
    return _GAP if flat is None else flat


def percent_format(template: Text, right: list[Field] | dict[str, Field] | None) -> Text | None:
    """`template % right` for the conversions whose text is known; others are unknown
    parts. `right`: a tuple's items, a mapping's, or None when its shape is not known.
    None when the operation raises or its fields are not known."""
    flat = _flat(template)
    if flat is None or right is None:
        return None
    args: list[Field] = right if isinstance(right, list) else []
    mapping = right if isinstance(right, dict) else None
    out: list[str] = []
    index = 0
    position = 0
    while position < len(flat):
        char = flat[position]
        if char != "%":
            out.append(char)
            position += 1
            continue
        if flat[position + 1 : position + 2] == "%":
            out.append("%")
            position += 2
            continue
        key: str | None = None
        cursor = position + 1
        if flat[cursor : cursor + 1] == "(":
            close = flat.find(")", cursor)
            if close < 0 or mapping is None:
                return None
            key = flat[cursor + 1 : close]
            cursor = close + 1
        spec_start = cursor
        while cursor < len(flat) and flat[cursor] in "#0- +123456789.*lhL":
            cursor += 1
        if cursor >= len(flat):
            return None
        conversion = flat[cursor]
        spec = flat[spec_start:cursor]
        value: Field
        if key is not None:
            assert mapping is not None
            value = mapping.get(key)
        else:
            if index >= len(args):
                return None  # raises: not enough arguments
            value = args[index]
            index += 1
        known = not spec and (
            (conversion == "s" and isinstance(value, (Text, int)))
            or (conversion in "di" and isinstance(value, int))
        )
        out.append(_formatted(value) if known else _GAP)
        position = cursor + 1
    if mapping is None and index != len(args):
        return None  # raises: not all arguments converted
    return _pieces(out)


def str_format(template: Text, args: list[Field], named: dict[str, Field]) -> Text | None:
    """`template.format(*args, **named)` for plain fields; a conversion or spec is an
    unknown part. None when the template does not parse or mixes field numbering."""
    flat = _flat(template)
    if flat is None:
        return None
    out: list[str] = []
    auto = 0
    numbered = False
    try:
        parsed = list(string.Formatter().parse(flat))
    except ValueError:
        return None
    for literal_text, field_name, spec, conversion in parsed:
        out.append(literal_text)
        if field_name is None:
            continue
        head = field_name.split(".", 1)[0].split("[", 1)[0]
        value: Field
        if head == "":
            value = args[auto] if auto < len(args) else None
            auto += 1
        elif head.isdigit():
            numbered = True
            value = args[int(head)] if int(head) < len(args) else None
        else:
            value = named.get(head)
        plain = head == field_name and not spec and conversion in (None, "s")
        out.append(_formatted(value) if plain and isinstance(value, (Text, int)) else _GAP)
    if auto and numbered:
        return None  # mixing `{}` and `{0}` raises ValueError
    return _pieces(out)


STRIP_METHODS = frozenset({"rstrip", "lstrip", "strip", "removeprefix", "removesuffix"})


def string_method(
    value: Text,
    method: str,
    args: Arguments[T],
    field: Callable[[T], Field],
    items: Callable[[T], list[Text] | None],
) -> Text | None:
    """`value.method(...)` where the text proves the result: `format`, the strips and
    `removeprefix`/`removesuffix` with a literal argument, `join` of a list display.
    `field` reduces an argument to a Field; `items` gives a list argument's items as
    texts (an item not proven counts as text: `join` raises on anything else), None
    when it is no list display or holds a value that is proven not to be text."""
    if args.open:
        return None
    if method == "format":
        return str_format(
            value,
            [field(arg) for arg in args.positional],
            {key: field(arg) for key, arg in args.keywords.items()},
        )
    if args.keywords or len(args.positional) != 1:
        return None
    flat = _flat(value)
    if flat is None:
        return None
    if method in STRIP_METHODS:
        chars = field(args.positional[0])
        known = chars.known if isinstance(chars, Text) else None
        if known is None:
            return None
        if method.endswith("strip") and flat and (flat[0] == _GAP or flat[-1] == _GAP):
            return None  # an unknown part at the edge may end in what is stripped
        result: str = getattr(flat, method)(known)
        return _pieces([result])
    if method == "join":
        found = items(args.positional[0])
        parts = None if found is None else [_flat(item) for item in found]
        if parts is None or any(part is None for part in parts):
            return None
        return _pieces([flat.join(part for part in parts if part is not None)])
    return None
