"""A forgiving reader for Prisma schema files (PSL).

It reads what naming needs: datasource providers, generators (provider,
output, previewFeatures), models and views with their fields and attributes,
enums and composite types. It never fails: a line it does not understand is
counted (`unparsed`) and skipped, so one odd line costs one line, not a schema.
Attribute arguments that span lines (`@@index([a,\n b])`) are joined first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field

_BLOCK = re.compile(
    r"^(datasource|generator|model|view|enum|type)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{\s*$"
)
_KEY_VALUE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)$")
_FIELD = re.compile(
    r"^([A-Za-z_][A-Za-z0-9_]*)\s+"
    r"(Unsupported\(\s*\"(?:[^\"\\]|\\.)*\"\s*\)|[A-Za-z_][A-Za-z0-9_.]*)"
    r"(\[\]|\?)?\s*(\?)?(.*)$"
)
_ATTRIBUTE = re.compile(r"@@?[A-Za-z_][A-Za-z0-9_.]*")
_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")


@dataclass(frozen=True)
class Attribute:
    name: str  # without @ / @@, e.g. "map", "db.VarChar"
    args: str  # the text inside the parentheses ("" without)

    def first_string(self) -> str | None:
        """The first positional or `name:` / `map:` string argument."""
        match = _STRING.search(self.args)
        return None if match is None else _unescape(match.group(1))

    def named(self, key: str) -> str | None:
        """The text of a `key: value` argument, up to the next top-level comma."""
        match = re.search(rf"(?:^|[,(\s]){key}\s*:", self.args)
        if match is None:
            return None
        return _until_comma(self.args[match.end() :]).strip()


@dataclass
class Field:
    name: str
    type: str  # the base type; `Unsupported("…")` as written
    is_list: bool
    optional: bool
    attributes: list[Attribute]
    line: int
    column: int  # 1-based UTF-8 byte column of the field name

    def attribute(self, name: str) -> Attribute | None:
        return next((a for a in self.attributes if a.name == name), None)


@dataclass
class Block:
    kind: str  # model, view, enum, type, datasource, generator
    name: str
    line: int
    column: int
    fields: list[Field] = field(default_factory=list)
    attributes: list[Attribute] = field(default_factory=list)  # @@…
    settings: dict[str, str] = field(default_factory=dict)  # key = value (datasource, generator)

    def attribute(self, name: str) -> Attribute | None:
        return next((a for a in self.attributes if a.name == name), None)


@dataclass
class SchemaFile:
    path: str
    blocks: list[Block]
    # The 1-based numbers of the lines not understood (of a joined line, its first).
    unparsed: list[int]


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def string_value(text: str) -> str | None:
    """The value of a string literal (`"x"`), None for anything else (env("X"), calls)."""
    match = _STRING.fullmatch(text.strip())
    return None if match is None else _unescape(match.group(1))


def string_list(text: str) -> list[str] | None:
    """The strings of `["a", "b"]`, None when it is not a list of literals."""
    stripped = text.strip()
    if not (stripped.startswith("[") and stripped.endswith("]")):
        return None
    inner = stripped[1:-1].strip()
    if not inner:
        return []
    items = [item.strip() for item in inner.split(",") if item.strip()]
    values = [string_value(item) for item in items]
    return None if any(value is None for value in values) else [v for v in values if v is not None]


def _until_comma(text: str) -> str:
    depth = 0
    in_string = False
    for index, char in enumerate(text):
        if in_string:
            if char == "\\":
                continue
            if char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return text[:index]
            depth -= 1
        elif char == "," and depth == 0:
            return text[:index]
    return text


def _outside_strings(text: str) -> Iterator[tuple[int, str]]:
    """(index, character) of each character outside string literals, quotes left out; in a
    string a backslash escapes the next character."""
    in_string = False
    index = 0
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        else:
            yield index, char
        index += 1


def _strip_comment(line: str) -> str:
    for index, _ in _outside_strings(line):
        if line.startswith("//", index):
            return line[:index]
    return line


def _depth(text: str) -> int:
    depth = 0
    for _, char in _outside_strings(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
    return depth


def attributes(text: str) -> list[Attribute] | None:
    """`@a @b(x) @@c("y")` → attributes; None when the text is something else."""
    found: list[Attribute] = []
    rest = text.strip()
    while rest:
        match = _ATTRIBUTE.match(rest)
        if match is None:
            return None
        name = match.group(0).lstrip("@")
        rest = rest[match.end() :]
        args = ""
        if rest.startswith("("):
            depth = 0
            end = -1
            for index, char in _outside_strings(rest):
                if char == "(":
                    depth += 1
                elif char == ")":
                    depth -= 1
                    if depth == 0:
                        end = index
                        break
            if end < 0:
                return None
            args = rest[1:end]
            rest = rest[end + 1 :]
        found.append(Attribute(name, args))
        rest = rest.strip()
    return found


def _byte_column(line: str, index: int) -> int:
    return len(line[:index].encode("utf-8")) + 1


def read_schema(path: str, text: str) -> SchemaFile:
    lines = text.split("\n")
    blocks: list[Block] = []
    unparsed: list[int] = []
    current: Block | None = None
    index = 0
    while index < len(lines):
        raw = lines[index].rstrip("\r")
        if index == 0:
            raw = raw.lstrip("\ufeff")
        number = index + 1
        index += 1
        code = _strip_comment(raw).strip()
        # Join continuation lines while brackets are open (multi-line attribute arguments).
        while code and _depth(code) > 0 and index < len(lines):
            code += " " + _strip_comment(lines[index].rstrip("\r")).strip()
            index += 1
        if not code:
            continue
        if current is None:
            opened = _BLOCK.match(code)
            if opened:
                start = raw.find(opened.group(2), raw.find(opened.group(1)) + len(opened.group(1)))
                current = Block(opened.group(1), opened.group(2), number, _byte_column(raw, start))
                blocks.append(current)
            else:
                unparsed.append(number)
            continue
        if code == "}":
            current = None
            continue
        if not _line(current, raw, code, number):
            unparsed.append(number)
    return SchemaFile(path, blocks, unparsed)


def _line(block: Block, raw: str, code: str, number: int) -> bool:
    """Read one line inside a block; False when it is not understood."""
    if block.kind in ("datasource", "generator"):
        match = _KEY_VALUE.match(code)
        if match is None:
            return False
        block.settings[match.group(1)] = match.group(2).strip()
        return True
    if block.kind == "enum":
        return re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\s+@.*)?$|^@@", code) is not None
    if code.startswith("@@"):
        found = attributes(code)
        if found is None:
            return False
        block.attributes.extend(found)
        return True
    match = _FIELD.match(code)
    if match is None:
        return False
    name, type_text, modifier, late_optional, rest = match.groups()
    found = attributes(rest)
    if found is None:
        return False
    block.fields.append(
        Field(
            name,
            type_text,
            modifier == "[]",
            modifier == "?" or late_optional is not None,
            found,
            number,
            _byte_column(raw, raw.find(name)),
        )
    )
    return True
