"""Handlers a Next.js route file exports through `export * from '…'`.

Next dispatches on the names of the route module's namespace (next@16.4.6
server/route-modules/app-route/module.js reads `userland[method]`), so a
handler that arrives through a star export serves like one written in the
file. Which names a star gives follows ECMA-262 ResolveExport through the
project model (the walk, tsconfig paths and workspaces, and the graph's
binder): explicit exports shadow stars, a cycle of stars adds nothing, and a
name two stars bind differently is not exported. A star into a package, or
into a module that does not resolve, can give any name: such a file keeps its
`unresolvable-star-export` count and gets no handler from its stars.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tsograph.producers.graph.binding import AMBIGUOUS_STAR
from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.referents import Declared
from tsograph.producers.graph.referents import Module
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.walk import UnreadableSource
from tsograph.producers.project.walk import read_source


@dataclass
class StarHandlers:
    """What the stars of one route file give: handler declarations by method, and gaps."""

    usrs: dict[str, str] = field(default_factory=dict)
    ambiguous: list[str] = field(default_factory=list)
    unresolvable: bool = False


class StarExports:
    """The project model, built on the first route file that has a star export."""

    def __init__(self, model: ProjectModel, read: list[Path]) -> None:
        self.model = model
        self.root = model.root
        self._read = read
        self._facts: dict[str, FileFacts] = {}
        self._binder: Binder | None = None
        self._sources: set[str] = set()

    def handlers(self, path: str, facts: FileFacts, methods: Iterable[str]) -> StarHandlers:
        """The handlers the stars of `path` give for methods the file does not export itself."""
        self._facts[path] = facts
        binder = self._model()
        found = StarHandlers()
        for method in methods:
            value = binder.star_export(path, method)
            if isinstance(value, Declared):
                found.usrs[method] = value.id
            elif value is AMBIGUOUS_STAR:
                found.ambiguous.append(method)
            elif value is not None and not isinstance(value, Module):
                # A package's or an unresolved module's star may give the name.
                found.unresolvable = True
            # A namespace (`export * as GET from`) is no function: Next serves nothing.
        return found

    def _model(self) -> Binder:
        if self._binder is None:
            self._sources = self.model.resolver.sources
            self._binder = Binder(self._load, self.model.resolver)
        return self._binder

    def _load(self, path: str) -> FileFacts | None:
        if path in self._facts:
            return self._facts[path]
        if path not in self._sources:
            return None
        try:
            data = read_source(self.root, path)
        except UnreadableSource:
            return None  # the module stays unresolved: its star is counted, not guessed
        self._read.append(self.root / path)
        self._facts[path] = self.model.syntax_files.get(path, data).facts
        return self._facts[path]
