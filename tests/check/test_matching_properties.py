"""Property tests of channel matching and of the HTTP join (hypothesis).

* a template answers itself; HEAD is answered exactly where GET is; an
  optional trailing slash answers both spellings alike; a catch-all answers
  one or more further segments and never its bare prefix;
* a document checked against itself reports nothing: a server document's
  facts turned into calls, or into contract operations, are all answered;
* adding a fact never removes an error that its absence does not explain:
  adding a declaration or a limitation only turns errors into answered calls
  or -unverified findings, and the declaration that a call's error names as
  missing removes that error.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.producers.check.channels import Match
from tsograph.producers.check.channels import ServerFlags
from tsograph.producers.check.channels import channel_match
from tsograph.producers.check.channels import method_match
from tsograph.producers.check.documents import CALL
from tsograph.producers.check.documents import CONTRACT
from tsograph.producers.check.documents import DECL
from tsograph.producers.check.documents import Document
from tsograph.producers.check.http_rules import check_http

_LITERAL = st.text(alphabet="abcxyz019-", min_size=1, max_size=4)
_SEGMENT = st.one_of(_LITERAL, st.just("{}"), _LITERAL.map(lambda s: s + "{}"))
_TEMPLATE = st.lists(_SEGMENT, min_size=1, max_size=4).map(lambda parts: "/" + "/".join(parts))
_METHOD = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"])


@given(_TEMPLATE)
def test_a_template_answers_itself(template: str) -> None:
    assert channel_match(template, ServerFlags(), template) is Match.YES


@given(_TEMPLATE, _TEMPLATE)
def test_head_is_answered_where_get_is(server: str, request: str) -> None:
    for method in ("GET", "POST", "ANY"):
        head = method_match(method, "HEAD", dispatch=True)
        get = method_match(method, "GET", dispatch=True)
        assert head is get or (method == "POST" and head is Match.NO)
    assert method_match("GET", "OPTIONS", dispatch=True) is Match.YES


@given(_TEMPLATE, _TEMPLATE)
def test_optional_trailing_slash_is_symmetric(server: str, request: str) -> None:
    flags = ServerFlags(trailing_slash="optional")
    other = request + "/"
    assert channel_match(server, flags, request) is channel_match(server, flags, other)


@given(_TEMPLATE, st.lists(_LITERAL, min_size=1, max_size=3))
def test_catch_all_answers_deeper_paths_only(prefix: str, rest: list[str]) -> None:
    server = prefix + "/{**}"
    assert channel_match(server, ServerFlags(), prefix + "/" + "/".join(rest)) is not Match.NO
    assert channel_match(server, ServerFlags(), prefix) is Match.NO


@given(_TEMPLATE)
def test_a_strict_slash_refuses_the_other_spelling_and_unknown_is_maybe(template: str) -> None:
    assert channel_match(template, ServerFlags(trailing_slash="strict"), template + "/") is Match.NO
    assert channel_match(template, ServerFlags(), template + "/") is Match.MAYBE


def _document(side: str, facts: list[dict[str, Any]], limitations: list[str] = ()) -> Document:  # type: ignore[assignment]
    platform = "openapi" if side == CONTRACT else "js"
    roles = ["client"] if side == CALL else ["server"]
    content = {
        "platform": platform,
        "roles": roles,
        "service": "s",
        "limitations": list(limitations),
        "facts": facts,
        "project": "p",
    }
    return Document(f"{side}.json", side, content, facts)


def _fact(kind: str, method: str, channel: str, line: int) -> dict[str, Any]:
    fact: dict[str, Any] = {
        "kind": kind,
        "channel": channel,
        "method": method,
        "location": {"path": "a.ts", "line": line, "column": 1},
        "pathAnchor": "root",
        "dynamic": False,
        "service": "s",
    }
    return fact


_ROUTES = st.lists(st.tuples(_METHOD, _TEMPLATE), min_size=1, max_size=6)


@settings(max_examples=60)
@given(_ROUTES)
def test_a_document_checked_against_itself_reports_nothing(routes: list[tuple[str, str]]) -> None:
    decls = [_fact("route-decl", m, c, n + 1) for n, (m, c) in enumerate(routes)]
    calls = [_fact("route-call", m, c, n + 1) for n, (m, c) in enumerate(routes)]
    ops = [_fact("route-contract", m, c, n + 1) for n, (m, c) in enumerate(routes)]
    result = check_http([_document(DECL, decls), _document(CALL, calls), _document(CONTRACT, ops)])
    assert result.findings == []


def _errors(documents: list[Document]) -> set[int]:
    return {
        finding.subject.location["line"]
        for finding in check_http(documents).findings
        if finding.verdict == "route-call-without-decl"
    }


@settings(max_examples=60)
@given(_ROUTES, _ROUTES, st.tuples(_METHOD, _TEMPLATE))
def test_adding_a_fact_removes_only_the_errors_it_explains(
    served: list[tuple[str, str]], called: list[tuple[str, str]], added: tuple[str, str]
) -> None:
    decls = [_fact("route-decl", m, c, n + 1) for n, (m, c) in enumerate(served)]
    calls = [_fact("route-call", m, c, n + 1) for n, (m, c) in enumerate(called)]
    before = _errors([_document(DECL, decls), _document(CALL, calls)])
    more = [*decls, _fact("route-decl", *added, 99)]
    after = _errors([_document(DECL, more), _document(CALL, calls)])
    assert after <= before
    for line in before - after:
        # A removed error is explained by the added declaration: it answers or may answer it.
        method, channel = called[line - 1]
        assert method_match(added[0], method, dispatch=True) is not Match.NO
        assert channel_match(added[1], ServerFlags(), channel) is not Match.NO
    gap = ["route-coverage: 1 registration(s) not modeled (conditional: 1)"]
    assert _errors([_document(DECL, decls, gap), _document(CALL, calls)]) == set()
    missing = [n + 1 for n in range(len(called)) if n + 1 in before]
    for line in missing:
        method, channel = called[line - 1]
        fixed = _errors(
            [
                _document(DECL, [*decls, _fact("route-decl", method, channel, 98)]),
                _document(CALL, calls),
            ]
        )
        assert line not in fixed
