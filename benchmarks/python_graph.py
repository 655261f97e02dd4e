"""Time `tsograph graph --language python` cold against pyan3 on the same Python files.

    python -m venv /tmp/pyan && /tmp/pyan/bin/pip install pyan3     # once, never a test dependency
    python benchmarks/python_graph.py --project <tree> --pyan3 /tmp/pyan/bin/pyan3 [--runs 3]

tsograph runs this checkout (`python -m tsograph` with the repository on
PYTHONPATH) with `--no-cache`, so every file is parsed and bound each run.
pyan3 is given the files tsograph read (one `<module>` node per file in the
snapshot), as `pyan3 <files> --uses --no-defines --text`. Each command runs in
its own process; the script prints the median wall times, peak memory, the
ratio tsograph/pyan3 and each tool's time per 1,000 files. A pyan3 run that
fails is reported with its exit code and last error line, not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph import MEASURE
from graph import REPO
from graph import timed


def snapshot_files(project: Path, scratch: Path) -> list[str]:
    """The files the graph read, from one run's snapshot."""
    command = [sys.executable, "-m", "tsograph", "graph", "--project", str(project)]
    result = subprocess.run(
        [*command, "--language", "python", "--no-cache"],
        cwd=scratch,
        capture_output=True,
        check=True,
    )
    nodes = json.loads(result.stdout)["nodes"]
    return sorted(
        node["id"].rpartition("#")[0] for node in nodes if node["id"].endswith("#<module>")
    )


def peer_timed(command: list[str], cwd: Path) -> tuple[float, int] | str:
    """Wall time and peak memory of one pyan3 run, or why it failed (its last error line)."""
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], cwd=cwd, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        error = (result.stderr.strip().splitlines() or [""])[-1]
        return f"failed (exit {result.returncode}): {error[:200]}"
    return elapsed, int(result.stdout.strip().splitlines()[-1]) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", required=True, help="the Python tree to measure")
    parser.add_argument("--pyan3", required=True, help="the pyan3 script of a scratch venv")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    paths = (str(REPO), os.environ.get("PYTHONPATH", ""))
    os.environ["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    project = Path(args.project).resolve()
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-pybench-"))
    try:
        files = snapshot_files(project, scratch)
        ours = [sys.executable, "-m", "tsograph", "graph", "--project", str(project)]
        ours += ["--language", "python", "--no-cache"]
        peer = [args.pyan3, *files, "--uses", "--no-defines", "--text"]
        peer += ["--file", str(scratch / "pyan.txt")]
        ours_runs = [timed(ours, scratch) for _ in range(args.runs)]
        print(f"project: {project.name}, {len(files)} Python files, {args.runs} run(s) each")
        rows = [("tsograph", ours_runs)]
        peer_runs = [peer_timed(peer, project) for _ in range(args.runs)]
        failed = [run for run in peer_runs if isinstance(run, str)]
        if failed:
            print(f"   pyan3: {failed[0]}")
        else:
            rows.append(("pyan3", [run for run in peer_runs if not isinstance(run, str)]))
        medians = {}
        for name, runs in rows:
            median = statistics.median(seconds for seconds, _ in runs)
            medians[name] = median
            peak = max(memory for _, memory in runs) / 2**20
            per_thousand = median / len(files) * 1000
            print(
                f"{name:>8}: median {median:.2f} s, peak {peak:.0f} MiB, "
                f"{per_thousand:.2f} s per 1,000 files"
            )
        if "pyan3" in medians:
            print(f"ratio tsograph/pyan3 (cold): {medians['tsograph'] / medians['pyan3']:.2f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
