"""A progress line on stderr for people who watch a long run in a terminal.

It appears only when stderr is a terminal and only once the run has lasted
DELAY seconds, so pipes, CI logs and short runs stay silent. It names the
phase and, where the phase counts files, how many of how many are done
(`tsograph: parsing sources 812/1934`). The line is redrawn in place at most
every INTERVAL seconds and erased before any other stderr output and at the
end of the run, so messages and the shell prompt start on a clean line.

The command line starts one reporter per run (cli.run); the producers call
phase() and advance(), which do nothing when no reporter runs (library use,
tests).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol
from typing import TextIO

DELAY = 1.0
INTERVAL = 0.1
_ERASE = "\r\x1b[K"


class Progress:
    def __init__(
        self,
        stream: TextIO,
        clock: Callable[[], float] = time.monotonic,
        delay: float | None = None,
    ) -> None:
        self.stream = stream
        self.clock = clock
        self.delay = DELAY if delay is None else delay
        self.enabled = _is_terminal(stream)
        self.started = clock()
        self.name = ""
        self.total: int | None = None
        self.done = 0
        self.drawn_at: float | None = None

    def phase(self, name: str, total: int | None = None) -> None:
        self.name, self.total, self.done = name, total, 0
        self._draw(force=True)

    def advance(self, count: int = 1) -> None:
        self.done += count
        self._draw(force=self.total is not None and self.done >= self.total)

    def clear(self) -> None:
        """Erase the line, if one is shown, so other output starts on a clean line."""
        if self.drawn_at is not None:
            self.stream.write(_ERASE)
            self.stream.flush()
            self.drawn_at = None

    def _draw(self, force: bool) -> None:
        if not self.enabled or not self.name:
            return
        now = self.clock()
        if now - self.started < self.delay:
            return
        if not force and self.drawn_at is not None and now - self.drawn_at < INTERVAL:
            return
        counted = f" {self.done}/{self.total}" if self.total is not None else ""
        self.stream.write(f"{_ERASE}tsograph: {self.name}{counted}")
        self.stream.flush()
        self.drawn_at = now


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Reporter(Protocol):
    def phase(self, name: str, total: int | None = None) -> None: ...

    def advance(self, count: int = 1) -> None: ...

    def clear(self) -> None: ...


class _Reporting(threading.local):
    """Each thread reports to its own reporter: a query server prepares a build in the
    background (query/keep.py) while its questions report to the client."""

    current: Reporter | None = None


_reporting = _Reporting()


@contextmanager
def reporting(reporter: Reporter) -> Iterator[None]:
    """Report the phases of the work inside the block to `reporter` (the MCP server sends
    them to a client that asked for progress), then to whoever reported before."""
    saved, _reporting.current = _reporting.current, reporter
    try:
        yield
    finally:
        _reporting.current = saved


def start(stream: TextIO) -> None:
    _reporting.current = Progress(stream)


def finish() -> None:
    """Erase the line and stop reporting: the run is over."""
    if _reporting.current is not None:
        _reporting.current.clear()
    _reporting.current = None


def phase(name: str, total: int | None = None) -> None:
    current = _reporting.current
    if current is not None:
        current.phase(name, total)


def advance(count: int = 1) -> None:
    current = _reporting.current
    if current is not None:
        current.advance(count)


def clear() -> None:
    current = _reporting.current
    if current is not None:
        current.clear()
