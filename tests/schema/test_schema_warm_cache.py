"""A warm `schema` run reads every Prisma file it needs from the syntax cache: it parses none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.schema.support import FIXTURES
from tests.schema.support import copy_project
from tests.schema.support import run_schema
from tsograph.producers.project import syntax_cache


def test_a_warm_prisma_run_parses_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy_project(FIXTURES / "client-provenance" / "project", tmp_path / "app")
    cache = tmp_path / "cache"
    parsed: list[str] = []
    original = syntax_cache.read_syntax

    def counting(path: str, data: bytes) -> object:
        parsed.append(path)
        return original(path, data)

    monkeypatch.setattr(syntax_cache, "read_syntax", counting)
    cold = run_schema(project, "--cache-dir", str(cache))
    assert cold.code == 0 and parsed
    parsed.clear()
    warm = run_schema(project, "--cache-dir", str(cache))
    assert warm.code == 0 and warm.stdout == cold.stdout
    assert parsed == []
    uncached = run_schema(project, "--no-cache")
    assert uncached.stdout == cold.stdout and parsed
