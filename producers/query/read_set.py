"""The read-set of a kept build: every path the build read or looked for, and what it saw.

A kept build is reused, and answers say `laterEditsKnown: false`, only while
each of these still holds:

* every source read: its sha256;
* every folder the walk listed: the names in it that the walk would take
  (sources, Python files, declaration files, subfolders and links it looks
  at), so a new file anywhere the walk went, such as an `index.ts` an import
  probed for and did not find, makes the build stale;
* every configuration read or probe (tsconfigs, package manifests,
  lockfiles, workspace lists, `node_modules` probes), as project/fsread.py
  recorded it, a file looked for and absent included.

Checking is cheap first: each entry keeps the size and modification time
seen when it was recorded, and only an entry whose stamp moved is read and
compared by content (a touched file with the same bytes still holds).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from tsograph.producers.lang.typescript import SUFFIXES as SOURCE_SUFFIXES
from tsograph.producers.project.fsread import Dependency, still_holds
from tsograph.producers.project.walk import PYTHON_SUFFIX, SKIPPED_FOLDERS, URL_FOLDERS, SourceSet

ABSENT = "absent"
# A stamp no file has: the entry was absent (or unreadable) when recorded.
NO_STAMP = (-1, -1)
Stamp = tuple[int, int]


def _stamp(path: str | Path) -> Stamp:
    try:
        info = os.lstat(path)
    except OSError:
        return NO_STAMP
    return info.st_size, info.st_mtime_ns


def _file_digest(path: str) -> str:
    try:
        with open(path, "rb", opener=_no_follow) as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return ABSENT


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW)


def _walked_name(entry: os.DirEntry[str]) -> bool:
    """Whether the walk takes this entry into account (see project/walk.py)."""
    name = entry.name
    if name.endswith((*SOURCE_SUFFIXES, PYTHON_SUFFIX)):
        return True
    try:
        if entry.is_symlink():
            return True
        folder = entry.is_dir(follow_symlinks=False)
    except OSError:
        return True
    hidden = name.startswith(".") and name not in URL_FOLDERS
    return folder and not hidden and name not in SKIPPED_FOLDERS


def listing_digest(root: Path, folder: str) -> str:
    """A digest of the names in a folder the walk would look at; ABSENT when unlistable."""
    try:
        with os.scandir(root / folder if folder else root) as listing:
            names = sorted(entry.name for entry in listing if _walked_name(entry))
    except OSError:
        return ABSENT
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogatepass")).hexdigest()


def record(
    root: Path, sources: SourceSet, digests: dict[str, str], dependencies: list[Dependency]
) -> dict[str, Any]:
    """The read-set of a build, as the plain data stored with it."""
    walked = {
        item.path: (item.size, item.mtime_ns)
        for item in (*sources.sources, *sources.python_sources)
    }
    files = [
        [path, digest, *walked.get(path, _stamp(root / path))]
        for path, digest in sorted(digests.items())
    ]
    folders = []
    for folder in sources.folders:
        # Stamp first: an entry added between the stamp and the listing shows as a change.
        size, mtime = _stamp(root / folder if folder else root)
        folders.append([folder, listing_digest(root, folder), size, mtime])
    probes = [
        [kind, path, outcome, *_stamp(root / path if path else root)]
        for kind, path, outcome in sorted(set(dependencies))
    ]
    return {"files": files, "folders": folders, "probes": probes}


def first_change(root: Path, recorded: dict[str, Any]) -> str | None:
    """The first path whose content differs from the read-set (None: all hold).

    A stamp equal to the recorded one is taken as unchanged; otherwise the
    content is compared, so a file rewritten with the same bytes still holds.
    """
    top = os.fspath(root)

    def place(path: str) -> str:
        return f"{top}/{path}" if path else top

    for path, digest, size, mtime in recorded["files"]:
        if _stamp(place(path)) != (size, mtime) and _file_digest(place(path)) != digest:
            return str(path)
    for folder, digest, size, mtime in recorded["folders"]:
        if _stamp(place(folder)) != (size, mtime) and listing_digest(root, folder) != digest:
            return str(folder) or "."
    for kind, path, outcome, size, mtime in recorded["probes"]:
        if _stamp(place(path)) == (size, mtime):
            continue
        if not still_holds(root, [(kind, path, outcome)]):
            return str(path) or "."
    return None


def is_read_set(value: Any) -> bool:
    """Whether stored data has the read-set's shape (a foreign or old file does not)."""
    if not isinstance(value, dict):
        return False
    shapes = {"files": 4, "folders": 4, "probes": 5}
    for name, width in shapes.items():
        rows = value.get(name)
        if not isinstance(rows, list) or any(
            not isinstance(row, list) or len(row) != width for row in rows
        ):
            return False
    return True
