"""The time budget stops a walk at the element where the clock runs out; a fake clock drives it."""

from __future__ import annotations

import pytest

from tests.cli_helpers import REPO
from tsograph.producers.graph.project_graph import load_project_graph
from tsograph.producers.query.answer import Page
from tsograph.producers.query.answer import answer
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.questions import Request
from tsograph.producers.query.questions import ask


class FakeClock:
    """Each reading moves one millisecond on: the n-th element read sees n ms."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


@pytest.fixture(scope="module")
def held() -> HeldGraph:
    loaded = load_project_graph(str(REPO / "fixtures" / "graph" / "basics"), use_cache=False)
    return HeldGraph.of(
        loaded.graph, loaded.graph.revision(), "built", loaded.roots.root, loaded.roots.project
    )


def test_a_walk_stopped_by_the_clock_counts_nothing_and_names_what_it_did_not_expand(
    held: HeldGraph,
) -> None:
    # An id is found without reading the other ids: every clock reading is an edge of the walk.
    request = Request("callers", "src/lib/jobs.ts#listJobs", depth=3)
    clock = FakeClock()
    whole = answer(held, request, ask(held, request, Budget(10_000, clock)), Page())
    assert whole["truncated"]["by"] is None
    readings = round(clock.now * 1000) - 1  # the first reading sets the deadline
    assert readings > 4
    # The n-th element read sees n + 1 ms: a budget of half the readings stops halfway.
    cut = answer(held, request, ask(held, request, Budget(readings // 2, FakeClock())), Page())
    truncated = cut["truncated"]
    assert truncated["by"] == "budget"
    assert truncated["omitted"] is None and truncated["omittedExact"] is False
    assert cut["counts"] is None and cut["total"] is None
    assert cut["unknown"]["floor"] is True
    assert any(reason.startswith("budget:") for reason in cut["unknown"]["reasons"])
    assert truncated["unexpanded"], "the stop names the symbols it had not expanded"
    assert len(cut["items"]) < len(whole["items"])
    # Every item found before the stop is an item of the whole answer.
    assert all(item in whole["items"] for item in cut["items"])
    # The cursor asks the same question again from the start.
    again = answer(
        held,
        request,
        ask(held, request, Budget(10_000, FakeClock())),
        Page(cursor=truncated["cursor"]),
    )
    assert again["items"] == whole["items"][:50]


def test_a_budget_that_runs_out_before_the_target_is_found_still_answers(
    held: HeldGraph,
) -> None:
    # A name is looked up among every id; 5 ms stops that lookup.
    request = Request("callers", "listJobs")
    cut = answer(held, request, ask(held, request, Budget(5, FakeClock())), Page())
    assert cut["truncated"]["by"] == "budget"
    assert cut["items"] == [] and cut["target"] is None
