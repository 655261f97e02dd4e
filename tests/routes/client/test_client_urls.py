"""URL text to target: holes, anchors, dot segments and masking, with property tests."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsograph.exchange.templates import canonicalize
from tsograph.producers.routes.client.joins import axios_full_path
from tsograph.producers.routes.client.joins import ky1_input
from tsograph.producers.routes.client.joins import ky2_input
from tsograph.producers.routes.client.urls import BASE
from tsograph.producers.routes.client.urls import BASE_MARK
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.client.urls import ROOT
from tsograph.producers.routes.client.urls import NotHttp
from tsograph.producers.routes.client.urls import target_of

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12).filter(
    lambda word: word not in (".", "..")
)
SEGMENTS = st.lists(st.one_of(WORDS, st.just(HOLE)), min_size=0, max_size=8)


@given(SEGMENTS)
def test_whole_segment_holes_are_parameters(segments: list[str]) -> None:
    target = target_of("/" + "/".join(segments))
    expected = "/" + "/".join("{}" if part == HOLE else part for part in segments)
    assert target == target_of("/" + "/".join(segments))
    assert (target.channel, target.anchor, target.dynamic) == (expected, ROOT, False)
    assert canonicalize(target.channel).channel == target.channel


@given(SEGMENTS, WORDS)
def test_a_hole_inside_a_segment_is_dynamic(segments: list[str], word: str) -> None:
    target = target_of("/" + "/".join([*segments, word + HOLE]))
    assert target.dynamic and target.channel.endswith("/" + word + "{}")


@given(SEGMENTS, SEGMENTS)
def test_axios_base_and_relative_path_join_with_one_slash(base: list[str], path: list[str]) -> None:
    base_path = "/" + "".join(f"{segment}/" for segment in base)
    joined = axios_full_path("https://h.io" + base_path, "/".join(path))
    assert target_of(joined) == replace(
        target_of(base_path + "/".join(path)), origin="https://h.io"
    )


@given(SEGMENTS, SEGMENTS)
def test_ky_prefix_joins_agree_for_slash_free_inputs(prefix: list[str], path: list[str]) -> None:
    base = "/" + "/".join(prefix)
    relative = "/".join(path)
    assert target_of(ky1_input(base, relative)) == target_of(ky2_input(base, None, relative))


@pytest.mark.parametrize(
    ("url", "channel", "anchor", "dynamic"),
    [
        ("/a/b?x=1#f", "/a/b", ROOT, False),
        ("https://u:p@h.io", "/", ROOT, False),
        ("//cdn.h.io/x", "/x", ROOT, False),
        ("a/./b/../c", "/a/c", BASE, False),
        ("../x", "/x", BASE, True),
        ("/a/%2e%2E/b", "/b", ROOT, False),
        ("/a\\b", "/a/b", ROOT, False),
        (HOLE + "/users", "/users", BASE, True),
        (BASE_MARK + "/users", "/users", BASE, False),
        ("/caf\u00e9", "/caf%C3%A9", ROOT, False),
    ],
)
def test_targets(url: str, channel: str, anchor: str, dynamic: bool) -> None:
    target = target_of(url)
    assert (target.channel, target.anchor, target.dynamic) == (channel, anchor, dynamic)


@pytest.mark.parametrize("url", ["data:text/plain,x", "blob:https://h.io/1", "mailto:a@b.c"])
def test_other_schemes_are_not_http(url: str) -> None:
    with pytest.raises(NotHttp):
        target_of(url)
