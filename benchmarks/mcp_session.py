"""Time `tsograph mcp` on a real repository, driven by the `mcp` SDK's stdio client.

    python benchmarks/mcp_session.py REPO SYMBOL [--cache-dir DIR] [--asks 22] [--edit FILE]
        [--settle SECONDS]

Prints the seconds of the first graph_callers (which builds or loads the
graph), of later questions answered from the held build (callers at each
depth, callees, symbol, impact, routes, references, tests, search, status in
turn; the slowest is named), and of
graph_refresh: after touching no file (a reload through the caches), or with
--edit after appending one line to FILE (a path in REPO; give a writable copy
of the repository), once graph_status has seen laterEditsKnown turn true; with
--settle, after waiting that long first (the server's CPU meanwhile is printed:
a session whose first build came from a kept build or the graph cache binds
its refresh state in the background then). The
file is restored afterwards. Beside each wall time, the CPU seconds the server
process spent (read from /proc on Linux; on a shared machine the steadier figure).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import anyio
import orjson
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters
from mcp.client.stdio import stdio_client

REPO_ROOT = Path(__file__).resolve().parents[1]


def _server_cpu() -> float | None:
    """CPU seconds (user + system) of this process's children so far: the server (Linux)."""
    total, found = 0.0, False
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():  # the parent pid, after the state field
            total += (int(fields[11]) + int(fields[12])) / ticks
            found = True
    return total if found else None


def _cpu_since(before: float | None) -> str:
    after = _server_cpu()
    return "" if before is None or after is None else f", server CPU {after - before:.2f} s"


async def run(
    repo: str, symbol: str, cache_dir: str | None, asks: int, edit: str | None, settle: float
) -> None:
    args = ["-m", "tsograph", "mcp", "--repo", repo]
    if cache_dir:
        args += ["--cache-dir", cache_dir]
    parameters = StdioServerParameters(
        command=sys.executable, args=args, env={"PYTHONPATH": str(REPO_ROOT)}
    )
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        started, cpu = time.perf_counter(), _server_cpu()
        result = await session.call_tool("graph_callers", {"symbol": symbol})
        first = time.perf_counter() - started
        document = orjson.loads(result.content[0].text)
        print(f"first graph_callers: {first:.2f} s ({document['graph']['mode']}{_cpu_since(cpu)})")
        print(f"  counts {document.get('counts')}, error {document.get('error')}")
        later: list[tuple[float, str]] = []
        short = symbol.rpartition("#")[2].rpartition(".")[2]
        questions = [
            ("graph_callers", {"symbol": symbol, "depth": 1}),
            ("graph_callers", {"symbol": symbol, "depth": 2}),
            ("graph_callers", {"symbol": symbol, "depth": 3}),
            ("graph_callees", {"symbol": symbol, "depth": 2}),
            ("graph_symbol", {"symbol": symbol}),
            ("graph_impact", {"symbol": symbol}),
            ("graph_routes", {"symbol": symbol}),
            ("graph_references", {"symbol": symbol}),
            ("graph_tests", {"symbol": symbol}),
            ("graph_search", {"text": short}),
            ("graph_status", {}),
        ]
        for number in range(asks):
            tool, arguments = questions[number % len(questions)]
            started = time.perf_counter()
            await session.call_tool(tool, arguments)
            later.append((time.perf_counter() - started, tool))
        mean = sum(seconds for seconds, _ in later) / len(later)
        slowest = max(later)
        print(f"later answers: max {slowest[0]:.3f} s ({slowest[1]}), mean {mean:.3f} s")
        if settle:
            # A person reads the answers before editing; meanwhile a server whose first
            # build came from a kept build or the graph cache binds its refresh state.
            cpu = _server_cpu()
            await anyio.sleep(settle)
            print(f"settled {settle:.0f} s{_cpu_since(cpu)}")
        edited = Path(repo) / edit if edit else None
        original = edited.read_bytes() if edited else b""
        try:
            if edited is not None:
                edited.write_bytes(original + b"\nexport const benchmarkEdit = 1;\n")
                time.sleep(1.1)  # freshness is checked at most once a second
                status = await session.call_tool("graph_status", {})
                freshness = orjson.loads(status.content[0].text)["graph"]["freshness"]
                print(f"after the edit: laterEditsKnown {freshness['laterEditsKnown']}")
            started, cpu = time.perf_counter(), _server_cpu()
            result = await session.call_tool("graph_refresh", {})
            mode = orjson.loads(result.content[0].text)["graph"]["mode"]
            what = "after a one-file edit" if edited else "no file changed"
            seconds = time.perf_counter() - started
            print(f"graph_refresh ({what}): {seconds:.2f} s ({mode}{_cpu_since(cpu)})")
        finally:
            if edited is not None:
                edited.write_bytes(original)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("symbol")
    parser.add_argument("--cache-dir")
    parser.add_argument("--asks", type=int, default=22)
    parser.add_argument("--edit", metavar="FILE", help="append a line to FILE, then refresh")
    parser.add_argument(
        "--settle",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait this long after the questions, before the edit (a background "
        "preparation of the refresh state runs meanwhile)",
    )
    args = parser.parse_args()
    anyio.run(run, args.repo, args.symbol, args.cache_dir, args.asks, args.edit, args.settle)


if __name__ == "__main__":
    main()
