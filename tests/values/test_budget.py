"""The one depth budget every value evaluator spends."""

from __future__ import annotations

import sys

import pytest

from tsograph.producers.values.budget import MAX_DEPTH
from tsograph.producers.values.budget import DepthBudget
from tsograph.producers.values.budget import recursion_room


def test_enter_refuses_once_every_level_is_in_use_and_leave_gives_one_back() -> None:
    budget = DepthBudget()
    assert all(budget.enter() for _ in range(MAX_DEPTH))
    assert budget.spent and not budget.enter()
    assert budget.depth == MAX_DEPTH
    budget.leave()
    assert not budget.spent and budget.enter()


def test_a_nested_evaluation_continues_the_chain_below() -> None:
    budget = DepthBudget()
    for _ in range(MAX_DEPTH - 1):
        budget.enter()
    inner = budget.below()
    assert inner.spent and not inner.enter()


def test_within_computes_one_level_deeper_and_cuts_once_spent() -> None:
    budget = DepthBudget()
    assert budget.within(lambda: budget.depth, -1) == 1
    assert budget.depth == 0
    spent = DepthBudget(MAX_DEPTH)
    assert spent.within(lambda: "computed", "cut") == "cut"
    assert spent.depth == MAX_DEPTH


def test_recursion_room_lasts_while_the_evaluator_runs() -> None:
    limit = sys.getrecursionlimit()
    with pytest.raises(KeyError), recursion_room(10):
        assert sys.getrecursionlimit() == limit + 10 * MAX_DEPTH
        raise KeyError("an evaluator's own error still restores the limit")
    assert sys.getrecursionlimit() == limit
