"""Time `tsograph graph` cold and warm against the TypeScript compiler-API peer.

The peer is oracle/ts-graph/graph-oracle.mjs (a TypeScript Program and its
checker resolving every call, `new` and JSX site), run on the same project in
the same session. Each command runs in its own process; peak memory is the
maximum resident set size of that process tree.

    python benchmarks/graph.py                      # a generated 2,000-file project
    python benchmarks/graph.py --project ../some/repo --runs 3

Prints the median wall times, peak memory and the ratios ours/peer. Needs
Node.js and `npm ci` in oracle/ts-graph (the script runs it when missing).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ORACLE = REPO / "oracle" / "ts-graph"
MEASURE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(code)\n"
)


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


def timed(command: list[str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], cwd=cwd, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"benchmark command failed ({result.returncode}): {' '.join(command)}")
    return elapsed, int(result.stdout.strip().splitlines()[-1]) * 1024


def ensure_peer() -> None:
    if not (ORACLE / "node_modules" / "typescript").is_dir():
        subprocess.run(["npm", "ci", "--silent"], cwd=ORACLE, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", help="a project to measure (default: a generated one)")
    parser.add_argument("--files", type=int, default=2000, help="files in the generated project")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ensure_peer()
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-bench-"))
    try:
        project = Path(args.project).resolve() if args.project else scratch / "project"
        if not args.project:
            generate_project(project, args.files)
        tsograph = shutil.which("tsograph") or "tsograph"
        cache = scratch / "cache"
        ours = [tsograph, "graph", "--project", str(project), "--cache-dir", str(cache)]
        peer = ["node", str(ORACLE / "graph-oracle.mjs"), str(project)]
        cold, warm, peer_runs = [], [], []
        for _ in range(args.runs):
            shutil.rmtree(cache, ignore_errors=True)
            cold.append(timed(ours, scratch))
            warm.append(timed(ours, scratch))
            peer_runs.append(timed(peer, scratch))
        median = {
            name: statistics.median(t for t, _ in runs)
            for name, runs in (("cold", cold), ("warm", warm), ("peer", peer_runs))
        }
        memory = {
            name: max(m for _, m in runs)
            for name, runs in (("cold", cold), ("warm", warm), ("peer", peer_runs))
        }
        files = sum(1 for _ in project.rglob("*.ts")) + sum(1 for _ in project.rglob("*.tsx"))
        print(f"project: {project.name} ({files} TypeScript files), {args.runs} run(s) each")
        for name in ("cold", "warm", "peer"):
            print(f"{name:>5}: median {median[name]:.2f} s, peak {memory[name] / 2**20:.0f} MiB")
        print(f"ratio cold/peer: {median['cold'] / median['peer']:.3f}")
        print(f"ratio warm/peer: {median['warm'] / median['peer']:.3f}")
        print(f"peak memory cold/peer: {memory['cold'] / memory['peer']:.3f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
