"""Server URL resolution as a table: URL and variables in, prefix and cause out."""

from __future__ import annotations

import pytest

from tsograph.producers.openapi import server_urls
from tsograph.producers.openapi.server_urls import Resolved
from tsograph.producers.openapi.server_urls import ServerEvaluator
from tsograph.producers.openapi.server_urls import resolve_base_path
from tsograph.producers.openapi.tree import Opaque
from tsograph.producers.openapi.tree import SpecMap


def spec_map(**entries: object) -> SpecMap:
    mapping = SpecMap()
    for key, value in entries.items():
        mapping[key] = value
    return mapping


def server(url: object, **variables: dict[str, object]) -> SpecMap:
    if not variables:
        return spec_map(url=url)
    return spec_map(
        url=url, variables=spec_map(**{name: spec_map(**spec) for name, spec in variables.items()})
    )


def outcome(resolved: Resolved) -> tuple[list[tuple[str, str]], str | None]:
    return [(p.anchor, "/" + "/".join(p.segments)) for p in resolved.prefixes], resolved.cause


CASES = [
    # (url, variables, prefixes, cause)
    ("https://api.example.test", {}, [("root", "/")], None),
    ("https://api.example.test/", {}, [("root", "/")], None),
    ("https://api.example.test/v1/", {}, [("root", "/v1")], None),
    ("https://api.example.test/v1//", {}, [("root", "/v1/")], None),
    ("https://user@api.example.test/v1", {}, [("root", "/v1")], None),
    ("https://api.example.test:8443/v1?x=1#top", {}, [("root", "/v1")], None),
    ("https://api.example.test/v1?key={k}", {"k": {"default": "a"}}, [("root", "/v1")], None),
    ("HTTPS://API.example.test/V1", {}, [("root", "/V1")], None),
    ("//api.example.test/v1", {}, [("root", "/v1")], None),
    ("/", {}, [("root", "/")], None),
    ("https://[::1]:{port}/v1", {"port": {"default": "80"}}, [("base", "/v1")], "port-variable"),
    ("https://[{ip}]/v1", {"ip": {"default": "::1"}}, [("base", "/v1")], "host-variable"),
    (
        "https://{a}{b}.example.test/v1",
        {"a": {"default": "x"}, "b": {"default": "y"}},
        [("base", "/v1")],
        "host-variable",
    ),
    ("https://a{b}c.example.test/v1", {"b": {"default": "x"}}, [("root", "/v1")], None),
    ("https://{b}.example.test/v1", {"b": {"default": "x y"}}, [("base", "/v1")], "host-variable"),
    ("https://h/{v}", {"v": {"enum": ["a", "b"]}}, [("root", "/a"), ("root", "/b")], None),
    ("https://h/{v}", {"v": {"enum": ["a", "a"]}}, [("root", "/a")], None),
    (
        "https://h/{v}",
        {"v": {"enum": ["a", "../b"]}},
        [("root", "/a"), ("base", "/")],
        "ambiguous-spelling",
    ),
    ("https://h/{v}", {"v": {"enum": [], "default": "a"}}, [("base", "/")], "open-path-variable"),
    (
        "https://h/{v}/x",
        {"v": {"enum": [Opaque("1"), Opaque("2")]}},
        [("root", "/1/x"), ("root", "/2/x")],
        None,
    ),
    (
        "https://{h}/x",
        {"h": {"enum": ["a.test", "b.test/y"]}},
        [("root", "/x"), ("root", "/y/x")],
        None,
    ),
    (
        "{scheme}://h/x",
        {"scheme": {"enum": ["http", "ht tp"]}},
        [("root", "/x"), ("base", "/")],
        "ambiguous-spelling",
    ),
    ("{base}", {"base": {"default": "/v1"}}, [("base", "/")], "leading-variable"),
    (
        "{base}/v1/{v}/x",
        {"base": {"default": "h"}, "v": {"default": "1"}},
        [("base", "/x")],
        "leading-variable",
    ),
    ("v1/", {}, [("base", "/v1")], "relative-url"),
    ("./././v1", {}, [("base", "/v1")], "relative-url"),
    ("", {}, [("base", "/")], "relative-url"),
    ("?x=1", {}, [("base", "/")], "relative-url"),
    ("v1/{v}/x", {"v": {"default": "a"}}, [("base", "/x")], "relative-url"),
    ("localhost:8080/v1", {}, [("base", "/")], "ambiguous-spelling"),
    (" https://h/v1", {}, [("base", "/")], "ambiguous-spelling"),
    ("https://h/a{v", {}, [("base", "/")], "malformed-server"),
    ("https://h/a}", {}, [("base", "/")], "malformed-server"),
]


@pytest.mark.parametrize(
    ("url", "variables", "prefixes", "cause"), CASES, ids=[c[0] or "empty" for c in CASES]
)
def test_server_url_resolution(
    url: str,
    variables: dict[str, dict[str, object]],
    prefixes: list[tuple[str, str]],
    cause: str | None,
) -> None:
    assert outcome(ServerEvaluator().resolve(server(url, **variables))) == (prefixes, cause)


@pytest.mark.parametrize(
    "value",
    [
        "https://h",
        spec_map(url=Opaque("5")),
        spec_map(),
        spec_map(url="/{v}", variables="x"),
        spec_map(url="/{v}", variables=spec_map(v="x")),
        spec_map(url="/{v}", variables=spec_map(v=spec_map(enum="a"))),
        spec_map(url="/{v}", variables=spec_map(v=spec_map(enum=[["a"]]))),
    ],
    ids=[
        "not-an-object",
        "url-not-text",
        "url-missing",
        "variables-not-a-map",
        "variable-not-a-map",
        "enum-not-a-list",
        "enum-value-not-text",
    ],
)
def test_malformed_server_objects_are_base(value: object) -> None:
    assert outcome(ServerEvaluator().resolve(value)) == ([("base", "/")], "malformed-server")


def test_server_work_is_capped_per_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    # "/{v}" with two values costs 2 * (8 + 0 + 1) = 18 units.
    monkeypatch.setattr(server_urls, "MAX_WORK", 30)
    evaluator = ServerEvaluator()
    two = {"v": {"enum": ["a", "b"]}}
    assert outcome(evaluator.resolve(server("/{v}", **two)))[1] is None
    assert outcome(evaluator.resolve(server("/{v}", **two)))[1] is None  # same content: reused
    assert outcome(evaluator.resolve(server("/x/{v}", **two))) == (
        [("base", "/")],
        "server-work-budget",
    )


@pytest.mark.parametrize(
    ("base_path", "prefixes", "cause"),
    [
        (None, [("root", "/")], None),
        (Opaque("null"), [("root", "/")], None),
        ("/", [("root", "/")], None),
        ("/v2/", [("root", "/v2")], None),
        ("/a b", [("base", "/")], "ambiguous-spelling"),
        ("/a/./b", [("base", "/")], "ambiguous-spelling"),
        ("", [("base", "/")], "base-path"),
        (Opaque("2"), [("base", "/")], "base-path"),
    ],
)
def test_swagger2_base_path(
    base_path: object, prefixes: list[tuple[str, str]], cause: str | None
) -> None:
    assert outcome(resolve_base_path(base_path)) == (prefixes, cause)
