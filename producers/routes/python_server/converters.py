"""A path convertor's parameter constraint, from each framework's table of convertors."""

from __future__ import annotations

from collections.abc import Mapping

# (kind, pattern) of a constraint: "int" or "regex" with the convertor's pattern.
Converters = Mapping[str, tuple[str, str | None]]


def constraint(table: Converters, name: str, position: int) -> list[tuple[int, str, str | None]]:
    """The constraint a named convertor puts on the parameter at `position`, if any."""
    found = table.get(name)
    return [] if found is None else [(position, *found)]
