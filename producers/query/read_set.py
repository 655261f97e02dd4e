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

Checking is cheap first: each entry keeps a size and modification time
taken before its content was read (sources and folders by the walk itself),
and only an entry whose stamp moved is read and compared by content (a
touched file with the same bytes still holds). So an edit made while the
build ran is never taken for what the build saw.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from tsograph.producers.project.fsread import Dependency
from tsograph.producers.project.fsread import still_holds
from tsograph.producers.project.walk import SourceSet
from tsograph.producers.project.walk import listing_digest as walked_listing

ABSENT = "absent"
# A stamp no file has: the entry was absent (or unreadable) when recorded.
NO_STAMP = (-1, -1)
# A stamp no check ever sees: the entry already differed when the build was recorded.
NO_MATCH = (-2, -2)
RACY_NS = 2_000_000_000
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


def listing_digest(root: Path, folder: str) -> str:
    """What the walk would take from a folder now (walk.listing_digest); ABSENT when
    unlistable."""
    try:
        with os.scandir(root / folder if folder else root) as listing:
            return walked_listing(listing)
    except OSError:
        return ABSENT


def record(
    root: Path,
    sources: SourceSet,
    digests: dict[str, str],
    dependencies: list[Dependency],
    started_ns: int,
    earlier: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The read-set of a build that started reading at `started_ns` (wall clock), as the
    plain data stored with it; `earlier`, the read-set of the build it was rebuilt from:
    a probe stamped as it recorded holds as it did (first_change's own rule)."""
    walked = {
        item.path: (item.size, item.mtime_ns)
        for item in (*sources.sources, *sources.python_sources)
    }
    files = [
        [path, digest, *walked.get(path, _stamp(root / path))]
        for path, digest in sorted(digests.items())
    ]
    # Stamped before each check: an edit made while the build ran moves the stamp, so the
    # check compares contents again; a probe that no longer holds now is never taken as
    # unchanged (NO_MATCH), and a folder's stamp and listing come from the walk itself.
    folders = [list(item) for item in sources.folders]
    probes = []
    held = _holding_probes(earlier)
    for kind, path, outcome in sorted(set(dependencies)):
        stamp = _stamp(root / path if path else root)
        if held.get((kind, path, outcome)) != stamp and not still_holds(
            root, [(kind, path, outcome)]
        ):
            stamp = NO_MATCH
        probes.append([kind, path, outcome, *stamp])
    # A file system stamps with a coarse clock: an entry modified within a tick of the build
    # reading it may keep its stamp through a later edit. Entries modified since shortly
    # before the build are "racy" (as git calls them): always compared by content.
    racy_from = started_ns - RACY_NS
    return {"files": files, "folders": folders, "probes": probes, "racyFrom": racy_from}


def _holding_probes(earlier: dict[str, Any] | None) -> dict[tuple[str, str, str], Stamp]:
    """The earlier read-set's probes that held, by their stamp (not the racy ones)."""
    if earlier is None:
        return {}
    racy_from = earlier["racyFrom"]
    return {
        (kind, path, outcome): (size, mtime)
        for kind, path, outcome, size, mtime in earlier["probes"]
        if (size, mtime) != NO_MATCH and mtime < racy_from
    }


def first_change(root: Path, recorded: dict[str, Any]) -> str | None:
    """The first path whose content differs from the read-set (None: all hold).

    A stamp equal to the recorded one is taken as unchanged; otherwise the
    content is compared, so a file rewritten with the same bytes still holds.
    """
    top = os.fspath(root)

    def place(path: str) -> str:
        return f"{top}/{path}" if path else top

    racy_from = recorded["racyFrom"]

    def same(stamp: Stamp, size: int, mtime: int) -> bool:
        return stamp == (size, mtime) and mtime < racy_from

    for path, digest, size, mtime in recorded["files"]:
        if not same(_stamp(place(path)), size, mtime) and _file_digest(place(path)) != digest:
            return str(path)
    for folder, digest, size, mtime in recorded["folders"]:
        if not same(_stamp(place(folder)), size, mtime) and listing_digest(root, folder) != digest:
            return str(folder) or "."
    for kind, path, outcome, size, mtime in recorded["probes"]:
        if same(_stamp(place(path)), size, mtime):
            continue
        if not still_holds(root, [(kind, path, outcome)]):
            return str(path) or "."
    return None


def is_read_set(value: Any) -> bool:
    """Whether stored data has the read-set's shape (a foreign or old file does not)."""
    if not isinstance(value, dict) or not isinstance(value.get("racyFrom"), int):
        return False
    shapes = {"files": 4, "folders": 4, "probes": 5}
    for name, width in shapes.items():
        rows = value.get(name)
        if not isinstance(rows, list) or any(
            not isinstance(row, list) or len(row) != width for row in rows
        ):
            return False
    return True
