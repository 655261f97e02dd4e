"""The NestJS application object, checked against @nestjs/core 12.5.1 (tests/routes/node).

`NestFactory.create(module, [adapter], [options])` makes the application
(`routeResolutionStrategy: 'specificity'` sorts its routes);
`RouterModule.register(routes)` gives module paths; on the app,
`setGlobalPrefix(prefix, { exclude })` and `enableVersioning(options)`.
Its controllers are read by nest_controllers.py.
"""

from __future__ import annotations

from tsograph.producers.routes.node.frameworks.registration import Construction, Framework, Host
from tsograph.producers.routes.node.runtime_values import (
    UNKNOWN,
    ArrayValue,
    Frame,
    NestRoutes,
    NestSetup,
    ObjectValue,
    Place,
    RouterValue,
    Value,
)


def construct(host: Host, made: Construction) -> Value | None:
    args = made.args
    if not args:
        return None
    if made.kind == "nest-app":
        app = made.router(host, "nest", "app")
        settings = args[-1] if len(args) > 1 and isinstance(args[-1], ObjectValue) else None
        strategy = None if settings is None else settings.members.get("routeResolutionStrategy")
        preview = settings is not None and settings.members.get("preview") is True
        app.nest = NestSetup(args[0], specificity=strategy == "specificity", preview=preview)
        return app
    return NestRoutes(args[0])


def call(
    host: Host, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    if app.nest is None:
        return UNKNOWN
    _configure(host, app.nest, name, args, where)
    return app


def _configure(host: Host, nest: NestSetup, name: str, args: list[Value], where: Place) -> None:
    """`app.setGlobalPrefix(prefix, { exclude })` and `app.enableVersioning(options)`."""
    if name == "setGlobalPrefix" and args:
        nest.global_prefix = args[0] if isinstance(args[0], str) else None
        options = args[1] if len(args) > 1 else None
        if isinstance(options, ObjectValue):
            exclude = options.members.get("exclude")
            nest.exclude = list(exclude.items) if isinstance(exclude, ArrayValue) else [UNKNOWN]
        if nest.global_prefix is None:
            host.note("unresolved-global-prefix", where)
    elif name == "enableVersioning":
        options = args[0] if args else ObjectValue()
        nest.versioning = (
            options if isinstance(options, ObjectValue) else ObjectValue(complete=False)
        )


FRAMEWORK = Framework(("nest",), ("nest-app", "nest-router-module"), construct, call)
