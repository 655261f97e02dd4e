"""Each case under fixtures/schema/python/<case>/ against its golden, byte for byte; the source
facts' usrs are nodes of `tsograph graph --language python` on the same project."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.golden import golden_cases
from tests.openapi.support import invoke
from tests.schema.support import assert_schema_golden
from tests.schema.support import copy_project
from tests.schema.support import document_of

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "schema" / "python"
CASES = golden_cases(FIXTURES, "project")


@pytest.mark.parametrize("name", CASES)
def test_golden_document(name: str, tmp_path: Path) -> None:
    assert_schema_golden(FIXTURES / name, tmp_path)


@pytest.mark.parametrize("name", CASES)
def test_source_usrs_are_graph_nodes(name: str, tmp_path: Path) -> None:
    project = copy_project(FIXTURES / name / "project", tmp_path / name)
    document = document_of(project)
    graph = invoke("graph", "--project", str(project), "--language", "python")
    ids = {node["id"] for node in orjson.loads(graph.stdout)["nodes"]}
    usrs = {
        fact["symbol"]["usr"]
        for fact in document["facts"]
        if "symbol" in fact and "#model:" not in fact["symbol"]["usr"]
    }
    assert usrs
    assert usrs <= ids
