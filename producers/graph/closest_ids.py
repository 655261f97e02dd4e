"""The graph ids closest to a root id that is not a graph node, for the stderr hint.

A mistyped root is most often a typo in the declaration name or in the file
path. Matching an id against every node id is slow on large graphs (difflib
compares each pair) and a long shared path makes unrelated names look alike,
so the file and the name are matched apart: the same file when it has nodes,
else the few files whose paths are closest; in them, the names closest to
the name; those ids ranked by their likeness to the whole id.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable

from tsograph.producers.graph.indexed import IndexedGraph

MAX_SUGGESTIONS = 3
# Suggestions are looked up for this many unknown ids at most, so a long
# --roots-from file full of stale ids costs little and keeps stderr readable.
MAX_LOOKUPS = 5
_CUTOFF = 0.6
# What would break the one-line message: control and line-separator characters.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


class ClosestIds:
    def __init__(self, graph: IndexedGraph) -> None:
        self._by_file: dict[str, list[str]] = defaultdict(list)
        for number, node_id in enumerate(graph.ids):
            if graph.is_node(number):
                self._by_file[_file_of(node_id)].append(node_id)

    def to(self, missing: str) -> list[str]:
        """At most MAX_SUGGESTIONS node ids like `missing`, the closest first."""
        file = _file_of(missing)
        files = (
            [file]
            if file in self._by_file
            else difflib.get_close_matches(file, self._by_file, MAX_SUGGESTIONS, _CUTOFF)
        )
        name = _name_of(missing)
        pool: list[str] = []
        for found in files:
            ids = {_name_of(node_id): node_id for node_id in self._by_file[found]}
            close = difflib.get_close_matches(name, ids, MAX_SUGGESTIONS, _CUTOFF)
            pool.extend(ids[match] for match in close)
        return difflib.get_close_matches(missing, pool, MAX_SUGGESTIONS, 0.0)


def _file_of(node_id: str) -> str:
    return node_id.partition("#")[0]


def _name_of(node_id: str) -> str:
    return node_id.partition("#")[2]


def printable(node_id: str) -> str:
    """An id as stderr shows it: control characters escaped, so the message stays one line."""
    return _UNPRINTABLE.sub(lambda match: f"\\x{ord(match.group()):02x}", node_id)


def hint(graph: IndexedGraph, unknown: Iterable[str]) -> str:
    """`a: did you mean b?; c: no similar graph id` for the first MAX_LOOKUPS ids."""
    closest = ClosestIds(graph)
    parts = []
    for missing in list(unknown)[:MAX_LOOKUPS]:
        found = closest.to(missing)
        if found:
            parts.append(f"{printable(missing)}: did you mean {' or '.join(found)}?")
        else:
            parts.append(f"{printable(missing)}: no similar graph id")
    return "; ".join(parts)
