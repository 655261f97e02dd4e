"""`graph --language python` and the language choice, through the command line."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.exchange.validation import validate

FIXTURES = REPO / "fixtures" / "python-graph"
GENERATED_AT = "2026-09-27T00:00:00.000Z"
CASES = ["shop", "tasks", "library"]


def _graph(project: Path, cache: Path, *extra: str) -> bytes:
    result = tsograph(
        "graph",
        "--project",
        project,
        "--generated-at",
        GENERATED_AT,
        "--cache-dir",
        cache,
        *extra,
    )
    assert result.code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("case", CASES)
def test_python_snapshot_matches_golden(case: str, tmp_path: Path) -> None:
    output = _graph(FIXTURES / case, tmp_path / "cache", "--language", "python")
    document = orjson.loads(output)
    validate(document)
    assert document["platform"] == "python"
    assert_matches_golden(output, FIXTURES / "expected" / f"{case}.json")


@pytest.mark.parametrize("case", CASES)
def test_one_language_is_chosen_without_the_option_and_runs_repeat_byte_for_byte(
    case: str, tmp_path: Path
) -> None:
    cold = _graph(FIXTURES / case, tmp_path / "cache")
    warm = _graph(FIXTURES / case, tmp_path / "cache")
    uncached = _graph(FIXTURES / case, tmp_path / "other", "--no-cache")
    assert cold == warm == uncached
    assert orjson.loads(cold)["platform"] == "python"


def test_a_project_with_two_languages_needs_the_option(tmp_path: Path) -> None:
    project = tmp_path / "mixed"
    shutil.copytree(FIXTURES / "shop", project)
    (project / "web.ts").write_text("export function main() {}\n")
    result = tsograph("graph", "--project", project, "--no-cache")
    assert result.code == 64
    assert result.stdout == b""
    assert "several languages (js, python)" in result.stderr
    assert "--language" in result.stderr
    js = orjson.loads(_graph(project, tmp_path / "cache", "--language", "js"))
    assert js["platform"] == "js"
    assert {node["location"]["path"] for node in js["nodes"]} == {"web.ts"}


def test_reach_and_impact_read_the_python_snapshot(tmp_path: Path) -> None:
    snapshot = tmp_path / "graph.json"
    snapshot.write_bytes(_graph(FIXTURES / "shop", tmp_path / "cache", "--language", "python"))
    result = tsograph(
        "reach", "--graph-file", snapshot, "main.py#main", "--generated-at", GENERATED_AT
    )
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    validate(document)
    assert document["platform"] == "python"
    reached = {item["symbol"]["usr"] for item in document["reached"]}
    assert "shop/util/text.py#_upper" in reached
    result = tsograph(
        "impact",
        "--project",
        FIXTURES / "shop",
        "--language",
        "python",
        "--no-cache",
        "shop/models.py#Priced.price",
        "--generated-at",
        GENERATED_AT,
    )
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert document["platform"] == "python"
    callers = {item["symbol"]["usr"] for item in document["reached"]}
    assert {"shop/models.py#Taxed.price", "shop/service.py#summarize"} <= callers
