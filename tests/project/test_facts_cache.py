from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from tsograph.producers.project.facts_cache import FactsCache
from tsograph.producers.project.facts_cache import default_cache_dir


def test_round_trip_and_key_parts(tmp_path: Path) -> None:
    cache = FactsCache(tmp_path, "ns1")
    assert cache.get("a.ts", b"x") is None
    cache.put("a.ts", b"x", [1, ["f", None]])
    assert cache.get("a.ts", b"x") == [1, ["f", None]]
    assert cache.get("b.ts", b"x") is None  # the path is part of the key
    assert cache.get("a.ts", b"y") is None  # so are the bytes
    assert FactsCache(tmp_path, "ns2").get("a.ts", b"x") is None  # and the namespace
    assert (cache.stats.hits, cache.stats.misses) == (1, 3)


def test_corrupt_and_foreign_entries_are_recovered(tmp_path: Path) -> None:
    cache = FactsCache(tmp_path, "ns")
    cache.put("a.ts", b"x", {"ok": True})
    (entry,) = [p for p in tmp_path.rglob("*.json")]
    entry.write_bytes(b'{"namespace": "ns", "path": "a.ts", "fac')
    assert cache.get("a.ts", b"x") is None
    entry.write_bytes(b'{"namespace": "other", "path": "a.ts", "facts": 1}')
    assert cache.get("a.ts", b"x") is None
    assert cache.stats.recovered == 2
    cache.put("a.ts", b"x", {"ok": True})
    assert cache.get("a.ts", b"x") == {"ok": True}


def test_unwritable_folder_is_counted_not_fatal(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = FactsCache(blocker, "ns")
    cache.put("a.ts", b"x", 1)
    assert cache.stats.write_failures == 1
    assert cache.get("a.ts", b"x") is None


def test_no_temporary_files_are_left(tmp_path: Path) -> None:
    cache = FactsCache(tmp_path, "ns")
    for index in range(5):
        cache.put(f"f{index}.ts", b"x", index)
    assert not [p for p in tmp_path.rglob(".tmp-*")]


def test_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "tsograph"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == Path(os.path.expanduser("~")) / ".cache" / "tsograph"


def test_a_removed_folder_is_made_again_and_a_dead_writers_temporary_is_replaced(
    tmp_path: Path,
) -> None:
    cache = FactsCache(tmp_path / "cache", "ns")
    cache.put("a.ts", b"x", 1)
    shutil.rmtree(tmp_path / "cache")  # emptied while a long-lived process holds the cache
    cache.put("a.ts", b"x", 2)
    (entry,) = (tmp_path / "cache").rglob("*.json")
    # What a writer with this process's id left when it died before renaming.
    stale = entry.parent / f".tmp-{os.getpid()}-{threading.get_ident()}-{entry.name}"
    stale.write_bytes(b"half an ent")
    cache.put("a.ts", b"x", 3)
    assert cache.get("a.ts", b"x") == 3
    assert not list((tmp_path / "cache").rglob(".tmp-*"))
    assert cache.stats.write_failures == 0
