"""next_paths.slash_redirect against the redirect regexes next@16.4.6 itself built.

oracle/next/recordings/trailing-slash.json holds the two `trailingSlash: true`
redirects exactly as the router compiles them (lib/load-custom-routes.js via
path-match.js). For any literal path, the port must name the form those
regexes make canonical: `:file(...)/` matching means "no-slash", `:notfile(...)`
matching means "slash", neither means both forms are served.
"""

from __future__ import annotations

import re

import orjson
from hypothesis import given
from hypothesis import strategies as st

from tests.routes.test_next_oracle import RECORDINGS
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import encode_literal
from tsograph.producers.routes.next_paths import slash_redirect


def _redirects() -> dict[str, re.Pattern[str]]:
    data = orjson.loads((RECORDINGS / "trailing-slash.json").read_bytes())
    # JavaScript regexes without the u flag: \w and \d are ASCII.
    return {
        entry["destination"]: re.compile(entry["regex"], re.ASCII) for entry in data["redirects"]
    }


REDIRECTS = _redirects()
FILE_RULE = REDIRECTS["/:file"]
NOT_FILE_RULE = REDIRECTS["/:notfile/"]

# Folder names that exercise the rules: dots, `.well-known`, non-word characters, non-ASCII.
SEGMENT = st.one_of(
    st.sampled_from([".well-known", ".well-known-x", "a.json", "a.b-c", "feed.xml", "x.", ".x"]),
    st.text(alphabet="ab.-_~é0", min_size=1, max_size=6),
).filter(lambda text: text not in (".", ".."))


def expected(path: str) -> str:
    if FILE_RULE.match(path + "/"):
        return "no-slash"
    if NOT_FILE_RULE.match(path):
        return "slash"
    return "none"


@given(st.lists(SEGMENT, min_size=1, max_size=4))
def test_slash_redirect_agrees_with_the_recorded_regexes(names: list[str]) -> None:
    full: list[list[Part]] = [[name] for name in names]
    path = "/" + "/".join(encode_literal(name) for name in names)
    assert slash_redirect(full) == expected(path), path


def test_the_recorded_rules_are_the_ones_the_port_reads() -> None:
    assert expected("/.well-known/x") == "none"
    assert expected("/docs/.well-known/x") == "slash"
    assert expected("/feed.xml") == "no-slash"
    assert expected("/a.b-c") == "none"
