"""The project as the route interpreter reads it: walked sources parsed on demand, imports resolved.

The walk and module resolution are the ones `tsograph graph` uses, so a file
the interpreter follows is a file the graph has nodes for, and every handler
id it takes from `ParsedFile.owner_at` is a graph node id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tsograph.producers import progress
from tsograph.producers.lang.typescript import ParsedFile, parse_file
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.resolve import SOURCE, Resolution, Resolver
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
    parsed: dict[str, ParsedFile | None] = field(default_factory=dict)
    read: list[Path] = field(default_factory=list)
    unreadable: Counter[str] = field(default_factory=Counter)
    syntax_errors: set[str] = field(default_factory=set)

    @property
    def paths(self) -> list[str]:
        """Source files in walk order, tests left out unless they were asked for."""
        return sorted(
            walked.path
            for walked in self.sources.sources
            if self.include_tests or not is_test_path(walked.path)
        )

    def parse(self, path: str) -> ParsedFile | None:
        if path in self.parsed:
            return self.parsed[path]
        parsed: ParsedFile | None = None
        try:
            data = read_source(self.root, path)
        except UnreadableSource as error:
            self.unreadable[error.reason] += 1
        else:
            self.read.append(self.root / path)
            parsed = parse_file(path, data)
            progress.advance()
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


def load_model(root: Path, include_tests: bool) -> ProjectModel:
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
    model = ProjectModel(root, sources, resolver, include_tests)
    # Files are parsed as the interpreter reaches them, so the count may stay below the total.
    progress.phase("parsing sources", len(model.paths))
    return model
