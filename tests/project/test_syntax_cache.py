"""Syntax files come from the cache when a file is unchanged: a warm run parses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tsograph.producers.lang.syntax_tree import describe
from tsograph.producers.project import syntax_cache
from tsograph.producers.project.facts_cache import FactsCache
from tsograph.producers.project.syntax_cache import SyntaxFiles
from tsograph.producers.project.syntax_cache import syntax_namespace

SOURCES = {
    "src/app.ts": b'import { db } from "./db";\nexport const run = () => db.select("u");\n',
    "src/db.js": b"module.exports.db = { select(t) { return t; } };\n",
}


def _files(directory: Path | None) -> SyntaxFiles:
    return SyntaxFiles(FactsCache(directory, syntax_namespace()))


def test_a_warm_run_parses_no_file(tmp_path: Path) -> None:
    cold = _files(tmp_path)
    first = {path: cold.get(path, data) for path, data in SOURCES.items()}
    assert cold.parsed == 2
    warm = _files(tmp_path)
    second = {path: warm.get(path, data) for path, data in SOURCES.items()}
    assert warm.parsed == 0 and warm.cache.stats.hits == 2
    for path in SOURCES:
        assert describe(second[path].root) == describe(first[path].root)
        assert second[path].facts == first[path].facts
        assert second[path].spans == first[path].spans
        assert second[path].owner_at(40) == first[path].owner_at(40)


def test_a_changed_file_is_parsed_again(tmp_path: Path) -> None:
    _files(tmp_path).get("src/app.ts", SOURCES["src/app.ts"])
    warm = _files(tmp_path)
    changed = warm.get("src/app.ts", SOURCES["src/app.ts"] + b"export const more = 1;\n")
    assert warm.parsed == 1
    assert [item.kind for item in changed.root.items][-1] == "export"


def test_a_corrupt_entry_is_parsed_again_and_counted(tmp_path: Path) -> None:
    _files(tmp_path).get("src/db.js", SOURCES["src/db.js"])
    for entry in tmp_path.rglob("*.json"):
        entry.write_bytes(b'{"namespace": "x"}')
    again = _files(tmp_path)
    again.get("src/db.js", SOURCES["src/db.js"])
    assert again.parsed == 1 and again.cache.stats.recovered == 1


def test_parallel_preload_equals_reading_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(syntax_cache, "PARALLEL_THRESHOLD", 2)
    jobs = sorted(SOURCES.items())
    parallel = _files(tmp_path / "p")
    parallel.preload(jobs)
    serial = _files(None)
    for path, data in jobs:
        assert describe(parallel.get(path, data).root) == describe(serial.get(path, data).root)
    assert parallel.parsed == 2 and serial.parsed == 2


def test_python_files_are_read_by_the_python_front_end_and_cached(tmp_path: Path) -> None:
    source = b"from .db import select\n\ndef run():\n    return select('u')\n"
    cold = _files(tmp_path).get("app/run.py", source)
    assert cold.facts.language == "python"
    assert [item.id for item in cold.facts.declarations] == [
        "app/run.py#<module>",
        "app/run.py#run",
    ]
    assert cold.owner_at(source.index(b"select('u')")) == "app/run.py#run"
    warm = _files(tmp_path)
    again = warm.get("app/run.py", source)
    assert warm.parsed == 0 and warm.cache.stats.hits == 1
    assert again.facts == cold.facts and again.spans == cold.spans
    assert describe(again.root) == describe(cold.root)
    # Python breaks lines at \r too, and never at U+2028 (JavaScript does).
    assert again.js_breaks is False


def test_the_python_suffixes_are_the_front_ends() -> None:
    from tsograph.producers.lang import python

    assert tuple(python.SUFFIXES) == syntax_cache.PYTHON_SUFFIXES
