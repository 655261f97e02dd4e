"""The limitation-scope, dispatch-order and dynamic-scope vectors against exchange.scopes."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from tests.conformance.vectors import CONFORMANCE_DIR
from tests.conformance.vectors import case_id
from tests.conformance.vectors import cases
from tests.conformance.vectors import ran
from tsograph.exchange.scopes import dynamic_scope_applies
from tsograph.exchange.scopes import scope_applies
from tsograph.exchange.scopes import static_template_problem
from tsograph.exchange.scopes import validate_dynamic_scope
from tsograph.exchange.scopes import validate_order
from tsograph.exchange.scopes import validate_scope

SCOPE = "http-limitation-scope.json"
DISPATCH = "http-dispatch.json"
DYNAMIC = "http-dynamic-scope.json"
SECTIONS = {
    SCOPE: ("validate", "applies"),
    DISPATCH: ("validate",),
    DYNAMIC: ("validate", "applies"),
}


@pytest.mark.parametrize("case", cases(SCOPE, "validate"), ids=case_id)
def test_scope_validate(case: dict[str, Any]) -> None:
    problem = validate_scope(case["scope"], case["limitations"])
    assert (problem is None) is case["valid"], problem
    ran(SCOPE)


@pytest.mark.parametrize("case", cases(SCOPE, "applies"), ids=case_id)
def test_scope_applies(case: dict[str, Any]) -> None:
    scope = case["scope"]
    # An applies case only means something for a scope a producer may write.
    assert validate_scope(scope, [scope["limitation"]]) is None
    assert scope_applies(scope, case["method"], case["template"]) is case["applies"]
    ran(SCOPE)


@pytest.mark.parametrize("case", cases(DISPATCH, "validate"), ids=case_id)
def test_dispatch_validate(case: dict[str, Any]) -> None:
    errors = validate_order(case["document"])
    assert [where for where, _ in errors] == case["errors"]
    assert all(message for _, message in errors)
    ran(DISPATCH)


@pytest.mark.parametrize("case", cases(DYNAMIC, "validate"), ids=case_id)
def test_dynamic_scope_validate(case: dict[str, Any]) -> None:
    problem = validate_dynamic_scope(case["fact"])
    assert (problem is None) is case["valid"], problem
    ran(DYNAMIC)


@pytest.mark.parametrize("case", cases(DYNAMIC, "applies"), ids=case_id)
def test_dynamic_scope_applies(case: dict[str, Any]) -> None:
    assert static_template_problem(case["scope"]) is None
    assert dynamic_scope_applies(case["scope"], case["template"]) is case["applies"]
    ran(DYNAMIC)


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_vector_files_are_described_and_names_unique(name: str) -> None:
    document = orjson.loads((CONFORMANCE_DIR / name).read_bytes())
    assert set(document) == {"description", *SECTIONS[name]}
    assert document["description"]
    for section in SECTIONS[name]:
        names = [case["name"] for case in document[section]]
        assert len(names) == len(set(names)), section


@pytest.mark.parametrize(
    ("name", "section", "outcome"),
    [
        (SCOPE, "validate", "valid"),
        (SCOPE, "applies", "applies"),
        (DYNAMIC, "validate", "valid"),
        (DYNAMIC, "applies", "applies"),
    ],
)
def test_sections_cover_both_outcomes(name: str, section: str, outcome: str) -> None:
    assert {case[outcome] for case in cases(name, section)} == {True, False}
