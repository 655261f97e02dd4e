"""Bytes of a spec to a parsed spec, applying every input check on the way.

JSON is read by its own strict reader when the text starts like JSON and is
JSON; anything else (including JSON that is not strict, such as a trailing
comma) is read as YAML, of which JSON is nearly a subset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tsograph.exchange.errors import InputError
from tsograph.producers.openapi.input_checks import MAX_FLOW_DEPTH
from tsograph.producers.openapi.input_checks import check_size
from tsograph.producers.openapi.input_checks import decode
from tsograph.producers.openapi.input_checks import prescan
from tsograph.producers.openapi.json_composer import JsonSyntaxError
from tsograph.producers.openapi.json_composer import check_json
from tsograph.producers.openapi.json_composer import compose_json
from tsograph.producers.openapi.positions import SourcePositions
from tsograph.producers.openapi.tree import SpecMap
from tsograph.producers.openapi.tree import Tree
from tsograph.producers.openapi.yaml_composer import compose_yaml

_LOOKS_LIKE_JSON = re.compile(r"[ \t\r\n]*[{\[]")


@dataclass(frozen=True)
class ParsedSpec:
    root: SpecMap
    tree: Tree
    positions: SourcePositions


def parse_spec(data: bytes, name: str) -> ParsedSpec:
    """Parse the spec named `name` in messages; every failure is an InputError."""
    check_size(data, name)
    text = decode(data, name)
    prescan(data, name)
    positions = SourcePositions(data, text)
    try:
        tree = _compose(text, name, positions)
    except RecursionError:
        raise InputError(f"{name}: nests too deeply to be read; flatten the spec") from None
    except MemoryError:
        raise InputError(f"{name}: is too large to be read in memory; split the spec") from None
    if not isinstance(tree.root, SpecMap):
        raise InputError(
            f"{name}: the top level is not a mapping; a spec is a JSON object or a YAML mapping"
        )
    return ParsedSpec(tree.root, tree, positions)


def _compose(text: str, name: str, positions: SourcePositions) -> Tree:
    if not _LOOKS_LIKE_JSON.match(text):
        return compose_yaml(text, name, positions)
    try:
        check_json(text, MAX_FLOW_DEPTH)
    except JsonSyntaxError as json_error:
        try:
            return compose_yaml(text, name, positions)
        except InputError:
            if not name.endswith(".json"):
                raise
            line, column = positions.of_char(json_error.offset)
            raise InputError(
                f"{name}: is not valid JSON at line {line}, column {column} "
                f"({json_error.reason}); fix the syntax"
            ) from None
    return compose_json(text)
