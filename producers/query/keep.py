"""The one entry point from graph options to a held build: a kept build reused, or a new one.

`query` and the MCP server (the first question and graph_refresh alike) come
here. The current kept build of the options' scope is reused only when it
matches its own manifest and its read-set still holds; otherwise the graph
is built (project_graph, through the facts and graph caches), its read-set
recorded, and the build kept as the new current one. A kept build that fails
its checksums is never read: it is removed, the graph is built again, and
the answer's `graph.notices` says so.

`Keeper._build` is the only place a graph is built from the work tree. The
first build of a process comes from the graph cache when it can (a warm
answer parses and binds nothing). In a query server (`refreshes`), a first
build that has to bind keeps the per-file results (graph/incremental.py), so
every later build of the same process (graph_refresh, a stale held build)
binds again only what the edits can change. A process whose first build
came from a kept build or the graph cache has no such results: `prepare`
(called by the query server once it has answered) binds them in a
background thread, so the first refresh is incremental too; a refresh
before it is done waits for it, and `release` stops it. Python graphs are
built whole each time.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from typing import Any

from tsograph.producers import progress
from tsograph.producers.graph.incremental import BuildState
from tsograph.producers.graph.incremental import load_keeping_state
from tsograph.producers.graph.incremental import paused_collector
from tsograph.producers.graph.incremental import rebuild
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import graph_from_snapshot
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.project_graph import ProjectRoots
from tsograph.producers.graph.project_graph import graph_namespace
from tsograph.producers.graph.project_graph import load_graph
from tsograph.producers.graph.project_graph import project_roots
from tsograph.producers.graph.records import graph_records
from tsograph.producers.graph.records import store_validated
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.kept_builds import BuildStore
from tsograph.producers.query.kept_builds import Corrupt
from tsograph.producers.query.kept_builds import KeptBuild
from tsograph.producers.query.kept_builds import scope_key
from tsograph.producers.query.leases import Lease
from tsograph.producers.query.leases import collect
from tsograph.producers.query.leases import kept_bytes
from tsograph.producers.query.read_set import first_change
from tsograph.producers.query.read_set import record


class Keeper:
    """The kept builds of one set of options, and this process's lease on one of them."""

    def __init__(self, options: GraphOptions, *, refreshes: bool = False) -> None:
        """`refreshes`: the process asks again after edits (a query server), so a build
        bound here keeps what an incremental rebuild starts from (memory a one-shot
        `query` would hold for nothing)."""
        self.options = options
        self.refreshes = refreshes
        self.roots: ProjectRoots = project_roots(options.project, options.workspace)
        self.max_bytes = kept_bytes(options.kept_mb)
        self.store: BuildStore | None = None
        if options.use_cache:
            directory = options.cache_folder()
            scope = scope_key(
                [
                    graph_namespace(),
                    os.fsdecode(self.roots.root),
                    self.roots.project_rel,
                    options.tsconfig,
                    options.language,
                    options.workspace is not None,
                ]
            )
            self.store = BuildStore(directory, scope)
        self.lease = Lease(self.store) if self.store is not None else None
        # Set once this process holds a build: later builds are incremental rebuilds
        # from `state` (None until the first of them has bound in full).
        self.built = False
        self.state: BuildState | None = None
        self.platform: str | None = None
        # The kept build this process holds last, and its read-set.
        self._holding: tuple[str, dict[str, Any]] | None = None
        # The background binding of `state` (prepare), and the flag that stops it.
        self._preparing: threading.Thread | None = None
        self._stop = threading.Event()

    def held(self, *, reuse: bool = True) -> HeldGraph:
        """The current kept build when it still holds (and `reuse`), else a new build."""
        with paused_collector():
            return self._held(reuse)

    def _held(self, reuse: bool) -> HeldGraph:
        notices: list[str] = []
        previous: KeptBuild | None = None
        store = self.store
        name = store.current_name() if store is not None else None
        if name is not None and self._held_and_changed(name):
            return self._build()
        if store is not None and name is not None:
            try:
                previous = store.open(name)
            except Corrupt as problem:
                store.discard(name)
                notices.append(f"kept build {name} was not used: {problem}; built again")
        if (
            reuse
            and previous is not None
            and first_change(self.roots.root, previous.read_set) is None
        ):
            held = self._of(previous, "kept")
        else:
            held = self._build()
        held.notices = notices
        return held

    def _held_and_changed(self, name: str) -> bool:
        """The current build is the one this process holds and a file it read changed: its
        read-set is at hand, so its records need not be read back to learn that."""
        holding = self._holding
        return (
            holding is not None
            and holding[0] == name
            and first_change(self.roots.root, holding[1]) is not None
        )

    def _of(self, kept: KeptBuild, mode: str) -> HeldGraph:
        self.built = True
        self.platform = kept.records.get("platform", "js")
        held = HeldGraph.of(
            graph_from_snapshot(kept.records),
            kept.records["graphRevision"],
            mode,
            self.roots.root,
            self.roots.project,
            self.roots.project_rel,
        )
        held.read_set = kept.read_set
        held.kept_name = kept.name
        self._holding = (kept.name, kept.read_set)
        held.set_routes(kept.routes)
        if self.lease is not None:
            self.lease.hold(kept.name)
        return held

    def _build(self) -> HeldGraph:
        started = time.time_ns()
        if self.built and self.platform == "js":
            return self._rebuilt(started)
        self.built = True
        # With `refreshes`, a graph bound here keeps its per-file results, so the next build
        # of this process binds again only what the edits change; one from the graph cache
        # keeps none and that next build binds in full.
        if self.refreshes:
            loaded, self.state = load_keeping_state(self.options)
        else:
            loaded = load_graph(self.options)
        self.platform = loaded.graph.platform
        if loaded.cached_records is not None:
            records, mode = loaded.cached_records, "cached"
        else:
            records, mode = graph_records(loaded.graph), "built"
            store_validated(loaded, records)
        assert loaded.sources is not None  # load_project_graph always walks
        read_set = record(
            self.roots.root, loaded.sources, loaded.digests, loaded.dependencies, started
        )
        return self._keep(loaded.graph, records, mode, read_set)

    def prepare(self) -> None:
        """Bind the state later builds start from in a background thread, when this
        process holds a JavaScript build that came without it (from a kept build or the
        graph cache). Questions do not wait for it: they read the held build."""
        if not self.refreshes or not self.built or self.platform != "js":
            return
        if self.state is not None or self._preparing is not None or self._stop.is_set():
            return
        self._preparing = threading.Thread(
            target=self._prepare, name="tsograph-prepare", daemon=True
        )
        self._preparing.start()

    def _prepare(self) -> None:
        # Let the answer that called for this be sent first.
        if self._stop.wait(PREPARE_DELAY):
            return
        try:
            with progress.reporting(_Stopping(self._stop)):
                state = rebuild(None, self.options)
        except _Stopped:
            return
        # Whatever the work tree held then: a later rebuild compares with what it read.
        self.state = state
        # Out of the collector's sight like the held build (the query server's freeze).
        gc.freeze()

    def wait_prepared(self) -> None:
        """Wait for a background preparation to end (a refresh starts from its state)."""
        if self._preparing is not None:
            self._preparing.join()
            self._preparing = None

    def _rebuilt(self, started: int) -> HeldGraph:
        """A later build of this process: per-file results of the previous one are kept
        where the edits since cannot change them (equal to a full build, byte for byte)."""
        self.wait_prepared()
        state = rebuild(self.state, self.options)
        self.state = state
        assert state.sources is not None  # a JavaScript rebuild always walks
        records = graph_records(state.graph)
        earlier = self._holding[1] if self._holding is not None else None
        read_set = record(
            self.roots.root, state.sources, state.digests, state.dependencies, started, earlier
        )
        return self._keep(state.graph, records, "built", read_set)

    def _keep(
        self, graph: Graph, records: dict[str, Any], mode: str, read_set: dict[str, Any]
    ) -> HeldGraph:
        held = HeldGraph.of(
            graph,
            records["graphRevision"],
            mode,
            self.roots.root,
            self.roots.project,
            self.roots.project_rel,
        )
        held.read_set = read_set
        if self.store is None:
            return held  # nothing kept: route labels are read if a question needs them
        # Read now and kept: the route facts come from the sources the read-set covers, and
        # a routes question on a held build then reads no file.
        routes = {key: list(labels) for key, labels in held.routes().items()}
        kept = self.store.write(records, read_set, routes)
        if kept is None:
            return held
        held.kept_name = kept.name
        self._holding = (kept.name, read_set)
        if self.lease is not None:
            self.lease.hold(kept.name)
        collect(self.store, self.max_bytes)
        return held

    def changed(self, held: HeldGraph) -> str | None:
        """The first path the held build read that differs on disk now (None: none)."""
        return first_change(self.roots.root, held.read_set) if held.read_set else None

    def release(self) -> None:
        """Let go of the held build, and stop a background preparation (at its next phase
        or file; a daemon thread, it never holds the process open)."""
        self._stop.set()
        if self.lease is not None:
            self.lease.release()


# Seconds a background preparation waits before it starts binding (prepare).
PREPARE_DELAY = 0.5


class _Stopped(Exception):
    """The keeper was released while it prepared a state in the background."""


class _Stopping:
    """The progress reporter of a background preparation: stops it once asked to."""

    def __init__(self, stop: threading.Event) -> None:
        self._stop = stop

    def phase(self, name: str, total: int | None = None) -> None:
        if self._stop.is_set():
            raise _Stopped

    def advance(self, count: int = 1) -> None:
        if self._stop.is_set():
            raise _Stopped

    def clear(self) -> None:
        return None
