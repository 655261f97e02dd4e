"""DRF routers' registrations against rest_framework/routers.py of djangorestframework 3.18.3
(SimpleRouter.routes, get_routes, get_lookup_regex, get_urls; viewsets.get_extra_actions;
decorators.action and MethodMapper), each on a small project."""

from __future__ import annotations

from pathlib import Path

from tests.routes.support import document_of
from tests.routes.support import write_project

SETTINGS = 'ROOT_URLCONF = "site_urls"\n'
HEAD = (
    "from django.urls import include, path\n"
    "from rest_framework import viewsets\n"
    "from rest_framework.decorators import action\n"
    "from rest_framework.routers import SimpleRouter\n\n"
)
TAIL = 'urlpatterns = [path("api/", include(router.urls))]\n'


def _routes(tmp_path: Path, body: str) -> list[tuple[str, str, bool, str]]:
    files = {"settings.py": SETTINGS, "site_urls.py": HEAD + body + TAIL}
    document = document_of(write_project(tmp_path, files))
    return [
        (fact["method"], fact["channel"], fact["dynamic"], fact.get("symbol", {}).get("usr", ""))
        for fact in document["facts"]
    ]


def test_a_group_in_the_prefix_is_never_read_as_literal_text(tmp_path: Path) -> None:
    # The prefix is spliced into `^{prefix}/{lookup}{trailing_slash}$` unescaped.
    body = (
        "class Accounts(viewsets.ViewSet):\n"
        "    def list(self, request, user_pk=None):\n        return None\n\n"
        "router = SimpleRouter()\n"
        'router.register(r"users/(?P<user_pk>[^/.]+)/accounts", Accounts, basename="a")\n'
        'router.register(r"v1.0/things", Accounts, basename="b")\n'
        'router.register("docs", Accounts, basename="c")\n'
    )
    # paperless-ngx documents/views.py: `@action(..., url_path=r"versions/(?P<version_id>\d+)")`.
    body = body.replace(
        "    def list(",
        "    @action(detail=True, methods=['delete'], url_path=r'versions/(?P<v>\\d+)')\n"
        "    def version(self, request, pk=None, v=None):\n        return None\n"
        "    def list(",
    )
    # Before: `/api/users/(%3FP{}%5B%5E/.%5D+)/accounts/`, a path no request takes, and
    # `/api/docs/%3C%00drf-lookup:pk%3E/versions/{**}`: a scope never ends in a parameter.
    assert sorted(_routes(tmp_path, body)) == [
        ("DELETE", "/api/docs/{**}", True, "site_urls.py#Accounts.version"),
        ("DELETE", "/api/users/{**}", True, "site_urls.py#Accounts.version"),
        ("DELETE", "/api/{**}", True, "site_urls.py#Accounts.version"),
        ("GET", "/api/docs/", False, "site_urls.py#Accounts.list"),
        ("GET", "/api/users/{**}", True, "site_urls.py#Accounts.list"),
        ("GET", "/api/{**}", True, "site_urls.py#Accounts.list"),
    ]


def test_list_actions_come_before_the_detail_route_and_inherited_ones_count(
    tmp_path: Path,
) -> None:
    body = (
        "class Archive:\n"
        "    @action(detail=True, methods=['put'])\n"
        "    def archive(self, request, pk=None):\n        return None\n\n"
        "class Items(Archive, viewsets.ViewSet):\n"
        "    def retrieve(self, request, pk=None):\n        return None\n"
        "    @action(detail=False)\n"
        "    def recent(self, request):\n        return None\n"
        "    @action(detail=True, methods=['post'])\n"
        "    def publish(self, request, pk=None):\n        return None\n"
        "    @publish.mapping.delete\n"
        "    def unpublish(self, request, pk=None):\n        return None\n\n"
        "router = SimpleRouter()\n"
        'router.register("items", Items)\n'
    )
    # The order the router tries them is replayed against DRF by the oracle recording
    # (test_python_oracle_replay.py, `/api/items/recent/`); here which routes exist.
    assert sorted(_routes(tmp_path, body)) == [
        ("DELETE", "/api/items/{}/publish/", False, "site_urls.py#Items.unpublish"),
        ("GET", "/api/items/recent/", False, "site_urls.py#Items.recent"),
        ("GET", "/api/items/{}/", False, "site_urls.py#Items.retrieve"),
        ("POST", "/api/items/{}/publish/", False, "site_urls.py#Items.publish"),
        ("PUT", "/api/items/{}/archive/", False, "site_urls.py#Archive.archive"),
    ]


def test_an_action_overridden_without_the_decorator_is_no_route(tmp_path: Path) -> None:
    body = (
        "class Base(viewsets.ViewSet):\n"
        "    @action(detail=False)\n"
        "    def recent(self, request):\n        return None\n\n"
        "class Items(Base):\n"
        "    def recent(self, request):\n        return None\n"
        "    def list(self, request):\n        return None\n\n"
        "router = SimpleRouter()\n"
        'router.register("items", Items)\n'
    )
    assert _routes(tmp_path, body) == [("GET", "/api/items/", False, "site_urls.py#Items.list")]


def test_a_lookup_pattern_of_the_viewset_is_not_the_default_one(tmp_path: Path) -> None:
    # `lookup_value_regex = ".+"` lets the lookup span segments: no `{}` can say that.
    body = (
        "class Files(viewsets.ViewSet):\n"
        '    lookup_value_regex = ".+"\n'
        "    def retrieve(self, request, pk=None):\n        return None\n\n"
        "router = SimpleRouter()\n"
        'router.register("files", Files)\n'
    )
    [(method, channel, dynamic, _)] = _routes(tmp_path, body)
    assert (method, dynamic) == ("GET", True)
    assert channel == "/api/files/{**}"


def test_router_urls_spread_in_a_list_and_subscripted_bases(tmp_path: Path) -> None:
    # paperless-ngx src/paperless/urls.py: `re_path(r"^api/", include([..., *router.urls]))`,
    # views on `GenericAPIView[Any]` (DRF's __class_getitem__ returns the class itself).
    body = (
        "from typing import Any\n"
        "from django.urls import re_path\n"
        "from rest_framework.generics import GenericAPIView\n\n"
        "class Search(GenericAPIView[Any]):\n"
        "    def get(self, request):\n        return None\n\n"
        "class Tags(viewsets.ViewSet):\n"
        "    def list(self, request):\n        return None\n\n"
        "router = SimpleRouter()\n"
        'router.register(r"tags", Tags)\n'
        "urlpatterns = [\n"
        '    re_path(r"^api/", include([re_path("^search/$", Search.as_view()), *router.urls])),\n'
        "]\n"
    )
    files = {"settings.py": SETTINGS, "site_urls.py": HEAD + body}
    document = document_of(write_project(tmp_path, files))
    assert sorted(
        (fact["method"], fact["channel"], fact["dynamic"], fact["symbol"].get("usr", ""))
        for fact in document["facts"]
    ) == [
        ("GET", "/api/search/", False, "site_urls.py#Search.get"),
        ("GET", "/api/tags/", False, "site_urls.py#Tags.list"),
    ]


def test_schema_decorators_keep_the_viewset(tmp_path: Path) -> None:
    # paperless-ngx documents/views.py: `@extend_schema_view(...)` on its viewsets
    # (drf-spectacular 0.30.0 returns the class); another class decorator may return
    # anything, so its registration stays unresolved.
    body = (
        "from drf_spectacular.utils import extend_schema, extend_schema_view\n"
        "from somewhere import wrap\n\n"
        "@extend_schema_view(list=extend_schema(description='x'))\n"
        "class Tags(viewsets.ViewSet):\n"
        "    def list(self, request):\n        return None\n\n"
        "@wrap\n"
        "class Notes(viewsets.ViewSet):\n"
        "    def list(self, request):\n        return None\n\n"
        "router = SimpleRouter()\n"
        'router.register("tags", Tags)\n'
        'router.register("notes", Notes)\n'
    )
    assert sorted(_routes(tmp_path, body)) == [
        ("ANY", "/api/{**}", True, ""),
        ("GET", "/api/tags/", False, "site_urls.py#Tags.list"),
    ]
