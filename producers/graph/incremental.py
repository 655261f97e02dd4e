"""Incremental rebuilds of a JavaScript/TypeScript graph: after an edit, bind again only
what the edit can change, and get the graph a full rebuild gives, byte for byte.

`rebuild(previous, options)` walks and reads the project as every run
does, then compares with the state of the previous build:

* A full rebuild is forced where an edit can change everything: other
  options (project folder, workspace, tsconfig), another language, a changed
  configuration file or probe the previous build read (tsconfig.json /
  jsconfig.json, package.json, workspace lists, `node_modules` probes: the
  fsread dependencies), a changed lockfile, a changed set of declaration
  files (`.d.ts`) or a changed walk gap (skipped, unreadable, oversized
  files).
* Otherwise the facts of unchanged files are kept, changed files are read
  (facts cache, else parsed), and the affected set is computed: every
  changed file, and for each file whose binding surface changed (its facts
  without line and column: declarations, exports, imports, types, call sites
  by their ids), every file that imports it, transitively, through any
  import, re-export or `export *` (a lookup in a file follows imports,
  re-exports, value aliases, declared types and class chains, so what it
  can reach is the file's import closure). An edit that only adds names
  (a function or an export appended) reaches only the files that import one
  of the new names, read the whole module, or hand the names on with
  `export *` (binding_surface.py). When files are added or removed, every
  specifier is resolved again and a file whose resolution changed is
  affected as well.

Per-file results of files outside the affected set are reused
(file_memo.py). The parts of binding that read the whole program are
computed again on every run, from the per-file parts: class hierarchies
(descendants, overridden members), interface candidates (every class and
object literal by member names), entry points, counts and limitations. That
keeps them exact without an invalidation rule of their own. Three more
whole-program parts are kept when an edit provably leaves them as they were:
bound value flow (flow_reuse.py, else computed again), the test-side
separation (while no edited file's imports resolve elsewhere) and the bytes
of sources whose walk stamp is unchanged (project_graph.EarlierRead).
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.producers.graph.binding_surface import Resolved
from tsograph.producers.graph.binding_surface import added_names
from tsograph.producers.graph.binding_surface import name_readers
from tsograph.producers.graph.binding_surface import surface
from tsograph.producers.graph.bound import FlowState
from tsograph.producers.graph.closure import closure
from tsograph.producers.graph.file_memo import FileMemo
from tsograph.producers.graph.file_memo import FileResults
from tsograph.producers.graph.flow_reuse import FlowReuse
from tsograph.producers.graph.flow_reuse import KeptFile
from tsograph.producers.graph.flow_reuse import mentions
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.project_graph import EarlierRead
from tsograph.producers.graph.project_graph import ProjectGraph
from tsograph.producers.graph.project_graph import ProjectRead
from tsograph.producers.graph.project_graph import ProjectRoots
from tsograph.producers.graph.project_graph import ReadStats
from tsograph.producers.graph.project_graph import bind_project
from tsograph.producers.graph.project_graph import load_graph
from tsograph.producers.graph.project_graph import project_model
from tsograph.producers.graph.project_graph import project_roots
from tsograph.producers.graph.project_graph import read_facts
from tsograph.producers.graph.project_graph import read_project
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.project.cache_names import cache_namespace
from tsograph.producers.project.facts_cache import FactsCache
from tsograph.producers.project.fsread import Dependency
from tsograph.producers.project.fsread import recording
from tsograph.producers.project.fsread import still_holds
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.resolve import SOURCE
from tsograph.producers.project.walk import SourceSet

# Lockfiles at the source root or the project folder: a changed one may mean other
# installed packages, which module resolution and the external/missing split read.
LOCKFILES = (
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "yarn.lock",
    "bun.lock",
    "bun.lockb",
)


@dataclass
class BuildState:
    """A built graph and what the next incremental run needs from it (kept in memory)."""

    graph: Graph
    roots: ProjectRoots
    # The options and walk results a full rebuild is forced by, when they change.
    settings: tuple[Any, ...]
    walk_signature: tuple[Any, ...]
    lockfiles: dict[str, str]
    digests: dict[str, str]
    facts: dict[str, FileFacts]
    resolved: dict[str, Resolved]
    results: dict[str, FileResults]
    model: ProjectModel | None
    # What the builds since `model` was made read besides sources (configs, probes).
    dependencies: list[Dependency]
    # What this run did: None for a full rebuild, else the files bound again.
    rebound: frozenset[str] | None = None
    full_reason: str = ""
    stats: ReadStats = field(default_factory=ReadStats)
    # The walk this build read (a query server records its read-set from it).
    sources: SourceSet | None = None
    # The value flow's answers and what they were made for (flow_reuse.py), and whether
    # this run answered from the previous build's.
    flow: FlowState | None = None
    flow_kept: bool = False
    # What this build read, for the next one's reading (sources whose stamp holds).
    read: EarlierRead | None = None


def rebuild(
    previous: BuildState | None, options: GraphOptions, *, probes_checked: bool = False
) -> BuildState:
    """The graph of the project now, reusing what `previous` bound where the edits since
    cannot change it. The graph equals a full rebuild's (tests/graph/test_incremental*).

    `probes_checked`: the caller has just found every configuration read and probe of
    `previous` as it was (a read-set recorded for it, query/read_set.py), so they are not
    read again here (about 0.1 s on documenso)."""
    with paused_collector():
        same_roots = previous is not None and previous.roots == project_roots(
            options.project, options.workspace
        )
        read = read_project(options, previous.read if previous and same_roots else None)
        if read.language != "js":
            # Python graphs are built whole (no per-file results to keep yet).
            loaded = load_graph(options)
            return BuildState(
                loaded.graph, read.roots, (), (), {}, {}, {}, {}, {}, None, [], None, "python"
            )
        cache = FactsCache(options.cache_directory(), cache_namespace())
        return _rebuild(previous, options, read, cache, probes_checked)


def load_keeping_state(options: GraphOptions) -> tuple[ProjectGraph, BuildState | None]:
    """The project's graph as load_graph gives it (from the graph cache when it can), and,
    when it had to be bound here, the state a later `rebuild` starts from."""
    states: list[BuildState] = []

    def bind(read: ProjectRead, cache: FactsCache) -> Graph:
        states.append(_rebuild(None, options, read, cache))
        return states[0].graph

    with paused_collector():
        loaded = load_graph(options, bind_js=bind)
    return loaded, states[0] if states else None


@contextmanager
def paused_collector() -> Iterator[None]:
    """No cyclic garbage collection while a build is read or made: binding makes large
    trees of small acyclic objects, and in a long-lived process (a query server) the
    collector would rescan the kept state on every pass (as the command line does,
    cli.main); the caller's setting is restored after.

    What the build allocated is then moved to the oldest generation unexamined
    (`gc.freeze` then `gc.unfreeze`): turned back on, the collector would
    otherwise scan all of it at its first young collection (about 0.25 s of CPU
    after every rebuild of documenso), although most of it is the kept state. A
    later full collection still examines it, so no cycle is kept for good.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def _rebuild(
    previous: BuildState | None,
    options: GraphOptions,
    read: ProjectRead,
    cache: FactsCache,
    probes_checked: bool = False,
) -> BuildState:
    roots, sources, contents, stats, digests = (
        read.roots,
        read.sources,
        read.contents,
        read.stats,
        read.digests,
    )
    tsconfig = options.tsconfig
    settings = (roots.root.as_posix(), roots.project_rel, tsconfig, options.workspace is not None)
    signature = (
        tuple(walked.path for walked in sources.declaration_files),
        tuple(sources.limitation_lines(stats.unreadable, stats.unreadable_paths)),
        # A config added or removed in a nested folder changes which config owns its files.
        sources.config_folders,
    )
    lockfiles = _lockfiles(roots)
    reason = _full_reason(previous, roots, settings, signature, lockfiles, probes_checked)
    with recording() as dependencies:
        if previous is None or reason:
            model = project_model(roots, sources, tsconfig)
            facts = read_facts(contents, cache, stats)
            resolved = {path: _resolved(model, facts[path]) for path in facts}
            memo = FileMemo({}, ())
            rebound = None
            kept_dependencies: list[Dependency] = []
        else:
            same_files = digests.keys() == previous.digests.keys()
            if same_files and previous.model is not None:
                # Module resolution reads the set of files, never their bytes.
                model = previous.model
                kept_dependencies = previous.dependencies
            else:
                model = project_model(roots, sources, tsconfig)
                kept_dependencies = []
            changed = {
                path for path, digest in digests.items() if previous.digests.get(path) != digest
            }
            facts = _facts(previous, contents, changed, cache, stats)
            resolved = {
                path: previous.resolved[path]
                if same_files and path not in changed
                else _resolved(model, facts[path])
                for path in facts
            }
            rebound = frozenset(_affected(previous, facts, resolved, changed))
            same_imports = same_files and all(
                resolved[path] == previous.resolved[path] for path in changed
            )
            memo = FileMemo(
                previous.results,
                rebound,
                previous.flow if same_imports else None,
                _flow_reuse(previous, facts, changed, rebound) if same_files else None,
            )
        stats.parse_error_files = sorted(path for path, item in facts.items() if item.parse_errors)
        graph = bind_project(roots, sources, model, facts, contents, stats, memo)
    return BuildState(
        graph,
        roots,
        settings,
        signature,
        lockfiles,
        digests,
        facts,
        resolved,
        memo.results,
        model,
        sorted({*kept_dependencies, *dependencies}),
        rebound,
        reason if previous is not None else "no previous build",
        stats,
        sources,
        memo.flow,
        memo.flow_kept,
        read.earlier(),
    )


def _full_reason(
    previous: BuildState | None,
    roots: ProjectRoots,
    settings: tuple[Any, ...],
    signature: tuple[Any, ...],
    lockfiles: dict[str, str],
    probes_checked: bool,
) -> str:
    """Why the previous build cannot be reused at all ("" when it can)."""
    if previous is None:
        return "no previous build"
    if previous.model is None:
        return "the previous build kept no per-file results"
    if previous.settings != settings:
        return "other options"
    if previous.walk_signature != signature:
        return "declaration files, nested configs or walk gaps changed"
    if previous.lockfiles != lockfiles:
        return "a lockfile changed"
    if not probes_checked and not still_holds(roots.root, previous.dependencies):
        return "a configuration file or package probe changed"
    return ""


def _lockfiles(roots: ProjectRoots) -> dict[str, str]:
    found: dict[str, str] = {}
    folders = {"", roots.project_rel}
    for folder in sorted(folders):
        for name in LOCKFILES:
            relative = f"{folder}/{name}" if folder else name
            try:
                data = (roots.root / relative).read_bytes()
            except OSError:
                continue
            found[relative] = hashlib.sha256(data).hexdigest()
    return found


def _facts(
    previous: BuildState,
    contents: dict[str, bytes],
    changed: set[str],
    cache: FactsCache,
    stats: ReadStats,
) -> dict[str, FileFacts]:
    """Every file's facts: the previous ones where the bytes are the same."""
    fresh = read_facts({path: contents[path] for path in sorted(changed)}, cache, stats)
    stats.cached += len(contents) - len(changed)
    return {path: fresh.get(path) or previous.facts[path] for path in sorted(contents)}


def _flow_reuse(
    previous: BuildState,
    facts: Mapping[str, FileFacts],
    changed: set[str],
    rebound: frozenset[str],
) -> FlowReuse | None:
    """What the previous value flow may be kept by (flow_reuse.py checks the rest): one
    edited file whose facts moved or only gained names, bound again with only files that
    mention none of those names (the importers that read the whole module or hand its
    names on with `export *`: their lookups of every name they use are the same)."""
    if previous.flow is None or len(changed) != 1:
        return None
    (path,) = changed
    old = previous.facts.get(path)
    if old is None:
        return None
    old_surface = surface(old)
    added: frozenset[str] | None = frozenset()
    if old_surface != surface(facts[path]):
        added = added_names(old, facts[path], old_surface)
    if added is None:
        return None
    others = sorted(rebound - changed)
    if others and (not added or any(mentions(surface(facts[other]), added) for other in others)):
        return None
    files = []
    for each in [path, *others]:
        kept = previous.results.get(each)
        if kept is None:
            return None
        files.append(
            KeptFile(
                each, previous.facts[each], kept.sites, kept.written, kept.exported, kept.escapes
            )
        )
    fresh = frozenset(item.id for item in facts[path].declarations) - {
        item.id for item in old.declarations
    }
    return FlowReuse(tuple(files), previous.flow, fresh)


def _resolved(model: ProjectModel, facts: FileFacts) -> Resolved:
    """Each specifier of a file and the project source it resolves to (None: none)."""
    found: dict[str, str | None] = {}
    for specifier in sorted(
        {item.specifier for item in facts.imports} | {item.specifier for item in facts.exports}
    ):
        if specifier:
            resolution = model.resolver.resolve(facts.path, specifier)
            found[specifier] = resolution.path if resolution.kind == SOURCE else None
    return tuple(found.items())


def _affected(
    previous: BuildState,
    facts: Mapping[str, FileFacts],
    resolved: Mapping[str, Resolved],
    changed: set[str],
) -> set[str]:
    """The files to bind again (see the module docstring for the rule)."""
    importers: dict[str, set[str]] = {}
    for graph in (previous.resolved, resolved):
        for path, specifiers in graph.items():
            for _, target in specifiers:
                if target is not None:
                    importers.setdefault(target, set()).add(path)
    removed = previous.facts.keys() - facts.keys()
    seeds = set(removed)
    additions: dict[str, frozenset[str]] = {}
    for path in changed:
        old = previous.facts.get(path)
        if old is None:
            seeds.add(path)
        elif path not in importers:
            continue  # nothing binds through the file: only it is bound again
        elif (old_surface := surface(old)) != surface(facts[path]):
            added = added_names(old, facts[path], old_surface)
            if added is None:
                seeds.add(path)
            else:
                additions[path] = added
    for path, specifiers in resolved.items():
        if previous.resolved.get(path, specifiers) != specifiers:
            seeds.add(path)
    readers, reader_seeds = name_readers(additions, facts, resolved, importers)
    return (closure(seeds | reader_seeds, importers) | readers | changed) & facts.keys()
