"""`symbol.usr` of every Next.js route fact is a node id of `tsograph graph` on the same project.

Documents join by exact string: isthmus follows a handler's usr into the
graph, reach and impact documents, so an id the graph does not have breaks
the join silently. The goldens are checked here against the graph builder run
on each fixture project (copied with its links, as the golden test does).
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.routes.support import FIXTURES
from tests.routes.support import copy_project
from tests.routes.test_nextjs_golden import make_links
from tsograph.producers.graph.project_graph import load_project_graph

CASES = sorted(path.name for path in (FIXTURES / "next").iterdir() if path.is_dir())


@pytest.mark.parametrize("name", CASES)
def test_every_usr_is_a_graph_node(name: str, tmp_path: Path) -> None:
    case = FIXTURES / "next" / name
    project = copy_project(case / "project", tmp_path / name)
    make_links(case, project)
    document = orjson.loads((case / "expected.json").read_bytes())
    usrs = {fact["symbol"]["usr"] for fact in document["facts"] if "usr" in fact["symbol"]}
    nodes = load_project_graph(str(project), use_cache=False).graph.nodes
    assert usrs - set(nodes) == set()


def test_export_forms_are_graph_nodes(tmp_path: Path) -> None:
    """Aliases, destructuring, re-exports and named defaults: the ids the spec lists."""
    case = FIXTURES / "next" / "app-router"
    project = copy_project(case / "project", tmp_path / "app-router")
    document = orjson.loads((case / "expected.json").read_bytes())
    usrs = {fact["symbol"]["usr"] for fact in document["facts"]}
    nodes = load_project_graph(str(project), use_cache=False).graph.nodes
    for usr in (
        "app/api/items/route.ts#PATCH",  # export { h as PATCH }
        "app/api/items/route.ts#PUT",  # export const { PUT, DELETE } = handlers()
        "app/api/items/route.ts#OPTIONS",  # export { OPTIONS } from "./impl"
        "app/api/items/[id]/route.ts#HEAD",  # export { x as HEAD } from "../impl"
    ):
        assert usr in usrs and usr in nodes, usr
    pages = FIXTURES / "next" / "pages-router"
    document = orjson.loads((pages / "expected.json").read_bytes())
    named = {
        fact["symbol"]["qualifiedName"]: fact["symbol"].get("usr") for fact in document["facts"]
    }
    assert named["pages/api/index.ts#default"] == "pages/api/index.ts#handler"
    assert named["pages/api/legacy.js#default"] is None  # CommonJS: no graph id
