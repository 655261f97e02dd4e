"""Record what the compiler-API graph oracle says about projects.

    python oracle/record_graph.py                  # every case under fixtures/graph/
    python oracle/record_graph.py --case NAME      # one case
    python oracle/record_graph.py --project DIR --out FILE [--tsconfig FILE]

A case is a folder `fixtures/graph/<case>/`; its project is the `project/`
folder inside it when there is one, else the case folder itself. Each
recording goes to `oracle/recordings/graph/<case>.json`: the oracle's edges and
node ids, sorted, with project-relative paths only, written with sorted keys so
that recording the same fixtures twice gives the same bytes.

This script needs Node.js and `npm ci` in oracle/ts-graph; tsograph's own tests
never run it, they replay the recordings.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ORACLE_DIR = HERE / "ts-graph"
ORACLE = ORACLE_DIR / "graph-oracle.mjs"
FIXTURES = REPO / "fixtures" / "graph"
RECORDINGS = HERE / "recordings" / "graph"
RECORDING_FORMAT = "tsograph-graph-oracle-recording"
RECORDING_VERSION = 1
TIMEOUT_SECONDS = 1800


class RecordError(Exception):
    """A problem that stops recording, reported as one line."""


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise RecordError("node is not on PATH")
    if not (ORACLE_DIR / "node_modules" / "typescript" / "package.json").is_file():
        raise RecordError("typescript is not installed: run `npm ci` in oracle/ts-graph")
    return node


def run_oracle(project: Path, tsconfig: str | None = None) -> dict[str, Any]:
    """Run the oracle on one project and return its parsed output."""
    command = [_node(), str(ORACLE), str(project.resolve())]
    if tsconfig is not None:
        command += ["--tsconfig", tsconfig]
    try:
        completed = subprocess.run(
            command,
            capture_output=True,
            check=False,
            timeout=TIMEOUT_SECONDS,
            cwd=ORACLE_DIR,
        )
    except subprocess.TimeoutExpired as error:
        raise RecordError(f"the oracle took longer than {TIMEOUT_SECONDS} s") from error
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        last = message[-1] if message else "no message"
        raise RecordError(f"the oracle exited with {completed.returncode}: {last}")
    output: dict[str, Any] = json.loads(completed.stdout)
    return output


def _edge_key(edge: dict[str, Any]) -> tuple[str, str, str, int, int]:
    return (edge["from"], edge["to"], edge["kind"], edge["line"], edge["column"])


def canonical(output: dict[str, Any], case: str) -> dict[str, Any]:
    """The recording: oracle output sorted, stripped of run-dependent fields."""
    stats = dict(output["stats"])
    stats.pop("time", None)
    return {
        "format": RECORDING_FORMAT,
        "version": RECORDING_VERSION,
        "case": case,
        "typescript": output["typescript"],
        "oracle": "oracle/ts-graph/graph-oracle.mjs",
        "edges": sorted(output["edges"], key=_edge_key),
        "nodes": sorted(set(output["nodes"])),
        "stats": stats,
    }


def render(recording: dict[str, Any], project: Path) -> str:
    text = json.dumps(recording, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if str(project.resolve()) in text:
        raise RecordError("the recording would contain an absolute path")
    return text


def record(project: Path, out: Path, case: str, tsconfig: str | None = None) -> dict[str, Any]:
    recording = canonical(run_oracle(project, tsconfig), case)
    text = render(recording, project)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(out.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(out)
    return recording


def case_project(case_dir: Path) -> Path:
    inner = case_dir / "project"
    return inner if inner.is_dir() else case_dir


def fixture_cases(only: str | None) -> list[Path]:
    cases = (
        sorted(path for path in FIXTURES.iterdir() if path.is_dir()) if FIXTURES.is_dir() else []
    )
    if only is not None:
        cases = [path for path in cases if path.name == only]
        if not cases:
            raise RecordError(f"no fixture case named {only}")
    return cases


def summary(recording: dict[str, Any]) -> str:
    kinds: dict[str, int] = {}
    for edge in recording["edges"]:
        kinds[edge["kind"]] = kinds.get(edge["kind"], 0) + 1
    counts = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return f"{len(recording['edges'])} edges ({counts or 'none'}), {len(recording['nodes'])} nodes"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", help="record only this fixture case")
    parser.add_argument("--project", type=Path, help="record any project folder")
    parser.add_argument("--out", type=Path, help="recording file for --project")
    parser.add_argument("--tsconfig", help="config file relative to the project (with --project)")
    args = parser.parse_args(argv)
    try:
        if args.project is not None or args.out is not None:
            if args.project is None or args.out is None:
                parser.error("--project and --out go together")
            if args.case is not None:
                parser.error("--case records fixtures; it does not go with --project")
            recording = record(args.project, args.out, args.project.resolve().name, args.tsconfig)
            print(f"{args.out}: {summary(recording)}")
            return 0
        if args.tsconfig is not None:
            parser.error("--tsconfig goes with --project")
        cases = fixture_cases(args.case)
        if not cases:
            print(f"no fixture cases under {FIXTURES.relative_to(REPO)}; nothing recorded")
            return 0
        for case_dir in cases:
            out = RECORDINGS / f"{case_dir.name}.json"
            recording = record(case_project(case_dir), out, case_dir.name)
            print(f"{out.relative_to(REPO)}: {summary(recording)}")
        return 0
    except RecordError as error:
        print(f"record_graph: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
