"""Express 4.22.3 / 5.2.1, checked by running them (scratch installs; tests/routes/node).

`express()` makes an app, `express.Router(options)` a router (`caseSensitive`,
`strict`, both off by default); `METHOD/all(path, ...handlers)`,
`route(path).METHOD(...)`, `use([path], ...routers|fns)`;
`app.set/enable('case sensitive routing' | 'strict routing')`.
"""

from __future__ import annotations

from tsograph.producers.routes.node.frameworks.middleware import use_under_path
from tsograph.producers.routes.node.frameworks.registration import RETURNS_SELF
from tsograph.producers.routes.node.frameworks.registration import ROUTER_METHODS
from tsograph.producers.routes.node.frameworks.registration import Construction
from tsograph.producers.routes.node.frameworks.registration import Framework
from tsograph.producers.routes.node.frameworks.registration import Host
from tsograph.producers.routes.node.frameworks.registration import paths
from tsograph.producers.routes.node.frameworks.registration import verbs
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouteBuilder
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Value


def construct(host: Host, made: Construction) -> Value | None:
    if made.kind == "express-app":
        return made.router(host, "express", "app")
    options = made.options
    router = made.router(host, "express", "router")
    router.case_sensitive = options.members.get("caseSensitive") is True
    router.strict = options.members.get("strict") is True
    return router


def call(
    host: Host, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    if name in ROUTER_METHODS:
        if name == "get" and len(args) == 1 and app.kind == "app":
            return UNKNOWN  # app.get(setting) reads a setting
        app.router_made = True
        return verbs(host, app, name, args, where, frame)
    if name in ("route", "use", "param"):
        app.router_made = True
    if name == "route":
        found = paths(args[0]) if args else [None]
        return RouteBuilder(app, found[0] if len(found) == 1 else None)
    if name == "use":
        return use_under_path(host, app, args, "/", where, frame)
    if name in ("set", "enable", "disable") and args and isinstance(args[0], str):
        if app.router_made:
            return app  # the app's router took its options when it was made
        on = name == "enable" or (name == "set" and len(args) > 1 and args[1] is True)
        if args[0] == "case sensitive routing":
            app.case_sensitive = on
        elif args[0] == "strict routing":
            app.strict = on
        return app
    return app if name in RETURNS_SELF else UNKNOWN


FRAMEWORK = Framework(
    ("express",),
    ("express-app", "express-router"),
    construct,
    call,
    {
        ("express", ("Router",)): ("express", "router"),
        ("express", ("Express",)): ("express", "router"),
        ("express", ("Application",)): ("express", "router"),
    },
)
