"""The limitation line grammar: `<prefix> <count> <text> (<breakdown>, <names>; at <places>)`."""

from __future__ import annotations

import pytest

from tsograph.exchange.limitations import MAX_LISTED_PLACES
from tsograph.exchange.limitations import counted
from tsograph.exchange.limitations import counted_reasons
from tsograph.exchange.limitations import prefix_of


def test_places_follow_the_breakdown_first_five_by_path_then_line() -> None:
    places = [("src/b.ts", 3), ("src/a.ts", 12), ("src/a.ts", 2), ("src/c.ts", 1)]
    places += [("src/d.ts", 7), ("src/e.ts", 9), ("src/a.ts", 2)]
    line = counted(
        "dynamic-relation-names:",
        8,
        "relation name(s) computed at run time (dynamic facts)",
        breakdown={"sql": 5, "computed-delegates": 3},
        places=places,
    )
    assert line == (
        "dynamic-relation-names: 8 relation name(s) computed at run time (dynamic facts) "
        "(computed-delegates: 3, sql: 5; at src/a.ts:2, src/a.ts:12, src/b.ts:3, src/c.ts:1, "
        "src/d.ts:7 and 1 more)"
    )
    assert MAX_LISTED_PLACES == 5
    assert prefix_of(line) == "dynamic-relation-names:"


def test_places_alone_and_the_order_is_by_line_number_not_text() -> None:
    line = counted("skipped-sql-literals:", 2, "literal(s)", places=[("a.ts", 10), ("a.ts", 9)])
    assert line == "skipped-sql-literals: 2 literal(s) (at a.ts:9, a.ts:10)"


def test_names_and_places_are_kept_apart() -> None:
    line = counted("x:", 1, "t", names=["pkg"], places=[("a.ts", 1)])
    assert line == "x: 1 t (pkg; at a.ts:1)"


def test_no_places_writes_the_line_unchanged() -> None:
    assert counted("x:", 0, "t", places=[]) == "x: 0 t"


@pytest.mark.parametrize("place", [("/abs/a.ts", 1), ("a.ts", 0), ("", 1)])
def test_a_place_must_be_project_relative_with_a_line(place: tuple[str, int]) -> None:
    with pytest.raises(ValueError):
        counted("x:", 1, "t", places=[place])


def test_counted_reasons_counts_their_sum_and_lists_each() -> None:
    line = counted_reasons("x:", {"b": 2, "a": 1, "c": 0}, "t", names=["pkg"])
    assert line == "x: 3 t (a: 1, b: 2, pkg)"
