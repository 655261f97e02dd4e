"""DRF routers' registrations against rest_framework/routers.py of djangorestframework 3.18.3
(SimpleRouter.routes, get_routes, get_lookup_regex, get_urls; viewsets.get_extra_actions;
decorators.action and MethodMapper), each on a small project."""

from __future__ import annotations

from pathlib import Path

from tests.routes.support import document_of, write_project

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
    )
    # Before: `/api/users/(%3FP{}%5B%5E/.%5D+)/accounts/`, a path no request takes.
    assert sorted(_routes(tmp_path, body)) == [
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
