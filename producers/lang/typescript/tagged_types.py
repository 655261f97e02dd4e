"""Type arguments on tagged templates, which the bundled grammar cannot read.

`styled.div<{ $active: boolean }>`...`` is valid TypeScript, but the
TypeScript grammar in tree-sitter-language-pack 0.13.0 (pinned: later
releases download grammars at run time) has no rule for a type argument
list between a tag and its template, so each such line becomes a parse error
and the rest of the file around it loses its facts. Styled-components code
uses it on almost every component.

When a file does not parse, `blank_tagged_type_arguments` replaces each such
`<…>` with spaces (line breaks kept), so every byte offset, line and column
stays what it was, and the file is parsed again; the caller keeps the second
tree only when it has fewer errors. Type arguments never name call targets,
so no fact is lost by not reading them.
"""

from __future__ import annotations

# A list this long is not a type argument list worth recovering.
MAX_TYPE_ARGUMENTS = 4096
_CLOSERS = {ord(")"): ord("("), ord("]"): ord("["), ord("}"): ord("{")}
_OPENERS = frozenset(b"([{")
_QUOTES = frozenset(b"'\"")
_TAG_END = (
    frozenset(b"_$)]")
    | frozenset(range(ord("a"), ord("z") + 1))
    | frozenset(range(ord("A"), ord("Z") + 1))
    | frozenset(range(ord("0"), ord("9") + 1))
)
_SPACE = frozenset(b" \t\r\n")
_LT, _GT, _EQ, _BACKTICK, _BACKSLASH = (ord(c) for c in "<>=`\\")


def blank_tagged_type_arguments(data: bytes) -> bytes | None:
    """The bytes with every `<…>` that sits between a tag and a template blanked; None if none."""
    patched: bytearray | None = None
    start = data.find(b"<")
    while start >= 0:
        end = _type_arguments_end(data, start) if start and data[start - 1] in _TAG_END else -1
        if end > 0:
            if patched is None:
                patched = bytearray(data)
            for index in range(start, end + 1):
                if patched[index] not in (0x0A, 0x0D):
                    patched[index] = 0x20
            start = data.find(b"<", end + 1)
        else:
            start = data.find(b"<", start + 1)
    return None if patched is None else bytes(patched)


def _type_arguments_end(data: bytes, start: int) -> int:
    """The offset of the `>` closing the list opened at `start` when a template follows; else -1."""
    depth = 0
    stack: list[int] = []
    index = start
    limit = min(len(data), start + MAX_TYPE_ARGUMENTS)
    while index < limit:
        byte = data[index]
        if byte in _QUOTES:
            index = _string_end(data, index, limit)
            if index < 0:
                return -1
        elif byte == _LT:
            depth += 1
        elif byte == _GT and not (index and data[index - 1] == _EQ):
            depth -= 1
            if depth == 0:
                return index if _template_follows(data, index + 1) and not stack else -1
        elif byte in _OPENERS:
            stack.append(byte)
        elif byte in _CLOSERS:
            if not stack or stack.pop() != _CLOSERS[byte]:
                return -1
        elif byte in (ord(";"), _BACKTICK) and not stack:
            return -1
        index += 1
    return -1


def _string_end(data: bytes, start: int, limit: int) -> int:
    quote = data[start]
    index = start + 1
    while index < limit:
        byte = data[index]
        if byte == _BACKSLASH:
            index += 2
            continue
        if byte == quote:
            return index
        if byte in (0x0A, 0x0D):
            return -1
        index += 1
    return -1


def _template_follows(data: bytes, index: int) -> bool:
    while index < len(data) and data[index] in _SPACE:
        index += 1
    return index < len(data) and data[index] == _BACKTICK
