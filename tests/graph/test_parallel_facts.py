"""Facts parsed by worker processes: the same facts, stored in the cache by the workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tsograph.producers.graph import project_graph
from tsograph.producers.lang.typescript import extract
from tsograph.producers.project.facts_cache import FactsCache

SOURCES = {
    f"src/m{index}.ts": (
        f"import {{ f{index - 1} }} from './m{index - 1}';\n"
        f"export function f{index}(x: (y: number) => void) {{ return f{index - 1}(x); }}\n"
    ).encode()
    for index in range(1, 7)
}


def test_workers_give_the_serial_facts_and_fill_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(project_graph, "PARALLEL_THRESHOLD", 2)
    monkeypatch.setattr(project_graph, "_workers", lambda: 2)
    cache = FactsCache(tmp_path / "cache", "test")
    stats = project_graph.ReadStats()
    facts = project_graph.read_facts(dict(SOURCES), cache, stats)
    assert facts == {path: extract(path, data) for path, data in sorted(SOURCES.items())}
    assert (stats.parsed, stats.cached, cache.stats.write_failures) == (len(SOURCES), 0, 0)
    again = project_graph.ReadStats()
    assert project_graph.read_facts(dict(SOURCES), FactsCache(tmp_path / "cache", "test"), again)
    assert (again.parsed, again.cached) == (0, len(SOURCES))


def test_entries_workers_cannot_write_are_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(project_graph, "PARALLEL_THRESHOLD", 2)
    monkeypatch.setattr(project_graph, "_workers", lambda: 2)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    cache = FactsCache(blocked, "test")
    project_graph.read_facts(dict(SOURCES), cache, project_graph.ReadStats())
    assert cache.stats.write_failures == len(SOURCES)
