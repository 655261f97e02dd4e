"""What a set of files reaches through a relation between files, transitively."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping


def closure(starts: Iterable[str], following: Mapping[str, Iterable[str]]) -> set[str]:
    """`starts` and everything reached from them along `following`, at any depth."""
    reached = set(starts)
    pending = list(reached)
    while pending:
        for other in following.get(pending.pop(), ()):
            if other not in reached:
                reached.add(other)
                pending.append(other)
    return reached
