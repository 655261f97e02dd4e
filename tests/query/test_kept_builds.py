"""Kept builds in the cache: checked before use, reused only while their read-set holds,
held by leases, collected within a size bound."""

from __future__ import annotations

import os
import time
from pathlib import Path

import orjson
import pytest

from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.graph.records import graph_records
from tsograph.producers.project.walk import walk
from tsograph.producers.query.keep import Keeper
from tsograph.producers.query.kept_builds import RECORDS
from tsograph.producers.query.kept_builds import BuildStore
from tsograph.producers.query.leases import LEASES
from tsograph.producers.query.leases import collect
from tsograph.producers.query.leases import held_builds
from tsograph.producers.query.leases import process_start
from tsograph.producers.query.read_set import first_change
from tsograph.producers.query.read_set import record


def _repo(root: Path) -> Path:
    """A small project whose build looked for things it did not find: a tsconfig at the top,
    and a module `./util` the import of main.ts names."""
    app = root / "repo" / "packages" / "app" / "src"
    app.mkdir(parents=True)
    (root / "repo" / "package.json").write_text('{"name": "root", "private": true}\n')
    (app / "main.ts").write_text(
        'import { helper } from "./util";\nexport function main() { return helper(); }\n'
    )
    (app / "other.ts").write_text("export function other() { return 1; }\n")
    return root / "repo"


def _keeper(repo: Path, cache: Path) -> Keeper:
    # As the query server keeps builds: later builds of the process are incremental.
    return Keeper(GraphOptions(str(repo), cache_dir=str(cache)), refreshes=True)


def test_a_second_run_reuses_the_kept_build_and_a_same_bytes_touch_keeps_it(
    tmp_path: Path,
) -> None:
    repo, cache = _repo(tmp_path), tmp_path / "cache"
    first = _keeper(repo, cache).held()
    assert first.mode == "built" and first.kept_name
    source = repo / "packages/app/src/other.ts"
    os.utime(source, ns=(1, 1))  # same bytes, another stamp: compared by content, still holds
    (repo / "README.md").write_text("not a file the walk reads\n")
    again = _keeper(repo, cache).held()
    assert again.mode == "kept" and again.kept_name == first.kept_name
    assert again.build == first.build and not again.notices


@pytest.mark.parametrize(
    "created",
    [
        "tsconfig.json",  # the config lookup found none at the top
        "packages/app/src/util/index.ts",  # the import ./util probed for it
        "packages/app/src/util.ts",
        "pnpm-lock.yaml",  # a lockfile looked for and absent
    ],
)
def test_a_file_the_build_looked_for_and_did_not_find_makes_it_stale(
    created: str, tmp_path: Path
) -> None:
    repo, cache = _repo(tmp_path), tmp_path / "cache"
    keeper = _keeper(repo, cache)
    held = keeper.held()
    assert keeper.changed(held) is None
    path = repo / created
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}\n" if created.endswith((".json", ".yaml")) else "export const a = 1;\n")
    assert keeper.changed(held) is not None
    rebuilt = _keeper(repo, cache).held()
    assert rebuilt.mode == "built" and rebuilt.kept_name != held.kept_name


def test_a_corrupted_build_is_never_used(tmp_path: Path) -> None:
    repo, cache = _repo(tmp_path), tmp_path / "cache"
    keeper = _keeper(repo, cache)
    held = keeper.held()
    assert keeper.store is not None
    records = keeper.store.home / held.kept_name / RECORDS
    data = bytearray(records.read_bytes())
    data[data.index(b"main")] = ord(b"x")  # still JSON, another graph
    records.write_bytes(bytes(data))
    again = _keeper(repo, cache).held()
    # Not read: the graph comes again through the graph cache and is kept anew.
    assert again.mode == "cached" and again.kept_name != held.kept_name
    assert len(again.notices) == 1 and "does not match its checksum" in again.notices[0]
    assert not (keeper.store.home / held.kept_name).exists()
    assert "packages/app/src/main.ts#main" in again.graph.index


def _lease(store: BuildStore, pid: int, start: str, build: str) -> None:
    folder = store.home / LEASES
    folder.mkdir(exist_ok=True)
    payload = {"pid": pid, "start": start, "build": build}
    (folder / f"{pid}-{start}.json").write_bytes(orjson.dumps(payload))


def _three_builds(repo: Path, cache: Path) -> tuple[BuildStore, list[str]]:
    names = []
    for number in range(3):
        (repo / "packages/app/src/other.ts").write_text(f"export const n = {number};\n")
        keeper = _keeper(repo, cache)
        names.append(keeper.held().kept_name)
        keeper.release()
    assert keeper.store is not None
    return keeper.store, names


def test_unheld_old_builds_are_collected(tmp_path: Path) -> None:
    store, names = _three_builds(_repo(tmp_path), tmp_path / "cache")
    # One lease file per process: each build moved it, so only the newest is left.
    assert len(set(names)) == 3 and store.names() == [names[-1]]


def test_two_leases_keep_two_builds_and_stale_leases_do_not_hold(tmp_path: Path) -> None:
    repo, cache = _repo(tmp_path), tmp_path / "cache"
    first = _keeper(repo, cache)
    one = first.held().kept_name  # this process holds it
    (repo / "packages/app/src/other.ts").write_text("export const n = 2;\n")
    second = _keeper(repo, cache)
    second.lease = None  # a build this process does not hold
    two = second.held().kept_name
    (repo / "packages/app/src/other.ts").write_text("export const n = 3;\n")
    third = _keeper(repo, cache)
    third.lease = None
    three = third.held().kept_name
    store = first.store
    assert store is not None and store.names() == [one, three]  # two went: no one held it
    parent = os.getppid()
    start = process_start(parent)
    assert start is not None
    # Another live process (the parent) holds `three`; a dead one held `one`.
    _lease(store, parent, start, three)
    first.release()
    _lease(store, os.getpid(), "0", one)  # this pid, another start time: a reused pid
    assert held_builds(store) == {three}
    (repo / "packages/app/src/other.ts").write_text("export const n = 4;\n")
    fourth = _keeper(repo, cache)
    four = fourth.held().kept_name
    assert store.names() == [three, four]  # two leases (parent's, this process's) keep two
    assert held_builds(store) == {three, four}
    assert sorted(os.listdir(store.home / LEASES)) == sorted(
        [f"{parent}-{start}.json", f"{os.getpid()}-{process_start(os.getpid())}.json"]
    )
    # Within a bound of 0 bytes only the newest stays, held or not.
    assert collect(store, 0) == [three] and store.names() == [four]
    assert two not in store.names()


def test_a_read_that_no_longer_holds_when_recorded_is_never_taken_as_unchanged(
    tmp_path: Path,
) -> None:
    """A config written while the build ran: its stamp is current, its content is not what
    the build saw, and the check must say so."""
    repo = _repo(tmp_path)
    started = time.time_ns()
    sources = walk(repo)
    # After the build looked and found none (an `extends` target: no folder listing the
    # walk watches names it, so only the probe can notice).
    (repo / "tsconfig.base.json").write_text("{}\n")
    probe = ("file", "tsconfig.base.json", "absent:1048576")
    seen = record(repo, sources, {}, [probe], started)
    assert first_change(repo, seen) == "tsconfig.base.json"
    # A source added after the walk listed its folder: the walk's own stamp and listing.
    (repo / "packages/app/src/late.ts").write_text("export const late = 1;\n")
    fresh = record(repo, sources, {}, [], started)
    assert first_change(repo, fresh) == "packages/app/src"
    # A tsconfig.json is in the listing the walk watches: its folder no longer holds.
    (repo / "tsconfig.json").write_text("{}\n")
    assert first_change(repo, record(repo, sources, {}, [], started)) == "."


def test_later_builds_of_a_process_rebind_only_what_edits_reach_and_equal_a_full_build(
    tmp_path: Path,
) -> None:
    repo, cache = _repo(tmp_path), tmp_path / "cache"
    keeper = _keeper(repo, cache)
    # The first build binds here and keeps its per-file results for the next one.
    assert keeper.held().mode == "built" and keeper.state is not None
    assert keeper.state.rebound is None
    other = repo / "packages/app/src/other.ts"
    other.write_text("export function other() { return 2; }\nexport function more() {}\n")
    first = keeper.held()  # stale: bound again from the first build's results
    assert keeper.state.rebound == frozenset({"packages/app/src/other.ts"})
    (repo / "packages/app/src/main.ts").write_text(
        'import { helper } from "./util";\nimport { more } from "./other";\n'
        "export function main() { more(); return helper(); }\n"
    )
    second = keeper.held()
    assert keeper.state.rebound == frozenset({"packages/app/src/main.ts"})
    assert second.build != first.build
    full = load_project_graph(str(repo), use_cache=False).graph  # the same tree, from scratch
    assert orjson.dumps(graph_records(keeper.state.graph)) == orjson.dumps(graph_records(full))
    assert second.build == full.revision()


def test_a_process_that_starts_from_a_kept_build_binds_in_full_once_then_incrementally(
    tmp_path: Path,
) -> None:
    repo, cache = _repo(tmp_path), tmp_path / "cache"
    _keeper(repo, cache).held()
    keeper = _keeper(repo, cache)  # a new process: the kept build still holds
    assert keeper.held().mode == "kept" and keeper.state is None
    (repo / "packages/app/src/other.ts").write_text("export function other() { return 3; }\n")
    keeper.held()
    assert keeper.state is not None and keeper.state.rebound is None  # nothing kept to reuse
    (repo / "packages/app/src/other.ts").write_text("export function other() { return 4; }\n")
    keeper.held()
    assert keeper.state.rebound == frozenset({"packages/app/src/other.ts"})


def test_a_refreshed_build_labels_routes_from_its_own_scan(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    route = repo / "app" / "api" / "items" / "route.ts"
    route.parent.mkdir(parents=True)
    (repo / "package.json").write_text('{"name": "web", "dependencies": {"next": "14.2.3"}}\n')
    route.write_text("export function GET() { return 1; }\n")
    keeper = _keeper(repo, tmp_path / "cache")
    assert keeper.held().routes() == {"app/api/items/route.ts#GET": ("GET /api/items",)}
    route.write_text("export function GET() { return 1; }\nexport function POST() { return 2; }\n")
    assert keeper.held().routes() == {
        "app/api/items/route.ts#GET": ("GET /api/items",),
        "app/api/items/route.ts#POST": ("POST /api/items",),
    }


def test_a_one_shot_query_keeps_no_incremental_state(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    keeper = Keeper(GraphOptions(str(repo), cache_dir=str(tmp_path / "cache")))
    assert keeper.held().mode == "built" and keeper.state is None


def test_a_rebuilds_read_set_takes_an_unchanged_probe_from_the_earlier_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh records its probes again; one stamped as the earlier read-set recorded it
    (and not racy) holds as it did, the rule first_change applies, so it is not read."""
    repo = _repo(tmp_path)
    (repo / "tsconfig.base.json").write_text("{}\n")
    old = time.time_ns() - 10_000_000_000
    os.utime(repo / "tsconfig.base.json", ns=(old, old))
    sources = walk(repo)
    probes = [("file", "tsconfig.base.json", "absent:1048576")]
    earlier = record(repo, sources, {}, probes, time.time_ns())
    assert earlier["probes"][0][3:] == [-2, -2]  # it no longer held: NO_MATCH
    present = [("file", "tsconfig.jsonc", "absent:1048576")]
    earlier = record(repo, sources, {}, present, time.time_ns())
    reads: list[object] = []
    monkeypatch.setattr(
        "tsograph.producers.query.read_set.still_holds",
        lambda root, dependencies: reads.append(dependencies) or True,
    )
    again = record(repo, sources, {}, [*present, *probes], time.time_ns(), earlier)
    # The unchanged probe is taken from `earlier`; the one it did not hold is checked.
    assert reads == [probes]
    assert [probe[:3] for probe in again["probes"]] == [list(p) for p in sorted(present + probes)]
