"""Shapes met on real Python services (bakerydemo, flaskbb, …), each on a small project."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.support import document_of
from tests.routes.support import write_project

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


def test_a_helper_that_may_return_early_gives_each_path_under_a_condition(tmp_path: Path) -> None:
    # redash: `org_scoped_rule(rule)` returns "/<org_slug>…" when MULTI_ORG is set, else the
    # rule: the route is one of the two, so each is a registration under a condition.
    app = (
        "from flask import Flask\n"
        "import settings\n\n"
        "def org_scoped_rule(rule):\n"
        "    if settings.MULTI_ORG:\n"
        '        return "/<org_slug>{}".format(rule)\n'
        "    return rule\n\n"
        "def plain(rule):\n"
        "    if settings.DEBUG:\n"
        "        print(rule)\n"
        "    return rule\n\n"
        "app = Flask(__name__)\n\n"
        '@app.route(org_scoped_rule("/api/format"), methods=["POST"])\n'
        "def fmt():\n    return ''\n\n"
        '@app.route(plain("/ping"))\n'
        "def ping():\n    return ''\n"
    )
    document = document_of(write_project(tmp_path, {"app.py": app, "settings.py": "DEBUG = 1\n"}))
    assert [(m, c, d) for m, c, d, _ in _routes(document)] == [
        ("GET", "/ping", False),
        ("POST", "/api/format", False),
        ("POST", "/{}/api/format", False),
    ]
    assert [line for line in document["limitations"] if "under a condition" in line] == [
        "route-coverage: 2 route(s) are registered only under a condition and may not exist"
    ]


def test_mounts_at_the_root_and_apps_without_openapi(tmp_path: Path) -> None:
    # dispatch/main.py: apps with `openapi_url=""` serve no documentation pages, one mounted
    # at "/" serves its paths as they are (Starlette's Mount strips the final slash).
    main = (
        "from fastapi import FastAPI\n\n"
        'app = FastAPI(openapi_url="")\n'
        'frontend = FastAPI(openapi_url="")\n'
        'api = FastAPI(docs_url=None, openapi_url="/docs/openapi.json", redoc_url="/docs")\n'
        'site = FastAPI(redoc_url="")\n\n'
        '@api.get("/health")\ndef health():\n    return None\n\n'
        '@site.get("/page")\ndef page():\n    return None\n\n'
        'app.mount("/api/v1", app=api)\n'
        'app.mount("/site/", app=site)\n'
        'app.mount("/", app=frontend)\n'
    )
    document = document_of(write_project(tmp_path, {"main.py": main}))
    assert [(m, c) for m, c, _, _ in _routes(document)] == [
        ("GET", "/api/v1/health"),
        ("GET", "/site/page"),
    ]
    assert sorted(
        line for line in document["limitations"] if line.startswith("framework-provided")
    ) == [
        "framework-provided-routes: 1 FastAPI's OpenAPI and documentation pages are served "
        f"under {prefix}"
        for prefix in (
            "/api/v1/docs",
            "/api/v1/docs/openapi.json",
            "/site/docs",
            "/site/openapi.json",
        )
    ]


def test_views_that_may_be_pattern_lists_cover_the_paths_below(tmp_path: Path) -> None:
    # bakerydemo: `path("django-admin/", admin.site.urls)`, `path("api/v2/", api_router.urls)`
    # with a Wagtail router; a DRF router's urls given to path() directly.
    urls = (
        "from django.contrib import admin\n"
        "from django.urls import path\n"
        "from rest_framework import viewsets\n"
        "from rest_framework.routers import SimpleRouter\n"
        "from wagtail.api.v2.router import WagtailAPIRouter\n"
        "from wagtail.contrib.sitemaps.views import sitemap\n\n"
        "class Things(viewsets.ViewSet):\n"
        "    def list(self, request):\n        return None\n\n"
        "router = SimpleRouter()\n"
        'router.register("things", Things)\n'
        'api_router = WagtailAPIRouter("wagtailapi")\n'
        "urlpatterns = [\n"
        '    path("django-admin/", admin.site.urls),\n'
        '    path("api/v2/", api_router.urls),\n'
        '    path("sitemap.xml", sitemap),\n'
        '    path("drf/", router.urls),\n'
        "]\n"
    )
    document = document_of(write_project(tmp_path, {"settings.py": SETTINGS, "site_urls.py": urls}))
    assert _routes(document) == [
        ("ANY", "/api/v2/{**}", True, ""),
        ("ANY", "/django-admin/{**}", True, ""),
        ("ANY", "/sitemap.xml", False, ""),
        ("GET", "/drf/things/", False, "site_urls.py#Things.list"),
    ]


def test_files_under_a_tests_folder_are_test_sources(tmp_path: Path) -> None:
    # django-oscar: tests/functional/checkout/__init__.py holds `@mock.patch(...)` helpers.
    helper = (
        "from unittest import mock\n"
        "from flask import Flask\n"
        "app = Flask(__name__)\n\n"
        '@app.get("/probe")\ndef probe():\n    return ""\n\n'
        "class Mixin:\n"
        '    @mock.patch("x.y")\n    def check(self, patched):\n        return None\n'
    )
    root = write_project(tmp_path, {"tests/functional/__init__.py": helper})
    assert document_of(root)["facts"] == []
    assert not any("route decorator" in line for line in document_of(root)["limitations"])
    included = document_of(root, "--include-tests")
    assert [(f["channel"], f.get("testSource")) for f in included["facts"]] == [("/probe", True)]


def test_an_include_of_a_urlconf_outside_the_project_sits_at_its_path_call(tmp_path: Path) -> None:
    # djangoproject.com accounts/urls.py: `path("", include("django.contrib.auth.urls"))`
    # inside an included URLconf; the unread patterns belong to that `path()` call, not to
    # the settings line naming the root URLconf.
    site = (
        "from django.urls import include, path\n\n"
        'urlpatterns = [path("members/", include("members_urls"))]\n'
    )
    members = (
        "from django.urls import include, path\n\n"
        "def card(request):\n    return None\n\n"
        "urlpatterns = [\n"
        '    path("card/", card),\n'
        '    path("", include("vendor_auth.urls")),\n'
        "]\n"
    )
    document = document_of(
        write_project(
            tmp_path, {"settings.py": SETTINGS, "site_urls.py": site, "members_urls.py": members}
        )
    )
    places = sorted(
        (fact["channel"], fact["location"]["path"], fact["location"]["line"])
        for fact in document["facts"]
    )
    assert places == [
        ("/members/card/", "members_urls.py", 7),
        ("/members/{**}", "members_urls.py", 8),
    ]


def test_views_of_django_classes_and_partials_are_views_not_pattern_lists(
    tmp_path: Path,
) -> None:
    # djangoproject.com urls/www.py: `path("start/", TemplateView.as_view(…))`,
    # `RedirectView.as_view(…)`, auth_views.PasswordResetView.as_view(), and legacy/urls.py
    # `path("404/", partial(defaults.page_not_found, exception=None))`. View.as_view returns
    # a function and a partial object is callable: Django's path() makes a URLPattern of
    # each (django 5.2.19 urls/conf.py `_path`), never an include.
    urls = (
        "from functools import partial\n"
        "from django.contrib.auth import views as auth_views\n"
        "from django.urls import path\n"
        "from django.views import defaults\n"
        "from django.views.decorators.http import require_POST\n"
        "from django.views.generic import RedirectView, TemplateView\n\n"
        "@require_POST\n"
        "def gone(request, reason):\n    return None\n\n"
        "urlpatterns = [\n"
        '    path("start/", TemplateView.as_view(template_name="start.html")),\n'
        '    path("old/", RedirectView.as_view(url="/start/")),\n'
        '    path("reset/", auth_views.PasswordResetView.as_view()),\n'
        '    path("404/", partial(defaults.page_not_found, exception=None)),\n'
        '    path("410/", partial(gone, reason="moved")),\n'
        "]\n"
    )
    document = document_of(write_project(tmp_path, {"settings.py": SETTINGS, "site_urls.py": urls}))
    assert _routes(document) == [
        ("ANY", "/404/", False, ""),
        ("ANY", "/reset/", False, ""),
        ("DELETE", "/old/", False, ""),
        ("GET", "/old/", False, ""),
        ("GET", "/start/", False, ""),
        ("PATCH", "/old/", False, ""),
        ("POST", "/410/", False, "site_urls.py#gone"),
        ("POST", "/old/", False, ""),
        ("PUT", "/old/", False, ""),
    ]
    names = {
        fact["channel"]: fact["symbol"]["qualifiedName"]
        for fact in document["facts"]
        if fact["method"] in ("ANY", "GET")
    }
    assert names == {
        "/404/": "django.views.defaults.page_not_found",
        "/reset/": "django.contrib.auth.views.PasswordResetView",
        "/old/": "django.views.generic.RedirectView",
        "/start/": "django.views.generic.TemplateView",
    }


def test_host_routed_urlconfs_are_a_limitation(tmp_path: Path) -> None:
    # djangoproject.com settings: ROOT_HOSTCONF = "djangoproject.hosts"; django-hosts 7.0.0's
    # middleware sets request.urlconf to the matched host's URLconf (docs, dashboard, www).
    settings = SETTINGS + 'ROOT_HOSTCONF = "site_hosts"\nDEFAULT_HOST = "www"\n'
    hosts = (
        "from django_hosts import host\n"
        'host_patterns = [host(r"www", "site_urls", name="www"),'
        ' host(r"docs", "docs_urls", name="docs")]\n'
    )
    urls = (
        "from django.urls import path\n\n"
        "def home(request):\n    return None\n\n"
        'urlpatterns = [path("", home)]\n'
    )
    files = {"settings.py": settings, "site_hosts.py": hosts, "site_urls.py": urls}
    document = document_of(write_project(tmp_path, files))
    assert _routes(document) == [("ANY", "/", False, "site_urls.py#home")]
    assert [line for line in document["limitations"] if "ROOT_HOSTCONF" in line] == [
        "route-coverage: 1 django-hosts setting(s) ROOT_HOSTCONF route each request by its "
        "host to a URLconf of its own: the routes read are ROOT_URLCONF's, which answer only "
        "on hosts using it, and the other hosts' URLconfs are not read (at settings.py:2)"
    ]


def test_a_module_decorating_a_router_it_imports_is_run_without_importing_flask(
    tmp_path: Path,
) -> None:
    # redash/handlers/admin.py imports `routes` (a Blueprint) from redash.handlers and only
    # flask_login, and is itself imported inside init_app(app), which no module calls.
    files = {
        "shop/__init__.py": "",
        "shop/views.py": 'from flask import Blueprint\nbp = Blueprint("shop", __name__)\n',
        "shop/admin.py": "from flask_login import login_required\n"
        "from shop.views import bp\n\n"
        '@bp.route("/stats", methods=["GET"])\n'
        "@login_required\n"
        "def stats():\n    return ''\n",
        "shop/app.py": "from flask import Flask\n"
        "from shop.views import bp\n\n"
        "def create_app():\n"
        "    app = Flask(__name__)\n"
        "    from shop import admin\n"
        "    app.register_blueprint(bp)\n"
        "    return app\n",
    }
    document = document_of(write_project(tmp_path, files))
    assert [
        (fact["method"], fact["channel"], fact["pathAnchor"], fact["symbol"]["usr"])
        for fact in document["facts"]
    ] == [("GET", "/stats", "base", "shop/admin.py#stats")]
    assert not [line for line in document["limitations"] if "route decorator" in line]


def test_project_views_on_generic_views_of_django_submodules_and_other_libraries(
    tmp_path: Path,
) -> None:
    # djangoproject.com: aggregator/views.py `FeedListView(ListView)` with ListView from
    # django.views.generic.list, foundation/views.py archive views from
    # django.views.generic.dates, contact/views.py `ContactFoundation(ContactFormView)`
    # from django-contact-form (methods not known: any method, the class answering).
    urls = (
        "from django.urls import path\n"
        "from django.views.generic.dates import ArchiveIndexView\n"
        "from django.views.generic.edit import FormView\n"
        "from django.views.generic.list import ListView\n"
        "from django_contact_form.views import ContactFormView\n\n"
        "class FeedList(ListView):\n    pass\n\n"
        "class Minutes(ArchiveIndexView):\n    pass\n\n"
        "class Signup(FormView):\n    pass\n\n"
        "class Contact(ContactFormView):\n    pass\n\n"
        "urlpatterns = [\n"
        '    path("feeds/", FeedList.as_view()),\n'
        '    path("minutes/", Minutes.as_view()),\n'
        '    path("signup/", Signup.as_view()),\n'
        '    path("contact/", Contact.as_view()),\n'
        "]\n"
    )
    document = document_of(write_project(tmp_path, {"settings.py": SETTINGS, "site_urls.py": urls}))
    assert _routes(document) == [
        ("ANY", "/contact/", False, "site_urls.py#Contact"),
        ("GET", "/feeds/", False, "site_urls.py#FeedList"),
        ("GET", "/minutes/", False, "site_urls.py#Minutes"),
        ("GET", "/signup/", False, "site_urls.py#Signup"),
        ("POST", "/signup/", False, "site_urls.py#Signup"),
        ("PUT", "/signup/", False, "site_urls.py#Signup"),
    ]


def test_a_feed_instance_is_a_view(tmp_path: Path) -> None:
    # djangoproject.com urls/www.py: `path("rss/weblog/", WeblogEntryFeed())`, a subclass of
    # django.contrib.syndication.views.Feed, whose __call__(request, ...) serves any method
    # (django 5.2.19); an instance of another project class may be anything.
    urls = (
        "from django.contrib.syndication.views import Feed\n"
        "from django.urls import path\n"
        "from vendor import Thing\n\n"
        "class BaseFeed(Feed):\n    title = 'x'\n\n"
        "class Weblog(BaseFeed):\n    pass\n\n"
        "class Custom(Thing):\n    pass\n\n"
        "urlpatterns = [\n"
        '    path("rss/weblog/", Weblog()),\n'
        '    path("rss/other/", Custom()),\n'
        "]\n"
    )
    document = document_of(write_project(tmp_path, {"settings.py": SETTINGS, "site_urls.py": urls}))
    assert _routes(document) == [
        ("ANY", "/rss/other/{**}", True, ""),
        ("ANY", "/rss/weblog/", False, "site_urls.py#Weblog"),
    ]


def test_views_wrapped_by_djangos_view_decorators_in_urlpatterns(tmp_path: Path) -> None:
    # djangoproject.com urls/www.py: `cache_page(60 * 60 * 6)(sitemap_views.sitemap)`; the
    # same shape with login_required(...) and csrf_exempt(...) is common in URLconfs. Each
    # returns a function calling the view for every method (django 5.2.19).
    urls = (
        "from django.contrib.auth.decorators import login_required\n"
        "from django.urls import path\n"
        "from django.views.decorators.cache import cache_page\n"
        "from django.views.decorators.csrf import csrf_exempt\n"
        "from django.views.decorators.http import require_POST\n"
        "from django.views.generic import TemplateView\n\n"
        "def profile(request):\n    return None\n\n"
        "@require_POST\n"
        "def hook(request):\n    return None\n\n"
        "urlpatterns = [\n"
        '    path("profile/", login_required(profile)),\n'
        '    path("hook/", csrf_exempt(hook)),\n'
        '    path("about/", cache_page(60)(TemplateView.as_view(template_name="a.html"))),\n'
        '    path("mine/", login_required(login_url="/in/")(profile)),\n'
        "]\n"
    )
    document = document_of(write_project(tmp_path, {"settings.py": SETTINGS, "site_urls.py": urls}))
    assert _routes(document) == [
        ("ANY", "/mine/", False, "site_urls.py#profile"),
        ("ANY", "/profile/", False, "site_urls.py#profile"),
        ("GET", "/about/", False, ""),
        ("POST", "/hook/", False, "site_urls.py#hook"),
    ]
