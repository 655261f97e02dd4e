"""Whole command results kept by key, used only while what the run read or probed holds.

The graph (graph/graph_cache.py) and the schema (schema/result_cache.py) key
an entry by everything their walk saw; what the run read besides sources
(configuration files, folder listings, `node_modules` probes, recorded by
project/fsread.py) is stored with the entry and checked again before it is used.
A missing, corrupt or foreign entry is a miss, never an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers.project.facts_cache import atomic_write
from tsograph.producers.project.fsread import Dependency
from tsograph.producers.project.fsread import still_holds


class ResultStore:
    def __init__(self, directory: Path | None, folder: str, field: str) -> None:
        self.directory = directory
        self.folder = folder  # one folder of the cache directory per command
        self.field = field  # the entry's member that holds the result

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / self.folder / f"{key}.json"

    def load(self, root: Path, key: str) -> dict[str, Any] | None:
        found = self.load_entry(root, key)
        return None if found is None else found[0]

    def load_entry(self, root: Path, key: str) -> tuple[dict[str, Any], list[Dependency]] | None:
        """The result and the recorded reads it still holds for."""
        path = self._path(key)
        if path is None:
            return None
        try:
            entry = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        dependencies: list[Any] = [tuple(item) for item in entry.get("dependencies", ())]
        if not still_holds(root, dependencies):
            return None
        payload = entry.get(self.field)
        return (payload, dependencies) if isinstance(payload, dict) else None

    def store(self, key: str, dependencies: Sequence[Dependency], payload: dict[str, Any]) -> None:
        path = self._path(key)
        if path is None:
            return
        entry = {"key": key, "dependencies": sorted(set(dependencies)), self.field: payload}
        atomic_write(path, orjson.dumps(entry))
