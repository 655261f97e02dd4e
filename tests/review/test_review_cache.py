"""A second review of the same change reads both graphs from the cache, even when the
change left the sources alone (a manifest-only commit, whose base graph has the work
tree's key but not its configs), and reads the base from the folder it kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.review.history import _git
from tests.review.history import _write
from tsograph.producers.cli import run

FILES = {
    "package.json": '{ "name": "app", "version": "1.0.0" }\n',
    "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n',
    "src/a.ts": "export function a(): number {\n  return 1;\n}\n",
}


def _review(repo: Path, cache: Path, out: Path) -> dict[str, Any]:
    # In-process: the command's own run, without an interpreter start per review.
    code = run(
        [
            "review",
            "--project",
            str(repo),
            "--base",
            "HEAD~1",
            "--cache-dir",
            str(cache),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    status: dict[str, Any] = orjson.loads((out / "status.json").read_bytes())
    return status


def test_a_manifest_only_change_is_read_from_the_cache_the_second_time(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _write(repo, dict(FILES))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _write(repo, {"package.json": '{ "name": "app", "version": "1.0.1" }\n'})
    _git(repo, "commit", "-q", "-am", "bump")
    cache = tmp_path / "cache"
    first = _review(repo, cache, tmp_path / "one")
    assert (first["head"]["mode"], first["baseGraph"]["mode"]) == ("built", "built")
    second = _review(repo, cache, tmp_path / "two")
    assert second["head"]["mode"] == "cached"
    assert second["baseGraph"]["mode"] == "cached"
    # The base was written once and kept: one folder and its marker.
    kept = sorted(path.name for path in (cache / "review-bases").iterdir())
    assert len(kept) == 2 and kept[0] + ".json" == kept[1]
    assert (tmp_path / "one" / "brief.md").read_bytes() == (
        tmp_path / "two" / "brief.md"
    ).read_bytes()
