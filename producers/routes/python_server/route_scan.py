"""`routes --role server` for Python services: run the server modules, emit their routes.

Every Python source that imports a modelled framework is run by the
interpreter (its imports first, as CPython would), and so is every source
that imports one of those and holds a route decorator or a registration
call (a views module decorating its package's Blueprint); the apps nothing mounts
receive requests at the root, routers nothing includes sit under an unknown
prefix. Route decorators the interpreter met on receivers it could not prove
to be routers (a function never called, an unknown object) are counted, not
guessed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from tsograph.exchange.limitations import Place as LinePlace
from tsograph.exchange.limitations import counted
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.test_sources import is_python_test
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.routes.python_server.django import DjangoFramework
from tsograph.producers.routes.python_server.django_paths import django_variants
from tsograph.producers.routes.python_server.emit import Emitter
from tsograph.producers.routes.python_server.emit import limitation_lines
from tsograph.producers.routes.python_server.fastapi import METHOD_DECORATORS
from tsograph.producers.routes.python_server.fastapi import WEBSOCKET_DECORATORS
from tsograph.producers.routes.python_server.fastapi import FastAPIFramework
from tsograph.producers.routes.python_server.flask import FlaskFramework
from tsograph.producers.routes.python_server.flask import FlaskJoins
from tsograph.producers.routes.python_server.interpreter import Interpreter
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.starlette_paths import starlette_variants
from tsograph.producers.routes.python_server.werkzeug_paths import werkzeug_variants
from tsograph.producers.routes.route_scan import RouteScan
from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.unknown import UNKNOWN

# The packages whose import makes a file a server module, by framework.
FRAMEWORK_IMPORTS = {
    "fastapi": ("fastapi", "starlette"),
    "flask": ("flask",),
    "django": ("django", "rest_framework"),
}
# `resource`: Flask-RESTful's `@api.resource(url)` class decorator (0.3.10), not applied.
ROUTE_DECORATOR_NAMES = frozenset(
    {*METHOD_DECORATORS, *WEBSOCKET_DECORATORS, "api_route", "route", "resource"}
)
# Method calls that register routes or routers (flask 3.1.3, fastapi 0.165.0, starlette).
REGISTRATION_CALLS = frozenset(
    {
        "add_url_rule",
        "register_blueprint",
        "add_api_route",
        "add_api_websocket_route",
        "add_route",
        "add_websocket_route",
        "include_router",
        # Flask-RESTful resources on an Api tsograph did not prove, and Flask-RESTX's
        # (not modelled).
        "add_resource",
    }
)
FLASK_KINDS = frozenset({"flask-app", "blueprint", "restful-api"})


@dataclass
class PythonScan(RouteScan):
    first_match: bool = False


def python_paths(model: ProjectModel) -> list[str]:
    return sorted(
        walked.path
        for walked in model.sources.python_sources
        if model.include_tests or not _is_test(walked.path)
    )


def _is_test(path: str) -> bool:
    # The client and schema scans' rule (pytest's test files and tests/ folders), so the
    # three commands read the same sources (django-oscar's tests/functional/ helpers).
    return is_test_source(path) or is_python_test(path)


def server_modules(model: ProjectModel, paths: list[str]) -> dict[str, list[str]]:
    """The files that import each framework's packages, by framework."""
    found: dict[str, list[str]] = {}
    for path in paths:
        syntax = model.syntax(path)
        if syntax is None:
            continue
        tops = {item.specifier.split(".")[0] for item in syntax.facts.imports}
        for framework, packages in FRAMEWORK_IMPORTS.items():
            if tops & set(packages):
                found.setdefault(framework, []).append(path)
    return found


def has_python_server(model: ProjectModel) -> bool:
    return bool(server_modules(model, python_paths(model)))


def scan_python_server(model: ProjectModel, service: str | None) -> PythonScan:
    paths = python_paths(model)
    modules = server_modules(model, paths)
    interp = Interpreter(model, paths, [])
    django = DjangoFramework(interp)
    interp.frameworks.extend([FastAPIFramework(interp), FlaskFramework(interp), django])
    servers = sorted({path for files in modules.values() for path in files})
    servers += _router_users(model, interp, paths, set(servers))
    for path in servers:
        interp.run_module(path)
    for framework in interp.frameworks:
        framework.finish()
    urlconfs = _root_urlconfs(interp, paths) if "django" in modules else []
    tests = {path for path in paths if _is_test(path)}
    starlette = Emitter(service, tests, starlette_variants)
    # Werkzeug matches by specificity: Flask facts carry no registration order.
    werkzeug = Emitter(
        service, tests, werkzeug_variants, FlaskJoins(), ordered=False, out=starlette.out
    )
    for router in interp.routers:
        if router.included:
            continue
        flask = router.kind in FLASK_KINDS
        anchored = router.kind not in ("apirouter", "blueprint", "restful-api")
        (werkzeug if flask else starlette).group(router, anchored)
    urls = Emitter(service, tests, django_variants, out=starlette.out)
    for settings, place, module in urlconfs:
        group = f"{module.path}#urlpatterns" if isinstance(module, Module) else settings
        urls.group(django.routes(module, group, place), anchored=True)
    for reason, prefix in django.provided:
        urls.provide(reason, prefix)
    result = PythonScan()
    result.facts = starlette.out.facts
    result.first_match = any("order" in fact for fact in result.facts)
    lines, scopes = limitation_lines(starlette.out, "FastAPI")
    result.limitations.extend(lines)
    result.scopes.extend(scopes)
    unproven_receivers = (
        (_unreached_decorators(interp, paths), "route decorator(s)"),
        (
            _unreached_registrations(interp, servers),
            "route registration call(s) (add_url_rule, include_router, …)",
        ),
    )
    for places, what in unproven_receivers:
        if places:
            result.limitations.append(
                counted(
                    "route-coverage:",
                    len(places),
                    f"{what} sit on a receiver tsograph could not prove to be a router "
                    "(or in code no module runs)",
                    places=places,
                )
            )
    root_paths = [router.place for router in interp.routers if "root_path" in router.options]
    if root_paths:
        result.limitations.append(
            counted(
                "unresolved-route-prefix:",
                len(root_paths),
                "app(s) set root_path: Starlette also answers their routes under it",
                places={(place.path, place.line) for place in root_paths},
            )
        )
    gaps = Counter(
        reason
        for router in interp.routers
        for reason, key in (("host-routes", "hosts"), ("routes-list-argument", "routes_argument"))
        if router.options.get(key)
    )
    if interp.unreadable or gaps:
        result.limitations.append(
            counted(
                "route-coverage:",
                len(interp.unreadable) + sum(gaps.values()),
                "server module(s) or registrations could not be read",
                breakdown=gaps,
                names=interp.unreadable,
            )
        )
    host_confs = _top_level_assignments(interp, paths, "ROOT_HOSTCONF") if urlconfs else set()
    if host_confs:
        result.limitations.append(
            counted(
                "route-coverage:",
                len(host_confs),
                "django-hosts setting(s) ROOT_HOSTCONF route each request by its host to a "
                "URLconf of its own: the routes read are ROOT_URLCONF's, which answer only on "
                "hosts using it, and the other hosts' URLconfs are not read",
                places=host_confs,
            )
        )
    if "django" in modules and not urlconfs:
        result.limitations.append(
            counted(
                "route-coverage:",
                1,
                "Django project without a ROOT_URLCONF string in a settings module: "
                "its URL patterns are not read",
            )
        )
    result.read = [model.root / path for path in servers]
    return result


def _router_users(
    model: ProjectModel, interp: Interpreter, paths: list[str], servers: set[str]
) -> list[str]:
    """Modules that import no framework but import a server module and decorate or register
    with something (redash/handlers/admin.py decorates the Blueprint it imports from
    redash.handlers and imports only flask_login): they are run like the server modules."""
    found: list[str] = []
    for path in paths:
        syntax = model.syntax(path)
        if path in servers or syntax is None or not _registers(syntax.root):
            continue
        for item in syntax.facts.imports:
            target = interp.modules.resolve(path, item.specifier)
            if target.kind == "module" and target.path in servers:
                found.append(path)
                break
    return found


def _registers(root: Node) -> bool:
    """Whether a file holds a route-like decorator call or a registration call."""
    for node in root.walk():
        for decorator in node.decorators:
            value = decorator.part("value")
            if value is not None and value.kind == "call" and _route_like(value):
                return True
        if node.kind == "call":
            callee = node.part("callee")
            name = None if callee is None or callee.kind != "member" else callee.part("property")
            if name is not None and name.value in REGISTRATION_CALLS:
                return True
    return False


def _root_urlconfs(interp: Interpreter, paths: list[str]) -> list[tuple[str, Place, Any]]:
    """Each `ROOT_URLCONF = "<module>"` at the top of a module: (settings, place, URLconf).

    Settings are read as text (the assignment's string), never run; the module name is
    resolved like an import written in the settings file.
    """
    found: list[tuple[str, Place, Any]] = []
    seen: set[str] = set()
    for path in paths:
        syntax = interp.model.syntax(path)
        if syntax is None or b"ROOT_URLCONF" not in syntax.data:
            continue
        for statement in syntax.root.items:
            value = statement.part("value") if statement.kind == "statement" else None
            if value is None or value.kind != "assign":
                continue
            left, right = value.part("left"), value.part("right")
            if left is None or right is None or left.value != "ROOT_URLCONF":
                continue
            name = right.value if right.kind == "string" else None
            module = None if name is None else interp.resolve_module(path, name)
            key = module.path if isinstance(module, Module) else path
            if key in seen:
                continue
            seen.add(key)
            found.append((f"{path}#ROOT_URLCONF", interp.place(syntax, left), module or UNKNOWN))
    return found


def _top_level_assignments(interp: Interpreter, paths: list[str], name: str) -> set[LinePlace]:
    """Where a module assigns `name` at its top level (a Django setting), read as text."""
    found: set[LinePlace] = set()
    for path in paths:
        syntax = interp.model.syntax(path)
        if syntax is None or name.encode() not in syntax.data:
            continue
        for statement in syntax.root.items:
            value = statement.part("value") if statement.kind == "statement" else None
            left = value.part("left") if value is not None and value.kind == "assign" else None
            if left is not None and left.kind == "identifier" and left.value == name:
                found.add((path, syntax.location(left.start)[0]))
    return found


def _unreached_decorators(interp: Interpreter, paths: list[str]) -> set[LinePlace]:
    """Route-like decorators (`@x.get(…)`, `@x.route(…)`) no framework consumed: in files no
    module ran, in functions never called, or on receivers not proven routers."""
    found: set[LinePlace] = set()
    for path in paths:
        syntax = interp.model.syntax(path)
        if syntax is None or b"@" not in syntax.data:
            continue
        for node in syntax.root.walk():
            for decorator in node.decorators:
                value = decorator.part("value")
                if value is None or value.kind != "call":
                    continue
                if (path, value.start) in interp.consumed:
                    continue
                if _route_like(value):
                    found.add((path, syntax.location(value.start)[0]))
    return found


def _unreached_registrations(interp: Interpreter, paths: list[str]) -> set[LinePlace]:
    """Registration calls in server modules no framework consumed (flaskbb registers its
    blueprints in plugin hooks the interpreter never calls)."""
    found: set[LinePlace] = set()
    for path in paths:
        syntax = interp.model.syntax(path)
        if syntax is None:
            continue
        for node in syntax.root.walk():
            if node.kind != "call" or (path, node.start) in interp.consumed:
                continue
            callee = node.part("callee")
            name = None if callee is None or callee.kind != "member" else callee.part("property")
            if name is not None and name.value in REGISTRATION_CALLS:
                found.add((path, syntax.location(node.start)[0]))
    return found


def _route_like(call: Node) -> bool:
    callee = call.part("callee")
    if callee is None or callee.kind != "member":
        return False
    name = callee.part("property")
    return name is not None and name.value in ROUTE_DECORATOR_NAMES
