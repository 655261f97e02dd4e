"""Route handlers that arrive through `export * from '…'` (ECMA-262 ResolveExport).

Next dispatches on the route module's export names, so a star export of a
project module serves its handlers; the fact keeps the route file's name and
location (the star) and carries the real declaration as usr, a graph node.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.support import document_of
from tests.routes.support import write_project
from tsograph.producers.graph.project_graph import load_project_graph

NEXT16 = '{"dependencies": {"next": "^16.2.0"}}'
HANDLERS = (
    "export async function GET() { return new Response('get'); }\n"
    "const put = () => new Response('put');\n"
    "export { put as PUT };\n"
    "export const helper = 1;\n"
)
FILES = {
    "package.json": NEXT16,
    "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./*"]}}}',
    "lib/star-handlers.ts": HANDLERS,
    "lib/post.ts": "export function POST() {}\n",
    "lib/other-get.ts": "export function GET() {}\nexport function PATCH() {}\n",
    "lib/barrel.ts": "export * from './star-handlers';\nexport * from './post';\n",
    "lib/cycle-a.ts": "export * from './cycle-b';\nexport function DELETE() {}\n",
    "lib/cycle-b.ts": "export * from './cycle-a';\n",
    "lib/ns.ts": "export * as GET from './post';\n",
    "lib/with-package.ts": "export * from 'handlers-kit';\nexport function GET() {}\n",
    "app/api/star/route.ts": "export * from '../../../lib/star-handlers';\n",
    "app/chain/route.ts": "export * from '@/lib/barrel';\n",
    "app/shadow/route.ts": "export * from '../../lib/star-handlers';\nexport function GET() {}\n",
    "app/ambiguous/route.ts": "export * from '../../lib/star-handlers';\n"
    "export * from '../../lib/other-get';\n",
    "app/cycle/route.ts": "export * from '../../lib/cycle-a';\n",
    "app/namespace/route.ts": "export * from '../../lib/ns';\n",
    "app/direct-namespace/route.ts": "export * as GET from '../../lib/post';\n",
    "app/package/route.ts": "export * from 'handlers-kit';\n",
    "app/shadowed-package/route.ts": "export * from '../../lib/with-package';\n",
    "app/missing/route.ts": "export * from './nowhere';\n",
}


def _facts(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(fact["channel"], fact["method"]): fact for fact in document["facts"]}


def _coverage(document: dict[str, Any]) -> str:
    return next(line for line in document["limitations"] if line.startswith("route-coverage:"))


def test_star_exports_of_project_modules_give_handlers(tmp_path: Path) -> None:
    root = write_project(tmp_path / "web", FILES)
    facts = _facts(document_of(root))
    usrs = {key: fact["symbol"]["usr"] for key, fact in facts.items()}
    star = facts[("/api/star", "GET")]
    assert star["symbol"]["qualifiedName"] == "app/api/star/route.ts#GET"
    assert star["location"] == {"path": "app/api/star/route.ts", "line": 1, "column": 8}  # the `*`
    assert usrs[("/api/star", "GET")] == "lib/star-handlers.ts#GET"
    assert usrs[("/api/star", "PUT")] == "lib/star-handlers.ts#put"  # the real declaration
    assert {key[1] for key in facts if key[0] == "/api/star"} == {"GET", "PUT"}
    # A chain of stars through a tsconfig path alias.
    assert {(key[1], usr) for key, usr in usrs.items() if key[0] == "/chain"} == {
        ("GET", "lib/star-handlers.ts#GET"),
        ("PUT", "lib/star-handlers.ts#put"),
        ("POST", "lib/post.ts#POST"),
    }
    # The file's own export shadows the star's.
    assert usrs[("/shadow", "GET")] == "app/shadow/route.ts#GET"
    assert usrs[("/shadow", "PUT")] == "lib/star-handlers.ts#put"
    # Two stars binding GET differently: not exported; the other names still are.
    assert ("/ambiguous", "GET") not in facts
    assert usrs[("/ambiguous", "PUT")] == "lib/star-handlers.ts#put"
    assert usrs[("/ambiguous", "PATCH")] == "lib/other-get.ts#PATCH"
    # A cycle of stars ends; a namespace is no handler.
    assert usrs[("/cycle", "DELETE")] == "lib/cycle-a.ts#DELETE"
    assert not {key for key in facts if key[0] in ("/namespace", "/direct-namespace")}
    # A package star can give any name: nothing from it; an explicit export shadows it.
    assert not {key for key in facts if key[0] in ("/package", "/missing")}
    assert usrs[("/shadowed-package", "GET")] == "lib/with-package.ts#GET"


def test_star_gaps_are_counted(tmp_path: Path) -> None:
    root = write_project(tmp_path / "web", FILES)
    coverage = _coverage(document_of(root))
    assert "ambiguous-star-export: 1" in coverage
    assert "namespace-export-named-like-a-method: 1" in coverage
    # app/package, app/missing and app/shadowed-package (its other methods may come from the
    # package); the project-only stars are not counted.
    assert "unresolvable-star-export: 3" in coverage
    for path in ("app/package/route.ts", "app/missing/route.ts", "app/ambiguous/route.ts"):
        assert path in coverage
    assert "app/api/star/route.ts" not in coverage and "app/chain/route.ts" not in coverage


def test_star_usrs_are_graph_nodes(tmp_path: Path) -> None:
    root = write_project(tmp_path / "web", FILES)
    usrs = {fact["symbol"]["usr"] for fact in document_of(root)["facts"]}
    nodes = load_project_graph(str(root), use_cache=False).graph.nodes
    assert usrs - set(nodes) == set()
