"""Time new-process `tsograph graph` runs answered by `tsograph serve` after one-file edits.

Starts `tsograph serve` on a project, runs `graph` once through it, then
appends one line to one source at a time (each edit keeps the earlier ones,
as a person typing does) and times a new `graph` process after each. Every
figure is of a new process, as a user or a tool meets it: wall time, the
client process's CPU time, and the server's CPU time spent on the request
(read from /proc). At the end the last served document is compared with a
run that builds the graph itself (`--no-server`), byte for byte.

    cp -r <repo> /tmp/copy
    python benchmarks/served_edit.py --project /tmp/copy --file packages/prisma/index.ts \\
        --peer-cold 44.25
    python benchmarks/served_edit.py --project /tmp/copy --measure-peer

The edited file is restored at the end. `--peer-cold` is the peer's cold wall
time from `benchmarks/graph.py` in the same session; `--measure-peer` runs
the peer (oracle/ts-graph, Node.js) once here instead.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from graph import ORACLE
from graph import REPO
from graph import Run
from graph import edited
from graph import ensure_peer
from graph import timed

GENERATED = "2026-01-01T00:00:00.000Z"
# {run} keeps the trees of two benchmark runs apart, so that the --no-server run at the
# end finds no graph cached for its tree by an earlier run and binds every file.
LINES = {
    "export": "export const tsographServedEdit{index}x{run} = {index};",
    "comment": "// tsograph served edit {index} of run {run}",
}


def measured(command: list[str], env: dict[str, str], cwd: Path, out: Path | None = None) -> Run:
    """One process's wall time, peak memory and CPU time (graph.timed runs a wrapper
    interpreter, whose own start would count in the wall time here); its stdout goes to
    `out`, or nowhere."""
    start = time.perf_counter()
    with open(out or os.devnull, "wb") as stdout:
        process = subprocess.Popen(command, env=env, cwd=cwd, stdout=stdout)
        _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"benchmark command failed ({process.returncode}): {' '.join(command)}")
    return Run(elapsed, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime)


def server_cpu(pid: int) -> float:
    """CPU seconds (user plus system) the server process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", required=True, help="a writable copy of a project")
    parser.add_argument("--file", help="the source to edit, relative to the project")
    parser.add_argument("--edits", type=int, default=5, help="edits of each kind")
    parser.add_argument("--kinds", default="export,comment", help="of: " + ", ".join(LINES))
    parser.add_argument(
        "--cache-dir", help="a facts cache to reuse (default: a new one, so the server parses)"
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--peer-cold", type=float, help="the peer's cold wall seconds")
    group.add_argument("--measure-peer", action="store_true", help="run the peer once")
    args = parser.parse_args()
    project = Path(args.project).resolve()
    target = project / args.file if args.file else edited(project)
    scratch = Path(tempfile.mkdtemp(prefix="tsg-served-", dir="/tmp"))
    cache = Path(args.cache_dir).resolve() if args.cache_dir else scratch / "c"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    tool = [sys.executable, "-m", "tsograph"]
    scope = ["--project", str(project), "--cache-dir", str(cache)]
    graph = ["graph", *scope, "--generated-at", GENERATED]
    original = target.read_bytes()
    server = subprocess.Popen(
        [*tool, "serve", *scope, "--idle-timeout", "900"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    try:
        started = server.stderr.readline().strip()
        if "holding the graph" not in started:
            raise SystemExit(f"the server did not start: {started}")

        def served() -> tuple[Run, float, str]:
            before = server_cpu(server.pid)
            run = measured([*tool, *graph], env, scratch)
            assert server.stderr is not None
            said = server.stderr.readline().strip()
            if "graph answered" not in said:
                raise SystemExit(f"the server did not answer: {said}")
            return run, server_cpu(server.pid) - before, said.split("(", 1)[-1].rstrip(")")

        first, first_server, _ = served()
        print(f"project: {project.name}; edited: {target.relative_to(project)}")
        print(
            f"first run through the server: {first.wall:.2f} s wall, client {first.cpu:.2f} s "
            f"CPU, server {first_server:.2f} s CPU"
        )
        index = 0
        medians: dict[str, float] = {}
        for kind in args.kinds.split(","):
            walls, clients, servers = [], [], []
            for _ in range(args.edits):
                index += 1
                line = LINES[kind].format(index=index, run=os.getpid())
                with target.open("ab") as handle:
                    handle.write(f"\n{line}\n".encode())
                run, spent, bound = served()
                walls.append(run.wall)
                clients.append(run.cpu)
                servers.append(spent)
                print(
                    f"  {kind} edit {index}: {run.wall:.2f} s wall, client {run.cpu:.2f} s CPU, "
                    f"server {spent:.2f} s CPU ({bound})"
                )
            medians[kind] = statistics.median(walls)
            print(
                f"{kind} edits, median of {args.edits}: {medians[kind]:.2f} s wall, client "
                f"{statistics.median(clients):.2f} s CPU, server "
                f"{statistics.median(servers):.2f} s CPU"
            )
        answer, itself = scratch / "served.json", scratch / "itself.json"
        measured([*tool, *graph], env, scratch, answer)
        server.stderr.readline()
        alone = measured([*tool, *graph, "--no-server"], env, scratch, itself)
        print(
            f"the same run with --no-server (binds every file): {alone.wall:.2f} s wall, "
            f"{alone.cpu:.2f} s CPU; same document: {answer.read_bytes() == itself.read_bytes()}"
        )
        peer = args.peer_cold
        if args.measure_peer:
            ensure_peer()
            peer = timed(["node", str(ORACLE / "graph-oracle.mjs"), str(project)], scratch).wall
            print(f"peer cold: {peer:.2f} s wall")
        if peer:
            for kind, wall in medians.items():
                print(f"ratio {kind} edit / peer cold: {wall / peer:.3f} (peer {peer:.2f} s)")
        print(f"load average {os.getloadavg()[0]:.1f}")
    finally:
        target.write_bytes(original)
        subprocess.run([*tool, "serve", *scope, "--stop"], env=env, capture_output=True)
        server.wait(60)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
