"""The schema walk: the sources `tsograph schema` reads, and how it reads them.

Interface (stable; the ORM/driver collectors get this through `SchemaScan.files`):

    walk_schema_sources(root, include_tests=False, walked=None) -> SchemaSources
    SchemaSources.sources            project-relative POSIX paths of the JS/TS sources;
                                     test sources only with include_tests
    SchemaSources.include_tests      whether test sources were kept (`--include-tests`)
    SchemaSources.declaration_files  `.d.ts` files: never parsed as sources, listed only
                                     for declared bindings (Cloudflare D1)
    SchemaSources.package_dirs       folders holding a package.json ("" is the root)
    SchemaSources.without(folders)   the same set without the sources under generator
                                     output folders (Prisma `output`), found after the walk
    SchemaSources.limitation_lines(read_failures)  skipped-symlinks:, oversized-sources:,
                                     unreadable-sources:, scan-truncated:

The rules are the project walk's (producers/project/walk.py), which are the
spec's schema rules: node_modules, dist, build, out, coverage and dot-folders
are skipped, symbolic links are never followed (counted), files over 4 MiB are
counted, `.d.ts` files are not sources. Prisma generator output folders are
only known once the schemas are read, so they are removed afterwards: a file
there is never parsed and no fact comes from it. Test sources (the one rule of
producers/project/test_sources.py, as `routes` uses it) are left out unless
asked for: mocks and fixtures set up there are not the program's queries.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path

from tsograph.producers.project import paths
from tsograph.producers.project.fsread import lexists
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.project.walk import SourceSet
from tsograph.producers.project.walk import walk


@dataclass(frozen=True)
class SchemaSources:
    walked: SourceSet
    sources: tuple[str, ...]
    declaration_files: tuple[str, ...]
    package_dirs: tuple[str, ...]
    include_tests: bool = False

    def without(self, folders: Iterable[str]) -> SchemaSources:
        cut = tuple(folder.rstrip("/") + "/" for folder in folders if folder)
        if not cut:
            return self
        return replace(
            self,
            sources=tuple(path for path in self.sources if not path.startswith(cut)),
            declaration_files=tuple(
                path for path in self.declaration_files if not path.startswith(cut)
            ),
            package_dirs=tuple(
                folder for folder in self.package_dirs if not (folder + "/").startswith(cut)
            ),
        )

    def limitation_lines(
        self, read_failures: Mapping[str, int] | None = None, failed: Iterable[str] = ()
    ) -> list[str]:
        return self.walked.limitation_lines(read_failures, failed)


def _package_dirs(root: Path, sources: Iterable[str]) -> tuple[str, ...]:
    """Folders with a package.json: the root and every folder that holds or leads to sources."""
    folders: set[str] = set()
    for path in sources:
        folders.update(paths.ancestors(paths.parent(path)))
    folders.add("")
    return tuple(
        sorted(folder for folder in folders if lexists(root, paths.join(folder, "package.json")))
    )


def walk_schema_sources(
    root: Path, include_tests: bool = False, walked: SourceSet | None = None
) -> SchemaSources:
    """The schema's view of a walk (`walked`: the project model's, when one is built)."""
    walked = walk(root) if walked is None else walked
    sources = tuple(
        item.path for item in walked.sources if include_tests or not is_test_source(item.path)
    )
    # Packages are found through the kept sources: a Prisma project inside a test
    # folder is test code too.
    return SchemaSources(
        walked,
        sources,
        tuple(item.path for item in walked.declaration_files),
        _package_dirs(root, sources),
        include_tests,
    )
