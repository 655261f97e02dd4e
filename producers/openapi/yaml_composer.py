"""libyaml events to a `Tree`, with the safety rules YAML needs.

ruamel.yaml's own composer is not used: on a 2.5 MB spec it took about five
times as long as this one, and its C variant recurses once per nesting level,
which crashes the interpreter (a segmentation fault, not an exception) on
50,000 nested sequences. Instead the C parser's event stream is composed here
with an explicit stack, so nesting costs a list entry and every rule is
checked once per event:

* one document per file;
* repeated keys are kept out of the mapping (first wins) and remembered;
* a mapping key must be a scalar: alias and collection keys are rejected;
* merge keys (`<<`) are rejected, since other tools would expand them;
* an alias is looked up in the index of completed anchors, at most
  MAX_ALIAS_LOOKUPS times per file; an anchor is complete at the end of its
  node, so an alias inside its own anchor is an error and the tree is acyclic;
* tags are never resolved to objects: a tagged scalar is `Opaque` unless the
  tag is the plain string one.
"""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.events import DocumentEndEvent
from ruamel.yaml.events import DocumentStartEvent
from ruamel.yaml.events import MappingEndEvent
from ruamel.yaml.events import MappingStartEvent
from ruamel.yaml.events import ScalarEvent
from ruamel.yaml.events import SequenceEndEvent
from ruamel.yaml.events import SequenceStartEvent
from ruamel.yaml.events import StreamEndEvent
from ruamel.yaml.reader import ReaderError

from tsograph.exchange.errors import InputError
from tsograph.producers.openapi.positions import SourcePositions
from tsograph.producers.openapi.tree import MAX_NESTING
from tsograph.producers.openapi.tree import Opaque
from tsograph.producers.openapi.tree import SpecMap
from tsograph.producers.openapi.tree import Tree

MAX_ALIAS_LOOKUPS = 100_000

# libyaml's parser as ruamel.yaml.clib wraps it: the class `typ="safe"` parses with.
_CParser: Any = YAML(typ="safe", pure=False).Parser

_STRING_TAGS = frozenset({"!", "tag:yaml.org,2002:str"})
_MERGE_TAG = "tag:yaml.org,2002:merge"

# Plain scalars that the YAML 1.2 core schema reads as null, bool, int or float.
_NOT_TEXT = re.compile(
    r"~|null|Null|NULL|true|True|TRUE|false|False|FALSE"
    r"|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_NOT_TEXT_STARTS = frozenset("~nNtTfF0123456789+-.")

_NO_KEY: Any = object()


class _Composer:
    def __init__(self, text: str, name: str, positions: SourcePositions) -> None:
        self._parser = _CParser(text)
        self._name = name
        self._positions = positions

    def _fail(self, offset: int, problem: str) -> InputError:
        line, column = self._positions.of_char(offset)
        return InputError(f"{self._name}: {problem.format(at=f'line {line}, column {column}')}")

    def compose(self) -> Tree:
        get = self._parser.get_event
        get()  # stream start
        start = get()
        if type(start) is StreamEndEvent:
            raise InputError(f"{self._name}: is empty; pass a Swagger 2.0 or OpenAPI 3.x spec")
        tree = self._document(get)
        extra = get()
        if type(extra) is DocumentStartEvent:
            raise self._fail(
                extra.start_mark.index,
                "holds a second YAML document (at {at}); keep one document per spec file",
            )
        return tree

    def _document(self, get: Any) -> Tree:
        anchors: dict[str, object] = {}
        lookups = 0
        with_repeats: list[SpecMap] = []
        # The open collections: (container, pending key, key offset, anchor).
        stack: list[tuple[Any, Any, int, str | None]] = []
        container: Any = None
        key: Any = _NO_KEY
        key_offset = 0
        root: object = None
        while True:
            event = get()
            kind = type(event)
            value: Any
            if kind is ScalarEvent:
                value = event.value
                tag = event.tag
                # Most scalars are plain text; the first character rules out the
                # core-schema null, bool, int and float spellings cheaply.
                if tag is None:
                    if not event.style and (
                        not value or (value[0] in _NOT_TEXT_STARTS and _NOT_TEXT.fullmatch(value))
                    ):
                        value = Opaque(value)
                elif tag not in _STRING_TAGS:
                    value = Opaque(value)
                if event.anchor is not None:
                    anchors[event.anchor] = value
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if key is _NO_KEY and type(container) is SpecMap:
                    raise self._fail(
                        event.start_mark.index,
                        "uses a sequence or mapping as a mapping key (at {at}); "
                        "use plain scalar keys",
                    )
                if len(stack) == MAX_NESTING:
                    raise self._fail(
                        event.start_mark.index,
                        f"nests collections more than {MAX_NESTING} levels deep (at {{at}}); "
                        "flatten the spec",
                    )
                stack.append((container, key, key_offset, event.anchor))
                container = SpecMap() if kind is MappingStartEvent else []
                key = _NO_KEY
                continue
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                value = container
                container, key, key_offset, anchor = stack.pop()
                if anchor is not None:
                    anchors[anchor] = value
            elif kind is AliasEvent:
                if key is _NO_KEY and type(container) is SpecMap:
                    raise self._fail(
                        event.start_mark.index,
                        "uses an alias as a mapping key (at {at}); write the key out",
                    )
                lookups += 1
                if lookups > MAX_ALIAS_LOOKUPS:
                    raise self._fail(
                        event.start_mark.index,
                        f"uses more than {MAX_ALIAS_LOOKUPS} YAML aliases (the last at {{at}}); "
                        "write repeated parts out or split the spec",
                    )
                value = anchors.get(event.anchor, _NO_KEY)
                if value is _NO_KEY:
                    raise self._fail(
                        event.start_mark.index,
                        "uses an alias with no complete anchor before it (at {at}); "
                        "define the anchor before the alias, outside the anchored node",
                    )
            elif kind is DocumentEndEvent:
                return Tree(root, with_repeats)
            else:
                continue
            if type(container) is SpecMap:
                if key is _NO_KEY:
                    if (value == "<<" and not event.style and event.tag is None) or (
                        type(value) is Opaque and event.tag == _MERGE_TAG
                    ):
                        raise self._fail(
                            event.start_mark.index,
                            "uses a YAML merge key (<<) at {at}; "
                            "write the merged keys out in the mapping",
                        )
                    key = value
                    key_offset = event.start_mark.index
                else:
                    if key not in container:
                        container[key] = value
                        container.offsets[key] = key_offset
                    elif container.add(key, value, key_offset) and container.repeat_count == 1:
                        with_repeats.append(container)
                    key = _NO_KEY
            elif container is None:
                root = value
            else:
                container.append(value)


def compose_yaml(text: str, name: str, positions: SourcePositions) -> Tree:
    """The single YAML document of `text` (already decoded, byte order mark removed)."""
    try:
        return _Composer(text, name, positions).compose()
    except ReaderError as error:
        line, column = positions.of_byte(error.position)
        raise InputError(
            f"{name}: holds a character YAML does not allow (line {line}, column {column}); "
            "remove it or escape it in a double-quoted string"
        ) from None
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = ""
        if mark is not None:
            line, column = positions.of_char(mark.index)
            where = f" at line {line}, column {column}"
        problem = error.problem or error.context or "syntax error"
        raise InputError(f"{name}: is not valid YAML{where} ({problem}); fix the syntax") from None
    except YAMLError:
        raise InputError(f"{name}: is not valid YAML; fix the syntax") from None
