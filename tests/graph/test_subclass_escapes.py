"""A base constructor's parameters are open once a subclass that forwards to it escapes.

A subclass without its own constructor hands its `new` arguments to the base
constructor (the implicit super). When such a subclass is used as a value —
passed to a package, stored, returned, exported from a library package, or
written as a class expression straight into a call — code outside the scan
can construct it with arguments nobody observed, so the base's parameter
calls get no bound edge. fixtures/graph/subclass-escapes holds one file per
route; the controls (a subclass only the project constructs, one exported
from a private app, an escaping subclass whose own constructor always passes
a project value to `super`) keep their edge. A `{ Sub }` or `{ f }`
shorthand member is a value use like `{ Sub: Sub }`.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.graph.test_bound_dispatch import _graph
from tests.graph.test_bound_dispatch import bound_edges
from tests.graph.test_bound_dispatch import graph_of

FIXTURE = REPO / "fixtures" / "graph" / "subclass-escapes"

OPEN = {
    "subclass passed to a package call": "app/package-call.ts",
    "class expression passed to a package call": "app/class-expression.ts",
    "subclass stored on a global registry": "app/stored.ts",
    "subclass returned by a function": "app/returned.ts",
    "grandchild passed to a package call": "app/grandchild.ts",
    "base passed to a package call": "app/base-escapes.ts",
    "escaping subclass forwards its own parameter": "app/forwarding.ts",
    "subclass exported from a library": "packages/lib/named.ts",
    "anonymous default export from a library": "packages/lib/anonymous.ts",
}


@pytest.fixture(scope="module")
def fixture_edges(tmp_path_factory: pytest.TempPathFactory) -> set[tuple[str, str]]:
    return bound_edges(orjson.loads(_graph(FIXTURE, tmp_path_factory.mktemp("subclasses"))))


@pytest.mark.parametrize("route", sorted(OPEN))
def test_base_of_an_escaping_subclass_has_no_bound_edge(
    route: str, fixture_edges: set[tuple[str, str]]
) -> None:
    assert not {edge for edge in fixture_edges if edge[0] == f"{OPEN[route]}#Base.run"}, route


def test_closed_constructions_keep_their_bound_edges(
    fixture_edges: set[tuple[str, str]],
) -> None:
    assert fixture_edges == {
        ("app/closed.ts#Base.run", "app/closed.ts#Impl.handle"),
        ("app/exported.ts#Base.run", "app/exported.ts#Impl.handle"),
        ("app/own-constructor.ts#Base.run", "app/own-constructor.ts#Impl.handle"),
    }


HEAD = """declare function register(x: unknown): void;
interface Handler { handle(): number }
class Impl implements Handler { handle() { return 1; } }
class Base { constructor(private h: Handler) {} run() { return this.h.handle(); } }
"""


@pytest.mark.parametrize(
    ("label", "source", "bound"),
    [
        ("no escape", "class Sub extends Base {}\nnew Sub(new Impl()).run();\n", True),
        (
            "a subclass in an argument literal",
            "class Sub extends Base {}\nregister({ Sub });\nnew Sub(new Impl()).run();\n",
            False,
        ),
        (
            "a subclass aliased and passed on",
            "class Sub extends Base {}\nconst Alias = Sub;\nregister(Alias);\n"
            "new Sub(new Impl()).run();\n",
            False,
        ),
        (
            "a class expression held by a variable that escapes",
            "const Sub = class extends Base {};\nregister(Sub);\nnew Sub(new Impl()).run();\n",
            False,
        ),
        (
            "an escaping sibling with its own constructor",
            "class Sub extends Base {}\n"
            "class Other extends Base { constructor() { super(new Impl()); } }\n"
            "register(Other);\nnew Sub(new Impl()).run();\n",
            True,
        ),
    ],
)
def test_subclass_escape_routes_in_one_file(
    label: str, source: str, bound: bool, tmp_path: Path
) -> None:
    edges = bound_edges(graph_of(tmp_path, {"app.ts": HEAD + source}))
    assert any(edge[0] == "app.ts#Base.run" for edge in edges) is bound, label


def test_a_shorthand_member_uses_a_function_as_a_value(tmp_path: Path) -> None:
    # `{ f }` hands f on exactly like `{ f: f }`: its parameter is open, and
    # the object's initializer references it.
    source = (
        "declare function register(x: unknown): void;\n"
        "interface Handler { handle(): number }\n"
        "class Impl implements Handler { handle() { return 1; } }\n"
        "function f(h: Handler) { return h.handle(); }\n"
        "function g(h: Handler) { return h.handle(); }\n"
        "register({ f });\nf(new Impl());\ng(new Impl());\n"
    )
    document = graph_of(tmp_path, {"app.ts": source})
    assert bound_edges(document) == {("app.ts#g", "app.ts#Impl.handle")}
    edges = document["edges"]
    assert isinstance(edges, list)
    assert {(edge["from"], edge["to"]) for edge in edges if "reference" in edge["kinds"]} == {
        ("app.ts#<module>", "app.ts#f")
    }
