"""`validate` finds what a schema cannot: dangling edges and `via`, repeated ids, root
indices out of range, usr that are not symbol ids; each named by its JSON pointer.

Each case breaks one real golden document in one place and runs `tsograph
validate` on it, so the whole path (schema first, then these rules, then the
one-line message) is what is tested.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tsograph.exchange.references import id_problem

GRAPH = REPO / "fixtures/graph/basics/expected.json"
TRAVERSAL = REPO / "fixtures/traversal/impact-audit.json"
ROUTES = REPO / "fixtures/routes/node/hono-app/expected.json"
SCHEMA = REPO / "fixtures/schema/prisma/prisma-app/expected.json"

Breaker = Callable[[dict[str, Any]], None]


def _set(document: dict[str, Any], path: list[str | int], value: Any) -> None:
    target: Any = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


def _repeat_node(document: dict[str, Any]) -> None:
    document["nodes"][1]["id"] = document["nodes"][0]["id"]


def _repeat_root(document: dict[str, Any]) -> None:
    document["roots"].append(copy.deepcopy(document["roots"][0]))


def _repeat_reached(document: dict[str, Any]) -> None:
    document["reached"][1]["symbol"] = copy.deepcopy(document["reached"][0]["symbol"])


CASES: dict[str, tuple[Path, Breaker, str, str]] = {
    "edge to a missing node": (
        GRAPH,
        lambda d: _set(d, ["edges", 2, "to"], "src/lib/audit.ts#gone"),
        "/edges/2/to",
        "names no node of the graph",
    ),
    "edge from a missing node": (
        GRAPH,
        lambda d: _set(d, ["edges", 0, "from"], "src/nowhere.ts#f"),
        "/edges/0/from",
        "names no node of the graph",
    ),
    "node id twice": (GRAPH, _repeat_node, "/nodes/1/id", "node ids are unique"),
    "node id without a path": (
        GRAPH,
        lambda d: _set(d, ["nodes", 3, "id"], "#f"),
        "/nodes/3/id",
        "is not a symbol id",
    ),
    "via names nothing": (
        TRAVERSAL,
        lambda d: _set(d, ["reached", 2, "via"], "src/lib/audit.ts#nobody"),
        "/reached/2/via",
        "names neither a root nor a reached symbol",
    ),
    "root index out of range": (
        TRAVERSAL,
        lambda d: _set(d, ["reached", 1, "roots"], [0, 1]),
        "/reached/1/roots/1",
        "is no index of a root with a symbol",
    ),
    "root id twice": (TRAVERSAL, _repeat_root, "/roots/1/id", "repeats an earlier root"),
    "reached symbol twice": (
        TRAVERSAL,
        _repeat_reached,
        "/reached/1/symbol/usr",
        "appears as an earlier reached symbol",
    ),
    "root symbol is another id": (
        TRAVERSAL,
        lambda d: _set(d, ["roots", 0, "symbol", "usr"], "src/lib/audit.ts#other"),
        "/roots/0/symbol/usr",
        "differs from the root's id",
    ),
    "route usr with an absolute path": (
        ROUTES,
        lambda d: _set(d, ["facts", 0, "symbol", "usr"], "/srv/app/src/index.ts#app"),
        "/facts/0/symbol/usr",
        "is not project-relative",
    ),
    "route usr that is a model id": (
        ROUTES,
        lambda d: _set(d, ["facts", 1, "symbol", "usr"], "prisma/schema.prisma#model:User"),
        "/facts/1/symbol/usr",
        "only relation-use facts carry",
    ),
    "relation usr without a declaration": (
        SCHEMA,
        lambda d: _set(d, ["facts", 4, "symbol", "usr"], "src/tx.ts#"),
        "/facts/4/symbol/usr",
        "is not a symbol id",
    ),
    "relation usr with a dot-dot segment": (
        SCHEMA,
        lambda d: _set(d, ["facts", 4, "symbol", "usr"], "../other/src/tx.ts#audit"),
        "/facts/4/symbol/usr",
        "is not project-relative",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_document_is_refused_at_its_pointer(case: str, tmp_path: Path) -> None:
    source, breaker, where, words = CASES[case]
    document = orjson.loads(source.read_bytes())
    path = tmp_path / "doc.json"
    path.write_bytes(orjson.dumps(document))
    assert tsograph("validate", path.name, cwd=tmp_path).code == 0, "the golden itself is valid"
    breaker(document)
    path.write_bytes(orjson.dumps(document))
    result = tsograph("validate", path.name, cwd=tmp_path)
    assert result.code == 2
    assert result.stdout == b""
    assert result.stderr.startswith(f"tsograph: doc.json: invalid at {where}: "), result.stderr
    assert words in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_dangling_edge_of_an_ndjson_export_is_named_by_its_line(tmp_path: Path) -> None:
    exported = tsograph(
        "graph",
        "--project",
        REPO / "fixtures/graph/basics",
        "--format",
        "ndjson",
        "--cache-dir",
        tmp_path / "cache",
    )
    assert exported.code == 0, exported.stderr
    lines = exported.stdout.splitlines()
    path = tmp_path / "graph.ndjson"
    path.write_bytes(exported.stdout)
    assert tsograph("validate", path.name, cwd=tmp_path).code == 0
    number = next(i for i, line in enumerate(lines) if b'"record":"edge"' in line)
    edge = orjson.loads(lines[number])
    edge["to"] = "src/lib/audit.ts#gone"
    lines[number] = orjson.dumps(edge)
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = tsograph("validate", path.name, cwd=tmp_path)
    assert result.code == 2
    assert f"line {number + 1}: invalid at /to: names no node of the graph" in result.stderr


def test_a_saved_snapshot_with_a_dangling_edge_is_refused_by_reach(tmp_path: Path) -> None:
    document = orjson.loads(GRAPH.read_bytes())
    document["edges"][0]["to"] = "src/lib/audit.ts#gone"
    path = tmp_path / "graph.json"
    path.write_bytes(orjson.dumps(document))
    result = tsograph("reach", "--graph-file", path, "src/lib/audit.ts#audit")
    assert result.code == 2
    assert "/edges/0/to" in result.stderr


@pytest.mark.parametrize(
    "identifier",
    [
        "src/a.ts#f",
        "src/a.ts#<module>",
        'src/app.ts#<module>.app.get("/users")',
        "app/[id]/route.ts#GET",
        "a.ts#A.b~2",
    ],
)
def test_ids_producers_write_follow_the_grammar(identifier: str) -> None:
    assert id_problem(identifier) is None


@pytest.mark.parametrize(
    "identifier",
    [
        "f",
        "src/a.ts",
        "#f",
        "src/a.ts#",
        "/abs/a.ts#f",
        "C:/a.ts#f",
        "a\\b.ts#f",
        "./a.ts#f",
        "a/../b.ts#f",
        "a//b.ts#f",
        "s.prisma#model:",
    ],
)
def test_strings_that_are_not_ids_are_refused(identifier: str) -> None:
    assert id_problem(identifier, declarations=True) is not None


def test_declaration_ids_only_where_they_are_allowed() -> None:
    assert id_problem("prisma/schema.prisma#model:User.id", declarations=True) is None
    assert id_problem("prisma/sql/a.sql#typedsql:a", declarations=True) is None
    assert id_problem("prisma/schema.prisma#model:User") is not None
