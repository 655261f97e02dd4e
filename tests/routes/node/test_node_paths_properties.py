"""Properties of the Node path translation over arbitrary registered paths.

Whatever text a project registers, `translate` answers (never raises), its
static templates are fixed points of the exchange canonicalizer, and every
variant becomes a route-decl fact that the bridge-facts validator accepts.
"""

from __future__ import annotations

from typing import Any

from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.exchange.templates import canonicalize
from tsograph.exchange.validation import validate
from tsograph.producers.routes.node.paths import DIALECTS
from tsograph.producers.routes.node.paths import Dialect
from tsograph.producers.routes.node.paths import PathVariant
from tsograph.producers.routes.node.paths import translate
from tsograph.producers.routes.node.paths.model import MAX_VARIANTS

# Characters every dialect gives a meaning to, so generated paths reach the
# parsers' branches instead of being plain literals.
SYNTAX = '/:*?+(){}[]\\.-|^$%"#!,é _a0Z'
paths = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=SYNTAX, max_size=24),
    st.lists(
        st.sampled_from(
            ["/", "users", ":id", "*", "?", "(\\d+)", "{", "}", "{/:x}", "::", ".", "-", "%41"]
        ),
        max_size=10,
    ).map("".join),
)
dialects = st.sampled_from(DIALECTS)
majors = st.sampled_from([None, 8, 9])


def _document(variants: tuple[PathVariant, ...]) -> dict[str, Any]:
    facts = []
    for number, variant in enumerate(variants):
        facts.append(
            {
                "kind": "route-decl",
                "method": "GET",
                "pathAnchor": "root",
                "location": {"path": "src/app.ts", "line": number + 1, "column": 1},
                "symbol": {"qualifiedName": "src/app.ts#handler", "usr": "src/app.ts#handler"},
                **variant.fact_fields(),
            }
        )
    return {
        "format": "bridge-facts",
        "version": 1,
        "tool": {"name": "tsograph", "version": "0.1.0"},
        "generatedAt": "2026-01-01T00:00:00.000Z",
        "sourceModifiedAt": "2026-01-01T00:00:00.000Z",
        "project": "app",
        "service": None,
        "platform": "js",
        "target": "http",
        "roles": ["server"],
        "sourceSets": {"tests": "excluded"},
        "limitations": [],
        "facts": facts,
    }


@settings(max_examples=300, deadline=None)
@given(dialect=dialects, path=paths, major=majors)
def test_translate_answers_every_path(dialect: Dialect, path: str, major: int | None) -> None:
    variants = translate(dialect, path, router_major=major)
    assert len(variants) <= MAX_VARIANTS
    assert len(set(variants)) == len(variants)
    assert variants == translate(dialect, path, router_major=major)


@settings(max_examples=300, deadline=None)
@given(dialect=dialects, path=paths, major=majors)
def test_static_templates_are_canonical(dialect: Dialect, path: str, major: int | None) -> None:
    for variant in translate(dialect, path, router_major=major):
        if variant.dynamic:
            assert variant.reason is not None
            continue
        again = canonicalize(variant.template)
        assert (again.channel, again.dynamic) == (variant.template, False)
        holes = variant.template.count("{}")
        assert all(0 <= index < holes for index, _, _ in variant.param_constraints)


@settings(max_examples=300, deadline=None)
@given(dialect=dialects, path=paths, major=majors)
# Regexes the schema cannot carry as a constraint pattern: a control character,
# a line separator, more than 1,024 characters.
@example(dialect="hono", path="/a/:id{\x01}", major=None)
@example(dialect="find-my-way", path="/a/:id(\u2028)", major=9)
@example(dialect="path-to-regexp-0.1", path="/a/:id(" + "a" * 1100 + ")", major=None)
def test_variants_are_valid_route_decl_facts(
    dialect: Dialect, path: str, major: int | None
) -> None:
    variants = translate(dialect, path, router_major=major)
    if variants:
        validate(_document(variants))


PATHOLOGICAL = [
    ("path-to-regexp-0.1", "/api" + "/:p?" * 40),
    ("path-to-regexp-6", "/api" + "/:p?" * 40),
    ("path-to-regexp-8", "/api" + "{/:p}" * 12),
    ("find-my-way", "/api" + "/:p(\\d+)" * 40),
    ("hono", "/api" + "/:p" * 40 + "/:q?"),
    ("hono", "/a/:p{" + "(" * 5000 + "x" + ")" * 5000 + "}"),
    ("path-to-regexp-0.1", "/x" * 20000 + "/:id"),
]


def test_pathological_paths_stay_bounded() -> None:
    # Optional parts multiply; the answer stays small and the API scope stays sound.
    for dialect, path in PATHOLOGICAL:
        variants = translate(dialect, path, router_major=8)  # type: ignore[arg-type]
        assert 1 <= len(variants) <= MAX_VARIANTS, (dialect, path[:40])
        validate(_document(variants))
    # `/api/v1` is served too, so only `/api` bounds every alternative.
    bounded = translate("path-to-regexp-0.1", "/api/v1" + "/:p?" * 40)
    assert [(v.dynamic, v.dynamic_scope, v.reason) for v in bounded] == [
        (True, "/api", "too-many-variants")
    ]
