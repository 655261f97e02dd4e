"""The one module that names symbols, shared by graph, routes and schema.

Documents from different producers join on these strings by exact match, so
every producer builds ids here and nowhere else.

    <project-relative POSIX path>#<declaration path>

* The declaration path is the names of the enclosing declarations, outermost
  first, joined with `.` (`src/repo.ts#Repo.save`). Code outside every named
  declaration belongs to `<path>#<module>`; an anonymous default export is
  `<path>#default`; an export that is not itself a declaration is an export
  node `<path>#<export name>`.
* An inline callback (an arrow or function expression passed directly as a
  call or `new` argument) adds a segment after the id of the scope it sits in:
  `<callee>(<keys>)`, or `new <callee>(<keys>)`, numbered `~2`, `~3`, … when
  the same scope already holds the same segment (see CallbackNamer).
* Declaration-side persistence facts use `#model:` and `#typedsql:` ids, which
  are never graph nodes.

Ids never contain control characters: C0 controls, DEL, C1 controls and
U+2028/U+2029 are written as lowercase `\\uxxxx` escapes, because the consumer forbids them in
symbol names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

MODULE = "<module>"
DEFAULT = "default"
ELLIPSIS = "…"

# Longest string or template key written into a callback id, in UTF-16 units.
MAX_KEY_UNITS = 64
# At most this many leading static keys name a callback.
MAX_KEYS = 2

_SURROGATE = re.compile("[\ud800-\udfff]")


def _join_surrogates(text: str) -> str:
    """Merge a high surrogate followed by a low one into the character they spell.

    A JavaScript string is UTF-16, so a producer that decodes `\\uD83D\\uDE00`
    one escape at a time holds two code points where the source meant one
    character. Both spellings must give the same id, and a cut must not fall
    between the halves.
    """
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _escape_char(char: str) -> str:
    code = ord(char)
    # Lone surrogates are escaped too, as JavaScript's well-formed JSON.stringify does.
    if code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029) or 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return char


def escape_text(text: str) -> str:
    """Replace control characters, U+2028/U+2029 and lone surrogates with `\\uxxxx` escapes."""
    text = _join_surrogates(text)
    if text.isprintable() and "\u2028" not in text and "\u2029" not in text:
        return text
    return "".join(_escape_char(char) for char in text)


def symbol_id(path: str, names: Sequence[str]) -> str:
    """`<path>#A.B`; with no names, the module scope `<path>#<module>`."""
    declaration = ".".join(names) if names else MODULE
    return f"{escape_text(path)}#{escape_text(declaration)}"


def module_id(path: str) -> str:
    return symbol_id(path, ())


def model_id(path: str, name: str) -> str:
    """Declaration-side persistence id: `<schema path>#model:<Model>` or `…#model:<Model.field>`."""
    return f"{escape_text(path)}#model:{escape_text(name)}"


def typedsql_id(path: str, name: str) -> str:
    """TypedSQL declaration id: `<sql path>#typedsql:<name>`."""
    return f"{escape_text(path)}#typedsql:{escape_text(name)}"


def split_id(identifier: str) -> tuple[str, str]:
    """(path, declaration path) of an id; the path never contains `#` unescaped."""
    path, sep, declaration = identifier.partition("#")
    if not sep:
        raise ValueError("a symbol id has the form <path>#<declaration path>")
    return path, declaration


def cut_utf16(text: str, limit: int = MAX_KEY_UNITS) -> str:
    """Cut text longer than `limit` UTF-16 units, never inside a surrogate pair, and mark it."""
    units = 0
    text = _join_surrogates(text)
    for index, char in enumerate(text):
        width = 2 if ord(char) > 0xFFFF else 1
        if units + width > limit:
            return text[:index] + ELLIPSIS
        units += width
    return text


# ---- inline callback segments --------------------------------------------------


@dataclass(frozen=True)
class Callee:
    """The callee chain as written.

    `head` is an identifier, `this` or `super`, or None when the object of the
    chain is any other expression (a call, `new`, a literal…), written `…`.
    `members` are ("prop", name) for `.name` and ("elem", key) for `["key"]`.
    """

    head: str | None
    members: tuple[tuple[str, str], ...] = ()

    def render(self) -> str:
        out = [ELLIPSIS if self.head is None else self.head]
        for kind, name in self.members:
            out.append(f"[{quote(name)}]" if kind == "elem" else f".{name}")
        return "".join(out)


@dataclass(frozen=True)
class StringKey:
    """A string literal argument, by its value."""

    value: str


@dataclass(frozen=True)
class TemplateKey:
    """A template literal: raw text pieces between substitutions.

    `substitutions[i]` is the name chain of the i-th substitution (`id`,
    `PATHS.users`) or None for any other expression, written `${…}`.
    """

    pieces: tuple[str, ...]
    substitutions: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class NameChainKey:
    """An identifier or property chain argument (`BOOKS`, `PATHS.authors`)."""

    chain: str


@dataclass(frozen=True)
class ArrayKey:
    """An array literal of keys (`["PUT", "PATCH"]`)."""

    items: tuple[Key, ...]


Key = StringKey | TemplateKey | NameChainKey | ArrayKey


def quote(value: str) -> str:
    """JSON-quote a string as JavaScript's JSON.stringify does, then escape C1 and U+2028/9."""
    return escape_text(json.dumps(cut_utf16(value), ensure_ascii=False))


def render_key(key: Key) -> str:
    if isinstance(key, StringKey):
        return quote(key.value)
    if isinstance(key, NameChainKey):
        return escape_text(key.chain)
    if isinstance(key, ArrayKey):
        return "[" + ",".join(render_key(item) for item in key.items) + "]"
    text: list[str] = []
    for index, piece in enumerate(key.pieces):
        text.append(piece)
        if index < len(key.substitutions):
            name = key.substitutions[index]
            text.append("${" + (name if name is not None else ELLIPSIS) + "}")
    return "`" + escape_text(cut_utf16("".join(text))) + "`"


def callback_segment(callee: Callee, keys: Sequence[Key], *, is_new: bool = False) -> str:
    """`<callee>(<keys>)` or `new <callee>(<keys>)`, with at most two keys."""
    rendered = ",".join(render_key(key) for key in keys[:MAX_KEYS])
    prefix = "new " if is_new else ""
    return f"{prefix}{escape_text(callee.render())}({rendered})"


class CallbackNamer:
    """Numbers callbacks that share a scope and segment, in the order they are named.

    Call `name` in source order within one file: the first gets no suffix, the
    second and later `~2`, `~3`, ….
    """

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], int] = {}

    def name(self, scope_id: str, segment: str) -> str:
        count = self._seen.get((scope_id, segment), 0) + 1
        self._seen[(scope_id, segment)] = count
        base = f"{scope_id}.{segment}"
        return base if count == 1 else f"{base}~{count}"
