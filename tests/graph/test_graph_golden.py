"""Golden graph snapshots of the fixtures under fixtures/graph/, compared byte for byte.

Regenerate on purpose with TSOGRAPH_REGENERATE=1; a difference is otherwise a
failure that names the case.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.exchange.validation import validate

CASES = sorted(p.name for p in (REPO / "fixtures" / "graph").iterdir() if p.is_dir())
GENERATED_AT = "2026-09-27T00:00:00.000Z"


def snapshot(case: str, tmp_path: Path, *extra: str) -> bytes:
    result = tsograph(
        "graph",
        "--project",
        REPO / "fixtures" / "graph" / case,
        "--generated-at",
        GENERATED_AT,
        "--cache-dir",
        tmp_path / "cache",
        *extra,
    )
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("case", CASES)
def test_snapshot_matches_golden(case: str, tmp_path: Path) -> None:
    output = snapshot(case, tmp_path)
    validate(orjson.loads(output))
    assert_matches_golden(output, REPO / "fixtures" / "graph" / case / "expected.json")


@pytest.mark.parametrize("case", CASES)
def test_warm_run_is_byte_identical_and_parses_nothing(case: str, tmp_path: Path) -> None:
    cold = snapshot(case, tmp_path)
    warm = snapshot(case, tmp_path)
    assert cold == warm
    entries = list((tmp_path / "cache").rglob("*.json"))
    assert entries, "the cold run filled the cache"
    before = {entry: entry.stat().st_mtime_ns for entry in entries}
    snapshot(case, tmp_path)
    assert {entry: entry.stat().st_mtime_ns for entry in entries} == before


def test_ndjson_export_carries_the_same_graph(tmp_path: Path) -> None:
    document = orjson.loads(snapshot("basics", tmp_path))
    lines = snapshot("basics", tmp_path, "--format", "ndjson").splitlines()
    header = orjson.loads(lines[0])
    assert header["format"] == "tsograph-graph-ndjson"
    assert header["graphRevision"] == document["graphRevision"]
    records = [orjson.loads(line) for line in lines[1:]]
    nodes = [
        {k: v for k, v in r.items() if k != "record"} for r in records if r["record"] == "node"
    ]
    edges = [
        {k: v for k, v in r.items() if k != "record"} for r in records if r["record"] == "edge"
    ]
    assert nodes == document["nodes"] and edges == document["edges"]


def test_graph_revision_ignores_locations(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    source = "export function a() { return b(); }\nfunction b() { return 1; }\n"
    (project / "src" / "a.ts").write_text(source)
    first = orjson.loads(snapshot_of(project, tmp_path))
    (project / "src" / "a.ts").write_text("\n\n" + source)
    second = orjson.loads(snapshot_of(project, tmp_path))
    assert first["graphRevision"] == second["graphRevision"]
    assert first["nodes"] != second["nodes"]
    (project / "src" / "a.ts").write_text(source.replace("return b();", "return 1;"))
    third = orjson.loads(snapshot_of(project, tmp_path))
    assert third["graphRevision"] != first["graphRevision"]


def snapshot_of(project: Path, tmp_path: Path) -> bytes:
    result = tsograph(
        "graph", "--project", project, "--generated-at", GENERATED_AT, "--cache-dir", tmp_path / "c"
    )
    assert result.code == 0, result.stderr
    return result.stdout


def test_missing_project_is_exit_2_and_bad_workspace_is_64(tmp_path: Path) -> None:
    missing = tsograph("graph", "--project", tmp_path / "absent")
    assert (missing.code, missing.stdout) == (2, b"")
    (tmp_path / "p").mkdir()
    (tmp_path / "w").mkdir()
    outside = tsograph("graph", "--project", tmp_path / "p", "--workspace", tmp_path / "w")
    assert (outside.code, outside.stdout) == (64, b"")
    assert str(tmp_path) not in outside.stderr + missing.stderr
