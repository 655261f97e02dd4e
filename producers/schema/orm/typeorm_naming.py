"""TypeORM's DefaultNamingStrategy and the string helpers it uses.

Ported from typeorm 1.1.1 and 0.3.31 (naming-strategy/DefaultNamingStrategy.js,
util/StringUtils.js); the two versions differ only where a custom name is the empty
string (1.x `??`, 0.3 `?:`), which `version03` selects. JavaScript regex semantics:
`\\w` is ASCII, `[\\s-_]` is whitespace, `-` or `_`. Checked against the recorded output
of both packages (oracle/orm-naming/recorded.json).
"""

from __future__ import annotations

import re

_CAMEL = re.compile(r"^([A-Z])|[\s\-_](\w)", re.ASCII)
_SNAKE_1 = re.compile(r"([A-Z])([A-Z])([a-z])")
_SNAKE_2 = re.compile(r"([a-z0-9])([A-Z])")
_TITLE = re.compile(r"\w\S*", re.ASCII)


def camel_case(text: str) -> str:
    return _CAMEL.sub(
        lambda match: match.group(2).upper() if match.group(2) else match.group(1).lower(), text
    )


def snake_case(text: str) -> str:
    return _SNAKE_2.sub(r"\1_\2", _SNAKE_1.sub(r"\1_\2\3", text)).lower()


def title_case(text: str) -> str:
    return _TITLE.sub(lambda match: match.group(0)[0].upper() + match.group(0)[1:].lower(), text)


def _given(name: str | None, version03: bool) -> str | None:
    """A user-specified name as the strategy sees it: 0.3 treats "" as absent."""
    return (name or None) if version03 else name


def table_name(class_name: str, custom: str | None, *, version03: bool = False) -> str:
    given = _given(custom, version03)
    return given if given is not None else snake_case(class_name)


def column_name(prop: str, custom: str | None, prefixes: list[str]) -> str:
    name = custom or prop
    if prefixes:
        return camel_case("_".join(prefixes)) + title_case(name)
    return name


def join_column_name(relation: str, referenced_property: str) -> str:
    return camel_case(relation + "_" + referenced_property)


def join_table_name(first_table: str, second_table: str, first_property: str) -> str:
    return snake_case(first_table + "_" + first_property.replace(".", "_") + "_" + second_table)


def join_table_column_name(
    table: str, prop: str, column: str | None, *, version03: bool = False
) -> str:
    given = _given(column, version03)
    return camel_case(table + "_" + (given if given is not None else prop))
