"""Python server fixtures against their golden documents, and their handler ids against the graph.

Each fixture under fixtures/routes/python/<name>/ holds `project/` and
`expected.json`; every `symbol.usr` a document names must be a node of
`tsograph graph --language python` on the same project.
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

PYTHON = FIXTURES / "python"
CASES = golden_cases(PYTHON, "project")


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_golden_document(render_case(f"python/{name}", tmp_path), PYTHON / name / "expected.json")


@pytest.mark.parametrize("name", CASES)
def test_handler_usrs_are_graph_nodes(name: str) -> None:
    document = orjson.loads((PYTHON / name / "expected.json").read_bytes())
    usrs = {fact["symbol"]["usr"] for fact in document["facts"] if "usr" in fact["symbol"]}
    assert usrs, "the fixture should name handlers"
    graph = load_project_graph(
        str(PYTHON / name / "project"), use_cache=False, language="python"
    ).graph
    assert usrs <= set(graph.nodes), sorted(usrs - set(graph.nodes))
