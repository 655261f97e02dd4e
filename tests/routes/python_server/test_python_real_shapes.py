"""Shapes met on real Python services (bakerydemo, flaskbb, …), each on a small project."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.support import document_of, write_project

SETTINGS = 'ROOT_URLCONF = "site_urls"\n'


def _routes(document: dict[str, Any]) -> list[tuple[str, str, bool, str]]:
    return sorted(
        (
            fact["method"],
            fact["channel"],
            fact["dynamic"],
            fact.get("symbol", {}).get("usr", ""),
        )
        for fact in document["facts"]
    )


def test_urlpatterns_grown_under_a_condition_keep_the_known_patterns(tmp_path: Path) -> None:
    # bakerydemo/urls.py: `if settings.DEBUG: urlpatterns += static(...)`, then
    # `urlpatterns += [path("", include(wagtail_urls))]`.
    urls = (
        "from django.conf import settings\n"
        "from django.urls import include, path\n"
        "from django.conf.urls.static import static\n"
        "from wagtail import urls as wagtail_urls\n\n"
        "def search(request):\n    return None\n\n"
        "def debug_page(request):\n    return None\n\n"
        'urlpatterns = [path("search/", search)]\n'
        "if settings.DEBUG:\n"
        "    urlpatterns += static(settings.MEDIA_URL)\n"
        '    urlpatterns += [path("test404/", debug_page)]\n'
        'urlpatterns += [path("", include(wagtail_urls))]\n'
    )
    document = document_of(write_project(tmp_path, {"settings.py": SETTINGS, "site_urls.py": urls}))
    assert _routes(document) == [
        ("ANY", "/search/", False, "site_urls.py#search"),
        ("ANY", "/test404/", False, "site_urls.py#debug_page"),
        ("ANY", "/{**}", True, ""),
        ("ANY", "/{**}", True, ""),
    ]
    assert any(
        line.startswith("route-coverage: 1 route(s) are registered only under a condition")
        for line in document["limitations"]
    )


def test_registrations_in_functions_never_called_are_counted(tmp_path: Path) -> None:
    # flaskbb: blueprints are made and registered in pluggy hooks, through a helper.
    views = (
        "from flask import Blueprint, Flask\n\n"
        "def register_view(bp, routes, view_func):\n"
        "    for route in routes:\n"
        "        bp.add_url_rule(route, view_func=view_func)\n\n"
        "def page():\n    return ''\n\n"
        "def load_blueprints(app):\n"
        '    user = Blueprint("user", __name__)\n'
        '    register_view(user, routes=["/settings"], view_func=page)\n'
        "    app.register_blueprint(user, url_prefix=app.config['USER_URL_PREFIX'])\n"
    )
    document = document_of(write_project(tmp_path, {"app/views.py": views}))
    assert document["facts"] == []
    assert [line for line in document["limitations"] if "registration call(s)" in line] == [
        "route-coverage: 2 route registration call(s) (add_url_rule, include_router, …) sit on "
        "a receiver tsograph could not prove to be a router (or in code no module runs) "
        "(at app/views.py:5, app/views.py:13)"
    ]
