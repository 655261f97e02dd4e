"""Calling a project variable whose value the graph cannot name is still a use of the variable.

`const buttonVariants = cva(...)` holds whatever the package returned, so
`buttonVariants({ variant })` has no call target; the call keeps its count
(external or unresolved), and a direct `reference` edge to the variable node
records the use, so `impact` on the variable finds its callers.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.cli_helpers import tsograph
from tests.graph.test_bound_dispatch import AT
from tests.graph.test_bound_dispatch import graph_of

FILES = {
    "package.json": '{"dependencies": {"class-variance-authority": "0.7.0"}}',
    "node_modules/class-variance-authority/package.json": '{"name": "class-variance-authority"}',
    "ui/button.ts": "import { cva } from 'class-variance-authority';\n"
    "export const buttonVariants = cva('btn');\n"
    "export function Button() { return buttonVariants({ variant: 'x' }); }\n",
    "ui/index.ts": "export * from './button';\n",
    "pages/a.ts": "import { buttonVariants } from '../ui/button';\n"
    "export function A() { return buttonVariants({}); }\n",
    "pages/b.ts": "import { buttonVariants as bv } from '../ui';\nexport const B = () => bv();\n",
    "pages/c.ts": "function make() { return {}; }\n"
    "const made = make();\n"
    "export function C() { return made(); }\n",
}


def _edges(document: dict[str, object]) -> set[tuple[str, str, str, str]]:
    edges = document["edges"]
    assert isinstance(edges, list)
    return {(e["from"], e["to"], kind, e["evidence"]) for e in edges for kind in e["kinds"]}


def _node(document: dict[str, object], node_id: str) -> dict[str, object]:
    nodes = document["nodes"]
    assert isinstance(nodes, list)
    found: dict[str, object] = next(node for node in nodes if node["id"] == node_id)
    return found


def test_calls_of_a_variable_reference_its_node(tmp_path: Path) -> None:
    document = graph_of(tmp_path, FILES)
    edges = _edges(document)
    for caller in ("ui/button.ts#Button", "pages/a.ts#A", "pages/b.ts#B"):
        assert (caller, "ui/button.ts#buttonVariants", "reference", "direct") in edges
    assert ("pages/c.ts#C", "pages/c.ts#made", "reference", "direct") in edges
    # Not a call edge: the callee's body is the package's (or unknown), never the variable.
    assert not {edge for edge in edges if edge[1].endswith("#buttonVariants") and edge[2] == "call"}
    # The calls keep their counts: three external calls into the package, one unresolved.
    statistics = document["statistics"]
    assert isinstance(statistics, dict)
    assert statistics["externalCalls"] == 4  # cva(...) and the three buttonVariants(...) calls
    assert _node(document, "pages/c.ts#C").get("unresolvedCalls") == {
        "direct": 1,
        "bound": 1,
        "candidates": 1,
    }


def test_impact_on_the_variable_finds_its_callers(tmp_path: Path) -> None:
    graph_of(tmp_path, FILES)
    result = tsograph(
        "impact",
        "--project",
        tmp_path / "project",
        "--cache-dir",
        tmp_path / "cache",
        "--generated-at",
        AT,
        "ui/button.ts#buttonVariants",
    )
    assert result.code == 0, result.stderr
    reached = {item["symbol"]["usr"] for item in orjson.loads(result.stdout)["reached"]}
    assert {"ui/button.ts#Button", "pages/a.ts#A", "pages/b.ts#B"} <= reached


def test_stars_resolve_by_name_as_es_modules_do(tmp_path: Path) -> None:
    files = {
        **FILES,
        "ui/other.ts": "export const buttonVariants = 1;\nexport const only = 2;\n",
        # Two stars with different bindings: ambiguous, so not exported (ECMA-262 ResolveExport).
        "ui/both.ts": "export * from './button';\nexport * from './other';\n",
        # An explicit export shadows every star.
        "ui/shadow.ts": "export * from './other';\nexport { buttonVariants } from './button';\n",
        # A cycle of stars adds nothing and ends.
        "ui/loop.ts": "export * from './loop2';\nexport * from './other';\n",
        "ui/loop2.ts": "export * from './loop';\n",
        "pages/d.ts": "import { buttonVariants } from '../ui/both';\n"
        "import { buttonVariants as s } from '../ui/shadow';\n"
        "import { only } from '../ui/loop2';\n"
        "export function D() { buttonVariants(); s(); only(); }\n",
    }
    edges = {(f, t) for f, t, kind, _ in _edges(graph_of(tmp_path, files)) if kind == "reference"}
    assert {target for source, target in edges if source == "pages/d.ts#D"} == {
        "ui/button.ts#buttonVariants",  # through the shadowing export only
        "ui/other.ts#only",
    }
