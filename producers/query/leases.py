"""Leases on kept builds, and the collector that removes builds no one holds.

A process that holds a build (the MCP server for its session, `query` for
its run) writes `leases/<pid>-<start>.json` naming the build; it rewrites
the file when it moves to a new build and removes it when it lets go. The
start time (from /proc, in clock ticks since boot) tells a live holder from
a dead one whose process id was given to another process: a lease whose
process is gone, or runs with another start time, is stale, ignored and
removed by the collector.

The collector keeps the current build (the newest) always, then the held
builds newest first while the kept total stays within the size bound, and
removes every other build and every `.tmp-` folder older than an hour (a
writer that died). The bound is `--kept-builds-mb` or the environment
variable TSOGRAPH_KEPT_BUILDS_MB (default 1024 MB); a held build past it is
removed too: its holder has it in memory, but no other process reads it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from pathlib import Path

import orjson

from tsograph.exchange.errors import UsageError
from tsograph.producers.project.facts_cache import atomic_write
from tsograph.producers.query.kept_builds import TEMPORARY
from tsograph.producers.query.kept_builds import TRASH
from tsograph.producers.query.kept_builds import BuildStore

LEASES = "leases"
DEFAULT_KEPT_MB = 1024
KEPT_MB_ENV = "TSOGRAPH_KEPT_BUILDS_MB"
ABANDONED_SECONDS = 3600


def kept_bytes(option: int | None) -> int:
    """The size bound of kept builds, from the option, else the environment, else the default."""
    if option is None:
        text = os.environ.get(KEPT_MB_ENV)
        if text is None:
            return DEFAULT_KEPT_MB << 20
        if not text.isdigit():
            raise UsageError(f"{KEPT_MB_ENV} must be a whole number of megabytes, not {text!r}")
        option = int(text)
    if option < 0:
        raise UsageError("--kept-builds-mb must be 0 or more")
    return option << 20


def process_start(pid: int) -> str | None:
    """When a process started (clock ticks since boot), None when no such process runs."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read()
    except OSError:
        return _alive_elsewhere(pid)
    # The command name (field 2) is in parentheses and may hold spaces; fields follow it.
    fields = text.rpartition(b")")[2].split()
    return fields[19].decode() if len(fields) > 19 else None


def _alive_elsewhere(pid: int) -> str | None:
    """Without /proc: alive or not by signal 0, with no start time to compare."""
    if os.path.isdir("/proc/self"):
        return None  # /proc works, and it holds no such process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return ""
    return ""


class Lease:
    """This process's hold on one build of a store."""

    def __init__(self, store: BuildStore) -> None:
        self.store = store
        pid = os.getpid()
        self.path = store.home / LEASES / f"{pid}-{process_start(pid) or ''}.json"
        self.build: str | None = None

    def hold(self, name: str) -> None:
        pid = os.getpid()
        payload = {"pid": pid, "start": process_start(pid) or "", "build": name}
        if atomic_write(self.path, orjson.dumps(payload)):
            self.build = name

    def release(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()
        self.build = None


def held_builds(store: BuildStore, remove_stale: bool = False) -> set[str]:
    """The builds named by live leases; stale leases are ignored (and removed if asked)."""
    held: set[str] = set()
    try:
        entries = list(os.scandir(store.home / LEASES))
    except OSError:
        return held
    for entry in entries:
        if not entry.name.endswith(".json"):
            continue
        try:
            lease = orjson.loads(Path(entry.path).read_bytes())
            pid, start, build = int(lease["pid"]), str(lease["start"]), str(lease["build"])
        except (OSError, orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            lease = None
        if lease is not None and process_start(pid) == start:
            held.add(build)
        elif remove_stale:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
    return held


def collect(store: BuildStore, max_bytes: int) -> list[str]:
    """Remove what no one needs (see the module text); the names removed, oldest first."""
    names = store.names()
    current = store.current_name()
    newest = current if current in names else (names[-1] if names else None)
    held = held_builds(store, remove_stale=True)
    kept: set[str] = set()
    total = 0
    if newest is not None:
        kept.add(newest)
        total = store.size(newest)
    for name in sorted(held & set(names), reverse=True):
        if name in kept:
            continue
        size = store.size(name)
        if total + size <= max_bytes:
            kept.add(name)
            total += size
    removed = [name for name in names if name not in kept]
    for name in removed:
        store.discard(name)
    _remove_abandoned(store.home)
    return removed


def _remove_abandoned(home: Path) -> None:
    now = time.time()
    try:
        entries = list(os.scandir(home))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith((TEMPORARY, TRASH)):
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if age > ABANDONED_SECONDS:
            shutil.rmtree(entry.path, ignore_errors=True)
