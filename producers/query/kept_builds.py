"""Kept builds: one immutable folder per build of a project in the cache.

Layout, under the cache directory:

    builds/<scope>/                 one scope per project root and graph options
        <time>-<revision>/          a build, never changed once renamed into place
            records.json            the graph's records (as the graph cache holds them)
            read-set.json           what the build read and saw (query/read_set.py)
            routes.json             `METHOD /path` labels per route handler id
            manifest.json           sha256 and size of each file above
        current                     the name of the newest build, replaced atomically
        leases/<pid>-<start>.json   a process holding a build (query/leases.py)
        .tmp-*                      a build being written (or left by a crash)

A build is written whole into a `.tmp-` folder, checked against its own
manifest and only then renamed into place and named in `current`. Every
open checks the manifest again, so a build whose files were cut, edited or
lost is never read: the caller builds again and says so in a notice.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers.project.facts_cache import atomic_write
from tsograph.producers.query.read_set import is_read_set

BUILDS_FOLDER = "builds"
RECORDS = "records.json"
READ_SET = "read-set.json"
ROUTES = "routes.json"
MANIFEST = "manifest.json"
CURRENT = "current"
TEMPORARY = ".tmp-"
TRASH = ".trash-"
KEPT_FILES = (RECORDS, READ_SET, ROUTES)
# Part of every scope: a change of the folder's files starts new scopes.
KEPT_VERSION = 3


class Corrupt(Exception):
    """A kept build does not match its own manifest; the message says how."""


@dataclass(frozen=True)
class KeptBuild:
    name: str
    records: dict[str, Any]
    read_set: dict[str, Any]
    routes: dict[str, list[str]]


def scope_key(parts: list[Any]) -> str:
    """The folder of one project root and set of graph options."""
    return hashlib.sha256(orjson.dumps([KEPT_VERSION, *parts])).hexdigest()[:32]


def is_build_name(name: str) -> bool:
    return not name.startswith(".") and name != CURRENT and name != "leases"


class BuildStore:
    def __init__(self, cache_dir: Path, scope: str) -> None:
        self.home = cache_dir / BUILDS_FOLDER / scope

    def current_name(self) -> str | None:
        try:
            name = (self.home / CURRENT).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return name if name and is_build_name(name) and "/" not in name else None

    def names(self) -> list[str]:
        """The builds in place, oldest first (names start with their creation time)."""
        try:
            entries = list(os.scandir(self.home))
        except OSError:
            return []
        return sorted(
            entry.name
            for entry in entries
            if is_build_name(entry.name) and entry.is_dir(follow_symlinks=False)
        )

    def open(self, name: str) -> KeptBuild:
        """The build's records and read-set, after its files matched its manifest."""
        data = self._checked(name)
        records = orjson.loads(data[RECORDS])
        read_set = orjson.loads(data[READ_SET])
        routes = orjson.loads(data[ROUTES])
        if not (isinstance(records, dict) and is_read_set(read_set) and isinstance(routes, dict)):
            raise Corrupt("its files do not hold a build")
        return KeptBuild(name, records, read_set, routes)

    def _checked(self, name: str) -> dict[str, bytes]:
        """The bytes of a build's files, each matched with its manifest's checksum."""
        folder = self.home / name
        try:
            manifest = orjson.loads((folder / MANIFEST).read_bytes())
        except (OSError, orjson.JSONDecodeError) as error:
            raise Corrupt(f"its manifest cannot be read ({type(error).__name__})") from None
        if not isinstance(manifest, dict) or sorted(manifest) != sorted(KEPT_FILES):
            raise Corrupt("its manifest does not list its files")
        data: dict[str, bytes] = {}
        for file in KEPT_FILES:
            try:
                data[file] = (folder / file).read_bytes()
            except OSError:
                raise Corrupt(f"{file} is missing") from None
            if manifest[file] != [hashlib.sha256(data[file]).hexdigest(), len(data[file])]:
                raise Corrupt(f"{file} does not match its checksum")
        return data

    def write(
        self, records: dict[str, Any], read_set: dict[str, Any], routes: dict[str, list[str]]
    ) -> KeptBuild | None:
        """Write a new build whole and make it current; None when the cache is not writable."""
        payloads = {
            RECORDS: orjson.dumps(records),
            READ_SET: orjson.dumps(read_set),
            ROUTES: orjson.dumps(routes),
        }
        manifest = {
            file: [hashlib.sha256(data).hexdigest(), len(data)] for file, data in payloads.items()
        }
        revision = str(records.get("graphRevision", "none")).rpartition(":")[2]
        name = f"{time.time_ns():020d}-{os.getpid()}-{revision[:16]}"
        try:
            self.home.mkdir(parents=True, exist_ok=True)
            temporary = Path(tempfile.mkdtemp(prefix=TEMPORARY, dir=self.home))
        except OSError:
            return None
        try:
            for file, data in payloads.items():
                (temporary / file).write_bytes(data)
            (temporary / MANIFEST).write_bytes(orjson.dumps(manifest))
            os.rename(temporary, self.home / name)
        except OSError:
            shutil.rmtree(temporary, ignore_errors=True)
            return None
        try:
            # Read back and checked against the manifest before it becomes current; what
            # the files hold is what was just serialised, so it is not parsed again.
            self._checked(name)
        except Corrupt:
            self.discard(name)
            return None
        kept = KeptBuild(name, records, read_set, routes)
        if not atomic_write(self.home / CURRENT, name.encode("utf-8")):
            return None
        return kept

    def discard(self, name: str) -> None:
        """Remove a build: renamed aside first, so no reader sees half a folder."""
        trash = self.home / f"{TRASH}{name}"
        try:
            os.rename(self.home / name, trash)
        except OSError:
            return
        shutil.rmtree(trash, ignore_errors=True)

    def size(self, name: str) -> int:
        total = 0
        for file in (*KEPT_FILES, MANIFEST):
            try:
                total += os.lstat(self.home / name / file).st_size
            except OSError:
                continue
        return total
