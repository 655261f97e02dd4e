"""`query changes --base REF` and `query impact --base REF` on a git history the test writes.

The history is scripted (fixed names and dates, so the commits have the same
ids on every run): the base commit holds helper, stable, legacy and other;
the next one edits helper, removes legacy's file (old() still calls it), adds
fresh in a new file and renames other to another with the same body. Answers are compared with
fixtures/query/base-*.json byte for byte.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson
import pytest

from tests.cli_helpers import REPO
from tests.cli_helpers import tsograph
from tests.golden import assert_matches_golden
from tsograph.producers.mcp.session import GraphSession

GOLDEN = REPO / "fixtures" / "query"

BASE = {
    "package.json": '{"name": "history", "private": true}\n',
    "src/lib.ts": (
        "export function helper() {\n  return 1;\n}\n\nexport function stable() {\n  return 3;\n}\n"
    ),
    "src/legacy.ts": "export function legacy() {\n  return 2;\n}\n",
    "src/use.ts": (
        'import { helper } from "./lib";\n'
        'import { legacy } from "./legacy";\n\n'
        "export function compute() {\n  return helper() + 1;\n}\n\n"
        "export function old() {\n  return legacy();\n}\n"
    ),
    "src/app.ts": (
        'import { compute } from "./use";\n\n'
        "export function main() {\n  return compute();\n}\n\n"
        "export function other() {\n  return [0, 1, 2].length;\n}\n"
    ),
}
# Declarations are added and removed with whole files here: a hunk that only inserts or
# only deletes lines between two declarations marks its neighbours too (review's rule).
HEAD = {
    "src/lib.ts": (
        "export function helper() {\n  return 10;\n}\n\n"
        "export function stable() {\n  return 3;\n}\n"
    ),
    "src/fresh.ts": (
        'import { helper } from "./lib";\n\nexport function fresh() {\n  return helper();\n}\n'
    ),
    "src/app.ts": (
        'import { compute } from "./use";\n\n'
        "export function main() {\n  return compute();\n}\n\n"
        "export function another() {\n  return [0, 1, 2].length;\n}\n"
    ),
}
REMOVED = ("src/legacy.ts",)


def _git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True)


def _commit(repo: Path, files: dict[str, str], message: str, removed: tuple[str, ...] = ()) -> None:
    for path in removed:
        (repo / path).unlink()
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("history") / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, BASE, "base")
    _commit(repo, HEAD, "change", REMOVED)
    return repo


@pytest.mark.parametrize("question", ["changes", "impact"])
def test_a_change_against_its_base_matches_the_golden(history: Path, question: str) -> None:
    result = tsograph(
        "query", question, "--base", "HEAD~1", "--project", history, "--no-cache", "--json"
    )
    assert result.code == 0, result.stderr
    assert_matches_golden(result.stdout, GOLDEN / f"base-{question}.json")


def test_the_mcp_tools_answer_as_the_command_line(history: Path) -> None:
    session = GraphSession(history, use_cache=False)
    for question in ("changes", "impact"):
        document, failed = session.call(f"graph_{question}", {"base": "HEAD~1"})
        golden = orjson.loads((GOLDEN / f"base-{question}.json").read_bytes())
        assert not failed and document["items"] == golden["items"]
        assert document["base"] == golden["base"]
    # The base was read once and kept for the held build.
    assert len(session._bases) == 1
    document, failed = session.call("graph_changes", {"base": "no-such-ref"})
    assert failed and document["error"]["code"] == "no-base"
    assert document["error"]["message"].startswith("--base no-such-ref: git rev-parse failed")
    document, failed = session.call("graph_impact", {"base": "HEAD~1", "symbol": "helper"})
    assert failed and document["error"]["code"] == "bad-request"


def test_a_base_outside_a_git_work_tree_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.ts").write_text("export function helper() {\n  return 1;\n}\n")
    result = tsograph("query", "changes", "--base", "HEAD", "--project", tmp_path, "--no-cache")
    assert result.code == 2 and result.stdout == b""
    # One line naming the command that failed and what to do; not review's advice.
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("tsograph: query changes: --base HEAD: ")
    assert "is not inside a git work tree; run it in a clone" in result.stderr
    assert "review" not in result.stderr
