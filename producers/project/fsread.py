"""Bounded reads of project configuration files that never follow symbolic links.

Every read and probe can be recorded (see `recording`): a cached graph stays
valid only while each configuration file it read has the same bytes and each
folder or package it probed is still there or still absent.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# (kind, root-relative path, outcome): what one read or probe saw.
Dependency = tuple[str, str, str]

_recorders: list[list[Dependency]] = []
# Where the root a read is made under lies as seen from the recorded run's root
# (`../..` for a service run reading its workspace root), innermost last.
_offsets: list[str] = []


@contextmanager
def recording() -> Iterator[list[Dependency]]:
    """Collect the dependencies of every read and probe made inside the block."""
    seen: list[Dependency] = []
    _recorders.append(seen)
    try:
        yield seen
    finally:
        _recorders.pop()


@contextmanager
def seen_from(offset: str) -> Iterator[None]:
    """Record the reads made inside the block under `offset` + their path, so a run
    that reads its enclosing workspace root checks those files again from its own root."""
    _offsets.append(offset)
    try:
        yield
    finally:
        _offsets.pop()


def _note(kind: str, relative: str, outcome: str) -> None:
    if _offsets:
        relative = posixpath.normpath(posixpath.join(_offsets[-1], relative or "."))
    for recorder in _recorders:
        recorder.append((kind, relative, outcome))


# Config files (tsconfig, package.json, workspace lists) larger than this are not read.
MAX_CONFIG_BYTES = 1024 * 1024


class ConfigReadError(Exception):
    """A configuration file exists but cannot be read as a bounded regular file."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _has_symlink_component(root: Path, relative: str) -> bool:
    current = root
    for part in relative.split("/")[:-1]:
        current = current / part
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return True
        except OSError:
            return False
    return False


def read_config(root: Path, relative: str, limit: int = MAX_CONFIG_BYTES) -> bytes | None:
    """The bytes of a regular file under root; None when absent.

    Raises ConfigReadError when the path (or a folder on the way) is a symbolic
    link, is not a regular file, is too large or cannot be read.
    """
    try:
        data = _read_config(root, relative, limit)
    except ConfigReadError as error:
        _note("file", relative, f"error:{error.reason}:{limit}")
        raise
    outcome = "absent" if data is None else hashlib.sha256(data).hexdigest()
    _note("file", relative, f"{outcome}:{limit}")
    return data


def _read_config(root: Path, relative: str, limit: int) -> bytes | None:
    path = root / relative if relative else root
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ConfigReadError(error.strerror or "unreadable") from None
    if stat.S_ISLNK(info.st_mode) or _has_symlink_component(root, relative):
        raise ConfigReadError("symbolic link")
    if not stat.S_ISREG(info.st_mode):
        raise ConfigReadError("not a regular file")
    if info.st_size > limit:
        raise ConfigReadError("too large")
    try:
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except OSError as error:
        raise ConfigReadError(error.strerror or "unreadable") from None


def is_dir(root: Path, relative: str) -> bool:
    """A real directory (not a link to one) under root."""
    try:
        found = stat.S_ISDIR(os.lstat(root / relative if relative else root).st_mode)
    except OSError:
        found = False
    _note("dir", relative, str(int(found)))
    return found


def lexists(root: Path, relative: str) -> bool:
    """Anything, including a dangling link, exists at the path."""
    found = os.path.lexists(root / relative)
    _note("exists", relative, str(int(found)))
    return found


def subfolders(root: Path, relative: str) -> list[str]:
    """Names of the real folders (not links) directly inside a folder, sorted."""
    try:
        entries = list(os.scandir(root / relative if relative else root))
    except OSError:
        entries = []
    names = []
    for entry in entries:
        try:
            if stat.S_ISDIR(entry.stat(follow_symlinks=False).st_mode):
                names.append(entry.name)
        except OSError:
            continue
    names.sort()
    _note("folders", relative, _digest_names(names))
    return names


def _digest_names(names: list[str]) -> str:
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogatepass")).hexdigest()


def still_holds(root: Path, dependencies: Iterable[Dependency]) -> bool:
    """Whether every recorded read and probe would see the same thing now."""
    for kind, relative, outcome in dependencies:
        if kind == "dir":
            now = str(int(is_dir(root, relative)))
        elif kind == "folders":
            now = _digest_names(subfolders(root, relative))
        elif kind == "exists":
            now = str(int(lexists(root, relative)))
        else:
            limit = int(outcome.rsplit(":", 1)[1])
            try:
                data = _read_config(root, relative, limit)
                now = ("absent" if data is None else hashlib.sha256(data).hexdigest()) + f":{limit}"
            except ConfigReadError as error:
                now = f"error:{error.reason}:{limit}"
        if now != outcome:
            return False
    return True
