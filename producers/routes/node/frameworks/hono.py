r"""Hono 4.13.12, checked by running it (scratch install; tests/routes/node).

`new Hono({ strict })` (strict by default, case-sensitive); `METHOD/all([path],
...handlers)` (no path: the chain's last path), `on(method|methods,
path|paths, ...handlers)`; `route(prefix, sub)` copies the routes `sub` has at
that moment (later ones are not served); `basePath(p)` is a view that adds
routes to the same app under `p`.

@hono/zod-openapi 1.6.3 (dist/index.mjs, read): `OpenAPIHono` extends Hono (its
constructor passes the options on); `createRoute(config)` returns `{ ...config }`;
`openapi(route, handler)` is `this.on([route.method], [route.path.replaceAll(/\/{(.+?)}/g,
"/:$1")], ...middleware, ...validators, handler)`, the route's `middleware` one
function or a list; `openapiRoutes([{ route, handler, addRoute }])` calls openapi for
each item whose addRoute is not false; `doc(path, …)` and `doc31(path, …)` are
`this.get(path, handler)` with the package's handler that writes the document.
"""

from __future__ import annotations

import re

from tsograph.producers.routes.node.frameworks.middleware import use
from tsograph.producers.routes.node.frameworks.registration import RETURNS_SELF
from tsograph.producers.routes.node.frameworks.registration import Construction
from tsograph.producers.routes.node.frameworks.registration import Framework
from tsograph.producers.routes.node.frameworks.registration import Host
from tsograph.producers.routes.node.frameworks.registration import add
from tsograph.producers.routes.node.frameworks.registration import context
from tsograph.producers.routes.node.frameworks.registration import leading_path
from tsograph.producers.routes.node.frameworks.registration import paths
from tsograph.producers.routes.node.frameworks.registration import route
from tsograph.producers.routes.node.frameworks.registration import unknown_base_tail
from tsograph.producers.routes.node.frameworks.registration import verb
from tsograph.producers.routes.node.frameworks.registration import view_prefix
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import ArrayValue
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import Mount
from tsograph.producers.routes.node.runtime_values import ObjectValue
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Served
from tsograph.producers.routes.node.runtime_values import Value

HONO_VERBS = ("get", "post", "put", "delete", "patch", "options")
OPENAPI_PACKAGE = "@hono/zod-openapi"
# @hono/zod-openapi 1.6.3 openapi(): an OpenAPI `{name}` after a `/` becomes `:name`.
_OPENAPI_PARAMETER = re.compile(r"/\{(.+?)\}")


def construct(host: Host, made: Construction) -> Value | None:
    if made.kind == "hono-openapi-route":
        return made.args[0] if made.args and isinstance(made.args[0], ObjectValue) else None
    options = made.options
    router = made.router(host, "hono", "app")
    router.strict = options.members.get("strict") is not False
    router.case_sensitive = True
    return router


def call(
    host: Host, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    # The chain's path follows hono@4.13.12 hono-base.js `#path`: a string first argument
    # sets it, otherwise the handlers go to the current one; None is a path not proven.
    if name in HONO_VERBS or name == "all":
        if args and isinstance(args[0], str):
            app.last_path, handlers = args[0], args[1:]
        elif args and args[0] is UNKNOWN and len(args) > 1:
            # A path out of view (or a handler out of view at a path the chain had):
            # either way the registration's path is not proven.
            app.last_path, handlers = None, args[1:]
        else:
            handlers = args
        verb(host, app, name, app.last_path, handlers, where, frame)
        return app
    if name == "on" and len(args) >= 2:
        methods = [m for m in paths(args[0])]
        for path in paths(args[1]):
            app.last_path = path  # on() sets the chain's path to each path in turn
            for method in methods:
                if method is None:
                    host.note("unresolved-method", where)
                else:  # a method the contract has no name for becomes a scoped gap
                    route(host, app, (method.upper(),), path, args[2:], where, frame)
        return app
    if name == "route" and len(args) >= 2 and not isinstance(args[1], RouterValue):
        prefix = args[0] if isinstance(args[0], str) else None
        if isinstance(args[1], External):
            # A sub-app from a package: its routes are not in view, its prefix is.
            name_of = args[1].package
            served = Served(
                view_prefix(app, prefix), "package", name_of, where, context(app, frame)
            )
            add(app, served)
        else:
            host.note("unresolved-mounted-router", where)
        return app
    if name == "route" and len(args) >= 2 and isinstance(args[1], RouterValue):
        child = args[1]
        child.home().mounted = True  # a basePath view is its app
        prefix = args[0] if isinstance(args[0], str) else None
        add(
            app,
            Mount(
                view_prefix(app, prefix),
                child,
                where,
                context(app, frame),
                snapshot=list(child.home().entries),
            ),
        )
        return app
    if name == "basePath" and args:
        prefix = args[0] if isinstance(args[0], str) else None
        view = RouterValue(app.framework, app.kind, app.name, app.module, target=app.home())
        view.strict, view.case_sensitive = app.strict, app.case_sensitive
        if prefix is None:
            # What follows is below an unknown prefix (`unresolved-route-prefix:`), and
            # mergePath proves the rest: the known tail starts again from nothing.
            view.unknown_base = True
            return view
        view.unknown_base = app.unknown_base
        if app.unknown_base and not app.prefix:
            view.prefix = unknown_base_tail(prefix)
        else:
            view.prefix = view_prefix(app, prefix) or ""
        return view
    if name == "use":
        prefix_value, rest = leading_path(args, "*", (str,))
        # use() sets the chain's path too: its string, else "*" (hono@4.13.12).
        app.last_path = prefix_value if isinstance(prefix_value, str) else None
        # The path is a Hono route pattern (use() adds ALL routes), joined like a route's.
        prefix = prefix_value if isinstance(prefix_value, str) else None
        use(host, app, view_prefix(app, prefix), rest, where, frame)
        return app
    if name == "openapi":
        _openapi(host, app, args[0] if args else UNKNOWN, args[1:2], where, frame)
        return app
    if name == "openapiRoutes":
        inputs = args[0] if args else UNKNOWN
        if not isinstance(inputs, ArrayValue) or not inputs.complete:
            host.note("unresolved-openapi-routes", where)
        for item in inputs.items if isinstance(inputs, ArrayValue) else []:
            if not isinstance(item, ObjectValue):
                host.note("unresolved-openapi-routes", where)
            elif item.members.get("addRoute") is not False:
                route_config = item.members.get("route", UNKNOWN)
                _openapi(host, app, route_config, [item.members.get("handler")], where, frame)
        return app
    if name in ("doc", "doc31") and args:
        path = args[0] if isinstance(args[0], str) else None
        writer = External(OPENAPI_PACKAGE, ("OpenAPIHono", name))
        verb(host, app, "get", path, [writer], where, frame)
        return app
    if name == "mount" and args:
        prefix = args[0] if isinstance(args[0], str) else None
        add(
            app,
            Served(view_prefix(app, prefix), "package", "mounted-app", where, context(app, frame)),
        )
        return app
    return app if name in RETURNS_SELF else UNKNOWN


def _openapi(
    host: Host, app: RouterValue, config: Value, handlers: list[Value], where: Place, frame: Frame
) -> None:
    """`app.openapi(route, handler)`: a Hono `on(method, path)` registration."""
    method = config.members.get("method") if isinstance(config, ObjectValue) else None
    path = config.members.get("path") if isinstance(config, ObjectValue) else None
    if not isinstance(method, str) or not isinstance(config, ObjectValue):
        host.note("unresolved-method", where)
        return
    middleware = config.members.get("middleware")
    if middleware is None:
        before: list[Value] = []
    elif isinstance(middleware, ArrayValue):
        before = list(middleware.items)
    else:
        before = [middleware]
    hono_path = _OPENAPI_PARAMETER.sub(r"/:\1", path) if isinstance(path, str) else None
    app.last_path = hono_path
    route(host, app, (method.upper(),), hono_path, [*before, *handlers], where, frame)


FRAMEWORK = Framework(
    ("hono",),
    ("hono", "hono-openapi-route"),
    construct,
    call,
    {
        ("hono", ("Hono",)): ("hono", "router"),
        (OPENAPI_PACKAGE, ("OpenAPIHono",)): ("hono", "router"),
    },
)
