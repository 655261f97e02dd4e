"""Which route templates a vercel.json cron path is served by (`scheduled` entries)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsograph.producers.graph.entries import cron_path_matches


@pytest.mark.parametrize(
    ("channel", "path", "matches"),
    [
        ("/", "/", True),
        ("/api/x", "/api/x", True),
        ("/api/x/", "/api/x", True),
        ("/api/x", "/api/x/", True),
        ("/api/x", "/api/x?when=daily#top", True),
        ("/api/X", "/api/x", False),
        ("/api/x", "/api/xy", False),
        ("/api/{}", "/api/abc", True),
        ("/api/{}", "/api/", False),
        ("/api/{}", "/api/a/b", False),
        ("/api/{}/run", "/api/a/run", True),
        ("/api/{**}", "/api/a/b", True),
        ("/api/{**}", "/api/a", True),
        ("/api/{**}", "/api", False),
        ("/files/{}.json", "/files/a.json", True),
        ("/files/{}.json", "/files/.json", False),
        ("/files/{}.json", "/files/a.xml", False),
        ("/caf%C3%A9", "/café", True),
        ("/api/{}", "/api/{}", False),
        ("/api/x", "api/x", False),
    ],
)
def test_cron_path_table(channel: str, path: str, matches: bool) -> None:
    assert cron_path_matches(channel, path) is matches


SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=8)


@given(
    segments=st.lists(SEGMENT, min_size=1, max_size=6),
    holes=st.lists(st.booleans(), min_size=6, max_size=6),
    catch_all=st.booleans(),
)
def test_a_path_matches_the_templates_made_from_it(
    segments: list[str], holes: list[bool], catch_all: bool
) -> None:
    parts = ["{}" if hole else segment for segment, hole in zip(segments, holes, strict=False)]
    if catch_all:
        parts[-1] = "{**}"
    path = "/" + "/".join(segments)
    assert cron_path_matches("/" + "/".join(parts), path)
    # One more segment than the template has: only a catch-all still matches.
    assert cron_path_matches("/" + "/".join(parts), path + "/extra") is catch_all


@given(segments=st.lists(SEGMENT, min_size=1, max_size=6), index=st.integers(0, 5))
def test_a_changed_literal_segment_does_not_match(segments: list[str], index: int) -> None:
    index %= len(segments)
    template = "/" + "/".join(segments)
    changed = [*segments]
    changed[index] = segments[index] + "x"
    assert not cron_path_matches(template, "/" + "/".join(changed))
