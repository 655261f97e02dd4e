"""A warm `schema` run reads every ORM source from the syntax cache: nothing is parsed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.schema.orm.support import FIXTURES
from tests.schema.orm.support import copy_project
from tsograph.producers.project import syntax_cache
from tsograph.producers.project.facts_cache import FactsCache
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.syntax_cache import SyntaxFiles
from tsograph.producers.project.syntax_cache import syntax_namespace
from tsograph.producers.schema.collect_all import scan_project

CASES = sorted(path.name for path in FIXTURES.iterdir() if (path / "project").is_dir())


@pytest.mark.parametrize("case", CASES)
def test_second_run_with_the_same_cache_parses_nothing(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = copy_project(FIXTURES / case / "project", tmp_path / case)
    cache = tmp_path / "cache"
    cold = SyntaxFiles(FactsCache(cache, syntax_namespace()))
    first = scan_project(ProjectModel.load(project, syntax_files=cold))
    assert cold.parsed > 0, "the ORM phase read no source through the syntax cache"

    def refuse(path: str, data: bytes) -> None:
        raise AssertionError(f"{path} parsed on a warm run")

    monkeypatch.setattr(syntax_cache, "read_syntax", refuse)
    warm = SyntaxFiles(FactsCache(cache, syntax_namespace()))
    second = scan_project(ProjectModel.load(project, syntax_files=warm))
    assert warm.parsed == 0
    assert second.facts == first.facts
    assert second.limitation_lines() == first.limitation_lines()
