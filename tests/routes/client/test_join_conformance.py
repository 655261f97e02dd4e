"""Base/URL joins replayed against the requests real axios and ky sent.

The vectors are conformance/client-url-joins.json.

oracle/client/record.mjs ran every vector with axios 1.21.1, ky 1.14.3 and
ky 2.1.0 against two local servers and recorded which server received the
request and the request target it saw, or the error the library threw. Here
the same vectors go through producers/routes/client/joins.py and urls.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tsograph.producers.routes.client.joins import JoinError
from tsograph.producers.routes.client.joins import axios_full_path
from tsograph.producers.routes.client.joins import ky1_input
from tsograph.producers.routes.client.joins import ky2_input
from tsograph.producers.routes.client.urls import split_authority
from tsograph.producers.routes.client.urls import target_of

VECTORS = Path(__file__).resolve().parents[3] / "conformance" / "client-url-joins.json"
PLACES = {
    "{origin}": "http://origin.test",
    "{other}": "http://other.test",
    "{user}": "http://user:pw@origin.test",
    "{hostport}": "origin.test",
}
SERVERS = {"origin.test": "origin", "user:pw@origin.test": "origin", "other.test": "other"}


def fill(text: str | None) -> str | None:
    if text is None:
        return None
    for key, value in PLACES.items():
        text = text.replace(key, value)
    return text


def joined(vector: dict[str, Any]) -> str:
    url = fill(vector["url"]) or ""
    library = vector["library"]
    if library == "axios":
        return axios_full_path(fill(vector["base"]), url, vector.get("allowAbsoluteUrls", True))
    if library == "ky1":
        return ky1_input(fill(vector["prefixUrl"]) or "", url)
    if "prefixUrl" in vector:
        raise JoinError("ky 2 renamed prefixUrl to prefix and throws when it is given")
    return ky2_input(fill(vector.get("prefix")) or "", fill(vector.get("baseUrl")), url)


def cases() -> list[dict[str, Any]]:
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    vectors: list[dict[str, Any]] = data["vectors"]
    return vectors


def test_recorded_with_the_pinned_versions() -> None:
    versions = json.loads(VECTORS.read_text(encoding="utf-8"))["versions"]
    assert versions == {"axios": "1.21.1", "ky1": "1.14.3", "ky2": "2.1.0"}


@pytest.mark.parametrize("vector", cases(), ids=lambda v: f"{v['library']}:{v['url']}")
def test_join_agrees_with_the_real_library(vector: dict[str, Any]) -> None:
    result = vector["result"]
    try:
        url = joined(vector)
    except JoinError:
        assert "error" in result, f"the library sent {result}"
        return
    if url.startswith("//"):
        # Protocol-relative: a browser sends it to that host; Node has no page to resolve it.
        assert "error" in result
        return
    assert "error" not in result, f"the library threw, tsograph joined {url}"
    head, _ = split_authority(url)
    assert SERVERS[head.split("//", 1)[1]] == result["server"]
    # The origin tsograph names is the server that received the request.
    received = PLACES["{" + result["server"] + "}"]
    assert target_of(url).origin == received
    assert target_of(url) == target_of(received + (fill(result["target"]) or ""))
