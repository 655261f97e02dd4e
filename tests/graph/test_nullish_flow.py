"""`null` and `undefined` hold no implementation: they never block a bound edge.

Calling a method on null or undefined throws, so no other target runs: a
receiver whose values are project implementations plus null/undefined keeps
its bound edges, and one that only ever holds null/undefined gets none. The
first case is the lazily cached provider of documenso's getStorageProvider.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.graph.test_bound_dispatch import bound_edges
from tests.graph.test_bound_dispatch import graph_of

PROVIDERS = """
export interface Provider { upload(): string }
export class S3 implements Provider { upload() { return 's3'; } }
export class Blob implements Provider { upload() { return 'blob'; } }
"""

CACHED = """
import { Provider, S3, Blob } from './providers';
let cached: Provider | null = {initial};
export function get(): Provider {
  if (!cached) cached = process.env.BLOB ? new Blob() : new S3();
  return cached;
}
"""

BOTH = {("app.ts#save", "providers.ts#S3.upload"), ("app.ts#save", "providers.ts#Blob.upload")}


@pytest.mark.parametrize("initial", ["null", "undefined", "void 0", "(null as any)", "null!"])
@pytest.mark.parametrize("call", ["get().upload()", "get()?.upload()", "get()?.upload?.()"])
def test_a_lazily_cached_provider_is_bound(initial: str, call: str, tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "package.json": '{ "name": "app", "private": true }',
            "providers.ts": PROVIDERS,
            "store.ts": CACHED.replace("{initial}", initial),
            "app.ts": "import { get } from './store';\n"
            f"export function save() {{ return {call}; }}\n",
        },
    )
    assert bound_edges(document) == BOTH


@pytest.mark.parametrize("initial", ["null", "undefined", "void 0"])
def test_a_receiver_that_only_holds_null_gets_no_bound_edge(initial: str, tmp_path: Path) -> None:
    document = graph_of(
        tmp_path,
        {
            "providers.ts": PROVIDERS,
            "app.ts": "import { Provider } from './providers';\n"
            f"let cached: Provider | undefined = {initial};\n"
            "export function save() { return cached?.upload(); }\n"
            "export function reset() { cached = null; }\n",
        },
    )
    assert bound_edges(document) == set()


def test_a_parameter_named_undefined_is_not_nullish(tmp_path: Path) -> None:
    # `undefined` is an ordinary name: a parameter of that name holds its arguments.
    document = graph_of(
        tmp_path,
        {
            "providers.ts": PROVIDERS,
            "app.ts": "import { Provider, S3, Blob } from './providers';\n"
            "function save(undefined: Provider) {\n"
            "  const p = Math.random() > 0.5 ? undefined : new S3();\n"
            "  return p.upload();\n"
            "}\n"
            "save(new Blob());\n"
            "function keep(p: Provider | null) { return p?.upload(); }\n"
            "keep(undefined === null ? null : new S3());\n",
        },
    )
    edges = bound_edges(document)
    # Unknown (no edge) or both classes; S3 alone would drop the Blob argument.
    assert {edge for edge in edges if edge[0] == "app.ts#save"} in (
        set(),
        {
            ("app.ts#save", "providers.ts#S3.upload"),
            ("app.ts#save", "providers.ts#Blob.upload"),
        },
    )
    assert ("app.ts#keep", "providers.ts#S3.upload") in edges
