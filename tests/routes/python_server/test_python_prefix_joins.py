"""Prefix joining against reference ports of the frameworks' own code (hypothesis).

FastAPI (0.165.0 `_RouterIncludeContext`): the including router's prefix, the
include prefix and the route's path (its router's prefix in front) are
concatenated. Flask (3.1.3 `BlueprintSetupState.add_url_rule`,
`Blueprint.register`): a registration's url_prefix replaces the blueprint's
own, a nested blueprint joins the outer state's prefix with one `/`, and a
rule joins the prefix with one `/` (the prefix alone for an empty rule).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tsograph.producers.routes.python_server.emit import Joins
from tsograph.producers.routes.python_server.emit import _joined
from tsograph.producers.routes.python_server.flask import FlaskJoins
from tsograph.producers.routes.python_server.interpreter_values import Include
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.interpreter_values import Router
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import text

PLACE = Place("app.py", 1, 1)
segments = st.text(alphabet="ab/", max_size=6)
optional = st.one_of(st.none(), segments)


def _flask_reference(registrations: list[tuple[str | None, str | None]], rule: str) -> str:
    """Flask's code, as strings: each (register url_prefix, blueprint url_prefix), outer first."""
    state: str | None = None
    for given_prefix, own in registrations:
        prefix = given_prefix if given_prefix is not None else own
        if state is not None and prefix is not None:
            state = state.rstrip("/") + "/" + prefix.lstrip("/")
        elif prefix is not None:
            state = prefix
    if state is None:
        return rule
    return "/".join((state.rstrip("/"), rule.lstrip("/"))) if rule else state


@given(st.lists(st.tuples(optional, optional), max_size=3), segments)
def test_flask_joins_as_flask_does(
    registrations: list[tuple[str | None, str | None]], rule: str
) -> None:
    joins = FlaskJoins()
    state = joins.start(anchored=True)
    for given_prefix, own in registrations:
        child = Router("blueprint", "bp", PLACE, None if own is None else text(own))
        entry = Include(PLACE, False, child, None if given_prefix is None else text(given_prefix))
        state = joins.enter(state, entry)
    known, path = _joined(joins.parts(state, text(rule)))
    assert known
    assert path == _flask_reference(registrations, rule)


@given(st.lists(segments, max_size=4), segments)
def test_fastapi_joins_concatenate(prefixes: list[str], path: str) -> None:
    joins = Joins()
    state = joins.start(anchored=True)
    for prefix in prefixes:
        child = Router("apirouter", "r", PLACE)
        state = joins.enter(state, Include(PLACE, False, child, text(prefix)))
    assert _joined(joins.parts(state, text(path))) == (True, "".join(prefixes) + path)


@given(segments, segments)
def test_an_unproven_prefix_keeps_the_proven_tail(before: str, after: str) -> None:
    joins = Joins()
    state = joins.enter(
        joins.start(anchored=True),
        Include(PLACE, False, Router("apirouter", "r", PLACE), Text((before, None, after))),
    )
    assert _joined(joins.parts(state, text("/x"))) == (False, after + "/x")


@given(st.lists(st.one_of(st.none(), segments), max_size=4))
def test_slash_strips_match_str_where_proven(pieces: list[str | None]) -> None:
    value = Text(tuple(pieces))
    known = value.known
    if known is not None:
        assert value.rstrip_slash().known == known.rstrip("/")
        assert value.lstrip_slash().known == known.lstrip("/")
