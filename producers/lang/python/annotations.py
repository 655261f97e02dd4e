"""Declared types from Python annotations (PEP 484/604), as `TypeRef`s.

An annotation is an expression: `Repo`, `models.Repo`, `list[Repo]`,
`Repo | None`, `"Repo"` (a string annotation, read as the expression it
spells). A declared type is the tuple of its union members with `None` left
out; `Optional[T]`, `Union[A, B]` and `Annotated[T, …]` are read as such only
when the name comes from `typing` (or `typing_extensions`): a class of the
project called `Optional` is a type like any other. Anything else (a call, a
literal, `Callable[..., T]` arguments that are lists) is the empty chain.
"""

from __future__ import annotations

import re

from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.syntax_tree import Node

# A string annotation is read only when it is this simple: names, dots, brackets, commas, `|`.
_SIMPLE_STRING = re.compile(r"[\w.\[\], |]*")
_MAX_DEPTH = 16
_EMPTY = TypeRef(())


def type_refs(annotation: Node, typing_names: dict[str, str]) -> tuple[TypeRef, ...]:
    node = annotation.part("value") if annotation.kind == "annotation" else annotation
    if node is None:
        return ()
    return _members(node, typing_names, 0)


def _typing_name(chain: tuple[str, ...], typing_names: dict[str, str]) -> str:
    """The typing name a chain spells (`Optional`, `typing.Optional`), "" when it is none."""
    if len(chain) == 1 and typing_names.get(chain[0], "*") != "*":
        return typing_names[chain[0]]
    if len(chain) == 2 and typing_names.get(chain[0]) == "*":
        return chain[1]
    return ""


def _members(node: Node, typing_names: dict[str, str], depth: int) -> tuple[TypeRef, ...]:
    if depth > _MAX_DEPTH:
        return (_EMPTY,)
    if node.kind == "null":
        return ()
    if node.kind == "binary" and node.value == "|":
        found: list[TypeRef] = []
        for side in (node.part("left"), node.part("right")):
            if side is not None:
                found.extend(_members(side, typing_names, depth + 1))
        return tuple(found)
    if node.kind == "string":
        return _string_members(node.value or "", typing_names, depth)
    if node.kind == "index":
        head = node.part("object")
        chain = None if head is None else _chain(head)
        if chain is None:
            return (_EMPTY,)
        arguments = _arguments(node.part("index"))
        typing = _typing_name(chain, typing_names)
        if typing in ("Optional", "Union"):
            found = []
            for argument in arguments:
                found.extend(_members(argument, typing_names, depth + 1))
            return tuple(found)
        if typing == "Annotated" and arguments:
            return _members(arguments[0], typing_names, depth + 1)
        if typing == "Literal":
            return (TypeRef(chain),)  # its arguments are values, not types
        args = tuple(_single(argument, typing_names, depth + 1) for argument in arguments)
        return (TypeRef(chain, args),)
    chain = _chain(node)
    return (TypeRef(() if chain is None else chain),)


def _single(node: Node, typing_names: dict[str, str], depth: int) -> TypeRef:
    """A type argument: one TypeRef (a union argument is not a named reference)."""
    members = _members(node, typing_names, depth)
    return members[0] if len(members) == 1 else _EMPTY


def _arguments(index: Node | None) -> list[Node]:
    if index is None:
        return []
    if index.kind == "array" and index.value == "tuple":
        return list(index.items)
    return [index]


def _chain(node: Node) -> tuple[str, ...] | None:
    names: list[str] = []
    current: Node | None = node
    while current is not None and current.kind == "member":
        prop = current.part("property")
        if prop is None or prop.value is None:
            return None
        names.append(prop.value)
        current = current.part("object")
    if current is None or current.kind != "identifier" or current.value is None:
        return None
    names.append(current.value)
    return tuple(reversed(names))


def _string_members(text: str, typing_names: dict[str, str], depth: int) -> tuple[TypeRef, ...]:
    """A string annotation, read with a small parser of names, `[...]`, `,` and `|`."""
    text = text.strip()
    if not text or len(text) > 512 or _SIMPLE_STRING.fullmatch(text) is None:
        return (_EMPTY,)
    tokens = re.findall(r"[\w.]+|[\[\],|]", text)
    parsed, position = _parse_union(tokens, 0, typing_names, depth)
    if position != len(tokens):
        return (_EMPTY,)
    return parsed


def _parse_union(
    tokens: list[str], position: int, typing_names: dict[str, str], depth: int
) -> tuple[tuple[TypeRef, ...], int]:
    found: list[TypeRef] = []
    while True:
        members, position = _parse_term(tokens, position, typing_names, depth)
        found.extend(members)
        if position < len(tokens) and tokens[position] == "|":
            position += 1
            continue
        return tuple(found), position


def _parse_term(
    tokens: list[str], position: int, typing_names: dict[str, str], depth: int
) -> tuple[tuple[TypeRef, ...], int]:
    if (
        depth > _MAX_DEPTH
        or position >= len(tokens)
        or not re.fullmatch(r"\w+(\.\w+)*", tokens[position])
    ):
        return (_EMPTY,), len(tokens) + 1
    word = tokens[position]
    position += 1
    if word == "None":
        return (), position
    chain = tuple(word.split("."))
    if position >= len(tokens) or tokens[position] != "[":
        return (TypeRef(chain),), position
    position += 1
    arguments: list[tuple[TypeRef, ...]] = []
    while True:
        members, position = _parse_union(tokens, position, typing_names, depth + 1)
        arguments.append(members)
        if position < len(tokens) and tokens[position] == ",":
            position += 1
            continue
        break
    if position >= len(tokens) or tokens[position] != "]":
        return (_EMPTY,), len(tokens) + 1
    position += 1
    typing = _typing_name(chain, typing_names)
    if typing in ("Optional", "Union"):
        return tuple(ref for members in arguments for ref in members), position
    if typing == "Annotated":
        return arguments[0], position
    args = tuple(members[0] if len(members) == 1 else _EMPTY for members in arguments)
    return (TypeRef(chain, args),), position
