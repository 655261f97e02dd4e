"""Which language's services `routes --role server` reads at one project root.

A document has one platform, so one run reads one language. `--language`
chooses; without it, Python is read when the project has Python server
modules (files importing FastAPI, Starlette, Flask or Django) and no
JavaScript server: its root package.json declares none of the packages the
Node scans read (next, koa, the Node server frameworks) and it holds no
next.config.*. A root with both needs `--language`. (In a workspace, each
package is a service of its own: producers/services.py; a Python service
inside a JavaScript workspace is read by passing its folder as --project.)
"""

from __future__ import annotations

from tsograph.exchange.errors import UsageError
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes.next_settings import config_file
from tsograph.producers.routes.python_server.route_scan import has_python_server
from tsograph.producers.services import SERVER_PACKAGES


def has_js_server(model: ProjectModel) -> bool:
    package = model.root_package
    declared = package.dependencies if package.problem is None else None
    if declared and any(name in declared for name in SERVER_PACKAGES):
        return True
    return config_file(model.root)[0] is not None


def server_language(model: ProjectModel, asked: str | None) -> str:
    if asked is not None:
        return asked
    if not model.sources.python_sources or not has_python_server(model):
        return "js"
    if has_js_server(model):
        raise UsageError(
            "the project holds JavaScript and Python servers; choose one with "
            "--language js or --language python"
        )
    return "python"
