"""Bound dispatch: value flow links interface calls only when every observed value is known.

Each case is a small project written for the rule it checks; the assertions
name the bound edges expected, so a flow that guesses (an extra edge) or one
that loses a value (a missing edge) fails.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.exchange.validation import validate

AT = "2026-09-27T00:00:00.000Z"
DI = REPO / "fixtures" / "graph" / "di-dispatch"
GOLDENS = REPO / "fixtures" / "traversal"

STORES = """
export interface Store { find(): string }
export class SqlStore implements Store { find() { return 'sql'; } }
export class MemoryStore implements Store { find() { return 'memory'; } }
"""


def graph_of(tmp_path: Path, files: dict[str, str]) -> dict[str, object]:
    project = tmp_path / "project"
    for name, text in files.items():
        target = project / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    result = tsograph(
        "graph", "--project", project, "--cache-dir", tmp_path / "cache", "--generated-at", AT
    )
    assert result.code == 0, result.stderr
    document: dict[str, object] = orjson.loads(result.stdout)
    validate(document)
    return document


def bound_edges(document: dict[str, object]) -> set[tuple[str, str]]:
    edges = document["edges"]
    assert isinstance(edges, list)
    return {(edge["from"], edge["to"]) for edge in edges if edge["evidence"] == "bound"}


@pytest.mark.parametrize(
    ("roots", "mode"),
    [
        (("GET", "PATCH"), "bound"),
        (("GET", "PATCH"), "direct"),
        (("GET", "PATCH"), "candidates"),
    ],
)
def test_di_dispatch_reach_matches_golden(
    roots: tuple[str, ...], mode: str, tmp_path: Path
) -> None:
    ids = [f"src/app/api/items/route.ts#{name}" for name in roots]
    result = tsograph(
        "reach",
        "--project",
        DI,
        "--cache-dir",
        tmp_path,
        "--generated-at",
        AT,
        "--dispatch",
        mode,
        *ids,
    )
    assert result.code == 0, result.stderr
    validate(orjson.loads(result.stdout))
    assert_matches_golden(result.stdout, GOLDENS / f"di-dispatch-{mode}.json")


def test_two_composition_roots_bind_both_stores_and_test_mocks_do_not_block(
    tmp_path: Path,
) -> None:
    edges = bound_edges(orjson.loads(_graph(DI, tmp_path)))
    assert edges == {
        ("src/lib/handler.ts#ItemHandler.get", "src/lib/store.ts#MemoryItemStore.findItem"),
        ("src/lib/handler.ts#ItemHandler.get", "src/lib/store.ts#SqlItemStore.findItem"),
    }


def _graph(project: Path, tmp_path: Path) -> bytes:
    result = tsograph(
        "graph", "--project", project, "--cache-dir", tmp_path / "c2", "--generated-at", AT
    )
    assert result.code == 0, result.stderr
    return result.stdout


def test_default_parameter_and_missing_argument(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "stores.ts": STORES,
            "service.ts": """
import { Store, MemoryStore, SqlStore } from './stores';
export class Service {
  constructor(private store: Store = new MemoryStore()) {}
  run() { return this.store.find(); }
}
export const a = new Service();
export const b = new Service(new SqlStore());
""",
        },
    )
    assert bound_edges(document) == {
        ("service.ts#Service.run", "stores.ts#MemoryStore.find"),
        ("service.ts#Service.run", "stores.ts#SqlStore.find"),
    }


def test_factory_singleton_and_implicit_super(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "stores.ts": STORES,
            "app.ts": """
import { Store, SqlStore } from './stores';
function createStore(): Store { return new SqlStore(); }
export const store = createStore();
export function read() { return store.find(); }
class Base { constructor(protected s: Store) {} go() { return this.s.find(); } }
class Derived extends Base {}
export const d = new Derived(createStore());
""",
        },
    )
    assert bound_edges(document) == {
        ("app.ts#read", "stores.ts#SqlStore.find"),
        ("app.ts#Base.go", "stores.ts#SqlStore.find"),
    }


def test_fixpoint_through_a_self_feeding_slot(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "cache.ts": """
export interface Store { find(): string; withCache(): Store }
export class SqlStore implements Store {
  find() { return 'sql'; }
  withCache(): Store { return new CachedStore(this); }
}
export class CachedStore implements Store {
  constructor(private inner: Store) {}
  find() { return this.inner.find(); }
  withCache(): Store { return this; }
}
export class Holder {
  store: Store = new SqlStore();
  warm() { this.store = this.store.withCache(); }
  read() { return this.store.find(); }
}
new Holder().warm();
""",
        },
    )
    edges = bound_edges(document)
    assert ("cache.ts#Holder.read", "cache.ts#SqlStore.find") in edges
    assert ("cache.ts#Holder.read", "cache.ts#CachedStore.find") in edges


@pytest.mark.parametrize(
    ("label", "source"),
    [
        (
            "a computed write may replace the store",
            "const deps: { store: Store } = { store: new SqlStore() };\n"
            "export function set(key: string, v: any) { (deps as any)[key] = v; }\n"
            "export function read() { return deps.store.find(); }\n",
        ),
        (
            "Object.assign may replace the store",
            "const deps: { store: Store } = { store: new SqlStore() };\n"
            "export function set(v: any) { Object.assign(deps, v); }\n"
            "export function read() { return deps.store.find(); }\n",
        ),
        (
            "a decorated class is built by a container",
            "function Injectable() { return (c: unknown) => c; }\n"
            "@Injectable()\n"
            "class Service { constructor(private store: Store) {} run() { this.store.find(); } }\n"
            "export const s = new Service(new SqlStore());\n",
        ),
        (
            "a function used as a value has callers nobody can list",
            "function run(store: Store) { return store.find(); }\n"
            "export const handlers = [run];\n"
            "run(new SqlStore());\n",
        ),
        (
            "a function without any call site gets no value",
            "export function run(store: Store) { return store.find(); }\n",
        ),
        (
            "a method parameter is open to every receiver",
            "export class A { run(store: Store) { return store.find(); } }\n"
            "new A().run(new SqlStore());\n",
        ),
        (
            "a monkey-patched method is not the implementation",
            "const sql = new SqlStore();\n"
            "sql.find = () => 'patched';\n"
            "function run(store: Store) { return store.find(); }\n"
            "run(sql);\n",
        ),
        (
            "an unknown argument makes the whole flow unknown",
            "function run(store: Store) { return store.find(); }\n"
            "run(new SqlStore());\n"
            "run(JSON.parse('{}'));\n",
        ),
        (
            "a method read detached lets its caller choose `this`",
            "class Holder {\n"
            "  constructor(private store: Store) {}\n"
            "  run() { return this.store.find(); }\n"
            "}\n"
            "const h = new Holder(new SqlStore());\n"
            "export const run = h.run;\n"
            "h.run();\n",
        ),
        (
            "a module loaded at run time exports to callers nobody can list",
            "export function run(store: Store) { return store.find(); }\n"
            "run(new SqlStore());\n"
            "export const later = () => import('./app');\n",
        ),
        (
            "a namespace passed as a value exposes every export",
            "import * as self from './app';\n"
            "export function run(store: Store) { return store.find(); }\n"
            "run(new SqlStore());\n"
            "console.log(self);\n",
        ),
        (
            "a computed specifier could load any module",
            "export function run(store: Store) { return store.find(); }\n"
            "run(new SqlStore());\n"
            "export const load = (name: string) => import(name);\n",
        ),
        (
            "a spread hides the argument positions",
            "function run(store: Store) { return store.find(); }\n"
            "const args = [new SqlStore()] as const;\n"
            "run(...args);\n",
        ),
    ],
)
def test_openings_keep_the_flow_unknown(label: str, source: str, tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {"stores.ts": STORES, "app.ts": "import { Store, SqlStore } from './stores';\n" + source},
    )
    assert bound_edges(document) == set(), label


def test_many_same_named_writes_group_once_and_stay_exact(tmp_path: Path) -> None:
    files = {"stores.ts": STORES}
    for index in range(40):
        files[f"m{index}.ts"] = (
            "import { Store, SqlStore, MemoryStore } from './stores';\n"
            f"class H{index} {{\n"
            "  store: Store;\n"
            "  constructor(s: Store) { this.store = s; }\n"
            "  run() { return this.store.find(); }\n"
            "}\n"
            f"const h = new H{index}(new SqlStore());\n"
            + ("h.store = new MemoryStore();\n" if index % 2 else "")
            + "h.run();\n"
        )
    edges = bound_edges(graph_of(tmp_path, files))
    for index in range(40):
        expected = {"stores.ts#SqlStore.find"} | (
            {"stores.ts#MemoryStore.find"} if index % 2 else set()
        )
        assert {to for source, to in edges if source == f"m{index}.ts#H{index}.run"} == expected


def test_closed_function_parameter_is_bound(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "stores.ts": STORES,
            "app.ts": "import { Store, SqlStore, MemoryStore } from './stores';\n"
            "function run(store: Store) { return store.find(); }\n"
            "run(new SqlStore());\n"
            "run(Math.random() > 0.5 ? new MemoryStore() : new SqlStore());\n",
        },
    )
    assert bound_edges(document) == {
        ("app.ts#run", "stores.ts#MemoryStore.find"),
        ("app.ts#run", "stores.ts#SqlStore.find"),
    }


def test_library_packages_open_their_exports(tmp_path: Path) -> None:
    files = {
        "stores.ts": STORES,
        "app.ts": "import { Store, SqlStore } from './stores';\n"
        "export function run(store: Store) { return store.find(); }\n"
        "run(new SqlStore());\n",
    }
    assert bound_edges(graph_of(tmp_path / "app", files)) == {
        ("app.ts#run", "stores.ts#SqlStore.find")
    }
    files["package.json"] = '{ "name": "lib", "main": "app.js" }'
    document = graph_of(tmp_path / "lib", files)
    assert bound_edges(document) == set()
    limitations = document["limitations"]
    assert isinstance(limitations, list)
    assert any("library" in line for line in limitations if line.startswith("bound-dispatch:"))


@pytest.mark.parametrize("private", [True, False])
def test_private_workspace_packages_keep_their_exports_closed(
    private: bool, tmp_path: Path
) -> None:
    # npm refuses to publish a private package (libnpmpublish@12.0.1), so its
    # only importers are in the workspace, which the scan holds.
    flag = '"private": true, ' if private else ""
    files = {
        "package.json": '{ "private": true, "workspaces": ["packages/*"] }',
        "packages/lib/package.json": '{ "name": "@x/lib", ' + flag + '"main": "app.js" }',
        "packages/lib/stores.ts": STORES,
        "packages/lib/app.ts": "import { Store, SqlStore } from './stores';\n"
        "export function run(store: Store) { return store.find(); }\n"
        "run(new SqlStore());\n",
    }
    document = graph_of(tmp_path, files)
    expected = {("packages/lib/app.ts#run", "packages/lib/stores.ts#SqlStore.find")}
    assert bound_edges(document) == (expected if private else set())
    limitations = document["limitations"]
    assert isinstance(limitations, list)
    line = next(line for line in limitations if line.startswith("bound-dispatch:"))
    assert ("1 library package(s)" in line) is not private


def test_callable_flow_through_a_closed_wrapper(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "wrap.ts": """
export function withAuth(handler: (id: string) => string) {
  return (id: string) => handler(id);
}
export const get = withAuth((id) => id.toUpperCase());
""",
        },
    )
    assert bound_edges(document) == {("wrap.ts#withAuth", "wrap.ts#get.withAuth()")}


def test_test_sources_are_a_separate_program(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "stores.ts": STORES,
            "app.ts": "import { Store, SqlStore } from './stores';\n"
            "export function run(store: Store) { return store.find(); }\n"
            "run(new SqlStore());\n",
            "app.test.ts": "import { run } from './app';\nrun({ find: () => 'mock' });\n",
        },
    )
    # Production code stays bound; the mock only widens what test code sees.
    assert bound_edges(document) == {("app.ts#run", "stores.ts#SqlStore.find")}


def test_production_code_importing_a_test_source_joins_the_programs(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "stores.ts": STORES,
            "app.ts": "import { Store, SqlStore } from './stores';\n"
            "import { fixture } from './fixtures.test';\n"
            "export function run(store: Store) { return store.find(); }\n"
            "run(new SqlStore());\n"
            "export const seeded = fixture;\n",
            "fixtures.test.ts": "import { run } from './app';\n"
            "export const fixture = 1;\n"
            "run({ find: () => 'mock' });\n",
        },
    )
    # The mock is now part of the program production code runs in: both are targets.
    assert bound_edges(document) == {
        ("app.ts#run", "fixtures.test.ts#find"),
        ("app.ts#run", "stores.ts#SqlStore.find"),
    }


def test_entry_point_parameters_are_filled_by_the_framework(tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "package.json": '{ "dependencies": { "next": "16.2.7" } }',
            "lib/stores.ts": STORES,
            "app/api/items/route.ts": "import { Store, SqlStore } from '../../../lib/stores';\n"
            "export async function POST(request: Request, store: Store) {\n"
            "  return store.find();\n"
            "}\n"
            "export function warm() { return POST(new Request('http://x'), new SqlStore()); }\n",
        },
    )
    assert bound_edges(document) == set()


def candidate_edges(document: dict[str, object]) -> set[tuple[str, str]]:
    edges = document["edges"]
    assert isinstance(edges, list)
    return {(edge["from"], edge["to"]) for edge in edges if edge["evidence"] == "candidate"}


TEST_ONLY = {
    "stores.ts": STORES,
    "app.ts": "import { Store } from './stores';\n"
    "export function run(store: Store) { return store.find(); }\n",
    "app.test.ts": "import { Store } from './stores';\n"
    "import { run } from './app';\n"
    "class FakeStore implements Store { find() { return 'fake'; } }\n"
    "export function check(store: Store) { return store.find(); }\n"
    "run(new FakeStore());\n",
}


def test_candidates_of_production_calls_leave_out_test_only_classes(tmp_path: Path) -> None:
    edges = candidate_edges(graph_of(tmp_path, TEST_ONLY))
    assert {to for source, to in edges if source == "app.ts#run"} == {
        "stores.ts#MemoryStore.find",
        "stores.ts#SqlStore.find",
    }
    # A call site inside test sources sees the whole project, fakes included.
    assert {to for source, to in edges if source == "app.test.ts#check"} == {
        "app.test.ts#FakeStore.find",
        "stores.ts#MemoryStore.find",
        "stores.ts#SqlStore.find",
    }


def test_candidates_see_test_classes_once_production_imports_a_test_source(
    tmp_path: Path,
) -> None:
    files = dict(TEST_ONLY)
    files["app.ts"] += "import { check } from './app.test';\nexport const again = check;\n"
    document = graph_of(tmp_path, files)
    # One program now: run's flow holds the fake, and check's candidates still do.
    assert ("app.ts#run", "app.test.ts#FakeStore.find") in bound_edges(document)
    files["app.ts"] = files["app.ts"].replace(
        "export function run(store: Store) { return store.find(); }\n",
        "export function run(store: Store) { return store.find(); }\n"
        "export function open(store: Store) { return store.find(); }\n",
    )
    edges = candidate_edges(graph_of(tmp_path / "open", files))
    assert ("app.ts#open", "app.test.ts#FakeStore.find") in edges


def test_candidates_leave_out_test_sources_production_never_loads(tmp_path: Path) -> None:
    # drizzle-orm's shape: a helper with an ordinary name imports one test
    # source, which joins the flows, while other test sources stay unloaded.
    files = dict(TEST_ONLY)
    files["helper.ts"] = (
        "import { OtherStore } from './other.test';\nexport const o = OtherStore;\n"
    )
    files["other.test.ts"] = (
        "import { Store } from './stores';\n"
        "export class OtherStore implements Store { find() { return 'other'; } }\n"
    )
    files["app.ts"] += "export function open(store: Store) { return store.find(); }\n"
    edges = candidate_edges(graph_of(tmp_path, files))
    assert {to for source, to in edges if source == "app.ts#open"} == {
        "other.test.ts#OtherStore.find",
        "stores.ts#MemoryStore.find",
        "stores.ts#SqlStore.find",
    }
