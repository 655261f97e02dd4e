"""Node backend fixtures against their golden documents, and their handler ids against the graph.

Each fixture under fixtures/routes/node/<name>/ holds `project/` and
`expected.json`. Every `symbol.usr` a document names must be a node id that
`tsograph graph` gives the same project, so route → handler → callee traces join.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from exchange.validation import validate
from producers.graph.project_graph import load_project_graph
from tests.golden import assert_matches_golden
from tests.routes.support import FIXTURES, copy_project, run_routes

NODE = FIXTURES / "node"
CASES = sorted(case.name for case in NODE.iterdir() if (case / "project").is_dir())


def _render(name: str, tmp_path: Path) -> bytes:
    project = copy_project(NODE / name / "project", tmp_path / name)
    result = run_routes(project)
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_matches_golden(_render(name, tmp_path), NODE / name / "expected.json")


@pytest.mark.parametrize("name", CASES)
def test_golden_is_valid_bridge_facts(name: str) -> None:
    validate(orjson.loads((NODE / name / "expected.json").read_bytes()))


@pytest.mark.parametrize("name", CASES)
def test_handler_usrs_are_graph_nodes(name: str, tmp_path: Path) -> None:
    document = orjson.loads((NODE / name / "expected.json").read_bytes())
    usrs = {fact["symbol"]["usr"] for fact in document["facts"] if "usr" in fact["symbol"]}
    assert usrs, "the fixture should name handlers"
    graph = load_project_graph(str(NODE / name / "project"), use_cache=False).graph
    assert usrs <= set(graph.nodes), sorted(usrs - set(graph.nodes))
