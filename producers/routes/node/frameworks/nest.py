"""The NestJS application object, checked against @nestjs/core 12.5.1 (tests/routes/node).

`NestFactory.create(module, [adapter], [options])` makes the application
(`routeResolutionStrategy: 'specificity'` sorts its routes);
`RouterModule.register(routes)` gives module paths; on the app,
`setGlobalPrefix(prefix, { exclude })` and `enableVersioning(options)`.
Its controllers are read by nest_controllers.py. `app.use(…)` hands its
arguments to the HTTP adapter's `use` (@nestjs/core 11.2.10,
nest-application.js), read as Express middleware is; `useStaticAssets(path,
{ prefix })` serves files under `prefix`, else `/` (platform-express 11,
express-adapter.js: `use(prefix, express.static(path))`). What a package or
the static files answer is named as framework-provided; a project function or
router given to `use` answers outside the controllers this reader emits, so it
is counted, not read as routes (backend_scan.py).

`SwaggerModule.setup(path, app, document, options)` (@nestjs/swagger 11.4.7,
dist/swagger-module.js) serves the UI under `/path` and the document at
`/path-json` and `/path-yaml`, outside the global prefix; the options
`useGlobalPrefix`, `jsonDocumentUrl` and `yamlDocumentUrl` move them. These are
the package's routes, not the project's: they are named as framework-provided,
never facts.
"""

from __future__ import annotations

from tsograph.producers.routes.node.frameworks.middleware import use_under_path
from tsograph.producers.routes.node.frameworks.registration import Construction
from tsograph.producers.routes.node.frameworks.registration import Framework
from tsograph.producers.routes.node.frameworks.registration import Host
from tsograph.producers.routes.node.frameworks.registration import add
from tsograph.producers.routes.node.frameworks.registration import context
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import ArrayValue
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import NestRoutes
from tsograph.producers.routes.node.runtime_values import NestSetup
from tsograph.producers.routes.node.runtime_values import ObjectValue
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Served
from tsograph.producers.routes.node.runtime_values import Value

SWAGGER = "@nestjs/swagger"
# Options of SwaggerModule.setup that move what it serves.
_SWAGGER_PLACES = ("useGlobalPrefix", "jsonDocumentUrl", "yamlDocumentUrl")


def construct(host: Host, made: Construction) -> Value | None:
    args = made.args
    if not args:
        return None
    if made.kind == "nest-swagger":
        _swagger(host, made)
        return UNKNOWN
    if made.kind == "nest-app":
        app = made.router(host, "nest", "app")
        settings = args[-1] if len(args) > 1 and isinstance(args[-1], ObjectValue) else None
        strategy = None if settings is None else settings.members.get("routeResolutionStrategy")
        preview = settings is not None and settings.members.get("preview") is True
        app.nest = NestSetup(args[0], specificity=strategy == "specificity", preview=preview)
        return app
    return NestRoutes(args[0])


def _swagger(host: Host, made: Construction) -> None:
    """The prefixes SwaggerModule.setup serves under, on the app it is given (None: not
    proven, so the line says an unresolved prefix)."""
    app = made.args[1] if len(made.args) > 1 else None
    if not isinstance(app, RouterValue) or app.nest is None:
        return
    path = made.args[0]
    options = _proven_options(made.args, 3)
    prefixes: list[str | None] = [None]
    if (
        isinstance(path, str)
        and options is not None
        and options.members.keys().isdisjoint(_SWAGGER_PLACES)
    ):
        base = path if path.startswith("/") else "/" + path  # the package's validatePath
        prefixes = [base, f"{base}-json", f"{base}-yaml"]
    where = host.place(made.frame.file, made.node)
    for prefix in prefixes:
        add(app, Served(prefix, "package", SWAGGER, where, context(app, made.frame)))


def _proven_options(args: list[Value], index: int) -> ObjectValue | None:
    """The options object at `index` (an empty one when absent); None when something is
    passed whose members are not all known, so any option may be set."""
    value = args[index] if len(args) > index else ObjectValue()
    return value if isinstance(value, ObjectValue) and value.complete else None


def call(
    host: Host, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    if app.nest is None:
        return UNKNOWN
    if name == "use":
        return use_under_path(host, app, args, "/", where, frame)
    if name == "useStaticAssets":
        options = _proven_options(args, 1)
        given = None if options is None else options.members.get("prefix", "/")
        prefix = given if isinstance(given, str) else None
        add(app, Served(prefix, "static", "useStaticAssets", where, context(app, frame)))
        return app
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


FRAMEWORK = Framework(
    ("nest",), ("nest-app", "nest-router-module", "nest-swagger"), construct, call
)
