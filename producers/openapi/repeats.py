"""Repeated mapping keys: fatal where they could change facts, counted elsewhere.

Both readers keep the first occurrence of a repeated key and remember the rest.
Where tsograph reads routes (the root, `paths`, every path item, the operation
keys it uses, server objects and their variables, and each key a followed
`$ref` passes through) a second spelling could change a fact or its location,
so the spec is rejected. Anywhere else the repeat cannot affect a fact: it is
reported once, as an informational count with the first line.
"""

from __future__ import annotations

from collections.abc import Collection

from tsograph.exchange.errors import InputError
from tsograph.exchange.limitations import counted
from tsograph.producers.openapi.positions import SourcePositions
from tsograph.producers.openapi.tree import Key
from tsograph.producers.openapi.tree import SpecMap
from tsograph.producers.openapi.tree import Tree


class RepeatedKeys:
    def __init__(self, tree: Tree, name: str, positions: SourcePositions) -> None:
        self._tree = tree
        self._name = name
        self._positions = positions

    def reject_in(self, mapping: SpecMap, keys: Collection[Key] | None = None) -> None:
        """Fail when `mapping` repeats any key, or any of `keys` when given."""
        if not mapping.repeats:
            return
        if keys is None:
            offsets = list(mapping.repeats.values())
        else:
            offsets = [mapping.repeats[key] for key in keys if key in mapping.repeats]
        if offsets:
            line = self._positions.line_of_char(min(offsets))
            raise InputError(
                f"{self._name}: repeats a mapping key at line {line}, inside the "
                "sections that define routes (root, paths, path items, operationId, "
                "servers or a $ref target); remove the duplicate"
            )

    def limitation(self) -> str | None:
        """The informational line for the repeats no route-bearing section holds."""
        mappings = self._tree.with_repeats
        if not mappings:
            return None
        first = min(offset for mapping in mappings for offset in mapping.repeats.values())
        return counted(
            "duplicate-mapping-keys:",
            sum(mapping.repeat_count for mapping in mappings),
            "duplicate key(s) outside route-bearing sections were ignored "
            f"(first at line {self._positions.line_of_char(first)})",
        )
