"""Replays conformance/node-paths-*.json: Node router paths against the real routers.

Each case pins what `translate` gives for a registered path and carries the
request paths the real router matched (oracle/node-paths/record.mjs). The
replay checks that the templates say exactly that:

* precision: every probe a static variant matches, the router matched;
* recall: every probe the router matched is matched by a static variant or
  lies inside a dynamic variant's scope (anywhere, when it has none);
* a path the router rejects at registration is one dynamic variant.

A template matches a request path the way the contract reads it: `{}` is one
non-empty segment, `{**}` the non-empty rest, literals compare in their
canonical encoding, and the router options the recording used (letter case,
trailing slash) apply on top.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
import pytest

from tests.conformance.vectors import CONFORMANCE_DIR
from tests.conformance.vectors import case_id
from tests.conformance.vectors import cases
from tests.conformance.vectors import ran
from tsograph.exchange.templates import encode_literal
from tsograph.exchange.templates import segments_of
from tsograph.producers.routes.node.paths import DIALECTS
from tsograph.producers.routes.node.paths import Dialect
from tsograph.producers.routes.node.paths import translate

FILES = {dialect: f"node-paths-{dialect}.json" for dialect in DIALECTS}


def _segment_regex(segment: str, *, fold: bool) -> re.Pattern[str]:
    parts = segment.split("{}")
    body = "(.+)".join(re.escape(part) for part in parts)
    return re.compile(f"^{body}$", re.IGNORECASE if fold else 0)


def _hole_values(template: str, path: str, *, fold: bool) -> list[str] | None:
    """The values of the template's `{}` holes for `path`, or None when it does not match."""
    wanted = segments_of(template)
    given = [encode_literal(segment) for segment in segments_of(path)]
    values: list[str] = []
    for position, segment in enumerate(wanted):
        if segment == "{**}" and position == len(wanted) - 1:
            rest = "/".join(given[position:])
            return values if position < len(given) and rest else None
        if position >= len(given):
            return None
        found = _segment_regex(segment, fold=fold).match(given[position])
        if found is None:
            return None
        values.extend(found.groups())
    return values if len(given) == len(wanted) else None


def _satisfies(values: list[str], constraints: list[dict[str, Any]], *, fold: bool) -> bool:
    for constraint in constraints:
        value = values[constraint["index"]]
        if constraint["kind"] == "int":
            if not (value.isascii() and value.isdigit()):
                return False
        else:
            flags = re.IGNORECASE if fold else 0
            if re.fullmatch(constraint["pattern"], value, flags) is None:
                return False
    return True


def _forms(template: str, trailing_slash: str) -> list[str]:
    """The templates a route answers: with an optional trailing slash, also the toggled one."""
    if trailing_slash != "optional" or template == "/" or template.endswith("{**}"):
        return [template]
    return [template, template[:-1] if template.endswith("/") else template + "/"]


def template_matches(variant: dict[str, Any], path: str, options: dict[str, Any]) -> bool:
    fold = bool(options["caseInsensitive"])
    for form in _forms(variant["channel"], variant.get("trailingSlash", options["trailingSlash"])):
        values = _hole_values(form, path, fold=fold)
        if values is not None and _satisfies(
            values, variant.get("paramConstraints", []), fold=fold
        ):
            return True
    return False


def in_scope(variant: dict[str, Any], path: str, options: dict[str, Any]) -> bool:
    scope = variant.get("dynamicScope")
    if scope is None:
        return True
    fold = bool(options["caseInsensitive"])
    wanted = segments_of(scope)
    given = [encode_literal(segment) for segment in segments_of(path)]
    if len(given) <= len(wanted):
        return False
    head = given[: len(wanted)]
    return [s.lower() for s in head] == [s.lower() for s in wanted] if fold else head == wanted


def _all_cases() -> list[tuple[Dialect, dict[str, Any]]]:
    return [(dialect, case) for dialect, name in FILES.items() for case in cases(name)]


def _document(dialect: Dialect) -> dict[str, Any]:
    loaded: dict[str, Any] = orjson.loads((CONFORMANCE_DIR / FILES[dialect]).read_bytes())
    return loaded


DOCUMENTS = {dialect: _document(dialect) for dialect in DIALECTS}


def disagreements(
    variants: list[dict[str, Any]],
    matched: set[str],
    probes: list[str],
    options: dict[str, Any],
) -> list[str]:
    """Where the variants and the router's recorded matches disagree (empty: they agree)."""
    static = [variant for variant in variants if not variant["dynamic"]]
    dynamic = [variant for variant in variants if variant["dynamic"]]
    predicted = {
        probe
        for probe in probes
        if any(template_matches(variant, probe, options) for variant in static)
    }
    problems = [f"predicted but not matched: {probe}" for probe in sorted(predicted - matched)]
    problems += [
        f"matched but not covered: {probe}"
        for probe in sorted(matched - predicted)
        if not any(in_scope(variant, probe, options) for variant in dynamic)
    ]
    return problems


@pytest.mark.parametrize(
    ("dialect", "case"),
    _all_cases(),
    ids=[f"{dialect}:{case_id(case)}" for dialect, case in _all_cases()],
)
def test_node_path_vector(dialect: Dialect, case: dict[str, Any]) -> None:
    ran(FILES[dialect])
    document = DOCUMENTS[dialect]
    for library, recording in case["recorded"].items():
        major = int(library.rpartition("@")[2].split(".")[0])
        variants = [
            variant.fact_fields()
            for variant in translate(dialect, case["path"], router_major=major)
        ]
        assert variants == recording["variants"], "the translation changed; rebuild the vectors"
        if "error" in recording:
            assert len(variants) == 1 and variants[0]["dynamic"], (library, recording)
            assert "dynamicScope" not in variants[0], "a rejected path bounds nothing"
            continue
        problems = disagreements(
            variants, set(recording["matches"]), document["probes"], document["routerOptions"]
        )
        assert not problems, f"{library}: {problems}"


def _recording(dialect: Dialect, path: str) -> tuple[set[str], list[str], dict[str, Any]]:
    document = DOCUMENTS[dialect]
    case = next(case for case in document["cases"] if case["path"] == path)
    recording = next(iter(case["recorded"].values()))
    return set(recording["matches"]), document["probes"], document["routerOptions"]


def test_a_missing_empty_value_variant_is_caught() -> None:
    matched, probes, options = _recording("find-my-way", "/users/:id")
    without_empty = [{"channel": "/users/{}", "dynamic": False}]
    assert disagreements(without_empty, matched, probes, options) == [
        "matched but not covered: /users/"
    ]


def test_an_unproven_catch_all_prefix_is_caught() -> None:
    matched, probes, options = _recording("path-to-regexp-0.1", "/files/*")
    # Express 4 serves `/files/` for `/files/*`, never `/files`.
    loose = [
        {"channel": "/files/", "dynamic": False, "catchAllPrefix": True},
        {"channel": "/files/{**}", "dynamic": False},
    ]
    assert "predicted but not matched: /files" in disagreements(loose, matched, probes, options)


def test_a_wrong_constraint_is_caught() -> None:
    matched, probes, options = _recording("hono", "/a/:id{[0-9]+}")
    unconstrained = [{"channel": "/a/{}", "dynamic": False}]
    assert "predicted but not matched: /a/abc" in disagreements(
        unconstrained, matched, probes, options
    )


def test_a_dynamic_scope_too_narrow_is_caught() -> None:
    matched, probes, options = _recording("path-to-regexp-8", "/*splat")
    narrow = [{"channel": "/users/{**}", "dynamic": True, "dynamicScope": "/users"}]
    problems = disagreements(narrow, matched, probes, options)
    assert "matched but not covered: /files/a" in problems
