"""FastAPI (and the Starlette it runs on): apps, routers and their registrations.

Rules read from fastapi 0.165.0 (fastapi/routing.py, fastapi/applications.py)
and starlette 1.10.0 (starlette/routing.py, starlette/applications.py), and
replayed from oracle/recordings/python-routes/ (oracle/python-routes/):

* `FastAPI()` and `APIRouter()` are proven only through an import of the
  `fastapi` package (`from fastapi import FastAPI`, aliases, `import fastapi`,
  `fastapi.routing.APIRouter`); a project module named like it is no proof.
* `get`/`put`/`post`/`delete`/`options`/`head`/`patch`/`trace(path)` register
  one method; `api_route(path, methods=…)` and `add_api_route(path, endpoint,
  methods=…)` default to GET. FastAPI routes answer no automatic HEAD (405).
* A router's routes carry its own prefix at registration (`self.prefix +
  path`); `include_router(router, prefix=p)` adds `including prefix + p` in
  front (`_RouterIncludeContext.for_include`), so nested includes join from
  the outermost app inwards, and a router included twice serves under both.
  Since 0.137.0 the include is live (routes added to the router later are
  served too); 0.136.0 and older copied the routes at include time (checked
  by running both), so a route added after its router was included is
  counted (`late`).
* `websocket`, `add_api_websocket_route`, `websocket_route`: WebSocket
  endpoints, counted apart from HTTP routes.
* `mount(path, app)`: a Starlette Mount; a FastAPI or Starlette app mounted
  serves its routes under `path`; StaticFiles serves GET and HEAD under it;
  any other ASGI app answers anything under it.
* `Starlette(routes=[…])`, `Router(routes=[…])`: `Route`, `WebSocketRoute`
  and `Mount(path, routes=…|app=…)` items in order (see `_listed_route`).
* `route`/`add_route` (Starlette style): methods default to GET (Starlette
  adds HEAD to a GET route automatically; like the Node producers, that
  automatic answer is no fact of its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_server.argument_values import Args
from tsograph.producers.routes.python_server.interpreter import Context
from tsograph.producers.routes.python_server.interpreter_values import Class
from tsograph.producers.routes.python_server.interpreter_values import Entry
from tsograph.producers.routes.python_server.interpreter_values import Function
from tsograph.producers.routes.python_server.interpreter_values import Handler
from tsograph.producers.routes.python_server.interpreter_values import Mount
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.interpreter_values import Route
from tsograph.producers.routes.python_server.interpreter_values import Router
from tsograph.producers.routes.python_server.interpreter_values import derives
from tsograph.producers.routes.python_server.interpreter_values import inherited_attribute
from tsograph.producers.routes.python_server.registration import RouteDecorators
from tsograph.producers.routes.python_server.registration import as_text
from tsograph.producers.routes.python_server.registration import group_name
from tsograph.producers.routes.python_server.registration import methods_argument
from tsograph.producers.routes.python_server.registration import name_node
from tsograph.producers.routes.python_server.registration import text_argument
from tsograph.producers.values.python.literals import Seq
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import text

APP_CONSTRUCTORS = frozenset(
    {"fastapi.FastAPI", "fastapi.applications.FastAPI", "starlette.applications.Starlette"}
)
ROUTER_CONSTRUCTORS = frozenset({"fastapi.APIRouter", "fastapi.routing.APIRouter"})
STATIC_FILES = frozenset({"fastapi.staticfiles.StaticFiles", "starlette.staticfiles.StaticFiles"})
METHOD_DECORATORS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WEBSOCKET_DECORATORS = ("websocket", "websocket_route")
KINDS = frozenset({"fastapi-app", "starlette-app", "apirouter"})
HTTP_ENDPOINT = frozenset({"starlette.endpoints.HTTPEndpoint"})


@dataclass(frozen=True)
class RouteDecorator:
    """`app.get("/x")` before it is applied to the handler."""

    router: Router
    methods: tuple[str, ...]
    path: Text
    node: Node  # the method name, where the fact is located
    conditional: bool
    websocket: bool = False


@dataclass(frozen=True)
class Listed:
    """A `Route`, `WebSocketRoute` or `Mount` of a Starlette routes list: the entries it
    adds where the list is given to an app, a Router or a Mount."""

    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class StaticApp:
    """A StaticFiles instance."""


class FastAPIFramework(RouteDecorators):
    decorator_type = RouteDecorator

    def construct(self, name: str, args: Args, ctx: Context, node: Node) -> Any | None:
        place = self.interp.place(ctx.file, node)
        if name in APP_CONSTRUCTORS:
            kind = "starlette-app" if name.startswith("starlette") else "fastapi-app"
            router = Router(kind, group_name(node, ctx), place)
            if kind == "fastapi-app":
                _docs_routes(router, args, place)
            root_path = args.get(-1, "root_path")
            if root_path is not None:
                router.options["root_path"] = root_path[0]
            # Starlette(routes=[Route(…), Mount(…)]): read item by item; an item that is
            # not a proven Route/WebSocketRoute/Mount (and FastAPI(routes=…)) is counted.
            given = args.get(-1, "routes")
            if given is None and kind == "starlette-app":
                given = args.get(1, "routes")
            if given is not None:
                _listed(router, given[0] if kind == "starlette-app" else None)
            return router
        if name == "starlette.routing.Router":
            router = Router("starlette-app", group_name(node, ctx), place)
            given = args.get(0, "routes")
            if given is not None:
                _listed(router, given[0])
            return router
        if name in ("starlette.routing.Route", "starlette.routing.WebSocketRoute"):
            return self._listed_route(name.endswith("WebSocketRoute"), args, ctx, node)
        if name == "starlette.routing.Mount":
            return self._listed_mount(args, ctx, node)
        if name in ROUTER_CONSTRUCTORS:
            prefix = text_argument(args, -1, "prefix", text(""))
            router = Router("apirouter", group_name(node, ctx), place, prefix)
            if args.open:
                router.prefix = UNKNOWN_TEXT
            return router
        if name in STATIC_FILES:
            return StaticApp()
        return None

    def _listed_route(self, websocket: bool, args: Args, ctx: Context, node: Node) -> Listed:
        """`Route(path, endpoint, methods=…)` (starlette 1.10.0 routing.py): a function
        endpoint answers `methods`, GET by default; an HTTPEndpoint class answers the
        methods it defines; any other endpoint is an ASGI app that gets every method."""
        path = text_argument(args, 0, "path", UNKNOWN_TEXT)
        found = args.get(1, "endpoint")
        endpoint = None if found is None else found[0]
        callee = node.part("callee") or node
        place = self.interp.place(ctx.file, callee)
        if websocket:
            handler = self.interp.handler(endpoint, ctx.file, node)
            handler = handler or self.interp.unknown_handler(ctx.file, node)
            return Listed((Route(place, ctx.conditional, ("GET",), path, handler, websocket=True),))
        methods = args.get(-1, "methods")
        if isinstance(endpoint, Class) and methods is None and derives(endpoint, HTTP_ENDPOINT):
            entries: list[Entry] = []
            for name in METHOD_DECORATORS:
                member = inherited_attribute(endpoint, name)
                if isinstance(member, Function) and name != "head":
                    handler = Handler(member.usr, member.usr)
                    entries.append(Route(place, ctx.conditional, (name.upper(),), path, handler))
            return Listed(tuple(entries))
        handler = self.interp.handler(endpoint, ctx.file, node)
        if isinstance(endpoint, Function):
            answered = _methods(args, -1)
        else:
            answered = ("ANY",) if methods is None else _methods(args, -1)
            handler = handler or self.interp.unknown_handler(ctx.file, node)
        return Listed(
            (Route(place, ctx.conditional, answered, path, handler or Handler(None, "")),)
        )

    def _listed_mount(self, args: Args, ctx: Context, node: Node) -> Listed:
        """`Mount(path, app=…)` or `Mount(path, routes=[…])`: the path without its final `/`."""
        prefix = _mount_path(text_argument(args, 0, "path", UNKNOWN_TEXT))
        place = self.interp.place(ctx.file, node.part("callee") or node)
        routes = args.get(2, "routes")
        app = args.get(1, "app")
        value = None if app is None else app[0]
        if routes is not None and app is None:
            value = Router("starlette-app", group_name(node, ctx), place)
            _listed(value, routes[0])
        return Listed((_mounted(place, ctx.conditional, prefix, value),))

    def method(self, router: Router, name: str, args: Args, ctx: Context, node: Node) -> Any | None:
        if router.kind not in KINDS:
            return None
        at = name_node(node)
        if name in METHOD_DECORATORS:
            return self._decorator(router, (name.upper(),), args, ctx, at)
        if name == "api_route":
            return self._decorator(router, _methods(args, 1), args, ctx, at)
        if name == "route":
            return self._decorator(router, _methods(args, 1), args, ctx, at)
        if name in WEBSOCKET_DECORATORS:
            return self._decorator(router, ("GET",), args, ctx, at, websocket=True)
        if name in ("add_api_route", "add_route", "add_api_websocket_route", "add_websocket_route"):
            endpoint = args.get(1, "endpoint")
            websocket = "websocket" in name
            decorator = self._decorator(
                router, ("GET",) if websocket else _methods(args, 2), args, ctx, at, websocket
            )
            handler = None if endpoint is None else endpoint[0]
            self.register(decorator, handler, ctx, node)
            return True
        if name == "include_router":
            prefix = _own(router) + text_argument(args, -1, "prefix", text(""))
            self.include_argument(
                router, "router", prefix, args, ctx, at, KINDS, "an included router"
            )
            return True
        if name == "mount":
            app = args.get(1, "app")
            place = self.interp.place(ctx.file, at)
            prefix = _mount_path(text_argument(args, 0, "path", UNKNOWN_TEXT))
            value = None if app is None else app[0]
            router.entries.append(_mounted(place, ctx.conditional, prefix, value))
            return True
        if name == "frontend":
            # fastapi 0.16x `app.frontend(path, directory=…)`: a built frontend's files (and
            # its fallback page) under `path`.
            place = self.interp.place(ctx.file, at)
            prefix = text_argument(args, 0, "path", UNKNOWN_TEXT)
            router.entries.append(Mount(place, ctx.conditional, prefix, None, FRONTEND))
            return True
        if name == "host":
            router.options.setdefault("hosts", []).append(self.interp.place(ctx.file, at))
            return True
        return None

    def _decorator(
        self,
        router: Router,
        methods: tuple[str, ...],
        args: Args,
        ctx: Context,
        at: Node,
        websocket: bool = False,
    ) -> RouteDecorator:
        path = text_argument(args, 0, "path", UNKNOWN_TEXT)
        return RouteDecorator(router, methods, path, at, ctx.conditional, websocket)

    def register(self, decorator: RouteDecorator, function: Any, ctx: Context, node: Node) -> None:
        router = decorator.router
        handler = self.interp.handler(function, ctx.file, node)
        if handler is None:
            handler = self.interp.unknown_handler(ctx.file, node)
        # A router's routes carry its prefix as it was at registration.
        path = _own(router) + decorator.path
        route = Route(
            self.interp.place(ctx.file, decorator.node),
            decorator.conditional or ctx.conditional,
            decorator.methods,
            path,
            handler,
            websocket=decorator.websocket,
        )
        if router.included:
            route.options["late"] = True
        router.entries.append(route)


FRONTEND = "frontend files"
DOCS = "FastAPI's OpenAPI and documentation pages"
# FastAPI.setup (fastapi 0.165.0 applications.py) adds these as GET routes before any other.
DOCS_ROUTES = (("openapi_url", "/openapi.json"), ("docs_url", "/docs"), ("redoc_url", "/redoc"))


def _docs_routes(router: Router, args: Args, place: Any) -> None:
    for keyword, default in DOCS_ROUTES:
        given = args.get(-1, keyword)
        if given is None:
            prefix = text(default)
        elif given[1].kind == "null":
            continue  # None turns the page off
        else:
            prefix = as_text(given[0])
        if prefix.known == "":
            # `if self.openapi_url:` (0.165.0): an empty URL is off too, and the
            # documentation pages need the OpenAPI document.
            if keyword == "openapi_url":
                break
            continue
        router.entries.append(Mount(place, False, prefix, None, DOCS))
    if args.open:
        router.entries.append(Mount(place, False, UNKNOWN_TEXT, None, DOCS))


def _mounted(place: Place, conditional: bool, prefix: Text, value: Any) -> Mount:
    """`mount(path, app)` and `Mount(path, app=…)`: a FastAPI or Starlette app serves its
    routes under the path; StaticFiles or any other ASGI app answers under it."""
    if isinstance(value, Router) and value.kind in KINDS:
        value.included = True
        return Mount(place, conditional, prefix, value, "app")
    label = "StaticFiles" if isinstance(value, StaticApp) else "a mounted application"
    return Mount(place, conditional, prefix, None, label)


def _mount_path(path: Text) -> Text:
    """Starlette's `Mount(path)` keeps `path.rstrip("/")` (starlette 1.10.0 routing.py).

    So `mount("/", …)` serves the sub-application's paths as they are, not under `//`.
    """
    last = path.pieces[-1] if path.pieces else ""
    if last is None:
        return path
    return Text((*path.pieces[:-1], last.rstrip("/")))


def _own(router: Router) -> Text:
    return router.prefix if router.prefix is not None else text("")


def _methods(args: Args, index: int) -> tuple[str, ...]:
    """The `methods=` of a registration; GET when not given; () when not proven."""
    return methods_argument(args, index, "methods", ("GET",))


def _listed(router: Router, routes: Any) -> None:
    """The entries of a routes list, in its order; anything else in it is counted."""
    items = routes.items if isinstance(routes, Seq) else (None,)
    for item in items:
        if isinstance(item, Listed):
            router.entries.extend(item.entries)
        else:
            router.options["routes_argument"] = True
