"""The time budget of one question, checked at every element the work reads.

The clock is a parameter so tests drive the cut with a fake clock instead of
timing anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable

DEFAULT_BUDGET_MS = 1000
MAX_BUDGET_MS = 600_000

Clock = Callable[[], float]  # seconds, monotonic


class BudgetSpent(Exception):
    """The work stopped: the budget ran out before every element was read."""


class Budget:
    def __init__(
        self,
        milliseconds: int,
        clock: Clock = time.monotonic,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self._clock = clock
        self._cancelled = cancelled
        self._seconds = milliseconds / 1000
        self._deadline = clock() + self._seconds
        self.spent = False

    def restart(self) -> None:
        """Start the time over: what came before (reading a base version) was no walk."""
        self._deadline = self._clock() + self._seconds

    def tick(self) -> None:
        """One element read; raises BudgetSpent once the time is over or the ask was cancelled."""
        if self._clock() > self._deadline or (self._cancelled is not None and self._cancelled()):
            self.spent = True
            raise BudgetSpent
