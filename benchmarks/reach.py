"""Time reach and impact with 1, 100 and 10,000 roots on a generated 200,000-node graph.

Each traversal runs in its own process so its peak memory is its own. The
graph is written once as a tsograph-graph snapshot and read back with
`--graph-file`, the way a trace pipeline would, so the times include reading
and validating the snapshot.

    python benchmarks/reach.py [--nodes 200000] [--dispatch bound] [--phases]
                               [--counts 1,100,10000] [--directions reach,impact]

Prints, per direction and root count, the wall time, peak memory, and how
many symbols were reached, so growth against roots x reached can be read off.
With --phases, each case also runs once in this process through the same
functions the command calls, and the seconds of each step are printed:
reading and parsing the snapshot, validating it, numbering the graph, the
mode's edges, the spread, evidence, output records, and writing (rendering and
validating the document, as write_document does).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

from tsograph.exchange import documents
from tsograph.exchange.errors import OutputError
from tsograph.exchange.writer import write_document
from tsograph.producers.graph.indexed import IndexedGraph
from tsograph.producers.graph.model import Edge
from tsograph.producers.graph.model import Graph
from tsograph.producers.graph.model import Node
from tsograph.producers.graph.model import edge_record
from tsograph.producers.graph.model import node_record
from tsograph.producers.graph.snapshot_checks import validate_snapshot
from tsograph.producers.graph.traversal import traverse
from tsograph.producers.graph.traversal_checks import validate_traversal

MEASURE = (
    "import resource, subprocess, sys\n"
    "result = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)\n"
    "sys.stderr.write(f'{len(result.stdout)} {result.returncode}\\n')\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def generate(nodes: int, seed: int = 11) -> Graph:
    """Layers of callers and callees, like a service: fan-out 3, a few back edges."""
    rng = random.Random(seed)
    ids = [f"src/m{index // 20}.ts#f{index}" for index in range(nodes)]
    location = {"path": "src/m.ts", "line": 1, "column": 1}
    graph_nodes = {node_id: Node(node_id, "function", location) for node_id in ids}
    edges = []
    for index, node_id in enumerate(ids):
        for _ in range(3):
            forward = rng.random() > 0.05
            target = (
                rng.randrange(index + 1, nodes)
                if forward and index + 1 < nodes
                else rng.randrange(nodes)
            )
            tier = rng.choices(("direct", "bound", "candidate"), weights=(90, 6, 4))[0]
            edges.append(Edge(node_id, ids[target], ("call",), tier))
    return Graph(graph_nodes, edges)


def write_snapshot(graph: Graph, path: Path) -> None:
    document = documents.graph_snapshot(
        project="generated",
        generated="2026-01-01T00:00:00.000Z",
        graph_revision=graph.revision(),
        revision=None,
        statistics={"nodes": len(graph.nodes), "edges": len(graph.edges)},
        limitations=[],
        nodes=[node_record(node) for node in graph.nodes.values()],
        edges=[edge_record(edge) for edge in graph.edges],
    )
    path.write_bytes(orjson.dumps(document))


def phases(snapshot: Path, direction: str, dispatch: str, roots: list[str]) -> str:
    """The seconds of each step of one traversal, as the command takes them."""
    gc.disable()  # as producers/cli.py runs every command
    try:
        return _phases(snapshot, direction, dispatch, roots)
    finally:
        gc.enable()


def _phases(snapshot: Path, direction: str, dispatch: str, roots: list[str]) -> str:
    took: dict[str, float] = {}
    start = time.perf_counter()
    document = orjson.loads(snapshot.read_bytes())
    took["read"] = time.perf_counter() - start
    start = time.perf_counter()
    validate_snapshot(document)
    took["validate"] = time.perf_counter() - start
    start = time.perf_counter()
    graph = IndexedGraph.from_records(document["nodes"], document["edges"])
    took["index"] = time.perf_counter() - start
    direction_name = "dependencies" if direction == "reach" else "dependents"
    result = traverse(graph, roots, direction=direction_name, mode=dispatch, phases=took)
    start = time.perf_counter()
    output = documents.language_traversal(
        direction=direction_name,
        dispatch=dispatch,
        project="generated",
        generated="2026-01-01T00:00:00.000Z",
        graph_revision=document["graphRevision"],
        revision=None,
        roots=result.roots,
        reached=result.reached,
        truncation_reasons=result.truncation_reasons,
        limitations=result.limitations,
    )
    with contextlib.suppress(OutputError):  # over the exchange cap, as the command reports
        write_document(output, io.BytesIO(), check=validate_traversal)
    took["write"] = time.perf_counter() - start
    return ", ".join(f"{name} {seconds:.2f}" for name, seconds in took.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--dispatch", default="bound", choices=("direct", "bound", "candidates"))
    parser.add_argument("--phases", action="store_true", help="also print seconds per step")
    parser.add_argument("--counts", default="1,100,10000", help="root counts, comma-separated")
    parser.add_argument("--directions", default="reach,impact", help="reach, impact or both")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="tsograph-reach-"))
    try:
        graph = generate(args.nodes)
        snapshot = scratch / "graph.json"
        write_snapshot(graph, snapshot)
        ids = sorted(graph.nodes)
        rng = random.Random(5)
        tsograph = shutil.which("tsograph") or "tsograph"
        print(
            f"graph: {len(graph.nodes)} nodes, {len(graph.edges)} edges, dispatch {args.dispatch}"
        )
        for direction in args.directions.split(","):
            for count in map(int, args.counts.split(",")):
                roots = rng.sample(ids, count)
                command = [
                    tsograph,
                    direction,
                    "--graph-file",
                    str(snapshot),
                    "--dispatch",
                    args.dispatch,
                ]
                start = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-c", MEASURE, *command, *roots],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                elapsed = time.perf_counter() - start
                peak = int(done.stdout.strip().splitlines()[-1]) * 1024
                size, code = map(int, done.stderr.strip().splitlines()[-1].split())
                # Exit 2 here means the document was over the 16 Mi-character exchange cap.
                print(
                    f"{direction:>6} {count:>6} roots: {elapsed:6.2f} s, "
                    f"peak {peak / 2**20:6.0f} MiB, output {size / 2**20:6.1f} MiB, exit {code}"
                )
                if args.phases:
                    print(f"{'':>20}{phases(snapshot, direction, args.dispatch, roots)}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
