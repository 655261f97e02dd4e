"""Bounded reads of project configuration files that never follow symbolic links."""

from __future__ import annotations

import os
import stat
from pathlib import Path

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
        return stat.S_ISDIR(os.lstat(root / relative if relative else root).st_mode)
    except OSError:
        return False


def lexists(root: Path, relative: str) -> bool:
    """Anything, including a dangling link, exists at the path."""
    return os.path.lexists(root / relative)
