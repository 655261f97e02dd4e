"""Runs inside the oracle's scratch venv: probe one fixture app with its framework's test client.

    python probe.py <framework> <project folder> '<fixture spec json>'

Prints JSON: one probe a row, `[method, path, status, handler]`, where
handler is the graph id (`<path>#<qualname>`, `<locals>` left out) of the
project function the framework dispatched to, or null when none ran (404,
405, a redirect, a static file). Probe paths come from the framework's own
route table (FastAPI's OpenAPI paths, Starlette's routes and mounts, Flask's
url_map, Django's resolvers),
with every parameter filled, each with its trailing slash toggled, plus the
fixture's listed paths; every path is sent with every method.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import sys
from typing import Any

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
PARAM = re.compile(r"{([^}:]+)(:[^}]+)?}|<(?:([^:>]+):)?([^>]+)>")


def main() -> None:
    framework, root, spec_text = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
    spec = json.loads(spec_text)
    for key, value in spec.get("env", {}).items():
        os.environ[key] = value
    sys.path.insert(0, root)
    os.chdir(root)
    probe = {
        "fastapi": probe_fastapi,
        "starlette": probe_starlette,
        "flask": probe_flask,
        "django": probe_django,
    }[framework]
    print(json.dumps(probe(root, spec)))


def handler_id(root: str, function: Any) -> str | None:
    function = inspect.unwrap(function)
    try:
        filename = os.path.realpath(inspect.getsourcefile(function) or "")
    except TypeError:
        return None
    if not filename.startswith(root + os.sep):
        return None
    path = os.path.relpath(filename, root).replace(os.sep, "/")
    return f"{path}#{function.__qualname__.replace('.<locals>', '')}"


def fill(path: str) -> str:
    def value(match: re.Match[str]) -> str:
        convertor = (match.group(2) or "")[1:] or (match.group(3) or "")
        if convertor == "path":
            return "a/b"
        if convertor == "uuid":
            return "12345678-1234-5678-1234-567812345678"
        if convertor == "float":
            return "1.5"
        return "7"

    return PARAM.sub(value, path)


def probe_paths(table: list[str], listed: list[str]) -> list[str]:
    paths: set[str] = set(listed)
    for template in table:
        filled = fill(template)
        paths.add(filled)
        if filled != "/":
            paths.add(filled[:-1] if filled.endswith("/") else filled + "/")
    return sorted(paths)


def probe_starlette(root: str, spec: dict[str, Any]) -> list[list[Any]]:
    """A Starlette app: the route table is its routes, mounts joined to their children."""
    module_name, _, attribute = spec["app"].partition(":")
    app = getattr(importlib.import_module(module_name), attribute)

    def table(routes: Any, prefix: str) -> list[str]:
        found: list[str] = []
        for route in routes:
            below = getattr(route, "routes", None)
            if below:
                found.extend(table(below, prefix + route.path))
            else:
                found.append(prefix + route.path)
        return found

    return probe_fastapi(root, spec, table(app.routes, ""))


def probe_fastapi(
    root: str, spec: dict[str, Any], templates: list[str] | None = None
) -> list[list[Any]]:
    from starlette.testclient import TestClient

    module_name, _, attribute = spec["app"].partition(":")
    app = getattr(importlib.import_module(module_name), attribute)
    seen: dict[str, Any] = {}

    async def recording(scope: Any, receive: Any, send: Any) -> None:
        seen.clear()
        await app(scope, receive, send)
        seen["endpoint"] = scope.get("endpoint")

    client = TestClient(recording, follow_redirects=False)
    rows: list[list[Any]] = []
    if templates is None:
        templates = list(app.openapi()["paths"])
    for path in probe_paths(templates, spec.get("paths", [])):
        for method in METHODS:
            try:
                status = client.request(method, path).status_code
            except Exception:  # a WebSocket route refuses a plain request by raising
                rows.append([method, path, "error", None])
                continue
            endpoint = seen.get("endpoint")
            if inspect.isclass(endpoint):  # an HTTPEndpoint: the method it dispatches to
                name = method.lower()
                if name == "head" and not hasattr(endpoint, "head"):
                    name = "get"
                endpoint = getattr(endpoint, name, None)
            answered = endpoint is not None and status not in (404, 405)
            rows.append([method, path, status, handler_id(root, endpoint) if answered else None])
    return rows


def probe_flask(root: str, spec: dict[str, Any]) -> list[list[Any]]:
    from flask import request

    module_name, _, attribute = spec["app"].partition(":")
    app = getattr(importlib.import_module(module_name), attribute)
    ran: list[str | None] = []

    def recorder(view: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            cls = getattr(view, "view_class", None)
            if cls is None:
                ran.append(handler_id(root, view))
            elif hasattr(cls, "dispatch_request") and "dispatch_request" in vars(cls):
                ran.append(handler_id(root, cls.dispatch_request))
            else:  # a MethodView: the method named like the request's, GET for HEAD
                method = getattr(cls, request.method.lower(), None)
                if method is None and request.method == "HEAD":
                    method = getattr(cls, "get", None)
                ran.append(None if method is None else handler_id(root, method))
            return view(*args, **kwargs)

        return run

    for endpoint, view in list(app.view_functions.items()):
        app.view_functions[endpoint] = recorder(view)
    client = app.test_client()
    rows: list[list[Any]] = []
    table = [rule.rule for rule in app.url_map.iter_rules()]
    for path in probe_paths(table, spec.get("paths", [])):
        for method in METHODS:
            ran.clear()
            status = client.open(path, method=method).status_code
            handler = ran[-1] if ran and status not in (404, 405) else None
            rows.append([method, path, status, handler])
    return rows


def probe_django(root: str, spec: dict[str, Any]) -> list[list[Any]]:
    os.environ["DJANGO_SETTINGS_MODULE"] = spec["settings"]
    import django

    django.setup()
    from django.test import Client
    from django.urls import get_resolver

    def table(patterns: Any, prefix: str) -> list[str]:
        found: list[str] = []
        for pattern in patterns:
            route = str(pattern.pattern)
            if hasattr(pattern, "url_patterns"):
                found.extend(table(pattern.url_patterns, prefix + route))
            else:
                found.append(prefix + route)
        return found

    def answered(match: Any, method: str) -> str | None:
        view = match.func
        cls = getattr(view, "view_class", None) or getattr(view, "cls", None)
        actions = getattr(view, "actions", None)
        if actions is not None:  # a DRF viewset: the action the method maps to
            action = actions.get(method.lower())
            return None if action is None else handler_id(root, getattr(cls, action))
        if cls is None:
            return handler_id(root, view)
        name = method.lower()
        if name == "head" and not hasattr(cls, "head"):
            name = "get"
        function = getattr(cls, name, None)
        if function is None:
            return None
        if cls.__qualname__.endswith("WrappedAPIView"):  # @api_view: the wrapped function
            inner = inspect.getclosurevars(function).nonlocals.get("func")
            return None if inner is None else handler_id(root, inner)
        found = handler_id(root, function)
        if found is None and name == "options":
            return None  # View.options: Django's automatic answer
        return found if found is not None else handler_id(root, cls)

    client = Client()
    rows: list[list[Any]] = []
    templates = ["/" + route for route in table(get_resolver().url_patterns, "")]
    plain = [t for t in templates if not any(c in t for c in "^$(?\\")]
    for path in probe_paths(plain, spec.get("paths", [])):
        for method in METHODS:
            try:
                response = client.generic(method, path)
            except Exception:  # the view raised: recorded, never guessed
                rows.append([method, path, "error", None])
                continue
            match = None
            if response.status_code not in (404, 405):
                try:  # resolved again, lazily: it raises where nothing matched (APPEND_SLASH)
                    match = response.resolver_match
                    match.func  # noqa: B018 (the lazy object resolves here)
                except Exception:
                    match = None
            ok = match is not None
            rows.append(
                [method, path, response.status_code, answered(match, method) if ok else None]
            )
    return rows


if __name__ == "__main__":
    main()
