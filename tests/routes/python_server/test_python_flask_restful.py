"""Flask-RESTful registrations the scan does not read are counted, never dropped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.support import document_of
from tests.routes.support import write_project


def test_the_resource_class_decorator_is_counted(tmp_path: Path) -> None:
    # flask_restful 0.3.10 `Api.resource(*urls)` registers the class it decorates; the
    # interpreter does not apply class decorators, so the registration is counted.
    app = (
        "from flask import Flask\n"
        "from flask_restful import Api, Resource\n\n"
        "app = Flask(__name__)\n"
        "api = Api(app)\n\n"
        "@api.resource('/things')\n"
        "class Things(Resource):\n"
        "    def get(self):\n        return []\n"
    )
    document = document_of(write_project(tmp_path, {"app.py": app}))
    assert document["facts"] == []
    assert [line for line in document["limitations"] if "route decorator(s)" in line] == [
        "route-coverage: 1 route decorator(s) sit on a receiver tsograph could not prove "
        "to be a router (or in code no module runs) (at app.py:7)"
    ]


# redash (handlers/api.py, handlers/base.py, app.py) registers its resources through a
# project subclass of `flask_restful.Api` whose method maps every url through a helper
# that returns early under a setting. Checked against flask 3.1.3 and flask-restful
# 0.3.10: with the setting off the app serves `/api/things`, with it on
# `/<org_slug>/api/things`; a subclass that defines no method of its own is the library's
# Api, and its `add_resource(resource, *urls, **kwargs)` passes the keywords on.
SCOPED_API = (
    "from flask import Flask\n"
    "from flask_restful import Api, Resource\n"
    "import settings\n\n"
    "def scoped(rule):\n"
    "    if settings.MULTI:\n"
    '        return "/<org_slug>{}".format(rule)\n'
    "    return rule\n\n"
    "class Ext(Api):\n"
    "    def add_scoped(self, resource, *urls, **kwargs):\n"
    "        urls = [scoped(url) for url in urls]\n"
    "        return self.add_resource(resource, *urls, **kwargs)\n\n"
    "class Things(Resource):\n"
    "    def get(self):\n        return []\n\n"
    "    def post(self):\n        return {}\n\n"
    "class Site(Flask):\n"
    "    pass\n\n"
    "api = Ext()\n"
    'api.add_scoped(Things, "/api/things", endpoint="things", strict_slashes=False)\n'
)


def _facts(document: dict[str, Any]) -> list[tuple[str, str, str, str, str]]:
    return sorted(
        (
            fact["method"],
            fact["channel"],
            fact["symbol"]["usr"],
            fact["pathAnchor"],
            fact["trailingSlash"],
        )
        for fact in document["facts"]
    )


def test_a_project_api_subclass_registers_through_its_own_method(tmp_path: Path) -> None:
    app = SCOPED_API + "site = Site(__name__)\napi.init_app(site)\n"
    project = write_project(tmp_path, {"app.py": app, "settings.py": "MULTI = False\n"})
    document = document_of(project)
    assert _facts(document) == [
        ("GET", "/api/things", "app.py#Things.get", "root", "optional"),
        ("GET", "/{}/api/things", "app.py#Things.get", "root", "optional"),
        ("POST", "/api/things", "app.py#Things.post", "root", "optional"),
        ("POST", "/{}/api/things", "app.py#Things.post", "root", "optional"),
    ]
    # Which of the two paths is served depends on the setting: neither is certain.
    assert [line for line in document["limitations"] if "under a condition" in line] == [
        "route-coverage: 2 route(s) are registered only under a condition and may not exist"
    ]
    assert not [line for line in document["limitations"] if "registration call(s)" in line]
    # A wrapper's registrations are located at its call, `api.add_scoped(…)`.
    call_line = SCOPED_API.count("\n")
    assert {(f["location"]["path"], f["location"]["line"]) for f in document["facts"]} == {
        ("app.py", call_line)
    }


def test_an_api_no_running_code_binds_is_read_under_an_unknown_prefix(tmp_path: Path) -> None:
    # redash binds its Api in `init_app(app)`, which only its app factory calls: like a
    # blueprint nothing registers, the resources sit under a prefix not proven.
    app = SCOPED_API + "def init_app(site):\n    api.init_app(site)\n"
    project = write_project(tmp_path, {"app.py": app, "settings.py": "MULTI = False\n"})
    document = document_of(project)
    assert _facts(document) == [
        ("GET", "/api/things", "app.py#Things.get", "base", "optional"),
        ("GET", "/{}/api/things", "app.py#Things.get", "base", "optional"),
        ("POST", "/api/things", "app.py#Things.post", "base", "optional"),
        ("POST", "/{}/api/things", "app.py#Things.post", "base", "optional"),
    ]


def test_arguments_a_method_changes_before_passing_them_on_are_not_known(tmp_path: Path) -> None:
    # `**kwargs` changed in the method: the keywords add_resource gets are not the call's,
    # so one more url and strict_slashes may be anything.
    app = (
        "from flask import Flask\n"
        "from flask_restful import Api, Resource\n\n"
        "class Ext(Api):\n"
        "    def add(self, resource, *urls, **kwargs):\n"
        '        kwargs["strict_slashes"] = False\n'
        "        return self.add_resource(resource, *urls, **kwargs)\n\n"
        "class Things(Resource):\n"
        "    def get(self):\n        return []\n\n"
        "app = Flask(__name__)\n"
        "api = Ext(app)\n"
        'api.add(Things, "/things")\n'
    )
    document = document_of(write_project(tmp_path, {"app.py": app}))
    assert sorted(
        (fact["channel"], fact["dynamic"], fact.get("trailingSlash")) for fact in document["facts"]
    ) == [("/things", False, None), ("/{**}", True, None)]


def test_a_project_flask_subclass_is_an_app(tmp_path: Path) -> None:
    # redash's `class Redash(Flask)` sets static_folder in its `__init__`, which is not run:
    # the app's routes are read, its static files sit under a prefix not proven.
    app = (
        "from flask import Flask\n\n"
        "class Site(Flask):\n"
        "    def __init__(self):\n"
        '        super().__init__(__name__, static_folder="assets")\n\n'
        "site = Site()\n\n"
        '@site.route("/ping")\n'
        "def ping():\n    return ''\n"
    )
    document = document_of(write_project(tmp_path, {"app.py": app}))
    assert [(f["method"], f["channel"], f["pathAnchor"]) for f in document["facts"]] == [
        ("GET", "/ping", "root")
    ]
    assert [line for line in document["limitations"] if "static" in line] == [
        "framework-provided-routes: 1 static files (a static folder) are served under an "
        "unresolved prefix"
    ]
