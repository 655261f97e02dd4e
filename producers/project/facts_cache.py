"""A cache of per-file facts keyed by content, so an unchanged file is never parsed twice.

An entry's key is a SHA-256 over the cache namespace (tool version, grammar
versions and the facts format version), the file's project-relative path (ids
embed it) and the file's bytes. Entries are written atomically (a temporary
file renamed into place), so a reader never sees half an entry. A corrupt or
foreign entry is treated as a miss, parsed again, rewritten and counted. The
cache never makes a run fail: an unwritable folder only costs speed.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tsograph"


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    recovered: int = 0
    write_failures: int = 0


class FactsCache:
    def __init__(self, directory: Path | None, namespace: str) -> None:
        self.directory = directory
        self.namespace = namespace
        self.stats = CacheStats()

    def _entry(self, path: str, data: bytes) -> Path | None:
        if self.directory is None:
            return None
        digest = hashlib.sha256()
        for part in (self.namespace.encode(), path.encode("utf-8", "surrogatepass"), data):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
        key = digest.hexdigest()
        return self.directory / key[:2] / f"{key[2:]}.json"

    def get(self, path: str, data: bytes) -> Any | None:
        entry = self._entry(path, data)
        if entry is None:
            self.stats.misses += 1
            return None
        try:
            raw = entry.read_bytes()
        except FileNotFoundError:
            self.stats.misses += 1
            return None
        except OSError:
            self.stats.recovered += 1
            return None
        try:
            envelope = orjson.loads(raw)
        except orjson.JSONDecodeError:
            envelope = None
        if (
            not isinstance(envelope, dict)
            or envelope.get("namespace") != self.namespace
            or envelope.get("path") != path
            or "facts" not in envelope
        ):
            self.stats.recovered += 1
            return None
        self.stats.hits += 1
        return envelope["facts"]

    def put(self, path: str, data: bytes, facts: Any) -> None:
        if not self.store(path, data, facts):
            self.stats.write_failures += 1

    def store(self, path: str, data: bytes, facts: Any) -> bool:
        """Write an entry without counting (a worker process's copy of the cache has its
        own stats): False when it could not be written. Without a folder nothing fails."""
        entry = self._entry(path, data)
        if entry is None:
            return True
        payload = orjson.dumps({"namespace": self.namespace, "path": path, "facts": facts})
        return atomic_write(entry, payload)


def atomic_write(target: Path, payload: bytes) -> bool:
    """Write a file so that readers see the old content or the new, never a part.

    The bytes go to a temporary file beside the target, named for this process and
    thread (no two live writers share the name), which is then renamed over the target.
    A cold run writes thousands of entries: the folder is made only when the first open
    finds it missing, instead of a `mkdir` and `mkstemp`'s random names for each.
    """
    temporary = target.parent / f".tmp-{os.getpid()}-{threading.get_ident()}-{target.name}"
    try:
        handle = _create(temporary)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(payload)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return False
    return True


def _create(temporary: Path) -> int:
    """A new file, opened for writing, readable by this user only (as `mkstemp` makes it)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        return os.open(temporary, flags, 0o600)
    except FileNotFoundError:
        temporary.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        # Left by a writer that died before renaming it, in a process whose id was reused.
        os.unlink(temporary)
    return os.open(temporary, flags, 0o600)
