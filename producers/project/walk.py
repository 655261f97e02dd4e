"""The source walk: which files of a project are its TypeScript/JavaScript (and Python) sources.

Sources are files ending in `.ts .tsx .mts .cts .js .jsx .mjs .cjs`;
declaration files (`.d.ts`, `.d.mts`, `.d.cts`, `.d.<ext>.ts`) are not
sources but are listed apart for the producers that read declared bindings.
The walk never enters `node_modules`, `dist`, `build`, `out`, `coverage`,
folders whose name starts with a dot, or folders the caller excludes
(generated clients, named by project-relative POSIX path).

Nothing is followed or trusted. A symbolic link that could be or lead to a
source is counted and left alone (links named like skipped folders or like
non-source files hide nothing and are ignored). Python files (`.py`) are
read the same way and listed apart in `python_sources`. A source is opened without
following links, read at most MAX_SOURCE_BYTES (+1 to notice a larger one)
and must be UTF-8. A name that an id could not carry (control characters,
bytes that are not UTF-8) is counted instead of being walked or read.
At most MAX_ENTRIES folder entries are looked at and folders deeper than
MAX_DEPTH are not entered; each cut is counted under `scan-truncated:`.
Every problem becomes a count in the result, never an exception, so a
hostile tree ends with limitations. Paths are project-relative POSIX, and
the lists are sorted by path.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections import Counter
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from itertools import islice
from pathlib import Path

from tsograph.exchange.limitations import counted
from tsograph.exchange.limitations import counted_reasons
from tsograph.producers.lang.suffixes import TYPESCRIPT_SUFFIXES as SOURCE_SUFFIXES

# Python sources are listed apart: only `graph --language python` reads them.
PYTHON_SUFFIX = ".py"

SKIPPED_FOLDERS = frozenset({"node_modules", "dist", "build", "out", "coverage"})
# Compiler configs: a folder holding one is where an editor's project starts, so the
# walk notes those folders (a config added or removed changes the folder's digest).
CONFIG_NAMES = frozenset({"tsconfig.json", "jsconfig.json"})
# Dot-folders that are URL segments, not tool state: `app/.well-known/…/route.ts` serves requests.
URL_FOLDERS = frozenset({".well-known"})
MAX_SOURCE_BYTES = 4 * 1024 * 1024
MAX_ENTRIES = 200_000
MAX_DEPTH = 64

_DECLARATION = re.compile(r"\.d(?:\.[^./]+)?\.[mc]?ts$")
# What symbol ids would have to escape, plus lone surrogates from undecodable bytes.
_UNREPRESENTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")

# Reasons a source could not be read, as limitation breakdown keys.
NOT_UTF8 = "not-utf8"
UNREADABLE = "unreadable"
NOT_A_FILE = "not-a-file"
BAD_NAME = "unrepresentable-name"
UNLISTABLE = "unlistable-folder"
# Counted under oversized-sources: rather than unreadable-sources:.
OVERSIZED = "oversized"


class UnreadableSource(Exception):
    """A source file that cannot be used; `reason` is a breakdown key or OVERSIZED."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class WalkedFile:
    path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class SourceSet:
    """What the walk found and what it had to leave out, by cause."""

    sources: tuple[WalkedFile, ...]
    declaration_files: tuple[WalkedFile, ...]
    symlinks: int = 0
    oversized: int = 0
    unreadable: dict[str, int] = field(default_factory=dict)
    truncated: dict[str, int] = field(default_factory=dict)
    # The unreadable files and folders whose names can be written (not the unrepresentable).
    unreadable_paths: tuple[str, ...] = ()
    python_sources: tuple[WalkedFile, ...] = ()
    # Every folder the walk listed: (path, listing_digest of what it held, size and
    # modification time taken before the listing), so a kept build notices a file added to
    # any of them, even while the build ran.
    folders: tuple[tuple[str, str, int, int], ...] = ()
    # Folders holding a tsconfig.json or jsconfig.json, sorted.
    config_folders: tuple[str, ...] = ()

    def limitation_lines(
        self, read_failures: Mapping[str, int] | None = None, failed: Iterable[str] = ()
    ) -> list[str]:
        """The walk's gaps; `read_failures` are sources that failed when read later (by
        reason), `failed` their paths."""
        lines = []
        unreadable = Counter(self.unreadable)
        unreadable.update(read_failures or {})
        if self.symlinks:
            lines.append(
                counted(
                    "skipped-symlinks:",
                    self.symlinks,
                    "symbolic link(s) in the project were not followed",
                )
            )
        if self.oversized:
            lines.append(
                counted(
                    "oversized-sources:",
                    self.oversized,
                    f"source file(s) over {MAX_SOURCE_BYTES // (1024 * 1024)} MiB were not read",
                )
            )
        if unreadable:
            lines.append(
                counted_reasons(
                    "unreadable-sources:",
                    unreadable,
                    "source file(s) or folder(s) could not be read",
                    names=[*self.unreadable_paths, *failed],
                )
            )
        if self.truncated:
            lines.append(
                counted_reasons(
                    "scan-truncated:",
                    self.truncated,
                    f"walk limit(s) cut the scan (at most {MAX_ENTRIES} entries, "
                    f"{MAX_DEPTH} folder levels)",
                )
            )
        return lines


def read_source(root: Path, relative: str) -> bytes:
    """The bytes of a source that is a regular UTF-8 file of at most MAX_SOURCE_BYTES.

    Opened without following a link at the last step (the walk never enters a
    linked folder). Raises UnreadableSource otherwise.
    """
    return _open_source(root, relative)[0]


def _open_source(root: Path, relative: str) -> tuple[bytes, os.stat_result]:
    try:
        handle = os.open(
            root / relative, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        )
    except OSError:
        raise UnreadableSource(UNREADABLE) from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableSource(NOT_A_FILE)
        if info.st_size > MAX_SOURCE_BYTES:
            raise UnreadableSource(OVERSIZED)
        data = _read_at_most(handle, MAX_SOURCE_BYTES + 1)
    except OSError:
        raise UnreadableSource(UNREADABLE) from None
    finally:
        os.close(handle)
    if len(data) > MAX_SOURCE_BYTES:
        raise UnreadableSource(OVERSIZED)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableSource(NOT_UTF8) from None
    return data, info


def _read_at_most(handle: int, limit: int) -> bytes:
    chunks = []
    remaining = limit
    while remaining > 0:
        chunk = os.read(handle, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


@dataclass
class _Walk:
    root: Path
    excluded: frozenset[str]
    sources: list[WalkedFile] = field(default_factory=list)
    declarations: list[WalkedFile] = field(default_factory=list)
    python: list[WalkedFile] = field(default_factory=list)
    symlinks: int = 0
    oversized: int = 0
    unreadable: Counter[str] = field(default_factory=Counter)
    unreadable_paths: list[str] = field(default_factory=list)
    truncated: Counter[str] = field(default_factory=Counter)
    entries: int = 0
    listed: list[tuple[str, str, int, int]] = field(default_factory=list)
    configured: list[str] = field(default_factory=list)
    # Sources an earlier walk read: a file it stamps the same (path, size, mtime_ns) is
    # taken as read then, without opening it again (an incremental rebuild's walk).
    trusted: Callable[[str, int, int], bool] | None = None

    def run(self) -> None:
        # Explicit stack, folders in name order: deterministic and free of recursion limits.
        pending: list[tuple[str, int]] = [("", 0)]
        while pending:
            folder, depth = pending.pop()
            children = self._list(folder)
            if children is None:
                return
            for relative in reversed(children):
                if depth + 1 > MAX_DEPTH:
                    self.truncated["depth"] += 1
                else:
                    pending.append((relative, depth + 1))

    def _list(self, folder: str) -> list[str] | None:
        """Handle the files of one folder; its subfolders to walk, None when the entry cap hit."""
        room = MAX_ENTRIES - self.entries
        place = self.root / folder if folder else self.root
        try:
            stamp = os.stat(place, follow_symlinks=False)
            with os.scandir(self.root / folder if folder else self.root) as listing:
                # Never hold more entries than the cap allows, however large the folder.
                entries = list(islice(listing, room + 1))
        except OSError:
            self._unreadable(UNLISTABLE, folder)
            return []
        if len(entries) > room:
            self.truncated["entries"] += 1
            return None
        self.listed.append((folder, listing_digest(entries), stamp.st_size, stamp.st_mtime_ns))
        self.entries += len(entries)
        entries.sort(key=lambda entry: entry.name)
        folders = []
        for entry in entries:
            name = entry.name
            relative = f"{folder}/{name}" if folder else name
            try:
                if entry.is_symlink():
                    self.symlinks += self._counts_as_skipped(entry, name, relative)
                    continue
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                self._unreadable(UNREADABLE, relative)
                continue
            if is_folder:
                if self._skipped_folder(name, relative):
                    continue
                if _UNREPRESENTABLE.search(name):
                    self.unreadable[BAD_NAME] += 1
                    continue
                folders.append(relative)
            elif name.endswith(SOURCE_SUFFIXES):
                self._file(entry, name, relative)
            elif name.endswith(PYTHON_SUFFIX):
                self._file(entry, name, relative, self.python)
            elif name in CONFIG_NAMES and (not self.configured or self.configured[-1] != folder):
                self.configured.append(folder)
        return folders

    def _unreadable(self, reason: str, relative: str) -> None:
        self.unreadable[reason] += 1
        if relative and not _UNREPRESENTABLE.search(relative):
            self.unreadable_paths.append(relative)

    def _skipped_folder(self, name: str, relative: str) -> bool:
        hidden = name.startswith(".") and name not in URL_FOLDERS
        return hidden or name in SKIPPED_FOLDERS or relative in self.excluded

    def _counts_as_skipped(self, entry: os.DirEntry[str], name: str, relative: str) -> bool:
        """A link is a gap when it could be a source or lead to a folder that might hold some.

        Links named like skipped folders (a linked node_modules) or like
        non-source files (a linked README) hide nothing the walk would read.
        """
        if name.endswith(SOURCE_SUFFIXES):
            return True
        if self._skipped_folder(name, relative):
            return False
        try:
            return entry.is_dir()  # resolves the link's target only to see what kind it is
        except OSError:
            return True  # a loop or an unreadable target: counted, never entered

    def _known(self, entry: os.DirEntry[str], relative: str) -> WalkedFile | None:
        """The source as an earlier walk read it, when `trusted` says it is unchanged."""
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            return None
        trusted = self.trusted
        if trusted is None or not stat.S_ISREG(info.st_mode):
            return None
        if not trusted(relative, info.st_size, info.st_mtime_ns):
            return None
        return WalkedFile(relative, info.st_size, info.st_mtime_ns)

    def _file(
        self,
        entry: os.DirEntry[str],
        name: str,
        relative: str,
        into: list[WalkedFile] | None = None,
    ) -> None:
        if _UNREPRESENTABLE.search(name):
            self.unreadable[BAD_NAME] += 1
            return
        if _DECLARATION.search(name):
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                return
            self.declarations.append(WalkedFile(relative, info.st_size, info.st_mtime_ns))
            return
        if self.trusted is not None:
            known = self._known(entry, relative)
            if known is not None:
                (self.sources if into is None else into).append(known)
                return
        try:
            _, info = _open_source(self.root, relative)
        except UnreadableSource as problem:
            if problem.reason == OVERSIZED:
                self.oversized += 1
            else:
                self._unreadable(problem.reason, relative)
            return
        (self.sources if into is None else into).append(
            WalkedFile(relative, info.st_size, info.st_mtime_ns)
        )


def _watched(entry: os.DirEntry[str]) -> bool:
    """Whether the walk takes an entry into account: a source, a link, or a folder it enters."""
    name = entry.name
    if name.endswith((*SOURCE_SUFFIXES, PYTHON_SUFFIX)) or name in CONFIG_NAMES:
        return True
    try:
        if entry.is_symlink():
            return True
        folder = entry.is_dir(follow_symlinks=False)
    except OSError:
        return True
    hidden = name.startswith(".") and name not in URL_FOLDERS
    return folder and not hidden and name not in SKIPPED_FOLDERS


def listing_digest(entries: Iterable[os.DirEntry[str]]) -> str:
    """A digest of the names in a folder listing that the walk takes into account."""
    names = sorted(entry.name for entry in entries if _watched(entry))
    return hashlib.sha256("\0".join(names).encode("utf-8", "surrogatepass")).hexdigest()


def walk(
    root: Path,
    excluded: Collection[str] = (),
    trusted: Callable[[str, int, int], bool] | None = None,
) -> SourceSet:
    """Walk the project folder `root`; `excluded` are project-relative folders to leave out;
    `trusted(path, size, mtime_ns)` says a source an earlier walk read is unchanged."""
    state = _Walk(root, frozenset(path.strip("/") for path in excluded), trusted=trusted)
    state.run()
    return SourceSet(
        tuple(sorted(state.sources, key=lambda item: item.path)),
        tuple(sorted(state.declarations, key=lambda item: item.path)),
        state.symlinks,
        state.oversized,
        dict(sorted(state.unreadable.items())),
        dict(sorted(state.truncated.items())),
        tuple(sorted(state.unreadable_paths)),
        tuple(sorted(state.python, key=lambda item: item.path)),
        tuple(sorted(state.listed)),
        tuple(sorted(state.configured)),
    )
