"""Class expressions are classes: their members are nodes and take part in override rules.

The shapes come from real code: fastify's test/logger/logging.test.js overrides
LogController.isLogDisabled in `new class extends LogController { … }()`,
which the base calls as `this.isLogDisabled(request)`.
"""

from __future__ import annotations

from pathlib import Path

from tests.graph.test_bound_dispatch import graph_of

BASE = """
export class Controller {
  constructor(readonly label = 'reqId') {}
  isDisabled(request: unknown) { return request === undefined; }
  incoming(request: unknown) { if (this.isDisabled(request)) return; }
}
"""


def _edges(document: dict[str, object]) -> set[tuple[str, str, str, str]]:
    edges = document["edges"]
    assert isinstance(edges, list)
    return {
        (edge["from"], edge["to"], kind, edge["evidence"])
        for edge in edges
        for kind in edge["kinds"]
    }


def _node_ids(document: dict[str, object]) -> set[str]:
    nodes = document["nodes"]
    assert isinstance(nodes, list)
    return {node["id"] for node in nodes}


def _overridden(document: dict[str, object]) -> list[str]:
    limitations = document["limitations"]
    assert isinstance(limitations, list)
    return [line for line in limitations if line.startswith("overridden-methods:")]


def test_an_override_in_an_anonymous_class_is_a_node_and_counts(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "src/controller.ts": BASE,
            "src/app.ts": (
                "import { Controller } from './controller';\n"
                "declare function test(name: string, body: () => void): void;\n"
                "test('quiet', () => {\n"
                "  const c = new class extends Controller {\n"
                "    isDisabled() { return true; }\n"
                "  }();\n"
                "  c.incoming({});\n"
                "});\n"
            ),
        },
    )
    holder = 'src/app.ts#<module>.test("quiet")'
    assert f"{holder}.isDisabled" in _node_ids(document)
    assert not any("\x00" in ident for ident in _node_ids(document))
    edges = _edges(document)
    # Constructing the anonymous class runs the base's constructor.
    assert (holder, "src/controller.ts#Controller.constructor", "new", "direct") in edges
    # `this.isDisabled()` in the base: the declared method, counted as overridden.
    base_call = (
        "src/controller.ts#Controller.incoming",
        "src/controller.ts#Controller.isDisabled",
        "call",
        "direct",
    )
    assert base_call in edges
    assert _overridden(document) and _overridden(document)[0].startswith("overridden-methods: 1 ")


def test_without_a_subclass_nothing_is_overridden(tmp_path: Path) -> None:
    document = graph_of(tmp_path, {"src/controller.ts": BASE})
    assert _overridden(document) == []


def test_same_named_members_of_two_anonymous_classes_stay_apart_for_binding(
    tmp_path: Path,
) -> None:
    """Both declare `f.kind` (one node), but `this.kind()` in the second is its own."""
    document = graph_of(
        tmp_path,
        {
            "src/a.ts": (
                "class Base { kind() { return 0; } run() { return this.kind(); } }\n"
                "export function f() {\n"
                "  new (class extends Base { kind() { return 1; } })().run();\n"
                "  new (class extends Base {\n"
                "    kind() { return 2; }\n"
                "    go() { return this.kind(); }\n"
                "  })().go();\n"
                "}\n"
            ),
        },
    )
    edges = _edges(document)
    assert ("src/a.ts#f.go", "src/a.ts#f.kind", "call", "direct") in edges
    assert ("src/a.ts#f.go", "src/a.ts#Base.kind", "call", "direct") not in edges


def test_a_named_class_expression_adds_its_own_name(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "src/a.ts": (
                "export const Outer = class Inner {\n"
                "  static make() { return new Inner(); }\n"
                "  go() {}\n"
                "};\n"
                "export function use() { new Outer().go(); }\n"
            ),
        },
    )
    assert {"src/a.ts#Outer", "src/a.ts#Outer.Inner", "src/a.ts#Outer.Inner.go"} <= _node_ids(
        document
    )
    edges = _edges(document)
    assert ("src/a.ts#use", "src/a.ts#Outer.Inner", "new", "direct") in edges
    assert ("src/a.ts#use", "src/a.ts#Outer.Inner.go", "call", "direct") in edges
    assert ("src/a.ts#Outer.Inner.make", "src/a.ts#Outer.Inner", "new", "direct") in edges


def test_a_class_expression_passed_as_a_value_links_its_construction(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "src/a.ts": (
                "class Base { constructor() { setup(); } }\n"
                "function setup() {}\n"
                "declare function register(kind: unknown): void;\n"
                "export function f() { register(class extends Base { field = setup(); }); }\n"
            ),
        },
    )
    edges = _edges(document)
    assert ("src/a.ts#f", "src/a.ts#Base.constructor", "callback", "direct") in edges
    assert ("src/a.ts#f", "src/a.ts#f.field", "callback", "direct") in edges
    assert ("src/a.ts#f.field", "src/a.ts#setup", "call", "direct") in edges
