"""Bound dispatch on a common member name, side by side with the TypeScript compiler-API peer.

The generated project has N modules, each with a class whose `store` field is
written in its constructor and again from outside (`h.store = …`), and a
call `this.store.find()` through an interface: every flow query asks about
the same property name, which is where per-value write scans go quadratic.
With `--detached`, each module also reads `h.run` as a value, which opens
`this` (the flows become unknown, and no bound edge may appear).

    python benchmarks/bound.py                 # 1,500 modules
    python benchmarks/bound.py --modules 3000 --detached

Prints the median wall time of `tsograph graph` (cold, no cache), of the
peer (oracle/ts-graph/graph-oracle.mjs: a Program and checker resolving every
call site), their ratio, and the bound edges found.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph import ORACLE
from graph import ensure_peer
from graph import timed


def generate(root: Path, modules: int, detached: bool) -> None:
    source = root / "src"
    source.mkdir(parents=True)
    (source / "store.ts").write_text(
        "export interface Store { find(): string }\n"
        "export class Sql implements Store { find() { return 's'; } }\n",
        encoding="utf-8",
    )
    for index in range(modules):
        extra = f"export const detached{index} = h{index}.run;\n" if detached else ""
        (source / f"m{index}.ts").write_text(
            f"import {{ Store, Sql }} from './store';\n"
            f"export class H{index} {{\n"
            f"  store: Store;\n"
            f"  constructor(s: Store) {{ this.store = s; }}\n"
            f"  run() {{ return this.store.find(); }}\n"
            f"}}\n"
            f"const h{index} = new H{index}(new Sql());\n"
            f"h{index}.store = new Sql();\n"
            f"{extra}"
            f"h{index}.run();\n",
            encoding="utf-8",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", type=int, default=1500)
    parser.add_argument("--detached", action="store_true", help="also read each run detached")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ensure_peer()
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-bound-"))
    try:
        project = scratch / "project"
        generate(project, args.modules, args.detached)
        tsograph = shutil.which("tsograph") or "tsograph"
        ours = [tsograph, "graph", "--project", str(project), "--no-cache"]
        peer = ["node", str(ORACLE / "graph-oracle.mjs"), str(project)]
        ours_runs = [timed(ours, scratch)[0] for _ in range(args.runs)]
        peer_runs = [timed(peer, scratch)[0] for _ in range(args.runs)]
        document = orjson.loads(subprocess.run(ours, capture_output=True, check=True).stdout)
        bound = sum(1 for edge in document["edges"] if edge["evidence"] == "bound")
        ours_median = statistics.median(ours_runs)
        peer_median = statistics.median(peer_runs)
        print(f"modules: {args.modules}, detached reads: {args.detached}, {args.runs} run(s)")
        print(f" ours: median {ours_median:.2f} s ({bound} bound edges)")
        print(f" peer: median {peer_median:.2f} s")
        print(f"ratio ours/peer: {ours_median / peer_median:.3f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
