"""Koa 2.16.4 / 3.2.1 with @koa/router 13.1.1 / 15.7.0, checked by running them (tests/routes/node).

`new Router({ prefix, strict, sensitive, exclusive, host })`,
`METHOD/all([name], path, ...mw)`, `use([path], ...mw)` with `other.routes()`,
`prefix(p)` (also for the routes registered before it);
`app.use(router.routes())` on a Koa app.
"""

from __future__ import annotations

from tsograph.producers.routes.node.frameworks.middleware import use
from tsograph.producers.routes.node.frameworks.middleware import use_under_path
from tsograph.producers.routes.node.frameworks.registration import RETURNS_SELF
from tsograph.producers.routes.node.frameworks.registration import ROUTER_METHODS
from tsograph.producers.routes.node.frameworks.registration import Construction
from tsograph.producers.routes.node.frameworks.registration import Framework
from tsograph.producers.routes.node.frameworks.registration import Host
from tsograph.producers.routes.node.frameworks.registration import verbs
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import ArrayValue
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Value


def construct(host: Host, made: Construction) -> Value | None:
    if made.kind == "koa-app":
        return made.router(host, "koa-app", "app")
    if made.kind == "koa-router":
        options = made.options
        router = made.router(host, "koa", "router")
        prefix = options.members.get("prefix")
        router.prefix = prefix if isinstance(prefix, str) else ""
        router.strict = options.members.get("strict") is True
        router.case_sensitive = options.members.get("sensitive") is True
        router.exclusive = options.members.get("exclusive") is True
        router.narrowed = "host" in options.members
        return router
    return None


def call(
    host: Host, router: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    if router.framework == "koa-app":
        if name == "use":
            use(host, router, "", args, where, frame)
        return router
    return _koa_router(host, router, name, args, where, frame)


def _koa_router(
    host: Host,
    router: RouterValue,
    name: str,
    args: list[Value],
    where: Place,
    frame: Frame,
) -> Value:
    if name == "del":
        name = "delete"  # @koa/router's alias
    if name in ROUTER_METHODS:
        rest = args
        if len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], (str, ArrayValue)):
            rest = args[1:]  # a named route: (name, path, ...middleware)
        elif len(args) >= 3 and isinstance(args[0], str) and args[1] is UNKNOWN:
            # (name, path) or (path, middleware): @koa/router 13.1.1 decides by the type
            # of the second argument, which is not proven, so neither is the path.
            rest = [UNKNOWN, *args[2:]]
        return verbs(host, router, name, rest, where, frame)
    if name == "use":
        return use_under_path(host, router, args, "", where, frame)
    if name == "prefix" and args:
        router.prefix = args[0] if isinstance(args[0], str) else router.prefix
        if not isinstance(args[0], str):
            host.note("unresolved-router-prefix", where)
        return router
    if name in ("routes", "middleware"):
        return router
    if name == "allowedMethods":
        return External("@koa/router", ("allowedMethods",), True)
    return router if name in RETURNS_SELF else UNKNOWN


FRAMEWORK = Framework(
    ("koa", "koa-app"),
    ("koa-app", "koa-router"),
    construct,
    call,
    {("@koa/router", ()): ("koa", "router"), ("@koa/router", ("Router",)): ("koa", "router")},
)
