"""Flask-RESTful registrations the scan does not read are counted, never dropped."""

from __future__ import annotations

from pathlib import Path

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
