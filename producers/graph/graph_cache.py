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

from tsograph.producers.whole_results import ResultStore

ENTRY_VERSION = 1


def graph_key(namespace: str, parts: Sequence[Any]) -> str:
    payload = orjson.dumps([ENTRY_VERSION, namespace, *parts])
    return hashlib.sha256(payload).hexdigest()


class GraphCache(ResultStore):
    def __init__(self, directory: Path | None) -> None:
        super().__init__(directory, "graphs", "graph")
