"""Strict JSON to a `Tree`, with the offsets of every key.

libyaml cannot stand in for a JSON reader: it refuses valid JSON with keys
longer than 1,024 characters, a key and its colon on different lines, or a
surrogate pair escape such as `\\ud83d\\ude00`. So JSON has its own reader:
the standard library's C decoder decides whether the text is JSON at all, then
a single pass over its tokens builds the tree with the offset of every key and
remembers repeated keys, which the decoder would resolve silently in favour of
the last occurrence.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from tsograph.producers.openapi.tree import Opaque
from tsograph.producers.openapi.tree import SpecMap
from tsograph.producers.openapi.tree import Tree

# One token per match. The decoder has already accepted the text, so commas can
# be skipped like whitespace and a key's colon read with the key: group 1 is a
# string's body, group 2 is set when that string is a key, group 3 is a
# bracket, group 4 a number or literal.
_TOKEN = re.compile(
    r'[ \t\r\n,]*(?:"([^"\\]*(?:\\.[^"\\]*)*)"([ \t\r\n]*:)?|([{}\[\]])|([^ \t\r\n{}\[\],:"]+))',
    re.DOTALL,
)

_NO_KEY: Any = object()


class JsonSyntaxError(Exception):
    """The text is not strict JSON; `offset` is a character offset."""

    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


def check_json(text: str, max_depth: int) -> None:
    """Raise JsonSyntaxError unless `text` is one strict JSON value."""
    # The C decoder recurses once per nesting level; the pre-scan has already
    # bounded the depth, so give it room for that many levels.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + max_depth + 100)
    try:
        json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise JsonSyntaxError(error.msg, error.pos) from None
    except ValueError as error:
        raise JsonSyntaxError(str(error), 0) from None
    finally:
        sys.setrecursionlimit(limit)


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON value")


def compose_json(text: str) -> Tree:
    """The tree of a text that `check_json` accepted."""
    with_repeats: list[SpecMap] = []
    stack: list[tuple[Any, Any, int]] = []
    container: Any = None
    key: Any = _NO_KEY
    key_offset = 0
    root: object = None
    for match in _TOKEN.finditer(text):
        body, colon, bracket, literal = match.groups()
        value: Any
        if body is not None:
            if "\\" in body:
                body = json.loads(text[match.start(1) - 1 : match.end(1) + 1])
            if colon is not None:
                key = body
                key_offset = match.start(1) - 1
                continue
            value = body
        elif bracket is not None:
            if bracket == "{" or bracket == "[":
                stack.append((container, key, key_offset))
                container = SpecMap() if bracket == "{" else []
                continue
            value = container
            container, key, key_offset = stack.pop()
        else:
            value = Opaque(literal)
        if type(container) is SpecMap:
            if key in container:
                if container.add(key, value, key_offset) and container.repeat_count == 1:
                    with_repeats.append(container)
            else:
                container[key] = value
                container.offsets[key] = key_offset
        elif container is None:
            root = value
        else:
            container.append(value)
    return Tree(root, with_repeats)
