"""A warm `routes --role server` run on a Node backend reads every file from the syntax cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.routes.support import FIXTURES
from tests.routes.support import copy_project
from tests.routes.support import run_routes
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.project import syntax_cache
from tsograph.producers.project.facts_cache import FactsCache
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.syntax_cache import SyntaxFiles
from tsograph.producers.project.syntax_cache import syntax_namespace
from tsograph.producers.routes.node.server import scan_server

# Both use Nest and Express (controllers, decorators, a module tree): every reading path.
APPS = ("nest-app", "express4-app")


def _files(directory: Path) -> SyntaxFiles:
    return SyntaxFiles(FactsCache(directory, syntax_namespace()))


@pytest.mark.parametrize("name", APPS)
def test_a_second_scan_parses_no_file_and_finds_the_same_routes(name: str, tmp_path: Path) -> None:
    project = copy_project(FIXTURES / "node" / name / "project", tmp_path / "project")
    cold = _files(tmp_path / "cache")
    first = scan_server(ProjectModel.load(project, False, cold), None)
    assert cold.parsed > 0 and first.facts
    warm = _files(tmp_path / "cache")
    second = scan_server(ProjectModel.load(project, False, warm), None)
    assert warm.parsed == 0 and warm.cache.stats.hits == cold.parsed
    assert second.facts == first.facts and second.limitations == first.limitations


@pytest.mark.parametrize("name", APPS)
def test_a_warm_command_parses_nothing(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = copy_project(FIXTURES / "node" / name / "project", tmp_path / "project")
    cache = str(tmp_path / "cache")
    uncached = run_routes(project, "--no-cache")
    cold = run_routes(project, "--cache-dir", cache)

    def no_parsing(*_: Any) -> SyntaxFile:
        raise AssertionError("a warm run parsed a file")

    monkeypatch.setattr(syntax_cache, "read_syntax", no_parsing)
    warm = run_routes(project, "--cache-dir", cache)
    assert uncached.code == cold.code == warm.code == 0, warm.stderr
    assert warm.stdout == cold.stdout == uncached.stdout
