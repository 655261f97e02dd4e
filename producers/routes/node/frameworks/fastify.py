"""Fastify 4.29.1 / 5.12.5 and fastify-plugin 4/5, checked by running them (tests/routes/node).

`Fastify({ ignoreTrailingSlash, caseSensitive })`, `METHOD(path, [options],
handler)`, `route({ method, url, handler })`, `register(plugin, { prefix })`;
a plugin wrapped in fastify-plugin registers on its parent, and its `prefix`
option is ignored.
"""

from __future__ import annotations

from tsograph.producers.routes.node.frameworks.middleware import PASS_THROUGH_PACKAGES
from tsograph.producers.routes.node.frameworks.middleware import STATIC_PACKAGES
from tsograph.producers.routes.node.frameworks.registration import CONTRACT_VERBS
from tsograph.producers.routes.node.frameworks.registration import RETURNS_SELF
from tsograph.producers.routes.node.frameworks.registration import Construction
from tsograph.producers.routes.node.frameworks.registration import Framework
from tsograph.producers.routes.node.frameworks.registration import Host
from tsograph.producers.routes.node.frameworks.registration import add
from tsograph.producers.routes.node.frameworks.registration import context
from tsograph.producers.routes.node.frameworks.registration import options_at
from tsograph.producers.routes.node.frameworks.registration import paths
from tsograph.producers.routes.node.frameworks.registration import route
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue
from tsograph.producers.routes.node.runtime_values import ModuleValue
from tsograph.producers.routes.node.runtime_values import Mount
from tsograph.producers.routes.node.runtime_values import ObjectValue
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Served
from tsograph.producers.routes.node.runtime_values import Value
from tsograph.producers.routes.node.runtime_values import Wrapped


def construct(host: Host, made: Construction) -> Value | None:
    if made.kind == "fastify-app":
        options = made.options
        router = made.router(host, "fastify", "app")
        nested = options.members.get("routerOptions")
        merged = dict(options.members)
        if isinstance(nested, ObjectValue):
            merged.update(nested.members)  # Fastify 5 reads router options from here first
        router.strict = merged.get("ignoreTrailingSlash") is not True
        router.case_sensitive = merged.get("caseSensitive") is not False
        return router
    if made.kind == "fastify-plugin" and made.args:
        plugin = made.args[0]
        if isinstance(plugin, FunctionValue):
            return Wrapped(made.function, plugin)
    return None


def call(
    host: Host, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    if name in CONTRACT_VERBS or name == "all":
        if not args:
            return app
        options = args[1] if len(args) > 2 and isinstance(args[1], ObjectValue) else None
        handler = args[-1]
        if len(args) == 2 and isinstance(args[1], ObjectValue) and "handler" in args[1].members:
            options, handler = args[1], args[1].members["handler"]
        narrowed = options is not None and "constraints" in options.members
        verb = "ALL" if name == "all" else name.upper()
        for path in paths(args[0]):
            route(host, app, (verb,), path, [handler], where, frame, narrowed=narrowed)
        return app
    if name == "route" and args and isinstance(args[0], ObjectValue):
        spec = args[0].members
        methods = paths(spec.get("method", UNKNOWN))
        url = spec.get("url", spec.get("path", UNKNOWN))
        for path in paths(url):
            for method in methods:
                if method is None:
                    host.note("unresolved-method", where)
                else:
                    route(
                        host,
                        app,
                        (method.upper(),),
                        path,
                        [spec.get("handler", UNKNOWN)],
                        where,
                        frame,
                        narrowed="constraints" in spec,
                    )
        return app
    if name == "register" and args:
        _register(host, app, args, where, frame)
        return app
    return app if name in RETURNS_SELF else UNKNOWN


def _register(host: Host, app: RouterValue, args: list[Value], where: Place, frame: Frame) -> None:
    plugin = args[0]
    options = options_at(args, 1)
    prefix_value = options.members.get("prefix", "")
    prefix = prefix_value if isinstance(prefix_value, str) else None
    if isinstance(plugin, ModuleValue):
        plugin = host.default_of(plugin)
    if isinstance(plugin, Wrapped) and isinstance(plugin.callee, External):
        if plugin.callee.package == "fastify-plugin":
            view = RouterValue(app.framework, "plugin", app.name, app.module, target=app.home())
            host.invoke(plugin.inner, [view, options], frame)
            return
        plugin = plugin.inner
    if isinstance(plugin, FunctionValue):
        child = RouterValue(app.framework, "plugin", app.name, app.home().module, mounted=True)
        child.strict, child.case_sensitive = app.strict, app.case_sensitive
        child.created_conditionally = app.home().created_conditionally
        add(app, Mount(prefix, child, where, context(app, frame)))
        host.invoke(plugin, [child, options], frame)
        return
    if isinstance(plugin, External):
        if plugin.package in STATIC_PACKAGES:
            add(app, Served(prefix, "static", plugin.package, where, context(app, frame)))
        elif plugin.package not in PASS_THROUGH_PACKAGES:
            add(app, Served(prefix, "package", plugin.package, where, context(app, frame)))
        return
    host.note("unresolved-plugin", where)


FRAMEWORK = Framework(
    ("fastify",),
    ("fastify-app", "fastify-plugin"),
    construct,
    call,
    {("fastify", ("FastifyInstance",)): ("fastify", "router")},
)
