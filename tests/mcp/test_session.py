"""The MCP session in process: nothing read before the first question, kept answers, cancels."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.cli_helpers import REPO
from tsograph.producers.mcp.session import KEPT_ANSWERS
from tsograph.producers.mcp.session import GraphSession

FIXTURE = REPO / "fixtures" / "graph" / "basics"


@pytest.fixture
def session(tmp_path: Path) -> GraphSession:
    """A session whose build is kept in a cache of its own (paging, cancels and
    generations hold on a kept build as on one built in memory)."""
    return GraphSession(FIXTURE, cache_dir=str(tmp_path / "cache"))


def test_a_refused_question_builds_nothing(session: GraphSession) -> None:
    document, failed = session.call("graph_outline", {"file": "src/../../etc"})
    assert failed and document["error"]["code"] == "outside-repository"
    document, failed = session.call("graph_callers", {"id": "/abs/x.ts#f"})
    assert failed and document["error"]["code"] == "outside-repository"
    assert session.builds == 0


def test_a_cursor_pages_the_kept_list_without_walking_again(session: GraphSession) -> None:
    arguments = {"symbol": "listJobs", "depth": 2, "limit": 2}
    first, _ = session.call("graph_callers", arguments)
    assert session.walks == 1
    second, failed = session.call(
        "graph_callers", {**arguments, "cursor": first["truncated"]["cursor"]}
    )
    assert not failed and session.walks == 1
    whole, _ = session.call("graph_callers", {"symbol": "listJobs", "depth": 2})
    assert first["items"] + second["items"] == whole["items"][:4]
    assert session.builds == 1


def test_only_the_most_recent_answers_are_kept(session: GraphSession) -> None:
    arguments = {"symbol": "listJobs", "depth": 2, "limit": 2}
    first, _ = session.call("graph_callers", arguments)
    for number in range(KEPT_ANSWERS):
        session.call("graph_search", {"text": f"x{number}"})
    walks = session.walks
    again, failed = session.call(
        "graph_callers", {**arguments, "cursor": first["truncated"]["cursor"]}
    )
    # The list was dropped: the cursor walks again, and the page is the same.
    assert not failed and session.walks == walks + 1
    whole, _ = session.call("graph_callers", {"symbol": "listJobs", "depth": 2})
    assert again["items"] == whole["items"][2:4]


def test_a_cancelled_walk_stops_and_is_not_kept(session: GraphSession) -> None:
    document, failed = session.call(
        "graph_callers", {"symbol": "listJobs", "depth": 3}, cancelled=lambda: True
    )
    assert not failed
    assert document["truncated"]["by"] == "budget" and document["counts"] is None
    walks = session.walks
    session.call("graph_callers", {"symbol": "listJobs", "depth": 3})
    assert session.walks == walks + 1


def test_a_generation_this_session_does_not_hold_is_refused(
    session: GraphSession, tmp_path: Path
) -> None:
    document, failed = session.call("graph_status", {"generation": "sha256:0"})
    assert failed and document["error"]["code"] == "unknown-build"
    build = document["graph"]["build"]
    document, failed = session.call("graph_status", {"generation": build})
    assert not failed


class StepClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("edit", ["new file", "changed file", "removed file"])
def test_edits_since_the_build_are_seen_at_most_once_a_second(edit: str, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo, ignore=shutil.ignore_patterns("expected.json"))
    clock = StepClock()
    session = GraphSession(repo, use_cache=False, clock=clock)
    document, _ = session.call("graph_status", {})
    assert document["graph"]["freshness"]["laterEditsKnown"] is False
    if edit == "new file":
        (repo / "src" / "lib" / "extra.ts").write_text("export const x = 1;\n")
    elif edit == "changed file":
        with (repo / "src" / "lib" / "jobs.ts").open("a") as source:
            source.write("\nexport const y = 2;\n")
    else:
        (repo / "src" / "lib" / "audit.ts").unlink()
    clock.now = 0.5  # within the second: not checked yet
    document, _ = session.call("graph_status", {})
    assert document["graph"]["freshness"]["laterEditsKnown"] is False
    clock.now = 1.5
    document, _ = session.call("graph_status", {})
    assert document["graph"]["freshness"]["laterEditsKnown"] is True
    build = document["graph"]["build"]
    document, _ = session.call("graph_refresh", {})
    assert document["graph"]["freshness"]["laterEditsKnown"] is False
    assert document["graph"]["build"] != build


def test_a_mixed_repository_answers_each_language_it_is_asked(tmp_path: Path) -> None:
    """A repository with JavaScript and Python sources: js by default, python when asked;
    an edit of a Python file is seen as a later edit too."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo, ignore=shutil.ignore_patterns("expected.json"))
    shutil.copytree(REPO / "fixtures" / "query" / "projects" / "pytests", repo / "py")
    clock = StepClock()
    session = GraphSession(repo, use_cache=False, clock=clock)
    document, failed = session.call("graph_callers", {"symbol": "listJobs"})
    assert not failed and document["target"]["file"] == "src/lib/jobs.ts"
    document, failed = session.call("graph_callers", {"symbol": "test_twice"})
    assert failed and document["error"]["code"] == "unknown-symbol"
    document, failed = session.call("graph_tests", {"symbol": "twice", "language": "python"})
    assert not failed
    assert [item["name"] for item in document["items"]] == [
        "OpsTests.test_twice_of_zero",
        "test_twice",
        "test_run_doubles",
    ]
    assert session.builds == 2
    document, failed = session.call("graph_callers", {"symbol": "x", "language": "go"})
    assert failed and document["error"]["code"] == "bad-request"
    with (repo / "py" / "calc" / "ops.py").open("a") as source:
        source.write("\n\ndef later() -> None:\n    pass\n")
    clock.now = 1.5
    document, _ = session.call("graph_status", {"language": "python"})
    assert document["graph"]["freshness"]["laterEditsKnown"] is True


def test_a_later_session_answers_from_the_kept_build_and_lets_go_on_close(
    tmp_path: Path,
) -> None:
    cache = str(tmp_path / "cache")
    first = GraphSession(FIXTURE, cache_dir=cache)
    document, _ = first.call("graph_callers", {"symbol": "listJobs"})
    assert document["graph"]["mode"] in ("built", "cached")
    first.close()
    second = GraphSession(FIXTURE, cache_dir=cache)
    again, _ = second.call("graph_callers", {"symbol": "listJobs"})
    assert again["graph"]["mode"] == "kept"
    assert (
        again["items"] == document["items"]
        and again["graph"]["build"] == document["graph"]["build"]
    )
    leases = list((tmp_path / "cache").glob("builds/*/leases/*.json"))
    assert len(leases) == 1
    # A refresh with nothing changed holds the same kept build again.
    refreshed, _ = second.call("graph_refresh", {})
    assert refreshed["graph"]["mode"] == "kept" and second.builds == 2
    second.close()
    assert not leases[0].exists()


def test_a_session_from_a_kept_build_prepares_an_incremental_refresh(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    cache = str(tmp_path / "cache")
    first = GraphSession(project, cache_dir=cache)
    first.call("graph_callers", {"symbol": "listJobs"})
    first.close()
    second = GraphSession(project, cache_dir=cache)
    document, _ = second.call("graph_callers", {"symbol": "listJobs"})
    assert document["graph"]["mode"] == "kept"
    (keeper,) = second._keepers.values()
    keeper.wait_prepared()  # the state was bound in the background after the answer
    assert keeper.state is not None and keeper.state.rebound is None
    source = next(
        path for path in sorted(project.rglob("*.ts")) if "node_modules" not in path.parts
    )
    source.write_text(source.read_text() + "\nexport function preparedEdit() { return 1; }\n")
    refreshed, _ = second.call("graph_refresh", {})
    assert refreshed["graph"]["mode"] == "built"
    assert keeper.state is not None and keeper.state.rebound is not None  # incremental
    second.close()
    fresh = GraphSession(project, use_cache=False)
    again, _ = fresh.call("graph_callers", {"symbol": "listJobs"})
    assert again["items"] == second.call("graph_callers", {"symbol": "listJobs"})[0]["items"]


def test_closing_the_session_stops_a_background_preparation(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    GraphSession(FIXTURE, cache_dir=cache).call("graph_callers", {"symbol": "listJobs"})
    session = GraphSession(FIXTURE, cache_dir=cache)
    session.call("graph_callers", {"symbol": "listJobs"})
    (keeper,) = session._keepers.values()
    session.close()  # before the preparation's delay is over: it never binds
    keeper.wait_prepared()
    assert keeper.state is None
