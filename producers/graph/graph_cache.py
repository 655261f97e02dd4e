"""A cache of whole graphs, so a run over an unchanged project does no binding at all.

The key covers everything the walk saw (each source's path and content hash,
the declaration files, the walk's own limitations) and the options that shape
the graph. What binding read besides sources, configuration files, folder
listings and `node_modules` probes, is stored with the entry as recorded
dependencies and checked again before the entry is used, so an edited
tsconfig.json or a newly installed package makes the entry stale.

Entries hold the node and edge records exactly as a validated snapshot holds
them; the graph command stores an entry only after its document passed
validation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers.project.facts_cache import atomic_write
from tsograph.producers.project.fsread import Dependency, still_holds

ENTRY_VERSION = 1


def graph_key(namespace: str, parts: Sequence[Any]) -> str:
    payload = orjson.dumps([ENTRY_VERSION, namespace, *parts])
    return hashlib.sha256(payload).hexdigest()


class GraphCache:
    def __init__(self, directory: Path | None) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / "graphs" / f"{key}.json"

    def load(self, root: Path, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        if path is None:
            return None
        try:
            entry = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        dependencies = [tuple(item) for item in entry.get("dependencies", ())]
        if not still_holds(root, dependencies):
            return None
        payload = entry.get("graph")
        return payload if isinstance(payload, dict) else None

    def store(self, key: str, dependencies: Sequence[Dependency], payload: dict[str, Any]) -> None:
        path = self._path(key)
        if path is None:
            return
        entry = {"key": key, "dependencies": sorted(set(dependencies)), "graph": payload}
        atomic_write(path, orjson.dumps(entry))
