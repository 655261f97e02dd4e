"""Binding results kept per file between runs, for incremental rebuilds.

Everything kept here is what binding proves from one file's facts and the
facts of the files it imports, transitively: what its call sites add to the
graph (`SitesRun`: direct edges, counts, the sites for bound dispatch and the
calls left open), the file's contains/alias/initializer edges, the object
literals its value uses hand on (escapes), the declarations its exports name,
and its relations. A run after an edit reuses them for every file outside the
affected set (see incremental.py) and binds the rest again; the parts of the
graph that read the whole program (class hierarchies, interface candidates,
bound value flow, test-side separation, entry points, counts) are computed
again on every run from these per-file parts, so they need no invalidation
rule of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.bound import BoundDispatch
from tsograph.producers.graph.bound import FlowState
from tsograph.producers.graph.bound import Program
from tsograph.producers.graph.build import SitesRun
from tsograph.producers.graph.flow_reuse import FlowReuse
from tsograph.producers.graph.flow_reuse import resume_flow
from tsograph.producers.graph.model import Edge
from tsograph.producers.graph.model import Relation
from tsograph.producers.graph.model import TypeDeclaration
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Ref

# A file's relations and the interfaces and type aliases it declares (relations.py).
FileRelations = tuple[tuple[Relation, ...], tuple[TypeDeclaration, ...]]


@dataclass
class FileResults:
    """What binding proved about one file, from its import closure."""

    sites: SitesRun | None = None
    # The contains/alias/initializer edges and the count of unresolved export aliases.
    structure: tuple[tuple[Edge, ...], int] | None = None
    # The object-literal holder each value use names (None: none), by the chain used.
    escapes: dict[Ref, str | None] = field(default_factory=dict)
    # The holders the file's written values hand on (BoundDispatch.written_escapes).
    written: frozenset[str] | None = None
    # The declarations the file's exports name (BoundDispatch._exported).
    exported: frozenset[str] | None = None
    relations: FileRelations | None = None
    # The file's edges before merging (bound and candidate ones too) and after
    # (strongest_edges); kept while the edges are the same.
    strongest: tuple[tuple[Edge, ...], tuple[Edge, ...]] | None = None
    # The bound targets of the calls `sites` left open, and the flow answers they came
    # from (FlowState.token).
    targets: tuple[object, tuple[tuple[str, ...], ...]] | None = None


class FileMemo:
    """Per-file results: those of `kept` are reused except for the `stale` files, and every
    result of this run (reused or new) is in `results`, for the next run.

    Beyond files: `kept_side` holds the previous test side when no file's imports
    resolve differently (BoundDispatch.separate), `flow_reuse` the previous value flow
    when the edit may leave it whole (flow_reuse.py); `flow` is what this run's value
    flow leaves for the next run, `flow_kept` whether it answered from the previous."""

    def __init__(
        self,
        kept: dict[str, FileResults],
        stale: Collection[str],
        kept_side: FlowState | None = None,
        flow_reuse: FlowReuse | None = None,
    ) -> None:
        self._kept = kept
        self._stale = stale
        self.kept_side = kept_side
        self._flow_reuse = flow_reuse
        self.results: dict[str, FileResults] = {}
        self.flow: FlowState | None = None
        self.flow_kept = False

    def resume_flow(self, bound: BoundDispatch, runs: Mapping[str, SitesRun]) -> bool:
        """True when `bound` answers from the previous build's flows (flow_reuse.py)."""
        reuse = self._flow_reuse
        return reuse is not None and resume_flow(reuse, bound, runs)

    def of(self, path: str) -> FileResults:
        found = self.results.get(path)
        if found is None:
            previous = None if path in self._stale else self._kept.get(path)
            found = self.results[path] = previous if previous is not None else FileResults()
        return found

    def sites(self, path: str) -> SitesRun | None:
        return self.of(path).sites

    def keep_sites(self, path: str, sites: SitesRun) -> None:
        self.of(path).sites = sites

    def targets(self, path: str, token: object, count: int) -> tuple[tuple[str, ...], ...] | None:
        """The bound targets of the file's open calls when the same flow answered them."""
        kept = self.of(path).targets
        if kept is None or kept[0] is not token or len(kept[1]) != count:
            return None
        return kept[1]

    def keep_targets(self, path: str, token: object, targets: tuple[tuple[str, ...], ...]) -> None:
        self.of(path).targets = (token, targets)

    def structure(self, path: str) -> tuple[tuple[Edge, ...], int] | None:
        return self.of(path).structure

    def keep_structure(self, path: str, structure: tuple[tuple[Edge, ...], int]) -> None:
        self.of(path).structure = structure

    def strongest(self, path: str, edges: tuple[Edge, ...]) -> tuple[Edge, ...] | None:
        """The merged edges of the previous run when the file's edges are the same: bound
        and candidate edges are made again on every run, so they are compared by value."""
        kept = self.of(path).strongest
        return kept[1] if kept is not None and kept[0] == edges else None

    def keep_strongest(self, path: str, edges: tuple[Edge, ...], merged: tuple[Edge, ...]) -> None:
        self.of(path).strongest = (edges, merged)

    def bound_dispatch(
        self,
        binder: Binder,
        program: Program,
        descendants: Callable[[], dict[str, set[str]]],
    ) -> BoundDispatch:
        return _KeptBoundDispatch(binder, program, descendants, self)


class _KeptBoundDispatch(BoundDispatch):
    """Bound dispatch whose per-file binder lookups (escapes, exports) come from the memo;
    the value flow itself is whole-program and always computed again."""

    def __init__(
        self,
        binder: Binder,
        program: Program,
        descendants: Callable[[], dict[str, set[str]]],
        memo: FileMemo,
    ) -> None:
        super().__init__(binder, program, descendants)
        self._memo = memo

    def _object_named(self, path: str, ref: Ref) -> str | None:
        escapes = self._memo.of(path).escapes
        if ref in escapes:
            return escapes[ref]
        found = escapes[ref] = super()._object_named(path, ref)
        return found

    def written_escapes(self, path: str, facts: FileFacts) -> set[str]:
        results = self._memo.of(path)
        if results.written is None:
            results.written = frozenset(super().written_escapes(path, facts))
        return set(results.written)

    def _exported(self, path: str) -> set[str]:
        results = self._memo.of(path)
        if results.exported is None:
            results.exported = frozenset(super()._exported(path))
        return set(results.exported)
