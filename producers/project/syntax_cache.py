"""Syntax files read once per content: from the cache when a file is unchanged, else parsed.

Route and schema producers read `SyntaxFile`s (facts, neutral syntax tree,
owner spans). An entry holds all three and is keyed like the graph's facts
(namespace, path, bytes) in a namespace of its own, so a graph run never pays
for lowering and a warm routes or schema run parses nothing. Many misses at
once are parsed in forked workers, as the graph does.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tsograph.producers.lang.facts import FactsFormatError
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.project.cache_names import cache_namespace
from tsograph.producers.project.facts_cache import FactsCache

# The cached form of the syntax tree; bump when syntax_tree.encode changes shape.
SYNTAX_FORMAT = 1
PARALLEL_THRESHOLD = 64
PYTHON_SUFFIXES = (".py", ".pyi")  # what producers/lang/python reads (its SUFFIXES)


def read_syntax(path: str, data: bytes) -> SyntaxFile:
    """A file read by the front-end of its language, chosen by the path's suffix."""
    if path.lower().endswith(PYTHON_SUFFIXES):
        # Imported on the first Python file: a TypeScript-only run does not load it.
        from tsograph.producers.lang import python

        return python.read_syntax(path, data)
    # Imported on the first file read too: commands that only name the cache
    # (every command's arguments do) do not load the front-end.
    from tsograph.producers.lang import typescript

    return typescript.read_syntax(path, data)


def syntax_namespace() -> str:
    """Cached syntax files: the front-end's code (in the facts namespace) and this format."""
    return f"{cache_namespace()} syntax {SYNTAX_FORMAT}"


def uncached_syntax_files() -> SyntaxFiles:
    """Syntax files read without a cache (tests, and runs with --no-cache)."""
    return SyntaxFiles(FactsCache(None, syntax_namespace()))


class SyntaxFiles:
    """Syntax files of one run, each read at most once."""

    def __init__(self, cache: FactsCache) -> None:
        self.cache = cache
        self.parsed = 0
        self._files: dict[str, SyntaxFile] = {}

    def get(self, path: str, data: bytes) -> SyntaxFile:
        found = self._files.get(path)
        if found is None or found.data != data:
            found = self._cached(path, data)
            if found is None:
                found = read_syntax(path, data)
                self.parsed += 1
                if self.cache.directory is not None:
                    self.cache.put(path, data, _plain(found))
            self._files[path] = found
        return found

    def preload(self, jobs: list[tuple[str, bytes]]) -> None:
        """Read many files at once: the misses are parsed in parallel when there are many."""
        pending = [
            (path, data)
            for path, data in jobs
            if path not in self._files and self._remember(path, data) is None
        ]
        for (path, data), plain in zip(pending, _read_all(pending), strict=True):
            self.cache.put(path, data, plain)
            self.parsed += 1
            self._files[path] = _from_plain(path, data, plain)

    def _remember(self, path: str, data: bytes) -> SyntaxFile | None:
        found = self._cached(path, data)
        if found is not None:
            self._files[path] = found
        return found

    def _cached(self, path: str, data: bytes) -> SyntaxFile | None:
        plain = self.cache.get(path, data)
        if plain is None:
            return None
        try:
            return _from_plain(path, data, plain)
        except (FactsFormatError, ValueError, TypeError, KeyError, IndexError):
            self.cache.stats.recovered += 1
            return None


def _from_plain(path: str, data: bytes, plain: Any) -> SyntaxFile:
    facts = FileFacts.from_plain(plain["facts"])
    if facts.path != path:
        raise ValueError("the entry describes another file")
    return SyntaxFile.from_plain(facts, data, plain)


def _plain(syntax: SyntaxFile) -> dict[str, Any]:
    return {"facts": syntax.facts.to_plain(), **syntax.to_plain()}


def _read_plain(job: tuple[str, bytes]) -> dict[str, Any]:
    return _plain(read_syntax(*job))


def _read_all(jobs: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
    workers = min(os.cpu_count() or 1, 8)
    if len(jobs) < PARALLEL_THRESHOLD or workers < 2:
        return [_read_plain(job) for job in jobs]
    # Forked workers share the loaded grammars; results come back as plain lists.
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(_read_plain, jobs, chunksize=16))
