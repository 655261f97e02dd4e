"""Scope, order and dynamic-scope rules: their messages, matching properties and document checks."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import assume
from hypothesis import given
from hypothesis import strategies as st

from tsograph.exchange import documents
from tsograph.exchange import semantics
from tsograph.exchange.errors import InvalidDocumentError
from tsograph.exchange.scopes import dynamic_scope_applies
from tsograph.exchange.scopes import scope_applies
from tsograph.exchange.scopes import validate_dynamic_scope
from tsograph.exchange.scopes import validate_order
from tsograph.exchange.scopes import validate_scope
from tsograph.exchange.templates import CATCH_ALL
from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import canonicalize_segments
from tsograph.exchange.templates import segments_of
from tsograph.exchange.validation import validate

COVERAGE = "route-coverage: 1 registration(s) not modeled (conditional: 1)"
PROVIDED = "framework-provided-routes: 1 framework route source(s) (static-files: 1)"
HANDLER = "src/app.ts#listUsers"

# --- validate_scope messages -------------------------------------------------


def test_valid_scope_has_no_problem() -> None:
    scope = {"limitation": PROVIDED, "templatePrefixes": ["/static"], "methods": ["GET", "HEAD"]}
    assert validate_scope(scope, [PROVIDED]) is None


@pytest.mark.parametrize(
    ("scope", "fragment"),
    [
        ({"limitation": COVERAGE, "templatePrefixes": ["/a"]}, "not one of the document's"),
        ({"limitation": PROVIDED}, "needs templatePrefixes or templateSuffixes"),
        ({"limitation": PROVIDED, "templatePrefixes": ["/a/"]}, 'ends in "/"'),
        ({"limitation": PROVIDED, "templatePrefixes": ["/%7e"]}, 'expected "/~"'),
        ({"limitation": PROVIDED, "templateSuffixes": ["/a/.."]}, "dot-segment"),
        ({"limitation": PROVIDED, "templatePrefixes": ["/"], "methods": ["ANY"]}, "leave methods"),
        ({"limitation": PROVIDED, "templatePrefixes": ["/"], "methods": ["PURGE"]}, '"PURGE"'),
        ({"limitation": PROVIDED, "templatePrefixes": ["/"], "scope": 1}, '"scope"'),
    ],
)
def test_scope_problems_name_their_cause(scope: dict[str, Any], fragment: str) -> None:
    problem = validate_scope(scope, [PROVIDED])
    assert problem is not None and fragment in problem


def test_long_template_is_cut_in_the_message() -> None:
    problem = validate_scope(
        {"limitation": PROVIDED, "templatePrefixes": ["/" + "a" * 3000]}, [PROVIDED]
    )
    assert problem is not None and len(problem) < 200 and "too-long" in problem


def test_a_suffix_may_end_in_a_slash_but_a_prefix_may_not() -> None:
    assert validate_scope({"limitation": PROVIDED, "templateSuffixes": ["/a/"]}, [PROVIDED]) is None
    assert validate_scope({"limitation": PROVIDED, "templatePrefixes": ["/a/"]}, [PROVIDED])


# --- matching properties -----------------------------------------------------

_LITERALS = st.text(alphabet="ab.-~:", max_size=3)


@st.composite
def _segment(draw: st.DrawFn, holes: bool) -> list[Part]:
    head, tail = draw(_LITERALS), draw(_LITERALS)
    return [head, PARAM, tail] if holes and draw(st.booleans()) else [head + tail]


@st.composite
def static_templates(draw: st.DrawFn, holes: bool = True, count: int | None = None) -> str:
    """Canonical static templates, with `{}`, partial segments and a final `{**}` when holes."""
    low, high = (count, count) if count is not None else (0, 5)
    segments = draw(st.lists(_segment(holes), min_size=low, max_size=high))
    if holes and count is None and draw(st.booleans()):
        segments.append([CATCH_ALL])
    template = canonicalize_segments(segments)
    assume(not template.dynamic)
    return template.channel


def _segments(template: str) -> list[str]:
    return [] if template == "/" else segments_of(template)


def _join(segments: list[str]) -> str:
    return "/" + "/".join(segments)


def _concrete(template: str, fill: Callable[[], str]) -> str:
    """A request path the template could stand for: holes filled, `{**}` made one segment."""
    return _join([fill() if s == "{**}" else s.replace("{}", fill()) for s in _segments(template)])


def _prefix_scope(template: str) -> dict[str, Any]:
    return {"limitation": COVERAGE, "templatePrefixes": [template]}


def _suffix_scope(template: str) -> dict[str, Any]:
    return {"limitation": COVERAGE, "templateSuffixes": [template]}


@given(static_templates(), st.integers(min_value=0, max_value=6))
def test_a_prefix_of_a_template_applies_to_it(template: str, cut: int) -> None:
    prefix = _join(_segments(template)[:cut])
    assume(validate_scope(_prefix_scope(prefix), [COVERAGE]) is None)
    assert scope_applies(_prefix_scope(prefix), "GET", template)
    assert dynamic_scope_applies(prefix, template)


@given(static_templates(), st.integers(min_value=0, max_value=6))
def test_a_suffix_of_a_template_applies_to_it(template: str, cut: int) -> None:
    segments = _segments(template)
    suffix = _join(segments[len(segments) - min(cut, len(segments)) :])
    assume(validate_scope(_suffix_scope(suffix), [COVERAGE]) is None)
    assert scope_applies(_suffix_scope(suffix), "PATCH", template)


@given(static_templates(), st.sampled_from(["GET", "POST", "ANY", "TRACE"]))
def test_root_prefix_without_methods_applies_to_everything(template: str, method: str) -> None:
    assert scope_applies(_prefix_scope("/"), method, template)
    assert scope_applies(_suffix_scope("/"), method, template)


@given(static_templates(), st.data())
def test_a_call_applies_to_every_prefix_of_a_request_it_could_send(
    template: str, data: st.DataObject
) -> None:
    # Over-approximation is the contract: if some concrete request of the call
    # lies under a scope, the call must be inside it.
    def fill() -> str:
        return data.draw(st.text(alphabet="ab", min_size=1, max_size=2))

    request = _concrete(template, fill)
    cut = data.draw(st.integers(min_value=0, max_value=len(_segments(request))))
    prefix = _join(_segments(request)[:cut])
    suffix = _join(_segments(request)[cut:])
    assume(validate_scope(_prefix_scope(prefix), [COVERAGE]) is None)
    assert scope_applies(_prefix_scope(prefix), "GET", template)
    assert scope_applies(_suffix_scope(suffix), "GET", template)


@given(static_templates(holes=False), static_templates(holes=False))
def test_literal_matching_agrees_with_plain_segment_comparison(scope: str, call: str) -> None:
    wanted, sent = _segments(scope), segments_of(call)
    assert dynamic_scope_applies(scope, call) == (sent[: len(wanted)] == wanted)
    expected_suffix = len(sent) >= len(wanted) and sent[len(sent) - len(wanted) :] == wanted
    assert scope_applies(_suffix_scope(scope), "GET", call) == expected_suffix


@given(st.integers(min_value=1, max_value=4), st.data())
def test_equal_length_matching_is_symmetric(count: int, data: st.DataObject) -> None:
    # A root scope is the one deliberate asymmetry: it bounds nothing.
    one = data.draw(static_templates(count=count).filter(lambda t: t != "/"))
    other = data.draw(static_templates(count=count).filter(lambda t: t != "/"))
    assert dynamic_scope_applies(one, other) == dynamic_scope_applies(other, one)


@given(static_templates(), st.sampled_from(["GET", "HEAD", "POST", "ANY"]))
def test_listing_methods_only_narrows(template: str, method: str) -> None:
    narrow = {**_prefix_scope("/"), "methods": ["GET"]}
    if scope_applies(narrow, method, template):
        assert scope_applies(_prefix_scope("/"), method, template)
    assert scope_applies(narrow, method, template) == (method in ("GET", "ANY"))


def test_prefix_and_suffix_must_both_match() -> None:
    scope = {
        "limitation": COVERAGE,
        "templatePrefixes": ["/api"],
        "templateSuffixes": ["/items/{}"],
    }
    assert scope_applies(scope, "GET", "/api/v1/items/3")
    assert not scope_applies(scope, "GET", "/api/v1")
    assert not scope_applies(scope, "GET", "/web/items/3")


# --- order and dynamic scope messages ----------------------------------------


def test_order_messages_say_what_is_wrong() -> None:
    fact = {"kind": "route-decl", "order": {"group": "app", "index": 1}}
    [(where, message)] = validate_order({"dispatch": "registration-order", "facts": [fact]})
    assert where == "/facts/0/order" and message == 'group "app" has index 1 but no index 0'


def test_dynamic_scope_message_names_the_channel() -> None:
    fact = {"kind": "route-decl", "dynamic": True, "channel": "/v1/{}-{}", "dynamicScope": "/v2"}
    assert validate_dynamic_scope(fact) == '"/v2" is not a prefix of the channel "/v1/{}-{}"'


# --- document checks ---------------------------------------------------------


def _decl(channel: str, line: int, **extra: Any) -> dict[str, Any]:
    return {
        "kind": "route-decl",
        "channel": channel,
        "method": "GET",
        "location": {"path": "src/app.ts", "line": line, "column": 1},
        "pathAnchor": "root",
        "dynamic": False,
        "symbol": {"qualifiedName": HANDLER, "usr": HANDLER},
        **extra,
    }


def server_document() -> dict[str, Any]:
    facts = [
        _decl("/users", 3, order={"group": "app", "index": 0}),
        _decl("/users/{}", 3, order={"group": "app", "index": 0}),
        _decl("/files/{**}", 5, order={"group": "app", "index": 1}),
        _decl("/files", 5, order={"group": "app", "index": 1}, catchAllPrefix=True),
        {
            **_decl("/api/{}-{}", 7, order={"group": "app", "index": 2}),
            "dynamic": True,
            "dynamicScope": "/api",
        },
    ]
    return documents.bridge_facts(
        platform="js",
        target="http",
        roles=["server"],
        service="demo",
        project="demo",
        generated="2026-01-31T12:00:00.000Z",
        source_modified=None,
        limitations=[COVERAGE, PROVIDED],
        facts=facts,
        limitation_scopes=[
            {"limitation": PROVIDED, "templatePrefixes": ["/static"], "methods": ["GET", "HEAD"]},
            {"limitation": COVERAGE, "templateSuffixes": ["/admin/{}"]},
        ],
        dispatch="registration-order",
    )


def _fact(document: dict[str, Any], channel: str, **match: Any) -> tuple[int, dict[str, Any]]:
    for index, fact in enumerate(document["facts"]):
        if fact["channel"] == channel and all(fact.get(k) == v for k, v in match.items()):
            return index, fact
    raise AssertionError(channel)


def test_the_server_document_passes_every_rule() -> None:
    document = server_document()
    validate(document)
    assert not list(semantics.check_limitation_scopes(document))
    assert not list(semantics.check_dispatch(document))
    assert not list(semantics.check_facts(document))


def test_registration_reaches_validate() -> None:
    document = server_document()
    index, fact = _fact(document, "/users")
    fact["channel"] = "/users/./x"
    with pytest.raises(InvalidDocumentError) as caught:
        validate(document)
    assert caught.value.pointer == f"/facts/{index}/channel"


def test_scope_problems_are_pointed_at() -> None:
    document = server_document()
    document["limitationScopes"][1]["limitation"] = "route-coverage: 9 other"
    document["limitationScopes"].append(copy.deepcopy(document["limitationScopes"][0]))
    found = [where for where, _ in semantics.check_limitation_scopes(document)]
    assert found == ["/limitationScopes/1", "/limitationScopes/2"]


def test_scopes_belong_to_server_documents() -> None:
    document = server_document()
    document["roles"] = ["client"]
    found = [where for where, _ in semantics.check_limitation_scopes(document)]
    assert found == ["/limitationScopes"]


def test_dispatch_belongs_to_js_server_documents() -> None:
    document = server_document()
    document["platform"] = "openapi"
    found = [where for where, _ in semantics.check_dispatch(document)]
    assert found == ["/dispatch"]


def test_order_rules_run_in_the_document_check() -> None:
    document = server_document()
    document["dispatch"] = "specificity"
    found = [where for where, _ in semantics.check_dispatch(document)]
    assert len(found) == 5 and all(where.endswith("/order") for where in found)


def _fact_errors(document: dict[str, Any]) -> list[str]:
    return [where for where, _ in semantics.check_facts(document)]


@pytest.mark.parametrize(
    ("channel", "match", "change", "field"),
    [
        ("/files", {"catchAllPrefix": True}, {"channel": "/files/{**}"}, "catchAllPrefix"),
        (
            "/files",
            {"catchAllPrefix": True},
            {"symbol": {"qualifiedName": HANDLER}},
            "catchAllPrefix",
        ),
        ("/users", {}, {"dynamicScope": "/users"}, "dynamicScope"),
        ("/api/{}-{}", {}, {"dynamicScope": "/web"}, "dynamicScope"),
        ("/users", {}, {"channel": "/users/.."}, "channel"),
        ("/users", {}, {"channel": "/%75sers"}, "channel"),
        ("/users", {}, {"kind": "route-call"}, "kind"),
    ],
)
def test_fact_rules_point_at_the_field(
    channel: str, match: dict[str, Any], change: dict[str, Any], field: str
) -> None:
    document = server_document()
    index, fact = _fact(document, channel, **match)
    fact.update(change)
    assert _fact_errors(document) == [f"/facts/{index}/{field}"]


def test_a_dynamic_channel_may_hold_a_dot_segment() -> None:
    document = server_document()
    _, fact = _fact(document, "/api/{}-{}")
    fact["channel"] = "/api/../{}-{}"
    assert _fact_errors(document) == []


def test_route_decl_facts_need_a_js_document() -> None:
    document = server_document()
    document["platform"] = "openapi"
    assert len(_fact_errors(document)) == len(document["facts"])


def test_route_contract_facts_need_an_openapi_document() -> None:
    document = server_document()
    index, fact = _fact(document, "/users")
    for key in ("order", "symbol"):
        del fact[key]
    fact.update(kind="route-contract", service="demo")
    assert _fact_errors(document) == [f"/facts/{index}/kind"]


def test_route_call_facts_need_the_client_role() -> None:
    document = server_document()
    document["roles"] = ["server", "client"]
    _, fact = _fact(document, "/users")
    fact["kind"] = "route-call"
    assert _fact_errors(document) == []
