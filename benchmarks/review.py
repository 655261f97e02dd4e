"""Time `tsograph review` against a warm `tsograph graph` on the same git work tree.

The target (issue 22): a review answers in at most 2x a warm graph build. One
cache directory serves every run: `graph` fills it first (the facts of every
file and the work tree's graph), then

- the first review of the base (its graph is built from the cached facts,
  only files the base alone holds are parsed; its files are written once into
  the cache folder's review-bases/),
- warm reviews of the same change (both graphs and the schema scan come from
  the cache, as for a second push to the same pull request),
- warm graphs.

    python benchmarks/review.py --project /tmp/documenso --base HEAD~1 --runs 3

The commands run this checkout, each in its own process. Prints median wall and
CPU times, peak memory, and the ratios review/graph; on a shared machine the
CPU ratio is the steadier figure.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph import Run
from graph import timed


def _line(name: str, runs: list[Run]) -> tuple[float, float]:
    wall = statistics.median(run.wall for run in runs)
    cpu = statistics.median(run.cpu for run in runs)
    peak = max(run.memory for run in runs) / 2**20
    print(f"{name:>13}: median {wall:.2f} s wall, {cpu:.2f} s CPU, peak {peak:.0f} MiB")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", required=True, help="a folder of a git work tree")
    parser.add_argument("--base", default="HEAD~1", help="the review's --base (default HEAD~1)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-review-bench-"))
    try:
        project = str(Path(args.project).resolve())
        cache = ["--cache-dir", str(scratch / "cache")]
        tsograph = [sys.executable, "-m", "tsograph"]
        graph = [*tsograph, "graph", "--project", project, *cache]
        review = [*tsograph, "review", "--project", project, "--base", args.base, *cache]
        timed(graph, scratch)
        first = [timed(review, scratch)]
        reviews = [timed(review, scratch) for _ in range(args.runs)]
        graphs = [timed(graph, scratch) for _ in range(args.runs)]
        print(f"project: {Path(project).name}, base {args.base}, {args.runs} run(s) each")
        first_wall, first_cpu = _line("first review", first)
        review_wall, review_cpu = _line("warm review", reviews)
        graph_wall, graph_cpu = _line("warm graph", graphs)
        print(
            f"ratio warm review/warm graph: {review_wall / graph_wall:.2f} wall, "
            f"{review_cpu / graph_cpu:.2f} CPU"
        )
        print(
            f"ratio first review/warm graph: {first_wall / graph_wall:.2f} wall, "
            f"{first_cpu / graph_cpu:.2f} CPU"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
