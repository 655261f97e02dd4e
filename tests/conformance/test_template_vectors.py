"""Runs conformance/http-template.json against the path-template canonicalizer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.vectors import case_id
from tests.conformance.vectors import cases
from tests.conformance.vectors import ran
from tsograph.exchange.templates import CATCH_ALL
from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import Template
from tsograph.exchange.templates import canonicalize
from tsograph.exchange.templates import canonicalize_braced
from tsograph.exchange.templates import canonicalize_segments

FILE = "http-template.json"
FORMS = ("braced", "canonical", "segments")
HOLES = {"param": PARAM, "catch-all": CATCH_ALL}


def decode_segments(raw: Any) -> list[list[Part]]:
    """Turn the JSON segment lists into the parts canonicalize_segments takes."""
    assert isinstance(raw, list)
    segments: list[list[Part]] = []
    for raw_segment in raw:
        assert isinstance(raw_segment, list)
        parts: list[Part] = []
        for raw_part in raw_segment:
            if isinstance(raw_part, str):
                parts.append(raw_part)
            else:
                assert set(raw_part) == {"hole"}, raw_part
                parts.append(HOLES[raw_part["hole"]])
        segments.append(parts)
    return segments


def run(case: dict[str, Any]) -> Template:
    forms = [form for form in FORMS if form in case]
    assert len(forms) == 1, f"a case needs exactly one of {FORMS}, got {forms}"
    form = forms[0]
    if form == "braced":
        return canonicalize_braced(case["braced"])
    if form == "canonical":
        return canonicalize(case["canonical"])
    return canonicalize_segments(decode_segments(case["segments"]))


@pytest.mark.parametrize("case", cases(FILE), ids=case_id)
def test_template_vector(case: dict[str, Any]) -> None:
    ran(FILE)
    result = run(case)
    assert result.channel == case["channel"]
    assert result.dynamic is case["dynamic"]
    assert result.reason == case.get("reason")
    # A static channel is exactly what the canonicalizer accepts unchanged,
    # which is how consumers validate it.
    if not result.dynamic:
        assert canonicalize(result.channel) == result


def test_vector_file_covers_every_form_and_reason() -> None:
    all_cases = cases(FILE)
    for form in FORMS:
        assert any(form in case for case in all_cases), form
    reasons = {case.get("reason") for case in all_cases}
    assert reasons >= {
        None,
        "multi-parameter-segment",
        "dot-segment",
        "too-long",
        "malformed-template",
    }
    for case in all_cases:
        assert ("reason" in case) is case["dynamic"], case["name"]
