"""Our joins equal what requests, httpx, aiohttp and urllib.request sent, on every vector.

The recordings (oracle/recordings/python-clients/, written by
oracle/python-clients/record.py against a local 127.0.0.1 server) hold, per
vector, the request line the library sent or the exception it raised first.
Replayed offline: the URL `sent_url` computes must name the same host, the
same path and query (compared percent-decoded: quoting is the library's
business, the path is not) and the same channel; where the library raised,
`sent_url` must raise too; the method on the request line is `sent_method`'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote

import orjson
import pytest

from tsograph.producers.routes.client.urls import target_of
from tsograph.producers.routes.python_client.joins import JoinError
from tsograph.producers.routes.python_client.joins import split_url
from tsograph.producers.routes.python_client.libraries import sent_method
from tsograph.producers.routes.python_client.libraries import sent_url

RECORDINGS = Path(__file__).resolve().parents[3] / "oracle" / "recordings" / "python-clients"
PORT = "8765"
LIBRARIES = ("httpx", "aiohttp", "requests", "urllib")
PINNED = {"requests": "2.34.2", "httpx": "0.28.1", "aiohttp": "3.14.5", "yarl": "1.25.1"}


def _real(text: str) -> str:
    return text.replace("{o}", f"http://127.0.0.1:{PORT}").replace(
        "{abs}", f"http://localhost:{PORT}"
    )


def _vectors() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for library in LIBRARIES:
        document = orjson.loads((RECORDINGS / f"{library}.json").read_bytes())
        found.extend((library, vector) for vector in document["vectors"])
    return found


VECTORS = _vectors()


def test_the_recordings_are_of_the_pinned_versions() -> None:
    for library in LIBRARIES:
        versions = orjson.loads((RECORDINGS / f"{library}.json").read_bytes())["versions"]
        assert {name: versions[name] for name in PINNED} == PINNED
    assert len(VECTORS) > 500


@pytest.mark.parametrize(
    ("library", "vector"),
    VECTORS,
    ids=[f"{lib}-{v['base']}-{v['url']}-{v['method']}" for lib, v in VECTORS],
)
def test_join_equals_the_library(library: str, vector: dict[str, Any]) -> None:
    base = None if vector["base"] is None else _real(vector["base"])
    recorded = vector["sent"]
    try:
        ours = sent_url(library, base, _real(vector["url"]))
    except JoinError:
        assert "error" in recorded, f"the library sent {recorded}"
        return
    assert "error" not in recorded, f"the library raised {recorded['error']}, we sent {ours}"
    _, authority, rest = split_url(ours)
    assert authority[2:] == recorded["host"].replace("{port}", PORT)
    assert unquote(rest or "/") == unquote(recorded["target"])
    assert target_of(ours).channel == target_of("http://h" + recorded["target"]).channel
    method = vector["method"]
    if method != "(data)":
        assert sent_method(library, method) == recorded["method"]
