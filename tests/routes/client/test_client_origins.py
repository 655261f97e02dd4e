"""Requests to absolute URLs name their origin as the fact's service.

The origin rules are replayed against conformance/client-url-origins.json,
recorded by oracle/client/origins.mjs with Node 20.20.2 (`new URL(url).origin`)
and with real fetch, axios 1.21.1, ky 1.14.3 and ky 2.1.0 requests to a local
server (the Host header it received).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.openapi.support import GENERATED_AT
from tests.openapi.support import invoke
from tests.routes.client.support import SERVICE
from tests.routes.client.support import document_of
from tests.routes.support import write_project
from tsograph.producers.routes.client.joins import JoinError
from tsograph.producers.routes.client.joins import axios_full_path
from tsograph.producers.routes.client.joins import ky1_input
from tsograph.producers.routes.client.joins import ky2_input
from tsograph.producers.routes.client.origins import Rejected
from tsograph.producers.routes.client.origins import Unconverted
from tsograph.producers.routes.client.urls import BASE
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.client.urls import ROOT
from tsograph.producers.routes.client.urls import has_credentials
from tsograph.producers.routes.client.urls import target_of

VECTORS = Path(__file__).resolve().parents[3] / "conformance" / "client-url-origins.json"
PORT = "4567"
KY1 = json.dumps({"dependencies": {"ky": "^1.7.0", "axios": "^1.7.0"}})


def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS.read_text(encoding="utf-8"))
    return data


def needs_idna(url: str) -> bool:
    host = url.split(":", 1)[1].lstrip("/\\").split("/", 1)[0]
    if host.startswith("["):
        return False  # an IPv6 address is never a domain
    return not host.isascii() or "%" in host or "xn--" in host.lower()


def test_recorded_with_the_pinned_versions() -> None:
    assert recorded()["versions"] == {
        "node": "20.20.2",
        "axios": "1.21.1",
        "ky1": "1.14.3",
        "ky2": "2.1.0",
    }


@pytest.mark.parametrize("vector", recorded()["parse"], ids=lambda v: v["url"])
def test_origin_agrees_with_the_whatwg_parser(vector: dict[str, Any]) -> None:
    url = vector["url"]
    if "error" in vector:
        with pytest.raises(Unconverted if needs_idna(url) else Rejected):
            target_of(url)
        return
    if needs_idna(url):
        # UTS #46 is not reimplemented: no origin rather than a possibly wrong one.
        with pytest.raises(Unconverted):
            target_of(url)
        return
    assert target_of(url).origin == vector["origin"]


def sent(library: str, url: str) -> str | None:
    """The URL a library hands to the network as tsograph models it; None: it throws."""
    try:
        if library == "axios":
            return axios_full_path(None, url)
        full = {"fetch": url, "ky1": ky1_input("", url), "ky2": ky2_input("", None, url)}[library]
    except JoinError:
        return None
    return None if has_credentials(full) else full


@pytest.mark.parametrize("vector", recorded()["send"], ids=lambda v: v["url"])
def test_origin_is_where_the_libraries_send(vector: dict[str, Any]) -> None:
    url = vector["url"].replace("{port}", PORT)
    assert target_of(url).origin == vector["origin"].replace("{port}", PORT)
    for library, result in vector["libraries"].items():
        full = sent(library, url)
        if full is None:
            assert "error" in result, f"{library} sent it"
            continue
        assert "error" not in result, f"{library} threw"
        host = result["host"].replace("{port}", PORT)
        assert target_of(full).origin == "http://" + host
        assert target_of(full).channel == result["target"]


@pytest.mark.parametrize(
    ("url", "origin", "channel", "anchor", "dynamic"),
    [
        (
            "https://api.github.com/repos/shadcn/taxonomy",
            "https://api.github.com",
            "/repos/shadcn/taxonomy",
            ROOT,
            False,
        ),
        ("//cdn.example.com:0443/a", "//cdn.example.com:443", "/a", ROOT, False),
        ("\\\\cdn.example.com\\a", "//cdn.example.com", "/a", ROOT, False),
        (f"https://{HOLE}.example.com/v1/x", None, "/v1/x", BASE, False),
        (f"https://{HOLE}:{HOLE}@api.example.com/x", "https://api.example.com", "/x", ROOT, False),
        (f"http{HOLE}://api.example.com/x", None, "/x", BASE, False),
        ("https://0123456789abcdef0123.mockapi.io/x", "https://{}.mockapi.io", "/x", ROOT, False),
        # A hole at the end of the authority may hold a path: what follows is a suffix at best.
        (f"https://api.example.com{HOLE}", None, "/", BASE, True),
        (f"https://api.example.com{HOLE}/users", None, "/users", BASE, True),
        (f"http://localhost:{HOLE}/api", None, "/api", BASE, False),
        (f"http://localhost:{HOLE}", None, "/", BASE, False),
        (f"http://localhost{HOLE}:{HOLE}/api", None, "/api", BASE, True),
        (f"{HOLE}://{HOLE}/x", None, "/x", BASE, True),
    ],
)
def test_origin_forms(
    url: str, origin: str | None, channel: str, anchor: str, dynamic: bool
) -> None:
    target = target_of(url)
    assert (target.origin, target.channel, target.anchor, target.dynamic) == (
        origin,
        channel,
        anchor,
        dynamic,
    )


@pytest.mark.parametrize("url", ["http:x/y", "https:/x/y"])
def test_fewer_than_two_slashes_are_not_converted(url: str) -> None:
    # Node reads a host there; a browser page of the same scheme reads a path.
    with pytest.raises(Unconverted):
        target_of(url)


def services(root: Path, code: str, *extra: str) -> list[tuple[str | None, str, str]]:
    document = document_of(write_project(root, {"package.json": KY1, "src/a.ts": code}), *extra)
    assert document["service"] == SERVICE
    found = [
        (fact.get("service"), fact["channel"], fact["pathAnchor"]) for fact in document["facts"]
    ]
    return sorted(found, key=str)


SERVICE_CASES = {
    # An absolute URL goes to its origin, not to the scanned service.
    "absolute-url": (
        'fetch("https://api.github.com/repos/shadcn/taxonomy", { next: { revalidate: 60 } });\n'
        'fetch("/api/posts");\n'
        'fetch("api/posts");\n'
        'fetch(process.env.API_URL + "/x");\n'
        'fetch("http://LOCALHOST:3000/api/x");\n'
        'fetch("//cdn.example.com/a");\n',
        [
            ("https://api.github.com", "/repos/shadcn/taxonomy", "root"),
            (SERVICE, "/api/posts", "root"),
            (SERVICE, "/api/posts", "base"),
            (SERVICE, "/x", "base"),
            ("http://localhost:3000", "/api/x", "root"),
            ("//cdn.example.com", "/a", "root"),
        ],
    ),
    # A configured base (or a template's head) names its origin only when it is literal.
    "configured-base": (
        'import axios from "axios";\nimport ky from "ky";\n'
        'const gh = axios.create({ baseURL: "https://api.github.com/" });\n'
        "const api = axios.create({ baseURL: process.env.API_URL });\n"
        'const shop = ky.create({ prefixUrl: "https://shop.example.com:443/v2" });\n'
        'gh.get("users/x");\napi.get("/users");\nshop.get("cart");\n'
        "export const f = (id: string) => fetch(`https://api.example.com/users/${id}`);\n"
        "export const g = (region: string) => fetch(`https://${region}.example.com/v1/x`);\n"
        "export const h = (path: string) => fetch(`https://api.example.com${path}`);\n",
        [
            ("https://api.github.com", "/users/x", "root"),
            (SERVICE, "/users", "base"),
            ("https://shop.example.com", "/v2/cart", "root"),
            ("https://api.example.com", "/users/{}", "root"),
            (SERVICE, "/v1/x", "base"),
            (SERVICE, "/", "base"),
        ],
    ),
}


@pytest.mark.parametrize(("code", "expected"), SERVICE_CASES.values(), ids=SERVICE_CASES)
def test_a_literal_origin_is_the_facts_service_and_anything_else_the_scanned_one(
    tmp_path: Path, code: str, expected: list[tuple[str | None, str, str]]
) -> None:
    assert services(tmp_path, code) == sorted(expected, key=str)


def test_an_absolute_url_names_its_origin_without_service_option(tmp_path: Path) -> None:
    root = write_project(tmp_path, {"src/a.ts": 'fetch("https://h.example.com/x"); fetch("/y");'})
    result = invoke(
        "routes", "--role", "client", "--project", str(root), "--generated-at", GENERATED_AT
    )
    assert result.code == 0, result.stderr
    document = orjson.loads(result.stdout)
    assert document["service"] is None
    assert [fact.get("service") for fact in document["facts"]] == ["https://h.example.com", None]


def test_no_credential_of_a_host_reaches_the_document(tmp_path: Path) -> None:
    code = (
        'import axios from "axios";\n'
        'axios.get("https://deploy:s3cretT0ken@api.example.com/x");\n'
        'fetch("https://0123456789abcdef0123.mockapi.io/x");\n'
        'fetch("https://user:pw@api.example.com/y");\n'
    )
    root = write_project(tmp_path, {"package.json": KY1, "src/a.ts": code})
    document = document_of(root)
    text = json.dumps(document)
    assert "s3cretT0ken" not in text and "0123456789abcdef0123" not in text
    assert [fact["service"] for fact in document["facts"]] == [
        "https://api.example.com",
        "https://{}.mockapi.io",
    ]
    # fetch rejects a URL with userinfo before sending (recorded: TypeError).
    coverage = [line for line in document["limitations"] if "not represented" in line]
    assert coverage and "throws-before-sending: 1" in coverage[0]
    assert any("masked-secret-segments: 1" in line for line in document["limitations"])


def test_a_host_that_needs_idna_is_counted_not_guessed(tmp_path: Path) -> None:
    document = document_of(write_project(tmp_path, {"src/a.ts": 'fetch("https://bücher.de/x");'}))
    assert document["facts"] == []
    assert any("origin-not-derived: 1" in line for line in document["limitations"])


def test_a_protocol_relative_input_below_a_rooted_ky2_base_keeps_the_page_scheme_open(
    tmp_path: Path,
) -> None:
    code = (
        'import ky from "ky";\nconst b = ky.create({ baseUrl: "/api/" });\n'
        'b.get("//cdn.example.com/x");\nb.get("items");\n'
    )
    package = json.dumps({"dependencies": {"ky": "~2.1.0"}})
    document = document_of(write_project(tmp_path, {"package.json": package, "src/a.ts": code}))
    found = [(fact["service"], fact["channel"]) for fact in document["facts"]]
    assert sorted(found) == [("//cdn.example.com", "/x"), (SERVICE, "/api/items")]
