"""Time incremental graph rebuilds in one process, the way a query server refreshes.

Builds the graph of a project once (`rebuild(None, ...)`, facts from a cache
warmed first), then for each kind of one-file edit times `rebuild(previous,
...)` and checks that its records equal a full rebuild's, byte for byte:

* leaf: a new exported function appended to the file nothing imports with the
  most call sites;
* shared, moved: a blank line inserted at the top of the most imported file
  (its binding surface is the same: only the file is bound again);
* shared, export: a new exported function appended to the most imported file
  (every file that imports it, transitively, is bound again).

The project folder is edited in place and restored; use a copy:

    cp -r <repo> /tmp/copy && python benchmarks/incremental.py --project /tmp/copy --runs 3

Prints, per edit, the file, how many files were bound again, the median wall
time of the incremental rebuild and of a full in-process rebuild (same warm
facts cache), and whether the two graphs are equal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tsograph.producers.graph.incremental import BuildState  # noqa: E402
from tsograph.producers.graph.incremental import rebuild  # noqa: E402
from tsograph.producers.graph.options import GraphOptions  # noqa: E402
from tsograph.producers.graph.records import graph_records  # noqa: E402

APPENDED = b"\nexport function tsographBenchmarkEdit() { return 1; }\n"


def _document(state: BuildState) -> bytes:
    return orjson.dumps(graph_records(state.graph), option=orjson.OPT_SORT_KEYS)


def _importers(state: BuildState) -> dict[str, int]:
    counts: dict[str, int] = {path: 0 for path in state.resolved}
    for path, specifiers in state.resolved.items():
        for target in {target for _, target in specifiers if target is not None}:
            if target != path:
                counts[target] = counts.get(target, 0) + 1
    return counts


def _timed(action: Callable[[], BuildState]) -> tuple[tuple[float, float], BuildState]:
    """(wall, CPU) seconds of one build; on a shared machine the CPU time is steadier (the
    process runs no workers once the facts are cached)."""
    start, cpu = time.perf_counter(), time.process_time()
    state = action()
    return (time.perf_counter() - start, time.process_time() - cpu), state


def _medians(times: list[tuple[float, float]]) -> str:
    wall = statistics.median(item[0] for item in times)
    cpu = statistics.median(item[1] for item in times)
    return f"median {wall:.2f} s wall, {cpu:.2f} s CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", required=True, help="a writable copy of a project")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = Path(args.project).resolve()
    with tempfile.TemporaryDirectory(prefix="tsograph-incr-") as cache:

        def build(previous: BuildState | None) -> BuildState:
            return rebuild(previous, GraphOptions(str(root), cache_dir=cache))

        cold, base = _timed(lambda: build(None))
        full_times = [_timed(lambda: build(None))[0]]
        print(f"project: {root.name} ({len(base.facts)} sources)")
        print(f"full build, cold facts: {cold[0]:.2f} s wall")
        print(f"full in-process rebuild, warm facts: {_medians(full_times)}")
        importers = _importers(base)
        shared = max(sorted(importers), key=lambda path: importers[path])
        # The leaf with the most call sites: nothing imports it, so only it is bound again.
        leaves = [path for path in sorted(importers) if importers[path] == 0]
        leaf = max(leaves, key=lambda path: len(base.facts[path].calls))
        edits: list[tuple[str, str, Callable[[bytes], bytes]]] = [
            ("leaf", leaf, lambda data: data + APPENDED),
            ("shared, moved", shared, lambda data: b"\n" + data),
            ("shared, export", shared, lambda data: data + APPENDED),
        ]
        for name, path, change in edits:
            file = root / path
            original = file.read_bytes()
            times: list[tuple[float, float]] = []
            equal = False
            rebound = 0
            flow_kept = False
            try:
                for _ in range(args.runs):
                    file.write_bytes(change(original))
                    elapsed, state = _timed(lambda: build(base))
                    times.append(elapsed)
                    rebound = len(state.rebound or state.facts)
                    flow_kept = state.flow_kept
                    if len(times) == 1:  # once per edit: a full rebuild costs many edits
                        equal = _document(state) == _document(build(None))
                    file.write_bytes(original)
            finally:
                file.write_bytes(original)
            print(
                f"{name:>15}: {path} ({importers[path]} importers), {rebound} file(s) bound "
                f"again, value flow {'kept' if flow_kept else 'computed again'}, "
                f"{_medians(times)}, equals full rebuild: {equal}"
            )


if __name__ == "__main__":
    main()
