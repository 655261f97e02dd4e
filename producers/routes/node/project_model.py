"""The project as the route interpreter reads it: walked sources as syntax files, imports resolved.

The walk and module resolution are the ones `tsograph graph` uses, so a file
the interpreter follows is a file the graph has nodes for, and every handler
id it takes from `SyntaxFile.owner_at` is a graph node id. Files come from
the run's `SyntaxFiles` (cached by content under --cache-dir), all read up
front so the misses of a cold run are parsed in parallel.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.resolve import SOURCE, Resolution, Resolver
from tsograph.producers.project.syntax_cache import SyntaxFiles
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.project.tsconfig import load_configs
from tsograph.producers.project.walk import SourceSet, UnreadableSource, read_source, walk


def is_test_path(relative: str) -> bool:
    """Test sources by the one rule every producer shares (the spec's routes rule)."""
    return is_test_source(relative)


@dataclass
class ProjectModel:
    root: Path
    sources: SourceSet
    resolver: Resolver
    include_tests: bool
    syntax: SyntaxFiles
    parsed: dict[str, SyntaxFile | None] = field(default_factory=dict)
    read: list[Path] = field(default_factory=list)
    unreadable: Counter[str] = field(default_factory=Counter)
    syntax_errors: set[str] = field(default_factory=set)
    # What `preload` read and `parse` has not taken yet: the bytes, or why they are unreadable.
    _sources: dict[str, bytes | UnreadableSource] = field(default_factory=dict)

    @property
    def paths(self) -> list[str]:
        """Source files in walk order, tests left out unless they were asked for."""
        return sorted(
            walked.path
            for walked in self.sources.sources
            if self.include_tests or not is_test_path(walked.path)
        )

    def preload(self) -> None:
        """Read every source the interpreter will run, parsing the misses at once."""
        jobs = []
        for path in self.paths:
            if path in self.parsed or path in self._sources:
                continue
            try:
                data = read_source(self.root, path)
            except UnreadableSource as error:
                self._sources[path] = error
            else:
                self._sources[path] = data
                jobs.append((path, data))
        self.syntax.preload(jobs)

    def parse(self, path: str) -> SyntaxFile | None:
        if path in self.parsed:
            return self.parsed[path]
        parsed: SyntaxFile | None = None
        source = self._sources.pop(path, None)
        try:
            data = read_source(self.root, path) if source is None else source
            if isinstance(data, UnreadableSource):
                raise data
        except UnreadableSource as error:
            self.unreadable[error.reason] += 1
        else:
            self.read.append(self.root / path)
            parsed = self.syntax.get(path, data)
            if parsed.facts.parse_errors:
                self.syntax_errors.add(path)
        self.parsed[path] = parsed
        return parsed

    def resolve(self, importer: str, specifier: str) -> Resolution:
        return self.resolver.resolve(importer, specifier)

    def source_of(self, importer: str, specifier: str) -> str | None:
        """The project file a specifier names, when it is one the walk found."""
        resolution = self.resolve(importer, specifier)
        path = resolution.path if resolution.kind == SOURCE else None
        if path is not None and (self.include_tests or not is_test_path(path)):
            return path
        return None


def load_model(root: Path, include_tests: bool, syntax: SyntaxFiles) -> ProjectModel:
    sources = walk(root)
    workspace = load_workspace(root)
    configs = load_configs(root, "", None, workspace=workspace)
    resolver = Resolver(
        root,
        {walked.path for walked in sources.sources},
        {walked.path for walked in sources.declaration_files},
        configs,
        workspace,
    )
    return ProjectModel(root, sources, resolver, include_tests, syntax)
