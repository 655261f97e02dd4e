"""An incremental rebuild reads again only the sources whose stamp moved, or is too recent.

A source whose size and modification time are those the previous build's
walk saw, and older than that build by more than the file system clock's
tick (RACY_NS), keeps the bytes read then; an edit that keeps the size and
restores the time within that window is still read (git's "racy" entries).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.graph.incremental_support import assert_same_as_full
from tsograph.producers.graph.incremental import rebuild
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.project_graph import RACY_NS

FILES = {
    "a.ts": "export function a() { return b(); }\nimport { b } from './b';\n",
    "b.ts": "export function b() { return 1; }\n",
}


def _tree(root: Path, age_ns: int) -> None:
    (root / "src").mkdir()
    stamp = time.time_ns() - age_ns
    for name, text in FILES.items():
        path = root / "src" / name
        path.write_text(text)
        os.utime(path, ns=(stamp, stamp))
    (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": {"strict": True}}))
    (root / "package.json").write_text(json.dumps({"name": "reads", "private": True}))


def test_an_old_unchanged_source_is_not_read_again(tmp_path: Path) -> None:
    _tree(tmp_path, 10 * RACY_NS)
    built = rebuild(None, GraphOptions(str(tmp_path), use_cache=False))
    (tmp_path / "src" / "b.ts").write_text("export function b() { return 2; }\n")
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert built.read is not None and state.read is not None
    assert state.read.contents["src/a.ts"] is built.read.contents["src/a.ts"]
    assert state.read.contents["src/b.ts"] == b"export function b() { return 2; }\n"
    assert state.rebound == {"src/b.ts"}
    assert_same_as_full(state, tmp_path)


def test_a_recent_source_is_read_again_though_its_stamp_is_the_same(tmp_path: Path) -> None:
    _tree(tmp_path, 0)
    built = rebuild(None, GraphOptions(str(tmp_path), use_cache=False))
    path = tmp_path / "src" / "b.ts"
    stamp = path.stat().st_mtime_ns
    path.write_text(FILES["b.ts"].replace("1", "2"))  # the same size
    os.utime(path, ns=(stamp, stamp))
    state = rebuild(built, GraphOptions(str(tmp_path), use_cache=False))
    assert state.rebound == {"src/b.ts"}
    assert_same_as_full(state, tmp_path)
