"""Union-typed receivers: direct edges to class parts, partial-dispatch: for the rest."""

from __future__ import annotations

from pathlib import Path

from tests.graph.test_bound_dispatch import graph_of


def _direct_calls(document: dict[str, object], source: str) -> set[str]:
    edges = document["edges"]
    assert isinstance(edges, list)
    return {
        edge["to"]
        for edge in edges
        if edge["from"] == source and edge["evidence"] == "direct" and "call" in edge["kinds"]
    }


def _unresolved(document: dict[str, object], node_id: str) -> dict[str, int]:
    nodes = document["nodes"]
    assert isinstance(nodes, list)
    for node in nodes:
        if node["id"] == node_id:
            counts: dict[str, int] = node.get("unresolvedCalls", {})
            return counts
    raise AssertionError(node_id)


CLASSES = """
export class Cat { speak() { return 'meow'; } }
export class Dog { speak() { return 'woof'; } }
export interface Robot { speak(): string }
"""


def test_a_union_of_classes_links_every_part(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "pets.ts": CLASSES,
            "talk.ts": "import { Cat, Dog } from './pets';\n"
            "export function talk(pet: Cat | Dog | null) { return pet?.speak(); }\n",
        },
    )
    assert _direct_calls(document, "talk.ts#talk") == {"pets.ts#Cat.speak", "pets.ts#Dog.speak"}
    assert _unresolved(document, "talk.ts#talk") == {}
    limitations = document["limitations"]
    assert isinstance(limitations, list)
    assert not any(line.startswith("partial-dispatch:") for line in limitations)


def test_an_unproven_part_keeps_the_call_partial_and_counted(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "pets.ts": CLASSES,
            "talk.ts": "import { Cat, Robot } from './pets';\n"
            "export function talk(pet: Cat | Robot) { return pet.speak(); }\n",
        },
    )
    assert _direct_calls(document, "talk.ts#talk") == {"pets.ts#Cat.speak"}
    assert _unresolved(document, "talk.ts#talk")["direct"] == 1
    limitations = document["limitations"]
    assert isinstance(limitations, list)
    assert "partial-dispatch: 1 call(s)" in "\n".join(limitations)
