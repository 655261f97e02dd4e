"""What the incremental rebuild tests share: the check that a rebuild equals a full one."""

from __future__ import annotations

from pathlib import Path

import orjson

from tsograph.producers.graph.incremental import BuildState
from tsograph.producers.graph.incremental import rebuild
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.records import graph_records


def assert_same_as_full(state: BuildState, root: Path) -> None:
    """The rebuilt graph's records equal those of a full build of the same tree."""
    full = rebuild(None, GraphOptions(str(root), use_cache=False))
    assert orjson.dumps(graph_records(state.graph), option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        graph_records(full.graph), option=orjson.OPT_SORT_KEYS
    )
