"""The project as every producer reads it, built once per run.

One walk, one workspace (package.json files and workspace globs), one set of
tsconfig/jsconfig configs and one module resolver, so the graph, the route
producers and the schema collectors of a run resolve an import to the same
file and report a broken config file once. Files are parsed on demand through
`parse`, the one place a producer gets a file's syntax and facts.

    model = ProjectModel.load(root, include_tests=False)
    model.paths                    walked sources in walk order, tests left out unless asked
    model.syntax(path)             the file's facts and neutral syntax tree (cached by content)
    model.preload(paths)           read many files at once, parsing the cache misses in parallel
    model.parse(path)              the tree-sitter ParsedFile, for producers not yet moved over
    model.resolver / source_of     module resolution over the walked files
    model.workspace / configs      package.json and tsconfig/jsconfig readings
    model.root_package             the root package.json's declared dependencies
    model.enclosing                a service run's workspace root (project/enclosing.py)
    model.config_notes()           unreadable tsconfig/jsconfig/package.json files
    model.config_limitation()      the one `unreadable-module-configs:` line of them
    model.data(path)               a source's bytes, read once
    model.unreadable / syntax_errors / read   what reading and parsing met
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from tsograph.exchange.limitations import counted
from tsograph.producers import progress
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.project.enclosing import Enclosing
from tsograph.producers.project.packages import RootPackage
from tsograph.producers.project.packages import Workspace
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.project.packages import root_package
from tsograph.producers.project.resolve import SOURCE
from tsograph.producers.project.resolve import Resolution
from tsograph.producers.project.resolve import Resolver
from tsograph.producers.project.syntax_cache import SyntaxFiles
from tsograph.producers.project.syntax_cache import uncached_syntax_files
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.project.tsconfig import ConfigSet
from tsograph.producers.project.tsconfig import load_configs
from tsograph.producers.project.walk import SourceSet
from tsograph.producers.project.walk import UnreadableSource
from tsograph.producers.project.walk import read_source
from tsograph.producers.project.walk import walk

if TYPE_CHECKING:
    from tsograph.producers.lang.typescript import ParsedFile

CONFIG_TEXT = "tsconfig/jsconfig/package.json file(s) could not be read"


@dataclass
class ProjectModel:
    root: Path
    sources: SourceSet
    include_tests: bool = False
    project: str = ""  # the project folder under the root (`--workspace`)
    tsconfig: str | None = None  # `--tsconfig`, relative to the project folder
    parsed: dict[str, ParsedFile | None] = field(default_factory=dict)
    read: list[Path] = field(default_factory=list)
    unreadable: Counter[str] = field(default_factory=Counter)
    syntax_errors: set[str] = field(default_factory=set)
    failures: dict[str, str] = field(default_factory=dict)  # unreadable path → reason
    _data: dict[str, bytes | None] = field(default_factory=dict, repr=False)
    # Folders whose files are no sources of the run (Prisma generator outputs,
    # known only once the schemas are read): set before the resolver is first used.
    excluded: tuple[str, ...] = ()
    # Syntax files of the run, from the content cache when --cache-dir allows.
    syntax_files: SyntaxFiles = field(default_factory=uncached_syntax_files, repr=False)
    _syntax_read: set[str] = field(default_factory=set, repr=False)
    # The workspace root of a service run's package: its lockfile and packages.
    enclosing: Enclosing | None = None

    @classmethod
    def load(
        cls,
        root: Path,
        include_tests: bool = False,
        syntax_files: SyntaxFiles | None = None,
        enclosing: Enclosing | None = None,
        sources: SourceSet | None = None,
    ) -> ProjectModel:
        """`sources`: the walk of `root` when the caller already made it."""
        return cls(
            root,
            sources if sources is not None else walk(root),
            include_tests,
            syntax_files=syntax_files or uncached_syntax_files(),
            enclosing=enclosing,
        )

    # ---- configuration ------------------------------------------------------------

    @cached_property
    def workspace(self) -> Workspace:
        return load_workspace(self.root)

    @cached_property
    def configs(self) -> ConfigSet:
        # A nested package's own config applies to its files whether or not a workspace
        # lists it (an app's `@/…` aliases, read from the repository root).
        folders = sorted({*self.workspace.by_directory, *self.sources.config_folders})
        return load_configs(
            self.root,
            self.project,
            self.tsconfig,
            folders,
            workspace=self.workspace,
            enclosing=self.enclosing,
        )

    def config_notes(self) -> list[str]:
        """Unreadable tsconfig/jsconfig/package.json files, each once, in reading order."""
        return [*self.configs.notes, *self.workspace.notes]

    def config_limitation(self) -> str | None:
        """The `unreadable-module-configs:` line every producer writes, once modules were
        resolved (before that the configs changed nothing the run reports)."""
        notes = self.config_notes() if "configs" in self.__dict__ else []
        if not notes:
            return None
        return counted("unreadable-module-configs:", len(notes), CONFIG_TEXT, names=notes)

    @cached_property
    def root_package(self) -> RootPackage:
        """The root package.json: declared dependencies, or why it could not be read."""
        return root_package(self.root)

    # ---- sources and resolution ---------------------------------------------------

    def _kept(self, path: str) -> bool:
        return not path.startswith(self.excluded) if self.excluded else True

    @property
    def paths(self) -> list[str]:
        """Source files in walk order, tests left out unless they were asked for."""
        return sorted(
            walked.path
            for walked in self.sources.sources
            if (self.include_tests or not is_test_source(walked.path)) and self._kept(walked.path)
        )

    @property
    def declaration_paths(self) -> list[str]:
        return sorted(
            walked.path for walked in self.sources.declaration_files if self._kept(walked.path)
        )

    def exclude(self, folders: Iterable[str]) -> None:
        assert "resolver" not in self.__dict__, "folders are excluded before resolving"
        cut = tuple(folder.rstrip("/") + "/" for folder in folders if folder)
        self.excluded = tuple(sorted({*self.excluded, *cut}))

    @cached_property
    def resolver(self) -> Resolver:
        return Resolver(
            self.root,
            {walked.path for walked in self.sources.sources if self._kept(walked.path)},
            set(self.declaration_paths),
            self.configs,
            self.workspace,
        )

    def resolve(self, importer: str, specifier: str) -> Resolution:
        return self.resolver.resolve(importer, specifier)

    def source_of(self, importer: str, specifier: str) -> str | None:
        """The project file a specifier names, when it is one the walk found."""
        resolution = self.resolve(importer, specifier)
        path = resolution.path if resolution.kind == SOURCE else None
        if path is not None and (self.include_tests or not is_test_source(path)):
            return path
        return None

    # ---- files --------------------------------------------------------------------

    def data(self, path: str) -> bytes | None:
        """A source's bytes, read once; None when unreadable (the reason is in `failures`)."""
        if path not in self._data:
            try:
                self._data[path] = read_source(self.root, path)
            except UnreadableSource as error:
                self._data[path] = None
                self.failures[path] = error.reason
                self.unreadable[error.reason] += 1
            else:
                self.read.append(self.root / path)
        return self._data[path]

    def preload(self, paths: Iterable[str] | None = None) -> None:
        """Read many sources at once (default: every path of the run), so the syntax files a
        cold run misses are parsed in parallel."""
        jobs = []
        for path in self.paths if paths is None else paths:
            data = self.data(path)
            if data is not None:
                jobs.append((path, data))
        self.syntax_files.preload(jobs)

    def syntax(self, path: str) -> SyntaxFile | None:
        """The file's facts and neutral syntax tree; None when it could not be read."""
        data = self.data(path)
        if data is None:
            return None
        if path not in self._syntax_read:
            self._syntax_read.add(path)
            progress.advance()
        found = self.syntax_files.get(path, data)
        if found.facts.parse_errors:
            self.syntax_errors.add(path)
        return found

    def parse(self, path: str) -> ParsedFile | None:
        """The parsed file, cached for the run; None when it could not be read."""
        if path not in self.parsed:
            # Imported here: a run answered from its caches parses nothing.
            from tsograph.producers.lang.typescript import parse_file

            data = self.data(path)
            parsed = None if data is None else parse_file(path, data)
            if parsed is not None and parsed.facts.parse_errors:
                self.syntax_errors.add(path)
            self.parsed[path] = parsed
        return self.parsed[path]
