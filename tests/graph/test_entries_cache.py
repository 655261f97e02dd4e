"""Entry points and the whole-graph cache: a change to a file entries read drops the entry.

vercel.json and package.json are not sources, so their bytes are not in the
cache key; they are recorded dependencies instead. next.config.* files are
sources, in the key like any other.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.cli_helpers import tsograph
from tests.project.builder import write_tree

AT = "2026-09-27T00:00:00.000Z"
NEXT_PACKAGE = '{"name": "app", "dependencies": {"next": "16.0.0"}}'


def _project(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "project",
        {
            "package.json": NEXT_PACKAGE,
            "vercel.json": '{"crons": []}',
            "app/api/tick/route.ts": "export function GET() { return 1; }\n",
            "app/home/page.tsx": "export default function Home() { return null; }\n",
            "app/home/page.mdx.tsx": "export default function Doc() { return null; }\n",
        },
    )


def _marks(root: Path, cache: Path) -> dict[str, list[str]]:
    result = tsograph("graph", "--project", root, "--cache-dir", cache, "--generated-at", AT)
    assert result.code == 0, result.stderr
    nodes = orjson.loads(result.stdout)["nodes"]
    return {node["id"]: node["entries"] for node in nodes if "entries" in node}


def _stored(cache: Path) -> dict[Path, int]:
    return {entry: entry.stat().st_mtime_ns for entry in (cache / "graphs").glob("*.json")}


def test_a_changed_entry_input_invalidates_the_cached_graph(tmp_path: Path) -> None:
    root, cache = _project(tmp_path), tmp_path / "cache"
    before = _marks(root, cache)
    # With the default page extensions `page.mdx.tsx` is no special file.
    assert before == {
        "app/api/tick/route.ts#GET": ["route-handler"],
        "app/home/page.tsx#Home": ["page"],
    }
    stored = _stored(cache)
    assert stored, "the cold run stored the graph"
    # A warm run reads the stored graph (the entry is not written again) ...
    assert _marks(root, cache) == before and _stored(cache) == stored
    # ... until a file the entry points were read from changes: vercel.json,
    (root / "vercel.json").write_text('{"crons": [{"path": "/api/tick"}]}')
    assert _marks(root, cache) == {
        "app/api/tick/route.ts#GET": ["route-handler", "scheduled"],
        "app/home/page.tsx#Home": ["page"],
    }
    assert _stored(cache) != stored
    # package.json (without `next` or a config, pages are no longer Next.js pages; the
    # routes producer still scans app/, as no other server framework is declared),
    (root / "package.json").write_text('{"name": "app"}')
    assert _marks(root, cache) == {"app/api/tick/route.ts#GET": ["route-handler", "scheduled"]}
    # or the Next.js config: only `.mdx.tsx` files are pages or routes now.
    (root / "next.config.mjs").write_text('export default { pageExtensions: ["mdx.tsx"] };\n')
    assert _marks(root, cache) == {"app/home/page.mdx.tsx#Doc": ["page"]}
