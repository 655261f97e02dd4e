"""Replays the compiler-API oracle's recordings (oracle/recordings/graph/) offline.

For each recorded fixture, our direct call/new/jsx edges are compared with the
edges the TypeScript checker resolved, and our node ids with the ids the
oracle's port of the naming rules gives every declaration (the oracle lists
export nodes only for `export default <name>`). Every disagreement must be listed, with
its reason, in oracle/recordings/graph/known-differences.json; a new one fails
the test, and so does a listed one that no longer occurs. The agreement figures
are printed with `-s` or in the report on failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph

RECORDINGS = REPO / "oracle" / "recordings" / "graph"
CASES = sorted(p.stem for p in RECORDINGS.glob("*.json") if p.stem != "known-differences")
COMPARED = ("call", "new", "jsx")


def our_graph(case: str, tmp_path: Path) -> Any:
    result = tsograph(
        "graph", "--project", REPO / "fixtures" / "graph" / case, "--cache-dir", tmp_path
    )
    assert result.code == 0, result.stderr
    return orjson.loads(result.stdout)


def our_edges(case: str, tmp_path: Path) -> set[tuple[str, str, str]]:
    document = our_graph(case, tmp_path)
    return {
        (edge["from"], edge["to"], kind)
        for edge in document["edges"]
        if edge["evidence"] == "direct"
        for kind in edge["kinds"]
        if kind in COMPARED
    }


def known(case: str) -> dict[str, list[dict[str, Any]]]:
    path = RECORDINGS / "known-differences.json"
    listed = orjson.loads(path.read_bytes()) if path.exists() else {}
    entry = listed.get(case, {})
    keys = ("onlyOurs", "onlyOracle", "nodesOnlyOurs", "nodesOnlyOracle")
    return {key: entry.get(key, []) for key in keys}


@pytest.mark.parametrize("case", CASES)
def test_edges_agree_with_the_compiler_api(case: str, tmp_path: Path) -> None:
    recording = orjson.loads((RECORDINGS / f"{case}.json").read_bytes())
    oracle = {(e["from"], e["to"], e["kind"]) for e in recording["edges"] if e["kind"] in COMPARED}
    ours = our_edges(case, tmp_path)
    both = ours & oracle
    precision = len(both) / max(1, len(ours))
    recall = len(both) / max(1, len(oracle))
    print(f"{case}: precision {precision:.3f}, recall {recall:.3f} ({len(both)} shared edges)")
    listed = known(case)
    expected_ours = {(d["from"], d["to"], d["kind"]) for d in listed["onlyOurs"]}
    expected_oracle = {(d["from"], d["to"], d["kind"]) for d in listed["onlyOracle"]}
    assert ours - oracle == expected_ours, "edges only tsograph has changed"
    assert oracle - ours == expected_oracle, "edges only the compiler API has changed"


@pytest.mark.parametrize("case", CASES)
def test_node_ids_agree_with_the_naming_port(case: str, tmp_path: Path) -> None:
    recording = orjson.loads((RECORDINGS / f"{case}.json").read_bytes())
    oracle = set(recording["nodes"])
    nodes = our_graph(case, tmp_path)["nodes"]
    ours = {node["id"] for node in nodes}
    # The oracle names `export default app` #default too, but lists no other export node.
    declared = {node["id"] for node in nodes if node["kind"] != "export"}
    listed = known(case)
    assert declared - oracle == {item["id"] for item in listed["nodesOnlyOurs"]}, (
        "node ids only tsograph has changed"
    )
    assert oracle - ours == {item["id"] for item in listed["nodesOnlyOracle"]}, (
        "node ids only the oracle has changed"
    )
