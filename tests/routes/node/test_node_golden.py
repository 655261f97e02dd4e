"""Node backend fixtures against their golden documents, and their handler ids against the graph.

Each fixture under fixtures/routes/node/<name>/ holds `project/` and
`expected.json`. Every `symbol.usr` a document names must be a node id that
`tsograph graph` gives the same project, so route → handler → callee traces join.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.golden import assert_golden_document
from tests.golden import golden_cases
from tests.routes.support import FIXTURES
from tests.routes.test_nextjs_golden import render_case
from tsograph.producers.graph.project_graph import load_project_graph

NODE = FIXTURES / "node"
CASES = golden_cases(NODE, "project")


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_golden_document(render_case(f"node/{name}", tmp_path), NODE / name / "expected.json")


@pytest.mark.parametrize("name", CASES)
def test_handler_usrs_are_graph_nodes(name: str, tmp_path: Path) -> None:
    document = orjson.loads((NODE / name / "expected.json").read_bytes())
    usrs = {fact["symbol"]["usr"] for fact in document["facts"] if "usr" in fact["symbol"]}
    assert usrs, "the fixture should name handlers"
    graph = load_project_graph(str(NODE / name / "project"), use_cache=False).graph
    assert usrs <= set(graph.nodes), sorted(usrs - set(graph.nodes))
