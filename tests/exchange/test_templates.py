"""Properties of the path-template canonicalizer."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import example
from hypothesis import given
from hypothesis import strategies as st

from tsograph.exchange.templates import CATCH_ALL
from tsograph.exchange.templates import MALFORMED
from tsograph.exchange.templates import MAX_TEMPLATE_CHARS
from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import TOO_LONG
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import Template
from tsograph.exchange.templates import canonicalize
from tsograph.exchange.templates import canonicalize_braced
from tsograph.exchange.templates import canonicalize_segments

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "schemas" / "bridge-facts-v1.json").read_text("utf-8")
)
# The schema patterns are ECMAScript regexes; these two only use syntax that
# Python's `re` reads the same way.
STATIC_TEMPLATE = re.compile(SCHEMA["$defs"]["template"]["pattern"])
ANY_TEMPLATE = re.compile(SCHEMA["$defs"]["anyTemplate"]["pattern"])

# Characters that steer the canonicalizer, mixed with arbitrary code points
# (controls and lone surrogates included) so every branch is reachable.
_STEERING = st.sampled_from([*"/{}*%.2eEfF4a1~:@ ?#\\", "%2E", "%2e", "{**}", "{}", "%41"])
_ANY_CHAR = st.characters(exclude_categories=())
_PIECE = st.one_of(_STEERING, _ANY_CHAR)

# Each input character renders to at most 12 output characters (four `%XX`),
# so 150 characters can never reach the length limit and nothing is cut.
short_text = st.lists(_PIECE, max_size=60).map("".join).filter(lambda text: len(text) <= 150)
rooted_paths = short_text.map(lambda text: "/" + text)
relative_paths = short_text.filter(lambda text: not text.startswith("/"))

_LITERAL = st.lists(_PIECE, max_size=4).map("".join)
_DOTS = st.sampled_from([".", "..", "%2E", "%2e.", ""])
_PART: st.SearchStrategy[Part] = st.one_of(_LITERAL, _DOTS, st.just(PARAM), st.just(CATCH_ALL))
segment_lists = st.lists(st.lists(_PART, max_size=3), max_size=6)


def assert_stable(first: Template) -> None:
    second = canonicalize(first.channel)
    assert second.channel == first.channel
    assert second.dynamic == first.dynamic
    assert second.reason == first.reason


def assert_schema_shape(template: Template) -> None:
    assert 1 <= len(template.channel) <= MAX_TEMPLATE_CHARS
    assert ANY_TEMPLATE.fullmatch(template.channel), template
    if not template.dynamic:
        assert STATIC_TEMPLATE.fullmatch(template.channel), template


@given(rooted_paths)
@example("/a{b")
@example("/{{}")
@example("/{**}/x")
@example("/%2e%2E")
@example("/%%41")
def test_canonicalize_is_idempotent_for_text_paths(path: str) -> None:
    assert_stable(canonicalize(path))


@given(rooted_paths)
@example("/{a}{b}")
@example("/{x")
def test_braced_output_is_stable_under_canonicalize(path: str) -> None:
    assert_stable(canonicalize_braced(path))


@given(segment_lists)
def test_canonicalize_is_idempotent_for_segment_structures(
    segments: list[list[Part]],
) -> None:
    assert_stable(canonicalize_segments(segments))


@given(relative_paths)
@example("")
@example("users/{id}")
def test_relative_paths_are_malformed_with_a_stable_channel(path: str) -> None:
    first = canonicalize(path)
    assert first.dynamic and first.reason == MALFORMED
    # The rooted best-effort channel is itself stable; only the verdict is lost,
    # since the channel must start with `/`.
    assert canonicalize(first.channel).channel == first.channel


@given(st.one_of(rooted_paths, relative_paths))
def test_text_paths_give_schema_valid_channels(path: str) -> None:
    assert_schema_shape(canonicalize(path))
    assert_schema_shape(canonicalize_braced(path))


@given(segment_lists)
def test_segment_structures_give_schema_valid_channels(segments: list[list[Part]]) -> None:
    assert_schema_shape(canonicalize_segments(segments))


def _expected_cut(literals: list[str]) -> Template:
    """Naive length rule: keep whole segments while the template fits."""
    full = "/" + "/".join(literals)
    if len(full) <= MAX_TEMPLATE_CHARS:
        return Template(full, False)
    kept = "/"
    for count in range(1, len(literals)):
        prefix = "/" + "/".join(literals[:count])
        if len(prefix) > MAX_TEMPLATE_CHARS:
            break
        kept = prefix
    return Template(kept, True, TOO_LONG)


long_literal_segments = st.lists(
    st.one_of(st.just(""), st.integers(1, 700).map(lambda size: "a" * size)),
    min_size=1,
    max_size=12,
)


@given(long_literal_segments)
@example(["a" * 2047])
@example(["a" * 2048])
@example(["a" * 2047, ""])
@example(["a" * 1023, "b" * 1024])
def test_length_limit_keeps_whole_segments(literals: list[str]) -> None:
    result = canonicalize_segments([[literal] for literal in literals])
    assert result == _expected_cut(literals)
    assert canonicalize("/" + "/".join(literals)) == result
    # A cut channel is a plain prefix, so it is static once re-read.
    assert canonicalize(result.channel) == Template(result.channel, False)


@given(st.lists(_PIECE, min_size=150, max_size=600).map(lambda items: "/" + "".join(items)))
def test_long_text_paths_stay_within_the_limit(path: str) -> None:
    first = canonicalize(path)
    assert_schema_shape(first)
    assert canonicalize(first.channel).channel == first.channel
