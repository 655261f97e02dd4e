"""Reading a project into its call graph: walk, facts (cached), configs, binding, edges.

This is the engine `graph`, `reach` and `impact` share: the source root is
the project, or the enclosing workspace when one is given (then ids are
relative to the workspace, so calls across its packages keep one name per
declaration). Every walked file is read once; its facts come from the cache
when the same bytes were seen before.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

import orjson

from tsograph.exchange.limitations import counted
from tsograph.producers import progress
from tsograph.producers.command_args import project_folder
from tsograph.producers.graph.graph_cache import GraphCache
from tsograph.producers.graph.graph_cache import graph_key
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import graph_from_snapshot
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.lang.facts import FactsFormatError
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.project.cache_names import cache_namespace
from tsograph.producers.project.cache_names import code_digest
from tsograph.producers.project.facts_cache import FactsCache
from tsograph.producers.project.fsread import Dependency
from tsograph.producers.project.fsread import recording
from tsograph.producers.project.languages import source_language
from tsograph.producers.project.walk import PYTHON_SUFFIX
from tsograph.producers.project.walk import SourceSet
from tsograph.producers.project.walk import UnreadableSource
from tsograph.producers.project.walk import WalkedFile
from tsograph.producers.project.walk import read_source
from tsograph.producers.project.walk import walk

# The binder, the front-ends and the entry-point scanners are imported where a
# build starts (`_extract`, `bind_project`, `project_model`, `load_graph` on a
# miss): a warm run answers from the graph cache and needs none of them, and
# importing them costs about 0.4 s of every run's start-up.
if TYPE_CHECKING:
    from tsograph.producers.graph.file_memo import FileMemo
    from tsograph.producers.project.model import ProjectModel


@dataclass
class ReadStats:
    parsed: int = 0
    cached: int = 0
    parse_error_files: list[str] = field(default_factory=list)
    unreadable: dict[str, int] = field(default_factory=dict)
    unreadable_paths: list[str] = field(default_factory=list)


# The producers folders whose code decides a graph (entry points read route files through
# the routes code, which reads values through the value layer).
GRAPH_CODE = ("graph", "project", "routes", "schema", "values")


def graph_namespace() -> str:
    """The namespace of cached graphs: the front-end's and a digest of GRAPH_CODE."""
    return f"{cache_namespace()} graph {code_digest(GRAPH_CODE)}"


@dataclass(frozen=True)
class ProjectRoots:
    project: Path  # the folder given with --project
    root: Path  # the source root: the project, or the workspace holding it
    project_rel: str  # the project folder relative to the source root


def project_roots(project: str, workspace: str | None) -> ProjectRoots:
    """The folders of a run: with --workspace, the outer of it and --project is the source
    root and the inner one the project (service_runs.workspace_target, as for routes)."""
    real_project = Path(os.path.realpath(project_folder(project)))
    if workspace is None:
        return ProjectRoots(real_project, real_project, "")
    # Imported here: the service runs' module loads the service finders, which a
    # run without --workspace never needs.
    from tsograph.producers.service_runs import workspace_target

    target = workspace_target(project, workspace)
    return ProjectRoots(real_project, target.root, target.folder)


PARSING = "parsing sources"  # the progress phase that counts parsed files

# Below this many files to parse, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 64


def _extract(job: tuple[str, bytes, FactsCache]) -> tuple[FileFacts, bool]:
    """A file's facts, stored in the cache by the process that made them (so workers
    serialise and write in parallel); the flag says whether the entry was stored.

    The facts go back to the parent as objects (see `_pickled_as_calls` in
    lang/facts.py): loading them is cheaper than unpickling the cache's plain
    lists and running `from_plain`, and pickle keeps the objects and strings
    the extractor shares. Python facts are read back from their plain lists,
    as before, but in the worker.
    """
    from tsograph.producers.graph.python.load import python_plain
    from tsograph.producers.lang.typescript import extract

    path, data, cache = job
    plain: Any
    if path.endswith(PYTHON_SUFFIX):
        plain = python_plain(path, data)
        facts = FileFacts.from_plain(plain)
    else:
        facts = extract(path, data)
        # The same JSON as the plain lists, written without building them.
        plain = orjson.Fragment(facts.to_json())
    return facts, cache.store(path, data, plain)


def _workers() -> int:
    return min(os.cpu_count() or 1, 8)


@dataclass(frozen=True)
class EarlierRead:
    """What an earlier build of the same project read: the walk's stamp (size, mtime) of
    each source, its bytes and sha256, and when that build started reading (wall clock)."""

    stamps: dict[str, tuple[int, int]]
    contents: dict[str, bytes]
    digests: dict[str, str]
    started_ns: int

    def unchanged(self, walked: WalkedFile) -> bytes | None:
        """The earlier bytes of a source the walk stamps as the earlier walk did, when its
        stamp is older than that build (a file system stamps with a coarse clock: an edit
        within a tick of the earlier read may keep the stamp, so those are read again)."""
        if not self.trusted(walked.path, walked.size, walked.mtime_ns):
            return None
        return self.contents.get(walked.path)

    def trusted(self, path: str, size: int, mtime_ns: int) -> bool:
        """Whether a source stamped so is the one read then (a walk need not open it)."""
        return (
            self.stamps.get(path) == (size, mtime_ns)
            and mtime_ns < self.started_ns - RACY_NS
            and path in self.contents
        )


# How long before a build's start an earlier read is not trusted by its stamp alone (as
# a kept build's read-set, query/read_set.py).
RACY_NS = 2_000_000_000


def read_contents(
    roots: ProjectRoots,
    sources: SourceSet,
    language: str = "js",
    earlier: EarlierRead | None = None,
) -> tuple[dict[str, bytes], ReadStats]:
    """The bytes of every walked source of the language; a file that cannot be read now is
    counted. With `earlier`, a source whose stamp is unchanged is not read again."""
    stats = ReadStats()
    contents: dict[str, bytes] = {}
    files = sources.python_sources if language == "python" else sources.sources
    progress.phase("reading sources", len(files))
    for walked in files:
        progress.advance()
        kept = None if earlier is None else earlier.unchanged(walked)
        if kept is not None:
            contents[walked.path] = kept
            continue
        try:
            contents[walked.path] = read_source(roots.root, walked.path)
        except UnreadableSource as error:
            stats.unreadable[error.reason] = stats.unreadable.get(error.reason, 0) + 1
            stats.unreadable_paths.append(walked.path)
    return contents, stats


def read_facts(
    contents: dict[str, bytes], cache: FactsCache, stats: ReadStats
) -> dict[str, FileFacts]:
    """Facts of every source: from the cache, else parsed (in parallel when many)."""
    facts: dict[str, FileFacts] = {}
    pending: list[tuple[str, bytes, FactsCache]] = []
    for path, data in contents.items():
        plain = cache.get(path, data)
        if plain is not None:
            try:
                facts[path] = FileFacts.from_plain(plain)
                stats.cached += 1
                continue
            except (FactsFormatError, ValueError, TypeError):
                cache.stats.recovered += 1
        pending.append((path, data, cache))
    progress.phase(PARSING, len(pending))
    for (path, _, _), (parsed, stored) in zip(pending, _parse_all(pending), strict=True):
        cache.stats.write_failures += not stored
        facts[path] = parsed
        stats.parsed += 1
        progress.advance()
    stats.parse_error_files = sorted(path for path, item in facts.items() if item.parse_errors)
    return dict(sorted(facts.items()))


def _parse_all(jobs: list[tuple[str, bytes, FactsCache]]) -> Iterator[tuple[FileFacts, bool]]:
    """Each job's facts in job order, as soon as it is parsed (so progress can count them)."""
    if len(jobs) < PARALLEL_THRESHOLD or _workers() < 2:
        yield from map(_extract, jobs)
        return
    # Forked workers share the loaded grammars (and the front-end, imported here
    # first); facts come back pickled as objects.
    importlib.import_module("tsograph.producers.lang.typescript")
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=_workers(), mp_context=context) as pool:
        yield from pool.map(_extract, jobs, chunksize=16)


@dataclass
class ProjectGraph:
    """A project's graph, and what the graph command needs to cache it once written."""

    # The graph as built; None when it came from the cache: `graph` makes it from the
    # cached records when first asked (`graph` writes the records themselves and never asks).
    built: Graph | None
    roots: ProjectRoots
    # The stored records when the graph came from the cache (already validated).
    cached_records: dict[str, Any] | None
    key: str
    dependencies: list[Dependency]
    graph_cache: GraphCache
    # What the build read, for a kept build's read-set: the walk and each source's sha256.
    sources: SourceSet | None = None
    digests: dict[str, str] = field(default_factory=dict)

    @property
    def graph(self) -> Graph:
        if self.built is None:
            assert self.cached_records is not None, "a graph is built or cached"
            self.built = graph_from_snapshot(self.cached_records)
        return self.built


@dataclass
class ProjectRead:
    """What every build of a project reads first: the walk and the bytes of its sources."""

    roots: ProjectRoots
    sources: SourceSet
    language: str
    contents: dict[str, bytes]
    stats: ReadStats
    # Each source's sha256 (the graph key and a kept build's read-set).
    digests: dict[str, str]
    # When the reading started (wall clock): an EarlierRead of a later build.
    started_ns: int = 0

    def earlier(self) -> EarlierRead:
        """This read, for a later build of the same project (read_project)."""
        files = self.sources.python_sources if self.language == "python" else self.sources.sources
        stamps = {walked.path: (walked.size, walked.mtime_ns) for walked in files}
        return EarlierRead(stamps, self.contents, self.digests, self.started_ns)


def read_project(options: GraphOptions, earlier: EarlierRead | None = None) -> ProjectRead:
    """Walk and read the project; with `earlier`, unchanged sources are taken from it."""
    started_ns = time.time_ns()
    roots = project_roots(options.project, options.workspace)
    sources = walk(roots.root, trusted=earlier.trusted if earlier is not None else None)
    language = source_language(sources, options.language)
    contents, stats = read_contents(roots, sources, language, earlier)
    digests = {
        path: earlier.digests[path]
        if earlier is not None and earlier.contents.get(path) is data
        else hashlib.sha256(data).hexdigest()
        for path, data in contents.items()
    }
    return ProjectRead(roots, sources, language, contents, stats, digests, started_ns)


# How a JavaScript/TypeScript graph is bound once its sources are read (the facts cache
# given): incremental.py passes one that keeps per-file results for later rebuilds.
JsBinder = Callable[[ProjectRead, FactsCache], Graph]


def load_project_graph(project: str, *, variant: str = "", **options: Any) -> ProjectGraph:
    """load_graph with the options as keywords (GraphOptions' fields)."""
    return load_graph(GraphOptions(project, **options), variant=variant)


def load_graph(
    options: GraphOptions, *, variant: str = "", bind_js: JsBinder | None = None
) -> ProjectGraph:
    """The project's graph: from the graph cache when the same sources and options were
    built before, else built (and `bind_js` binds a JavaScript/TypeScript one).

    `variant` keeps apart the cached graphs of folders whose sources are the same but
    whose configs may differ (a review's base beside its work tree): the key covers the
    sources only, and one entry per key is kept."""
    read = read_project(options)
    roots, sources, language, stats = read.roots, read.sources, read.language, read.stats
    directory = options.cache_directory()
    key = graph_key(
        graph_namespace(),
        [
            roots.project_rel,
            options.tsconfig,
            language,
            options.workspace is not None,
            [[path, digest] for path, digest in read.digests.items()],
            [walked.path for walked in sources.declaration_files],
            sources.limitation_lines(),
            sorted(stats.unreadable.items()),
            *([variant] if variant else []),
        ],
    )
    graph_cache = GraphCache(directory)
    found = graph_cache.load_entry(roots.root, key)
    if found is not None:
        records, recorded = found
        return ProjectGraph(
            None,
            roots,
            records,
            key,
            recorded,
            graph_cache,
            sources,
            read.digests,
        )
    from tsograph.producers.graph.python.load import build_python
    from tsograph.producers.graph.python.load import python_namespace

    facts_cache = FactsCache(
        directory, python_namespace() if language == "python" else cache_namespace()
    )
    with recording() as dependencies:
        if language == "python":
            facts = read_facts(read.contents, facts_cache, stats)
            walk_gaps = sources.limitation_lines(stats.unreadable)
            graph = build_python(roots.root, facts, stats.parse_error_files, walk_gaps)
        else:
            graph = (bind_js or _build(options.tsconfig))(read, facts_cache)
    if facts_cache.stats.recovered:
        # Not part of the document: its content must not depend on the cache's state.
        progress.clear()
        sys.stderr.write(
            f"tsograph: note: {facts_cache.stats.recovered} cache entr(ies) were corrupt or "
            "foreign and the files were parsed again\n"
        )
    return ProjectGraph(graph, roots, None, key, dependencies, graph_cache, sources, read.digests)


def load_from_arguments(args: Any) -> ProjectGraph:
    """The graph of `--project` with the shared graph options of a command."""
    return load_graph(GraphOptions.of(args))


def _build(tsconfig: str | None) -> JsBinder:
    def bind(read: ProjectRead, cache: FactsCache) -> Graph:
        # The graph keeps its own reading (contents hashed into the graph key, facts from
        # the facts cache); the model gives the configs and the resolver.
        model = project_model(read.roots, read.sources, tsconfig)
        facts = read_facts(read.contents, cache, read.stats)
        return bind_project(read.roots, read.sources, model, facts, read.contents, read.stats)

    return bind


def project_model(roots: ProjectRoots, sources: SourceSet, tsconfig: str | None) -> ProjectModel:
    from tsograph.producers.project.model import ProjectModel

    return ProjectModel(
        roots.root, sources, include_tests=True, project=roots.project_rel, tsconfig=tsconfig
    )


def bind_project(
    roots: ProjectRoots,
    sources: SourceSet,
    model: ProjectModel,
    facts: dict[str, FileFacts],
    contents: dict[str, bytes],
    stats: ReadStats,
    memo: FileMemo | None = None,
) -> Graph:
    """The graph from every file's facts: binding, entry points, relations, limitations.

    With a memo (incremental rebuilds), per-file results it keeps are reused
    (file_memo.py); everything that reads the whole program is computed again.
    """
    from tsograph.producers.graph.binding import Binder
    from tsograph.producers.graph.bound import Program
    from tsograph.producers.graph.build import build_graph
    from tsograph.producers.graph.entries import apply_entry_points
    from tsograph.producers.graph.entries import find_entry_points
    from tsograph.producers.graph.file_gaps import file_gap_lines
    from tsograph.producers.graph.relations import js_relations

    workspace_model = model.workspace
    binder = Binder(facts.get, model.resolver)
    walk_gaps = sources.limitation_lines(stats.unreadable, stats.unreadable_paths)
    program = Program(
        incomplete=bool(walk_gaps or stats.parse_error_files),
        library_folders=frozenset(
            folder
            for folder, package in workspace_model.by_directory.items()
            if package.opens_exports
        ),
    )
    progress.phase("finding entry points")
    entry_points = find_entry_points(roots.root, roots.project_rel, facts, contents, sources)
    program = dataclasses.replace(program, entries=frozenset(entry_points.marks))
    progress.phase("linking calls")
    graph, _ = build_graph(binder, facts, program, memo)
    graph.relations, graph.types = js_relations(binder, facts, graph.nodes, memo)
    apply_entry_points(graph, entry_points)
    limitations = walk_gaps
    limitations.extend(entry_points.limitations())
    limitations.extend(
        file_gap_lines(
            facts, stats.parse_error_files, "declaration(s) nested too deeply to be named"
        )
    )
    notes = model.config_notes()
    if notes:
        limitations.append(
            counted(
                "graph-config:",
                len(notes),
                "configuration problem(s) may change module resolution",
                names=notes,
            )
        )
    # Walk, parse and configuration gaps hold in every mode.
    graph.limitations = sorted({*graph.limitations, *limitations})
    graph.mode_limitations = {
        mode: sorted({*lines, *limitations})
        for mode, lines in (graph.mode_limitations or {}).items()
    }
    graph.statistics["files"] = len(facts)
    graph.statistics["parseErrorFiles"] = len(stats.parse_error_files)
    return graph
