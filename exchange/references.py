"""Rules across the records of a document, which a JSON Schema cannot state.

Each rule yields (JSON pointer, message) pairs; `exchange.validation` reports
the first one, after the schema. The rules:

* symbol ids (`symbol.usr` of facts, traversal symbols, graph node ids) follow
  the id grammar of exchange.symbol_ids: a project-relative path (no leading
  `/`, no drive, no backslash, no `.` or `..` segment), `#`, a non-empty
  declaration path. `#model:` and `#typedsql:` ids name persistence
  declarations, so only relation-use facts carry them and they are never graph
  nodes or traversal symbols;
* graph node ids are unique and every edge's `from` and `to` is a node;
* traversal root ids are unique (the command keeps each once), a root's
  `symbol.usr` is its id, reached symbols are unique, each `roots` index names
  a root with a symbol, and each `via` is a root or reached symbol.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from tsograph.exchange.jsonpointer import pointer

Document = dict[str, Any]
Problems = Iterator[tuple[str, str]]

_DECLARATION_KINDS = ("model:", "typedsql:")
_BAD_PATH = re.compile(r"^/|^[A-Za-z]:|\\|(?:^|/)\.\.?(?:/|$)|(?:^|/)(?:/|$)")


def id_problem(identifier: str, *, declarations: bool = False) -> str | None:
    """Why a string is not a symbol id (None when it is one).

    `declarations` admits the `#model:`/`#typedsql:` ids of relation-use facts.
    """
    path, sep, declaration = identifier.partition("#")
    if not sep or not path or not declaration:
        return "is not a symbol id <project-relative path>#<declaration path>"
    if _BAD_PATH.search(path):
        return "names a path that is not project-relative (absolute, '\\', '.' or '..' segments)"
    if declaration.startswith(_DECLARATION_KINDS):
        if not declarations:
            return "is a #model:/#typedsql: declaration id, which only relation-use facts carry"
        if declaration.partition(":")[2] == "":
            return "is a declaration id without a name"
    return None


def check_fact_ids(document: Document) -> Problems:
    for index, fact in enumerate(document.get("facts", [])):
        usr = fact.get("symbol", {}).get("usr")
        if usr is None:
            continue
        problem = id_problem(usr, declarations=fact.get("kind") == "relation-use")
        if problem:
            yield pointer(["facts", index, "symbol", "usr"]), problem


def check_graph(document: Document) -> Problems:
    yield from check_node_ids(enumerate(document.get("nodes", [])), lambda i: ["nodes", i])
    ids = {node["id"] for node in document.get("nodes", [])}
    yield from check_edges(enumerate(document.get("edges", [])), ids, lambda i: ["edges", i])
    # The details of `graph --details`: a relation joins nodes or declared types.
    types = document.get("types", [])
    type_ids: set[str] = set()
    for position, declared in enumerate(types):
        problem = id_problem(declared["id"])
        if problem is None and (declared["id"] in type_ids or declared["id"] in ids):
            problem = "appears as the id of a node or an earlier type too; ids are unique"
        type_ids.add(declared["id"])
        if problem:
            yield pointer(["types", position, "id"]), problem
    ends = ids | type_ids
    for position, relation in enumerate(document.get("relations", [])):
        for end in ("from", "to"):
            if relation[end] not in ends:
                yield pointer(["relations", position, end]), "names no node or type of the graph"


def check_node_ids(
    nodes: Iterable[tuple[int, dict[str, Any]]], where: Callable[[int], list[str | int]]
) -> Problems:
    """Node ids follow the grammar and appear once; `where` turns a position into a path."""
    seen: set[str] = set()
    for position, node in nodes:
        identifier = node["id"]
        problem = id_problem(identifier)
        if problem is None and identifier in seen:
            problem = "appears as the id of an earlier node too; node ids are unique"
        seen.add(identifier)
        if problem:
            yield pointer([*where(position), "id"]), problem


def check_edges(
    edges: Iterable[tuple[int, dict[str, Any]]],
    ids: set[str],
    where: Callable[[int], list[str | int]],
) -> Problems:
    for position, edge in edges:
        for end in ("from", "to"):
            if edge[end] not in ids:
                yield pointer([*where(position), end]), "names no node of the graph"


def check_traversal(document: Document) -> Problems:
    roots = document.get("roots", [])
    root_ids: set[str] = set()
    linked: set[str] = set()
    for index, root in enumerate(roots):
        if root["id"] in root_ids:
            yield pointer(["roots", index, "id"]), "repeats an earlier root; each id is kept once"
        root_ids.add(root["id"])
        symbol = root.get("symbol")
        if symbol is None:
            continue
        linked.add(root["id"])
        if symbol["usr"] != root["id"]:
            yield pointer(["roots", index, "symbol", "usr"]), "differs from the root's id"
        problem = id_problem(symbol["usr"])
        if problem:
            yield pointer(["roots", index, "symbol", "usr"]), problem
    reached = document.get("reached", [])
    symbols: set[str] = set()
    for index, item in enumerate(reached):
        usr = item["symbol"]["usr"]
        problem = id_problem(usr)
        if problem is None and usr in symbols:
            problem = "appears as an earlier reached symbol too; each is listed once"
        symbols.add(usr)
        if problem:
            yield pointer(["reached", index, "symbol", "usr"]), problem
        for position, number in enumerate(item["roots"]):
            if number >= len(roots) or roots[number]["id"] not in linked:
                yield (
                    pointer(["reached", index, "roots", position]),
                    f"is no index of a root with a symbol (the document has {len(roots)} roots)",
                )
    for index, item in enumerate(reached):
        if item["via"] not in linked and item["via"] not in symbols:
            yield pointer(["reached", index, "via"]), "names neither a root nor a reached symbol"


REFERENCE_CHECKS: dict[str, list[Callable[[Document], Problems]]] = {
    "bridge-facts": [check_fact_ids],
    "tsograph-graph": [check_graph],
    "language-traversal": [check_traversal],
}
