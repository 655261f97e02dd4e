"""Time `tsograph schema` against a cold `tsograph graph` on a project with no database code.

The schema scan must not pay for what it does not need: on a project without
Prisma, ORM or SQL code it should take a small fraction of the time a cold
graph build takes on the same sources (the target is under 0.2x).

    python benchmarks/schema.py                    # a generated 2,000-file project
    python benchmarks/schema.py --project ../some/repo --runs 3

Prints the median wall times, peak memory and the ratio schema/graph.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph import generate_project, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="a project to measure (default: a generated one)")
    parser.add_argument("--files", type=int, default=2000, help="files in the generated project")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-schema-"))
    try:
        project = Path(args.project).resolve() if args.project else scratch / "project"
        if not args.project:
            generate_project(project, args.files)
        tsograph = shutil.which("tsograph") or "tsograph"
        schema = [tsograph, "schema", "--project", str(project)]
        graph = [tsograph, "graph", "--project", str(project), "--no-cache"]
        schema_runs = [timed(schema, scratch) for _ in range(args.runs)]
        graph_runs = [timed(graph, scratch) for _ in range(args.runs)]
        schema_time = statistics.median(t for t, _ in schema_runs)
        graph_time = statistics.median(t for t, _ in graph_runs)
        print(f"project: {project.name}, {args.runs} run(s) each")
        for name, runs, median in (
            ("schema", schema_runs, schema_time),
            ("graph", graph_runs, graph_time),
        ):
            peak = max(memory for _, memory in runs) / 2**20
            print(f"{name:>6}: median {median:.2f} s, peak {peak:.0f} MiB")
        print(f"ratio schema/graph (cold): {schema_time / graph_time:.3f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
