"""The build a graph server holds, brought up to date before each answer.

Before an answer, the read-set of the held build (query/read_set.py: every
source, folder and configuration probe the build read, by stamp then by
content) says whether anything changed; if so the build is made again by
`graph/incremental.rebuild` from the held state, which binds only what the
edits can change and equals a full rebuild byte for byte. The records of a
build are made once per form (plain or with details), only when asked.

What a graph answer does not need waits until it is sent (`settle`): the
read-set of a new build. Recording it later is safe: sources and folders
keep the stamps the walk took before reading them, and a probe that no
longer holds when it is recorded is recorded as never matching.
"""

from __future__ import annotations

import argparse
import time
from io import BytesIO
from typing import Any

from tsograph.exchange import documents
from tsograph.exchange.errors import InputError
from tsograph.producers.diagrams.output import max_nodes
from tsograph.producers.graph import command as graph_command
from tsograph.producers.graph.incremental import BuildState
from tsograph.producers.graph.incremental import paused_collector
from tsograph.producers.graph.incremental import rebuild
from tsograph.producers.graph.indexed import IndexedGraph
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.project_graph import ProjectRoots
from tsograph.producers.graph.project_graph import project_roots
from tsograph.producers.graph.records import graph_records
from tsograph.producers.graph.traverse_command import project_source
from tsograph.producers.graph.traverse_command import write_traversal
from tsograph.producers.query.read_set import first_change
from tsograph.producers.query.read_set import record


class HeldBuild:
    """One scope's build, its read-set, and its records once made."""

    def __init__(self, options: GraphOptions) -> None:
        self.options = options
        self.roots: ProjectRoots = project_roots(options.project, options.workspace)
        self.state: BuildState | None = None
        self.read_set: dict[str, Any] | None = None
        # While the latest build's read-set waits to be recorded: when that build started
        # reading, and the read-set of the build before it (whose probe stamps it reuses).
        self._pending: tuple[int, dict[str, Any] | None] | None = None
        self._records: dict[bool, dict[str, Any]] = {}
        self._indexed: IndexedGraph | None = None  # the build numbered for traversals
        # What the latest refresh did, in a few words (the server's log).
        self.made = "no build"

    def refresh(self) -> bool:
        """Make the build again when a file it read changed (True), else keep it."""
        self.settle()
        earlier = self.read_set
        if earlier is not None and first_change(self.roots.root, earlier) is None:
            self.made = "unchanged"
            return False
        # The read-set's probes are the held build's configuration reads and probes, checked
        # by stamp first: when they hold, the rebuild need not read them all again.
        probes = earlier is not None and first_change(self.roots.root, _probes(earlier)) is None
        started = time.time_ns()
        previous, self.state, self.read_set, self._records = self.state, None, None, {}
        self._indexed = None
        with paused_collector():
            state = rebuild(previous, self.options, probes_checked=probes)
        if state.sources is None:
            raise InputError(
                "--project holds Python sources: tsograph serve holds TypeScript/JavaScript "
                "graphs only; run graph without it"
            )
        self.state, self._pending = state, (started, earlier)
        bound = len(state.facts) if state.rebound is None else len(state.rebound)
        self.made = f"{bound} of {len(state.facts)} files bound"
        return True

    def settle(self) -> None:
        """Record the read-set of the latest build (the next refresh compares with it)."""
        state, pending = self.state, self._pending
        if state is None or pending is None or state.sources is None:
            return
        self._pending = None
        started, earlier = pending
        self.read_set = record(
            self.roots.root, state.sources, state.digests, state.dependencies, started, earlier
        )

    def forget(self) -> None:
        """Drop the build (after a defect): the next refresh builds the graph in full."""
        self.state, self.read_set, self._pending, self._records = None, None, None, {}
        self._indexed = None

    def records(self, details: bool) -> dict[str, Any]:
        """The graph's records, with edge sites, relations and types or without."""
        assert self.state is not None  # refresh() came first
        if details not in self._records:
            with paused_collector():
                self._records[details] = graph_records(self.state.graph, details=details)
        return self._records[details]

    def graph_document(self, args: argparse.Namespace) -> bytes:
        """The bytes `graph` prints for `args` (whose scope is this build's). The collector
        stays off throughout: a collection would scan the whole held build."""
        generated = graph_command.checked_options(args)
        with paused_collector():
            clock = time.process_time()
            self.refresh()
            checked = time.process_time()
            records = self.records(args.details)
            made = time.process_time()
            out = BytesIO()
            graph_command.write(args, generated, self.roots.project, records, out)
            written = time.process_time()
        self.made += (
            f"; CPU s: refresh {checked - clock:.2f}, records {made - checked:.2f}, "
            f"document {written - made:.2f}"
        )
        return out.getvalue()

    def traversal_document(self, args: argparse.Namespace, ids: list[str]) -> bytes:
        """The bytes `reach` or `impact` prints for `args` and root `ids` (the scope is this
        build's); MissingRoots when a root is no graph node (the run reports those)."""
        generated = documents.generated_at(args.generated_at)
        diagram_cap = max_nodes(args)
        with paused_collector():
            self.refresh()
            assert self.state is not None
            if self._indexed is None:
                self._indexed = IndexedGraph.from_graph(self.state.graph)
            graph = self.state.graph
            source = project_source(
                graph, self._indexed, self.roots, args.dispatch, graph.revision()
            )
            out = BytesIO()
            missing = write_traversal(args, generated, diagram_cap, ids, source, out)
        if missing:
            raise MissingRoots(f"{len(missing)} root(s) are no graph nodes")
        return out.getvalue()


class MissingRoots(Exception):
    """Roots that are no graph nodes: the run itself names them and exits 64."""


def _probes(read_set: dict[str, Any]) -> dict[str, Any]:
    """A read-set of the configuration reads and probes alone."""
    return {**read_set, "files": [], "folders": []}
