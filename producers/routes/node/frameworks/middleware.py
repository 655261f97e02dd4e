"""Middleware on a router: what `use` (and Hono's, Koa's) is handed, and which of it answers.

A router mounted below a prefix is a mount; static file servers and packages
that answer requests themselves serve their prefix; a project function that
does not pass the request on answers everything under it. Middleware known
to only pass requests on (body parsers, CORS, loggers, …) adds nothing.
"""

from __future__ import annotations

from tsograph.producers.routes.node.frameworks.registration import Host
from tsograph.producers.routes.node.frameworks.registration import add
from tsograph.producers.routes.node.frameworks.registration import context
from tsograph.producers.routes.node.frameworks.registration import flat
from tsograph.producers.routes.node.frameworks.registration import handler_of
from tsograph.producers.routes.node.frameworks.registration import leading_path
from tsograph.producers.routes.node.frameworks.registration import parameter_count
from tsograph.producers.routes.node.frameworks.registration import paths
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue
from tsograph.producers.routes.node.runtime_values import Mount
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Served
from tsograph.producers.routes.node.runtime_values import Value
from tsograph.producers.routes.node.runtime_values import Wrapped

# Middleware packages that only pass requests on (they answer no route of their own).
PASS_THROUGH_PACKAGES = frozenset(
    {
        "body-parser",
        "compression",
        "cookie-parser",
        "cors",
        "express-rate-limit",
        "express-session",
        "helmet",
        "morgan",
        "multer",
        "passport",
        "@koa/cors",
        "koa-bodyparser",
        "@koa/bodyparser",
        "koa-body",
        "koa-helmet",
        "koa-logger",
        "koa-compress",
        "koa-basic-auth",
        "koa-session",
        "koa-views",
        "@fastify/cors",
        "@fastify/helmet",
        "@fastify/cookie",
        "@fastify/formbody",
        "@fastify/multipart",
        "@fastify/rate-limit",
        "@fastify/compress",
        "@fastify/sensible",
        "@fastify/jwt",
        "@fastify/auth",
        "@fastify/session",
        "fastify-plugin",
        "@fastify/env",
        "@fastify/mongodb",
        "@fastify/postgres",
        "@fastify/redis",
        # Names of the same official plugins before the @fastify scope.
        "fastify-cors",
        "fastify-env",
        "fastify-helmet",
        "fastify-jwt",
        "fastify-mongodb",
        "fastify-redis",
    }
)
EXPRESS_PASS_THROUGH = frozenset({"json", "urlencoded", "raw", "text"})
STATIC_PACKAGES = frozenset({"serve-static", "koa-static", "@fastify/static", "fastify-static"})


def use(
    host: Host,
    router: RouterValue,
    prefix: str | None,
    values: list[Value],
    where: Place,
    frame: Frame,
) -> None:
    """Middleware: mounted routers, static files, package middleware and answering functions."""
    reached = context(router, frame)
    for value in flat(values):
        if (
            isinstance(value, Wrapped)
            and isinstance(value.callee, External)
            and (_passes_through(value.callee) or _is_static(value.callee))
        ):
            # A package's middleware made from a project function (hono/logger@4.13.12
            # `logger((line) => …)` only prints with it, then awaits next): the package's
            # rule applies. Other packages keep the function as the handler, as for
            # `asyncHandler(async (req, res) => …)`.
            value = value.callee
        if isinstance(value, RouterValue):
            value.home().mounted = True
            add(router, Mount(prefix, value.home(), where, reached))
        elif isinstance(value, External):
            if _is_static(value):
                add(router, Served(prefix, "static", value.package, where, reached))
            elif not _passes_through(value):
                add(router, Served(prefix, "package", value.package, where, reached))
        elif isinstance(value, (FunctionValue, Wrapped)):
            handler = handler_of(value, router.framework)
            if handler is not None and not handler.passes_on and not _error_handler(value):
                add(router, Served(prefix, "open", "", where, reached, handler))
        elif value is not None:
            host.note("unresolved-middleware", where)


def use_under_path(
    host: Host, router: RouterValue, args: list[Value], default: str, where: Place, frame: Frame
) -> RouterValue:
    """`router.use([path], ...middleware)` (Express, @koa/router): the middleware under each
    proven path, or under `default` when the first argument is no path."""
    prefix, rest = leading_path(args, default)
    for value in paths(prefix):
        use(host, router, value, rest, where, frame)
    return router


def _is_static(value: External) -> bool:
    return (
        value.package in STATIC_PACKAGES
        or (value.package == "express" and value.path == ("static",))
        or (hono_package(value.package) and value.path[-1:] == ("serveStatic",))
    )


def _passes_through(value: External) -> bool:
    if value.package in PASS_THROUGH_PACKAGES:
        return True
    if value.package == "express" and value.path[-1:] and value.path[-1] in EXPRESS_PASS_THROUGH:
        return True
    if value.package == "@koa/router":
        return True  # allowedMethods() answers only methods the router's own paths lack
    # Hono's own middleware (hono/cors, hono/logger, …) passes requests on, serveStatic aside.
    return hono_package(value.package)


def hono_package(package: str) -> bool:
    return package == "hono" or package.startswith("@hono/")


def _error_handler(value: Value) -> bool:
    """Express error middleware `(err, req, res, next)` runs only after an error."""
    inner = value.inner if isinstance(value, Wrapped) else value
    if not isinstance(inner, FunctionValue):
        return False
    return parameter_count(inner) >= 4
