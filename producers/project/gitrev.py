"""The project's git HEAD commit, read from `.git` without running git.

Working-tree changes are not reflected; a document only names the commit its
sources were checked out from. Anything unexpected (no repository, a detached
or unborn HEAD that names nothing, a symbolic link, an unreadable file) gives
no revision rather than a wrong one.
"""

from __future__ import annotations

import re
from pathlib import Path

from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import read_config

_HASH = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
_MAX_GIT_FILE = 64 * 1024 * 1024  # packed-refs of large repositories
_MAX_REF_HOPS = 8


def _read_text(folder: Path, name: str, limit: int = 4096) -> str | None:
    try:
        data = read_config(folder, name, limit)
    except ConfigReadError:
        return None
    return None if data is None else data.decode("utf-8", "replace")


def _git_dir(root: Path) -> Path | None:
    dot_git = root / ".git"
    if dot_git.is_dir() and not dot_git.is_symlink():
        return dot_git
    pointer = _read_text(root, ".git")
    if pointer is None or not pointer.startswith("gitdir:"):
        return None
    target = Path(pointer[len("gitdir:") :].strip())
    target = target if target.is_absolute() else root / target
    return target if target.is_dir() and not target.is_symlink() else None


def _common_dir(git_dir: Path) -> Path:
    # Linked worktrees keep their refs in the main repository's folder.
    common = _read_text(git_dir, "commondir")
    if common is None:
        return git_dir
    target = Path(common.strip())
    return target if target.is_absolute() else git_dir / target


def _packed_ref(common: Path, ref: str) -> str | None:
    packed = _read_text(common, "packed-refs", _MAX_GIT_FILE)
    if packed is None:
        return None
    for line in packed.splitlines():
        parts = line.split(" ")
        if len(parts) == 2 and parts[1] == ref:
            return parts[0]
    return None


def head_revision(root: Path) -> str | None:
    git_dir = _git_dir(root)
    if git_dir is None:
        return None
    common = _common_dir(git_dir)
    value = _read_text(git_dir, "HEAD")
    for _ in range(_MAX_REF_HOPS):
        if value is None:
            return None
        value = value.strip()
        if _HASH.match(value):
            return value
        if not value.startswith("ref: refs/"):
            return None
        ref = value[len("ref: ") :]
        if ".." in ref.split("/"):
            return None
        value = _read_text(git_dir, ref) or _read_text(common, ref) or _packed_ref(common, ref)
    return None
