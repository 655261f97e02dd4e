"""Path syntax of the Python routers as contract templates: Starlette, Werkzeug and Django.

Each row is what the router's own source says (starlette 1.10.0 compile_path,
werkzeug 3.1.9 rules/converters, django 5.2.19 _route_to_regex); the oracle
recordings replay the same rules on the fixtures.
"""

from __future__ import annotations

import pytest

from tsograph.producers.routes.python_server.django_paths import django_variants
from tsograph.producers.routes.python_server.django_paths import optional_slash
from tsograph.producers.routes.python_server.django_paths import regex_route
from tsograph.producers.routes.python_server.starlette_paths import starlette_variants
from tsograph.producers.routes.python_server.werkzeug_paths import werkzeug_variants
from tsograph.producers.values.python.strings import Text


def _rows(variants: list) -> list[tuple[str, bool, str | None, tuple]]:  # type: ignore[type-arg]
    return [(v.template, v.dynamic, v.dynamic_scope, v.param_constraints) for v in variants]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", [("/", False, None, ())]),
        ("/items/", [("/items/", False, None, ())]),
        ("/items/{id}", [("/items/{}", False, None, ())]),
        ("/items/{id:int}", [("/items/{}", False, None, ((0, "int", None),))]),
        ("/a/{x}/b/{y:int}", [("/a/{}/b/{}", False, None, ((1, "int", None),))]),
        ("/files/{name}.json", [("/files/{}.json", False, None, ())]),
        # `{p:path}` as the last segment: one or more segments, and the empty value.
        ("/files/{p:path}", [("/files/{**}", False, None, ()), ("/files/", False, None, ())]),
        ("/files/{p:path}/meta", [("/files/{**}", True, "/files", ())]),
        ("/x{p:path}", [("/{**}", True, None, ())]),
        ("/a/{x}{y}", [("/a/{}{}", True, None, ())]),
        # An unknown convertor and a repeated name fail when the app starts.
        ("/a/{x:bool}", [("/a/{**}", True, "/a", ())]),
        ("/a/{x}/{x}", [("/a/{**}", True, "/a", ())]),
        # Braces that are no parameter are literal text.
        ("/a/{1x}", [("/a/%7B1x%7D", False, None, ())]),
        ("/caf\u00e9", [("/caf%C3%A9", False, None, ())]),
    ],
)
def test_starlette(path: str, expected: list) -> None:  # type: ignore[type-arg]
    assert _rows(starlette_variants(path)) == expected


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("/", [("/", False, None, ())]),
        ("/blog/<int:post_id>", [("/blog/{}", False, None, ((0, "int", None),))]),
        ("/u/<name>/<int:n>", [("/u/{}/{}", False, None, ((1, "int", None),))]),
        ("/pages/<name>.html", [("/pages/{}.html", False, None, ())]),
        ("/files/<path:name>", [("/files/{**}", False, None, ())]),
        ("/<path:name>", [("/{**}", False, None, ())]),
        ("/files/<path:name>/raw", [("/files/{**}", True, "/files", ())]),
        ("/s/<string(length=2):code>", [("/s/{**}", True, "/s", ())]),
        ("/k/<any(a, b):kind>", [("/k/{**}", True, "/k", ())]),
        ("relative", [("/{**}", True, None, ())]),
    ],
)
def test_werkzeug(rule: str, expected: list) -> None:  # type: ignore[type-arg]
    assert _rows(werkzeug_variants(rule)) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", [("/", False, None, ())]),
        ("/items/<int:pk>/", [("/items/{}/", False, None, ((0, "int", None),))]),
        ("/blog/<slug:s>/", [("/blog/{}/", False, None, ((0, "regex", "^[-a-zA-Z0-9_]+$"),))]),
        ("/a/<x>/", [("/a/{}/", False, None, ())]),
        ("/files/<path:p>", [("/files/{**}", False, None, ())]),
        ("/files/<path:p>/", [("/files/{**}", True, "/files", ())]),
        ("/a/<bogus:x>/", [("/a/{**}", True, "/a", ())]),
    ],
)
def test_django(path: str, expected: list) -> None:  # type: ignore[type-arg]
    assert _rows(django_variants(path)) == expected


@pytest.mark.parametrize(
    ("pattern", "endpoint", "expected"),
    [
        ("^legacy/$", True, ("legacy/",)),
        ("^api/", False, ("api/",)),
        ("^", False, ("",)),
        (r"^a\.json$", True, ("a.json",)),
        ("^about", True, ("about", None)),  # no `$`: longer paths match too
        ("^tags/?$", True, ("tags/", None)),
        ("^articles/(?P<slug>[-\\w]+)/$", True, ("articles/", None)),
        ("legacy/$", True, ("", None)),  # not anchored: matches anywhere
    ],
)
def test_regex_routes(pattern: str, endpoint: bool, expected: tuple) -> None:  # type: ignore[type-arg]
    assert regex_route(pattern, endpoint) == Text(expected)


def test_optional_slash() -> None:
    assert optional_slash("^tags/?$") == "^tags$"
    assert optional_slash("^a/(?P<x>\\w+)/?$") is None
    assert optional_slash("^tags/$") is None
