"""The one depth budget of the value evaluators: how far one question may follow values.

A chain of bindings, exports, calls and members longer than MAX_DEPTH is cut: the
evaluator answers its "unknown" (and says so where it counts cuts) instead of
risking Python's recursion limit on generated or cyclic code. One number for every
evaluator, so the same chain is followed as far by the routes and the schema producers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

MAX_DEPTH = 48
T = TypeVar("T")


class DepthBudget:
    """The levels in use on the current chain; `enter` refuses once MAX_DEPTH are."""

    __slots__ = ("depth",)

    def __init__(self, depth: int = 0) -> None:
        self.depth = depth

    def enter(self) -> bool:
        """One level deeper; False (and nothing entered) when the budget is spent."""
        if self.depth >= MAX_DEPTH:
            return False
        self.depth += 1
        return True

    def leave(self) -> None:
        self.depth -= 1

    def within(self, compute: Callable[[], T], cut: T) -> T:
        """`compute()` one level deeper; `cut` (and nothing computed) when the budget is
        spent."""
        if not self.enter():
            return cut
        try:
            return compute()
        finally:
            self.leave()

    @property
    def spent(self) -> bool:
        return self.depth >= MAX_DEPTH

    def below(self) -> DepthBudget:
        """A budget for a nested evaluation that starts one level below this chain."""
        return DepthBudget(self.depth + 1)


@contextmanager
def recursion_room(frames_per_level: int) -> Iterator[None]:
    """Python's recursion limit raised for MAX_DEPTH levels of an evaluator that spends
    `frames_per_level` frames a level (the Node interpreter runs whole function bodies
    a level), restored afterwards."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + MAX_DEPTH * frames_per_level)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)
