"""`routes --role client` reads its files through the syntax cache: a warm run parses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.routes.client.support import run_client
from tests.routes.support import write_project
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.project import syntax_cache

FILES = {
    "src/api.ts": (
        'import axios from "axios";\n'
        'export const api = axios.create({ baseURL: "/api" });\n'
        "export const get = (id: string) => api.get(`/users/${id}`);\n"
    ),
    "src/page.ts": 'import { get } from "./api";\nget("me");\nfetch("/health");\n',
}


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the front-end parses from now on."""
    seen: list[str] = []

    def counting(path: str, data: bytes) -> SyntaxFile:
        seen.append(path)
        return read_syntax(path, data)

    monkeypatch.setattr(syntax_cache, "read_syntax", counting)
    return seen


def test_a_warm_run_parses_no_file(tmp_path: Path, parsed: list[str]) -> None:
    project = write_project(tmp_path / "project", FILES)
    cache = ("--cache-dir", str(tmp_path / "cache"))
    cold = run_client(project, *cache)
    assert cold.code == 0, cold.stderr
    assert sorted(parsed) == ["src/api.ts", "src/page.ts"]
    parsed.clear()
    warm = run_client(project, *cache)
    assert warm.code == 0, warm.stderr
    assert parsed == []
    assert warm.stdout == cold.stdout
    assert b'"/api/users/{}"' in warm.stdout


def test_no_cache_parses_every_run(tmp_path: Path, parsed: list[str]) -> None:
    project = write_project(tmp_path / "project", FILES)
    for _ in range(2):
        assert run_client(project, "--no-cache").code == 0
    assert sorted(parsed) == ["src/api.ts", "src/api.ts", "src/page.ts", "src/page.ts"]
