"""The workspace root a service run's package lies in.

`routes` and `schema` at a monorepo root read each service package as its own
project (service_runs.py), so the package folder is the run's root. Two things
only the workspace root holds still decide what the package is: the lockfile
its package manager installed from (the versions a framework's rules depend
on) and the other workspace packages (a tsconfig `extends` of one of them).
An `Enclosing` lets the run read those, and nothing else, above its root.
Reads made through it are recorded relative to the run's root (`../..`), so a
cached result is checked against the same files.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tsograph.producers.project import paths
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import seen_from
from tsograph.producers.project.lockfiles import ROOT_LOCKFILES
from tsograph.producers.project.lockfiles import read_lockfile
from tsograph.producers.project.packages import Workspace
from tsograph.producers.project.packages import load_workspace


@dataclass(eq=False)
class Enclosing:
    root: Path  # the workspace root
    folder: str  # the run's root under it, POSIX, not empty
    _workspace: Workspace | None = field(default=None, repr=False)

    @property
    def up(self) -> str:
        """The workspace root as seen from the package folder (`../..`)."""
        return "/".join(".." for _ in self.folder.split("/"))

    @contextmanager
    def reading(self) -> Iterator[None]:
        with seen_from(self.up):
            yield

    @property
    def workspace(self) -> Workspace:
        """The workspace root's packages, by folder relative to the workspace root."""
        if self._workspace is None:
            with self.reading():
                self._workspace = load_workspace(self.root)
        return self._workspace

    def inner(self, path: str) -> str:
        """A path under the workspace root as the run names it (`../../packages/x`).

        Such a path climbs out of the run's root on purpose: it is only ever read
        back through the configuration readers, never walked as a source.
        """
        steps = self.folder.split("/")
        parts = path.split("/") if path else []
        common = 0
        while common < min(len(steps), len(parts)) and steps[common] == parts[common]:
            common += 1
        return "/".join([".."] * (len(steps) - common) + parts[common:])

    def lockfile(self) -> tuple[str, str, bytes | None, str | None]:
        """The nearest lockfile above the package folder: (name, importer, bytes, problem).

        The importer is the package folder relative to the lockfile's folder, as the
        package manager keys it; ("", "", None, None) when there is none.
        """
        with self.reading():
            for folder in paths.ancestors(paths.parent(self.folder)):
                for name in ROOT_LOCKFILES:
                    try:
                        data = read_lockfile(self.root, paths.join(folder, name))
                    except ConfigReadError as error:
                        # Named from the run's root; the document rebases it onto the root.
                        shown = posixpath.join(self.up, folder, name)
                        return name, "", None, f"{shown} could not be read ({error.reason})"
                    if data is not None:
                        importer = self.folder[len(folder) + 1 :] if folder else self.folder
                        return name, importer, data, None
        return "", "", None, None
