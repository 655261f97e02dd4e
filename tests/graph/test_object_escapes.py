"""Methods of an object literal are open once the object escapes (issue 23.1).

fixtures/graph/object-escapes holds one file or package per escape route: an
export from a library package (export const, export default,
module.exports, and a drizzle-like `tracer.startActiveSpan`), a package call,
a parameter, the global object, nesting in another object, and a return. Code
outside the scan can call the escaped methods with its own callbacks, so their
parameter calls get no bound edge. The controls (an object only local calls
reach, an object exported from an app, the other method of an object whose one
method escaped alone) keep theirs.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.graph.test_bound_dispatch import _graph
from tests.graph.test_bound_dispatch import bound_edges
from tests.graph.test_bound_dispatch import graph_of

FIXTURE = REPO / "fixtures" / "graph" / "object-escapes"

ESCAPED = {
    "export const from a library": "packages/export-const/index.ts#hooks.run",
    "export default from a library": "packages/export-default/index.ts#default.run",
    "module.exports from a library": "packages/module-exports/index.js#hooks.run",
    "drizzle-like tracer": "packages/orm/src/tracing.ts#tracer.startActiveSpan",
    "passed to a package call": "app/package-call.ts#options.run",
    "passed to a parameter": "app/parameter.ts#hooks.run",
    "stored on the global object": "app/global.ts#hooks.run",
    "nested in an exported object": "app/nested.ts#hooks.run",
    "returned by a function": "app/returned.ts#hooks.run",
}


@pytest.fixture(scope="module")
def fixture_edges(tmp_path_factory: pytest.TempPathFactory) -> set[tuple[str, str]]:
    return bound_edges(orjson.loads(_graph(FIXTURE, tmp_path_factory.mktemp("escapes"))))


@pytest.mark.parametrize("route", sorted(ESCAPED))
def test_escaped_object_methods_have_no_bound_edge(
    route: str, fixture_edges: set[tuple[str, str]]
) -> None:
    method = ESCAPED[route]
    # Edges from the method itself and from the callbacks written inside it.
    assert not {edge for edge in fixture_edges if edge[0].startswith(method)}, route


def test_objects_only_the_project_calls_keep_their_bound_edges(
    fixture_edges: set[tuple[str, str]],
) -> None:
    assert fixture_edges == {
        ("app/closed.ts#local.run", 'app/closed.ts#traced.local.run("traced")'),
        ("app/detached.ts#hooks.other", "app/detached.ts#traced.hooks.other()"),
        ("app/exported.ts#shared.run", 'app/use-exported.ts#traced.shared.run("traced")'),
    }


HOOKS = "const hooks = { run(fn: () => number) { return fn(); } };\n"
CALL = "hooks.run(() => 1);\n"
DECLARED = "declare function register(x: unknown): void;\ndeclare const flag: boolean;\n"


@pytest.mark.parametrize(
    ("label", "source", "method", "bound"),
    [
        ("no escape", HOOKS + CALL, "app.ts#hooks.run", True),
        (
            "a data member read",
            HOOKS + "const n = hooks.run.length;\n" + CALL,
            "app.ts#hooks.run",
            True,
        ),
        (
            "an alias passed on",
            HOOKS + "const alias = hooks;\nregister(alias);\n" + CALL,
            "app.ts#hooks.run",
            False,
        ),
        (
            "a branch of a conditional",
            HOOKS + "export const pick = flag ? hooks : null;\n" + CALL,
            "app.ts#hooks.run",
            False,
        ),
        (
            "inside an argument literal",
            HOOKS + "register({ h: hooks });\n" + CALL,
            "app.ts#hooks.run",
            False,
        ),
        (
            "assigned into a property",
            HOOKS + "const box: any = {};\nbox.h = hooks;\n" + CALL,
            "app.ts#hooks.run",
            False,
        ),
        (
            "a nested literal passed on",
            "const api = { inner: { run(fn: () => number) { return fn(); } } };\n"
            "register(api.inner);\napi.inner.run(() => 1);\n",
            "app.ts#api.inner.run",
            False,
        ),
        (
            "a class field holds it",
            "class A { hooks = { run(fn: () => number) { return fn(); } };"
            " go() { return this.hooks.run(() => 1); } }\nnew A().go();\n",
            "app.ts#A.hooks.run",
            False,
        ),
    ],
)
def test_escape_routes_in_one_file(
    label: str, source: str, method: str, bound: bool, tmp_path: Path
) -> None:
    edges = bound_edges(graph_of(tmp_path, {"app.ts": DECLARED + source}))
    assert any(edge[0] == method for edge in edges) is bound, label
