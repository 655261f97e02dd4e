"""Time `tsograph schema` against `tsograph graph` on the same project, side by side.

Two comparisons:

- cold (the default): `schema` against a cold `graph` on a project with no
  database code. The schema scan must not pay for what it does not need; the
  target is under 0.2x.
- warm (`--warm`): both commands once to fill one cache directory, then each
  timed on the unchanged project. Neither parses a file then, so the ratio is
  what schema's own reading costs over the graph's; the target is at most 1.5x
  on a 100-file project (drizzle-orm's integration-tests is the usual one).

    python benchmarks/schema.py                    # a generated 2,000-file project, cold
    python benchmarks/schema.py --warm --project ../drizzle-orm/integration-tests

The commands run this checkout (`python -m tsograph` with the repository on
PYTHONPATH), each in its own process. Prints the median wall times, peak
memory and the ratio schema/graph.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph import REPO
from graph import compile_bytecode
from graph import generate_project
from graph import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="a project to measure (default: a generated one)")
    parser.add_argument("--files", type=int, default=2000, help="files in the generated project")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm", action="store_true", help="compare warm runs on one cache")
    args = parser.parse_args()
    compile_bytecode()
    paths = (str(REPO), os.environ.get("PYTHONPATH", ""))
    os.environ["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-schema-"))
    try:
        project = Path(args.project).resolve() if args.project else scratch / "project"
        if not args.project:
            generate_project(project, args.files)
        tsograph = [sys.executable, "-m", "tsograph"]
        cache = ["--cache-dir", str(scratch / "cache")] if args.warm else ["--no-cache"]
        schema = [*tsograph, "schema", "--project", str(project), *cache]
        graph = [*tsograph, "graph", "--project", str(project), *cache]
        if args.warm:
            timed(graph, scratch)
            timed(schema, scratch)
        schema_runs = [timed(schema, scratch) for _ in range(args.runs)]
        graph_runs = [timed(graph, scratch) for _ in range(args.runs)]
        schema_time = statistics.median(run.wall for run in schema_runs)
        graph_time = statistics.median(run.wall for run in graph_runs)
        mode = "warm" if args.warm else "cold"
        print(f"project: {project.name}, {mode}, {args.runs} run(s) each")
        for name, runs, median in (
            ("schema", schema_runs, schema_time),
            ("graph", graph_runs, graph_time),
        ):
            peak = max(run.memory for run in runs) / 2**20
            print(f"{name:>6}: median {median:.2f} s, peak {peak:.0f} MiB")
        print(f"ratio schema/graph ({mode}): {schema_time / graph_time:.3f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
