"""Time `tsograph graph` cold and warm against the TypeScript compiler-API peer.

The peer is oracle/ts-graph/graph-oracle.mjs (a TypeScript Program and its
checker resolving every call, `new` and JSX site), run on the same project in
the same session. Each command runs in its own process; peak memory is the
maximum resident set size of that process tree, and CPU time its user plus
system time (on a shared machine the CPU time is the steadier figure).

`--edit` also times a run after a one-file edit (a comment appended to one
source, then restored), the case an editor or a query server meets.

    python benchmarks/graph.py                      # a generated 2,000-file project
    python benchmarks/graph.py --project ../some/repo --runs 3
    python benchmarks/graph.py --project ../some/repo --runs 3 --peer-runs 1

Prints the median wall times, peak memory and the ratios ours/peer. Needs
Node.js and `npm ci` in oracle/ts-graph (the script runs it when missing).
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ORACLE = REPO / "oracle" / "ts-graph"
MEASURE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime)\n"
    "sys.exit(code)\n"
)


@dataclass(frozen=True)
class Run:
    wall: float
    memory: int
    cpu: float


def generate_project(root: Path, files: int, seed: int = 7) -> None:
    """A TypeScript project shaped like a service: modules, classes, components, imports."""
    rng = random.Random(seed)
    (root / "src").mkdir(parents=True)
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"jsx": "react-jsx"}, "include": ["src"]}'
    )
    for index in range(files):
        lines = []
        for other in rng.sample(range(max(1, index)), min(index, 4)):
            lines.append(f"import {{ fn{other}, Service{other} }} from './m{other}';")
        lines.append(f"export class Service{index} {{")
        lines.append("  private items: string[] = [];")
        for method in range(6):
            lines.append(f"  method{method}(value: string) {{")
            lines.append(f"    this.items.push(value + '{method}');")
            if method:
                lines.append(f"    return this.method{method - 1}(value);")
            else:
                lines.append("    return this.items.length;")
            lines.append("  }")
        lines.append("}")
        lines.append(f"export function fn{index}(input: number): number {{")
        lines.append(f"  const service = new Service{index}();")
        lines.append("  service.method5(String(input));")
        for other in rng.sample(range(max(1, index)), min(index, 3)):
            lines.append(f"  if (input > {other}) return fn{other}(input - 1);")
        lines.append("  return [1, 2, 3].map((item) => item * input).reduce((a, b) => a + b, 0);")
        lines.append("}")
        lines.append(f"export const handler{index} = async (request: {{ url: string }}) => {{")
        lines.append(f"  return fn{index}(request.url.length);")
        lines.append("};")
        (root / "src" / f"m{index}.ts").write_text("\n".join(lines) + "\n")


def timed(command: list[str], cwd: Path) -> Run:
    start = time.perf_counter()
    # This checkout's code, whatever `tsograph` on PATH runs.
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], cwd=cwd, capture_output=True, text=True, env=env
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"benchmark command failed ({result.returncode}): {' '.join(command)}")
    memory, cpu = result.stdout.strip().splitlines()[-1].split()
    return Run(elapsed, int(memory) * 1024, float(cpu))


def edited(project: Path) -> Path:
    """The first TypeScript source in walk order: the file the edit run touches."""
    for path in sorted(project.rglob("*.ts")):
        if "node_modules" not in path.parts and not path.name.endswith(".d.ts"):
            return path
    raise SystemExit("no TypeScript source to edit")


def compile_bytecode() -> None:
    """As `pip install` does for a user: bytecode compiled before the first run. Where
    PYTHONDONTWRITEBYTECODE is set, no run would write it and each would compile every
    module it imports again (about a second of CPU)."""
    for folder in ("producers", "exchange", "schemas"):
        compileall.compile_dir(REPO / folder, quiet=2)


def ensure_peer() -> None:
    if not (ORACLE / "node_modules" / "typescript").is_dir():
        subprocess.run(["npm", "ci", "--silent"], cwd=ORACLE, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="a project to measure (default: a generated one)")
    parser.add_argument("--files", type=int, default=2000, help="files in the generated project")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edit", action="store_true", help="also time a one-file edit")
    parser.add_argument(
        "--peer-runs",
        type=int,
        help="runs of the peer (default: --runs); one run costs minutes on a loaded machine, "
        "and its CPU time moves with the load, so compare figures of one session only",
    )
    args = parser.parse_args()
    compile_bytecode()
    peer_runs = args.runs if args.peer_runs is None else args.peer_runs
    if peer_runs:
        ensure_peer()
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-bench-"))
    try:
        project = Path(args.project).resolve() if args.project else scratch / "project"
        if not args.project:
            generate_project(project, args.files)
        cache = scratch / "cache"
        ours = [
            sys.executable, "-m", "tsograph", "graph", "--project", str(project),
            "--cache-dir", str(cache),
        ]  # fmt: skip
        peer = ["node", str(ORACLE / "graph-oracle.mjs"), str(project)]
        runs: dict[str, list[Run]] = {"cold": [], "warm": [], "edit": [], "peer": []}
        target = edited(project) if args.edit else None
        for run in range(max(args.runs, peer_runs)):
            if run < peer_runs:
                runs["peer"].append(timed(peer, scratch))
            if run >= args.runs:
                continue
            shutil.rmtree(cache, ignore_errors=True)
            runs["cold"].append(timed(ours, scratch))
            runs["warm"].append(timed(ours, scratch))
            if target is not None:
                original = target.read_bytes()
                try:
                    target.write_bytes(original + b"\n// edited\n")
                    runs["edit"].append(timed(ours, scratch))
                finally:
                    target.write_bytes(original)
        names = [name for name, measured in runs.items() if measured]
        wall = {name: statistics.median(run.wall for run in runs[name]) for name in names}
        cpu = {name: statistics.median(run.cpu for run in runs[name]) for name in names}
        memory = {name: max(run.memory for run in runs[name]) for name in names}
        files = sum(1 for _ in project.rglob("*.ts")) + sum(1 for _ in project.rglob("*.tsx"))
        print(
            f"project: {project.name} ({files} TypeScript files), {args.runs} run(s) each, "
            f"peer {peer_runs}; load average {os.getloadavg()[0]:.1f}"
        )
        for name in names:
            print(
                f"{name:>5}: median {wall[name]:.2f} s wall, {cpu[name]:.2f} s CPU, "
                f"peak {memory[name] / 2**20:.0f} MiB"
            )
        if "peer" not in wall:
            return  # --peer-runs 0: our own figures only
        for name in names[:-1]:
            print(
                f"ratio {name}/peer: wall {wall[name] / wall['peer']:.3f}, "
                f"CPU {cpu[name] / cpu['peer']:.3f}"
            )
        print(f"peak memory cold/peer: {memory['cold'] / memory['peer']:.3f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
