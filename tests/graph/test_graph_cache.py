"""The whole-graph cache: reused only while everything binding read is unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.cli_helpers import tsograph
from tests.project.builder import write_tree
from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.graph.records import graph_records
from tsograph.producers.graph.records import store_validated

GENERATED_AT = "2026-09-27T00:00:00.000Z"


def project(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "project",
        {
            "tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]}}}',
            "src/a.ts": (
                "import { b } from '@/b';\nimport x from 'pkg';\n"
                "export function a() { b(); x(); }\n"
            ),
            "src/b.ts": "export function b() { return 1; }\n",
        },
    )


def load(root: Path, cache: Path) -> bool:
    """True when the graph came from the cache."""
    return load_project_graph(str(root), cache_dir=str(cache)).cached_records is not None


def graph_json(root: Path, cache: Path) -> dict[str, Any]:
    result = tsograph(
        "graph", "--project", root, "--cache-dir", cache, "--generated-at", GENERATED_AT
    )
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert isinstance(document, dict)
    return document


def test_second_run_uses_the_cached_graph_and_writes_the_same_bytes(tmp_path: Path) -> None:
    root, cache = project(tmp_path), tmp_path / "cache"
    first = tsograph(
        "graph", "--project", root, "--cache-dir", cache, "--generated-at", GENERATED_AT
    )
    assert load(root, cache)
    second = tsograph(
        "graph", "--project", root, "--cache-dir", cache, "--generated-at", GENERATED_AT
    )
    assert first.stdout == second.stdout and first.code == 0


def test_a_cached_graph_is_made_from_its_records_only_when_asked(tmp_path: Path) -> None:
    # `graph` writes the cached records as they are; reach, impact and query ask for the
    # graph itself, which must be the one the records were made from.
    root, cache = project(tmp_path), tmp_path / "cache"
    built = load_project_graph(str(root), cache_dir=str(cache))
    store_validated(built, graph_records(built.graph))
    cached = load_project_graph(str(root), cache_dir=str(cache))
    assert cached.cached_records is not None and cached.built is None
    assert graph_records(cached.graph) == graph_records(built.graph)
    assert cached.built is cached.graph


def test_no_entry_before_a_validated_write(tmp_path: Path) -> None:
    root, cache = project(tmp_path), tmp_path / "cache"
    assert not load(root, cache)
    assert not load(root, cache), "loading alone never stores a graph"


def test_edited_source_config_or_installed_package_makes_the_entry_stale(tmp_path: Path) -> None:
    root, cache = project(tmp_path), tmp_path / "cache"
    before = graph_json(root, cache)
    assert any("missing-dependencies:" in line for line in before["limitations"])
    (root / "node_modules" / "pkg").mkdir(parents=True)
    assert not load(root, cache)
    after = graph_json(root, cache)
    assert not any("missing-dependencies:" in line for line in after["limitations"])
    assert load(root, cache)
    (root / "tsconfig.json").write_text('{"compilerOptions": {}}')
    assert not load(root, cache)
    graph_json(root, cache)
    (root / "src" / "b.ts").write_text("export function b() { return 2; }\n")
    assert not load(root, cache)


def test_new_workspace_package_folder_makes_the_entry_stale(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "package.json": '{"workspaces": ["packages/*"]}',
            "app/main.ts": "import { f } from 'lib';\nf();\n",
        },
    )
    cache = tmp_path / "cache"
    graph_json(root, cache)
    assert load(root, cache)
    write_tree(
        root,
        {
            "packages/lib/package.json": '{"name": "lib", "main": "index.ts"}',
        },
    )
    assert not load(root, cache)


def test_corrupt_facts_entries_are_parsed_again_and_reported(tmp_path: Path) -> None:
    root, cache = project(tmp_path), tmp_path / "cache"
    first = tsograph(
        "graph", "--project", root, "--cache-dir", cache, "--generated-at", GENERATED_AT
    )
    for entry in cache.rglob("*.json"):
        if entry.parent.name != "graphs":
            entry.write_bytes(b"{broken")
    (root / "src" / "c.ts").write_text("export const c = 1;\n")  # a new key, so no graph entry
    second = tsograph(
        "graph", "--project", root, "--cache-dir", cache, "--generated-at", GENERATED_AT
    )
    assert second.code == 0
    assert "2 cache entr(ies) were corrupt" in second.stderr
    assert orjson.loads(second.stdout)["statistics"]["files"] == 3
    assert first.code == 0
