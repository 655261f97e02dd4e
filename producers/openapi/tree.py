"""The composed spec, the same shape whichever reader built it.

A mapping is a `SpecMap`: a dict in which the first occurrence of a repeated key
wins, carrying the source offsets of its keys and the repeats it dropped. A
sequence is a list. A scalar is a `str` when the spec wrote text and an
`Opaque` otherwise (numbers, booleans, nulls, and scalars under a tag tsograph
does not interpret), so a check for text is one `isinstance` in both formats.

Offsets are character offsets into the decoded spec with any byte order mark
removed; `positions` turns them into lines and byte columns. A YAML alias
shares one mapping between several places, which is why offsets live on the
mapping instead of being looked up by where it was reached from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# How deep collections may nest, block and flow together. Deeper input is
# refused as a resource error: no spec needs it, and refusing as soon as it is
# seen keeps a hostile input from growing the parser's stacks.
MAX_NESTING = 1_000


@dataclass(frozen=True, slots=True)
class Opaque:
    """A scalar that is not text: kept only as the characters the spec wrote."""

    text: str


Key = str | Opaque

# YAML 1.2 core-schema spellings of null, which JSON shares for `null`.
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})


def is_null(value: object) -> bool:
    return isinstance(value, Opaque) and value.text in _NULLS


def scalar_text(value: object) -> str | None:
    """The written text of a scalar that is not null, else None."""
    if isinstance(value, str):
        return value
    if isinstance(value, Opaque) and value.text not in _NULLS:
        return value.text
    return None


class SpecMap(dict[Key, Any]):
    """A mapping of the spec with the offsets of its keys and the repeats it dropped."""

    __slots__ = ("offsets", "repeat_count", "repeats")

    def __init__(self) -> None:
        super().__init__()
        self.offsets: dict[Key, int] = {}
        # Offset of the first repeat of each repeated key, and how many repeats there were.
        self.repeats: dict[Key, int] = {}
        self.repeat_count = 0

    def add(self, key: Key, value: object, offset: int) -> bool:
        """Insert a key the first time it is seen; a repeat is remembered and returns True."""
        if key in self:
            self.repeats.setdefault(key, offset)
            self.repeat_count += 1
            return True
        self[key] = value
        self.offsets[key] = offset
        return False


@dataclass(slots=True)
class Tree:
    """A whole spec: the root value and every mapping that dropped a repeated key."""

    root: object
    with_repeats: list[SpecMap]
