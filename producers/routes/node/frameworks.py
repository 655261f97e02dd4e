"""What each framework's router calls do, as the interpreter sees them.

Each rule names the package version it was checked against by running it
(scratch installs, see tests/routes/node for the recorded evidence):

* Express 4.22.3 / 5.2.1: `express()` makes an app, `express.Router(options)` a
  router (`caseSensitive`, `strict`, both off by default); `METHOD/all(path,
  ...handlers)`, `route(path).METHOD(...)`, `use([path], ...routers|fns)`;
  `app.set/enable('case sensitive routing' | 'strict routing')`.
* Hono 4.13.12: `new Hono({ strict })` (strict by default, case-sensitive);
  `METHOD/all([path], ...handlers)` (no path: the chain's last path),
  `on(method|methods, path|paths, ...handlers)`; `route(prefix, sub)` copies the
  routes `sub` has at that moment (later ones are not served); `basePath(p)`
  is a view that adds routes to the same app under `p`.
* @koa/router 13.1.1 / 15.7.0 with Koa 2.16.4 / 3.2.1: `new Router({ prefix,
  strict, sensitive, exclusive, host })`, `METHOD/all([name], path, ...mw)`,
  `use([path], ...mw)` with `other.routes()`, `prefix(p)` (also for the
  routes registered before it); `app.use(router.routes())` on a Koa app.
* Fastify 4.29.1 / 5.12.5: `Fastify({ ignoreTrailingSlash, caseSensitive })`,
  `METHOD(path, [options], handler)`, `route({ method, url, handler })`,
  `register(plugin, { prefix })`; a plugin wrapped in fastify-plugin 4/5
  registers on its parent, and its `prefix` option is ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from tsograph.producers.routes.node.paths import join_prefix
from tsograph.producers.routes.node.values import (
    UNKNOWN,
    ArrayValue,
    Context,
    Entry,
    External,
    FunctionValue,
    Handler,
    ModuleValue,
    Mount,
    NestRoutes,
    NestSetup,
    ObjectValue,
    Place,
    Route,
    RouteBuilder,
    RouterValue,
    Served,
    Value,
    Wrapped,
)

if TYPE_CHECKING:
    from tsograph.producers.routes.node.interpreter import Frame, Interpreter

CONTRACT_VERBS = ("get", "post", "put", "delete", "patch", "options", "head")
# Methods Express and @koa/router take from Node's http.METHODS that the contract has no name for.
OTHER_VERBS = frozenset(
    {
        "acl",
        "bind",
        "checkout",
        "connect",
        "copy",
        "link",
        "lock",
        "m-search",
        "merge",
        "mkactivity",
        "mkcalendar",
        "mkcol",
        "move",
        "notify",
        "propfind",
        "proppatch",
        "purge",
        "query",
        "rebind",
        "report",
        "search",
        "source",
        "subscribe",
        "trace",
        "unbind",
        "unlink",
        "unlock",
        "unsubscribe",
    }
)
HONO_VERBS = ("get", "post", "put", "delete", "patch", "options")
# Index of the `next` parameter: a handler declaring it can pass the request on.
NEXT_PARAMETER = {"express": 2, "hono": 1, "koa": 1, "koa-app": 1, "fastify": 99}
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
_RETURNS_SELF = frozenset(
    {
        "listen",
        "addHook",
        "decorate",
        "decorateRequest",
        "decorateReply",
        "setNotFoundHandler",
        "setErrorHandler",
        "notFound",
        "onError",
        "after",
        "ready",
        "param",
        "engine",
        "locals",
        "addContentTypeParser",
        "setValidatorCompiler",
        "setSerializerCompiler",
    }
)


# ---- constructors -------------------------------------------------------------


def construct(
    interp: Interpreter,
    function: External,
    args: list[Value],
    node: Node,
    frame: Frame,
    *,
    new: bool,
) -> Value | None:
    """The router a framework constructor call makes, or None when it is not one."""
    package, path = function.package, function.path
    options = args[0] if args and isinstance(args[0], ObjectValue) else ObjectValue()
    if package == "express" and path == () and not new:
        return _router(interp, "express", "app", node, frame)
    if package == "express" and path == ("Router",):
        router = _router(interp, "express", "router", node, frame)
        router.case_sensitive = options.members.get("caseSensitive") is True
        router.strict = options.members.get("strict") is True
        return router
    if package.startswith("hono") and path == ("Hono",) and new:
        router = _router(interp, "hono", "app", node, frame)
        router.strict = options.members.get("strict") is not False
        router.case_sensitive = True
        return router
    if package == "fastify" and path in ((), ("default",), ("fastify",)) and not new:
        router = _router(interp, "fastify", "app", node, frame)
        nested = options.members.get("routerOptions")
        merged = dict(options.members)
        if isinstance(nested, ObjectValue):
            merged.update(nested.members)  # Fastify 5 reads router options from here first
        router.strict = merged.get("ignoreTrailingSlash") is not True
        router.case_sensitive = merged.get("caseSensitive") is not False
        return router
    if package == "koa" and path in ((), ("default",)) and new:
        return _router(interp, "koa-app", "app", node, frame)
    if package == "@koa/router" and path in ((), ("default",), ("Router",)):
        router = _router(interp, "koa", "router", node, frame)
        prefix = options.members.get("prefix")
        router.prefix = prefix if isinstance(prefix, str) else ""
        router.strict = options.members.get("strict") is True
        router.case_sensitive = options.members.get("sensitive") is True
        router.exclusive = options.members.get("exclusive") is True
        router.narrowed = "host" in options.members
        return router
    if package == "@nestjs/core" and path == ("NestFactory", "create") and args:
        # @nestjs/core 12.5.1 NestFactory.create(module, [adapter], [options]).
        app = _router(interp, "nest", "app", node, frame)
        settings = args[-1] if len(args) > 1 and isinstance(args[-1], ObjectValue) else None
        strategy = None if settings is None else settings.members.get("routeResolutionStrategy")
        app.nest = NestSetup(args[0], specificity=strategy == "specificity")
        return app
    if package == "@nestjs/core" and path == ("RouterModule", "register") and args:
        return NestRoutes(args[0])
    if package == "fastify-plugin" and path in ((), ("default",)) and args:
        plugin = args[0]
        if isinstance(plugin, FunctionValue):
            return Wrapped(function, plugin)
    return None


def _router(
    interp: Interpreter, framework: str, kind: str, node: Node, frame: Frame
) -> RouterValue:
    # The module whose top level started the code that made it: registrations from
    # another module's top level depend on import order.
    router = RouterValue(framework, kind, _created_name(frame, node), frame.top_module)
    router.created_conditionally = frame.context.conditional
    interp.routers.append(router)
    return router


# Router types a parameter annotation can name: (package, exported name) → (framework, kind).
ROUTER_TYPES = {
    ("express", ("Router",)): ("express", "router"),
    ("express", ("Express",)): ("express", "router"),
    ("express", ("Application",)): ("express", "router"),
    ("hono", ("Hono",)): ("hono", "router"),
    ("fastify", ("FastifyInstance",)): ("fastify", "router"),
    ("@koa/router", ()): ("koa", "router"),
    ("@koa/router", ("Router",)): ("koa", "router"),
}


def typed_arguments(
    interp: Interpreter, function: FunctionValue, frame: Frame, plugin: str | None
) -> list[Value]:
    """Arguments for a function nothing calls: a router for each router-typed parameter.

    A module's exported function taking an untyped `fastify` (or `app`, `server`,
    `instance`) first parameter in a Fastify project is a plugin its runner
    registers (fastify-cli `fastify start`, @fastify/autoload): that parameter is
    a Fastify instance at a place the project does not show.
    """
    params = function.node.child_by_field_name("parameters")
    args: list[Value] = []
    for position, param in enumerate([] if params is None else params.named_children):
        annotation = param.child_by_field_name("type")
        named = annotation.named_children[0] if annotation and annotation.named_children else None
        value = None if named is None else _type_value(interp, function, named)
        found = None
        if isinstance(value, External):
            found = ROUTER_TYPES.get((value.package, value.path))
        pattern = param.child_by_field_name("pattern") or param
        name = function.file.data[pattern.start_byte : pattern.end_byte].decode()
        plugin_instance = name in ("fastify", "app", "server", "instance")
        if found is None and plugin == "fastify" and position == 0 and named is None:
            found = ("fastify", "router") if plugin_instance else None
        if found is None:
            args.append(UNKNOWN)
            continue
        router = _router(interp, found[0], found[1], param, frame)
        # Its options are out of view: the framework defaults decide which paths it
        # serves (Hono and Fastify strict), and the facts claim no trailing-slash flag.
        router.strict = found[0] in ("hono", "fastify")
        router.case_sensitive = found[0] in ("hono", "fastify")
        router.options_known = False
        args.append(router)
    return args


def _type_value(interp: Interpreter, function: FunctionValue, node: Node) -> Value:
    """What a type name (`Router`, `express.Router`, `Router<T>`) refers to in scope."""
    if node.type == "generic_type" and node.named_children:
        node = node.named_children[0]
    if node.type not in ("type_identifier", "nested_type_identifier"):
        return UNKNOWN
    head, *members = function.file.data[node.start_byte : node.end_byte].decode().split(".")
    value = function.scope.lookup(head) if function.scope.has(head) else UNKNOWN
    for member in members:
        value = interp.member(value, member)
    return value


def _created_name(frame: Frame, node: Node) -> str:
    """`<file>#<variable>` when the router is assigned to a name, else `<file>:<line>`."""
    parent = node.parent
    while parent is not None and parent.type in (
        "await_expression",
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
    ):
        parent = parent.parent
    path = frame.file.facts.path
    if parent is not None and parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            return f"{path}#{frame.file.data[name.start_byte : name.end_byte].decode()}"
    return f"{path}:{frame.file.location(node.start_byte)[0]}"


# ---- handlers -------------------------------------------------------------------


def handler_of(value: Value, framework: str) -> Handler | None:
    """The code that answers: a project function's graph node, or a name outside the project."""
    if isinstance(value, Wrapped):
        value = value.inner
    if isinstance(value, FunctionValue):
        file = value.file
        start = value.node.start_byte
        usr = file.owner_at(start)
        own = any(s == start and owner == usr for s, _, owner in file.spans)
        module_id = file.facts.declarations[0].id
        unmodeled = usr == module_id or not own
        return Handler(usr, usr, _declares_next(value, framework), unmodeled)
    if isinstance(value, External):
        name = ".".join(value.path) or "default"
        return Handler(f"{value.package}#{name}", None, False)
    return None


def _declares_next(function: FunctionValue, framework: str) -> bool:
    params = function.node.child_by_field_name("parameters")
    if params is None:
        return False
    count = len([p for p in params.named_children if p.type != "comment"])
    return count > NEXT_PARAMETER.get(framework, 99)


def _flat(values: list[Value]) -> list[Value]:
    flat: list[Value] = []
    for value in values:
        if isinstance(value, ArrayValue):
            flat.extend(_flat(value.items))
        else:
            flat.append(value)
    return flat


def _paths(value: Value) -> list[str | None]:
    """The registered path(s): a literal, an array of literals; None when not proven."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, ArrayValue) and value.complete and value.items:
        return [item if isinstance(item, str) else None for item in _flat(value.items)]
    return [None]


# ---- registration -------------------------------------------------------------


def _context(router: RouterValue, frame: Frame) -> Context:
    # A registration under the same condition as the app itself (`if (START) buildServer()`)
    # exists whenever the app does; only a further condition makes it optional.
    home = router.home()
    conditional = frame.context.conditional and not home.created_conditionally
    return Context(conditional, frame.top_module != home.module)


def _add(router: RouterValue, entry: Entry) -> None:
    home = router.home()
    if home.frozen:
        return
    if router.unknown_base:
        # Below an unproven Hono base path: the entry keeps its place in the app's order
        # and sits under one unknown mount level, which makes its facts base-anchored.
        holder = RouterValue(home.framework, "router", home.name, home.module, [entry])
        holder.strict, holder.case_sensitive = home.strict, home.case_sensitive
        holder.mounted = True
        entry = Mount(None, holder, entry.place, entry.context)
    home.entries.append(entry)


# Methods that mount a router on their receiver (Express/Koa `use`, Hono `route`/`mount`,
# Fastify `register`).
MOUNT_METHODS = frozenset({"use", "route", "register", "mount"})


def mounted_by_unknown(values: list[Value]) -> None:
    """Routers handed to a mount method of a receiver the interpreter cannot evaluate.

    They are served below a prefix nothing proves, so they are not apps at the root.
    """
    for value in _flat(values):
        if isinstance(value, RouterValue):
            value.home().mounted_unknown = True


def _route(
    interp: Interpreter,
    router: RouterValue,
    methods: tuple[str, ...],
    path: str | None,
    handlers: list[Value],
    where: Place,
    frame: Frame,
    *,
    narrowed: bool = False,
) -> None:
    flat = _flat(handlers)
    handler = handler_of(flat[-1], router.framework) if flat else None
    if handler is None:
        # The route exists but has no fact without a handler to name: say so, not drop it.
        interp.note("unresolved-route-handler", where)
    if path is not None:
        path = _view_path(router, path)
    route = Route(methods, path, handler, where, _context(router, frame), narrowed)
    _add(router, route)


def _view_path(router: RouterValue, path: str) -> str:
    """The path a registration through a Hono `basePath()` view gets on the app."""
    if router.target is not None and router.prefix:
        return _join_view(router, path)
    if router.unknown_base:
        return _unknown_base_tail(path) or "/"
    return path


def _unknown_base_tail(path: str) -> str:
    """What Hono 4.13.12 `mergePath(B, path)` puts after an unknown B: `/path`, nothing for `/`."""
    return "" if path == "/" else "/" + path.removeprefix("/")


def _join_view(router: RouterValue, path: str) -> str:
    # Hono basePath views are the only views with a prefix (fastify-plugin scopes have none).
    return join_prefix("hono", router.prefix, path)


def call_method(
    interp: Interpreter,
    base: RouterValue | RouteBuilder,
    name: str,
    args: list[Value],
    arg_nodes: list[Node],
    where: Place,
    frame: Frame,
) -> Value:
    if isinstance(base, RouteBuilder):
        if name in CONTRACT_VERBS or name == "all" or name in OTHER_VERBS:
            _verb(interp, base.router, name, base.path, args, where, frame)
        return base
    framework = base.framework
    if framework == "express":
        return _express(interp, base, name, args, where, frame)
    if framework == "hono":
        return _hono(interp, base, name, args, where, frame)
    if framework == "koa":
        return _koa_router(interp, base, name, args, where, frame)
    if framework == "koa-app":
        if name == "use":
            _use(interp, base, "", args, where, frame)
        return base
    if framework == "fastify":
        return _fastify(interp, base, name, args, where, frame)
    if framework == "nest" and base.nest is not None:
        _nest_app(interp, base.nest, name, args, where)
        return base
    return UNKNOWN


def _nest_app(
    interp: Interpreter, nest: NestSetup, name: str, args: list[Value], where: Place
) -> None:
    """`app.setGlobalPrefix(prefix, { exclude })` and `app.enableVersioning(options)`."""
    if name == "setGlobalPrefix" and args:
        nest.global_prefix = args[0] if isinstance(args[0], str) else None
        options = args[1] if len(args) > 1 else None
        if isinstance(options, ObjectValue):
            exclude = options.members.get("exclude")
            nest.exclude = list(exclude.items) if isinstance(exclude, ArrayValue) else [UNKNOWN]
        if nest.global_prefix is None:
            interp.note("unresolved-global-prefix", where)
    elif name == "enableVersioning":
        options = args[0] if args else ObjectValue()
        nest.versioning = (
            options if isinstance(options, ObjectValue) else ObjectValue(complete=False)
        )


def _verb(
    interp: Interpreter,
    router: RouterValue,
    name: str,
    path: str | None,
    handlers: list[Value],
    where: Place,
    frame: Frame,
) -> None:
    method = "ALL" if name == "all" else name.upper()
    _route(interp, router, (method,), path, handlers, where, frame)


def _express(
    interp: Interpreter, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    if name in CONTRACT_VERBS or name == "all" or name in OTHER_VERBS:
        if name == "get" and len(args) == 1 and app.kind == "app":
            return UNKNOWN  # app.get(setting) reads a setting
        app.router_made = True
        if not args:
            return app
        for path in _paths(args[0]):
            _verb(interp, app, name, path, args[1:], where, frame)
        return app
    if name in ("route", "use", "param"):
        app.router_made = True
    if name == "route":
        paths = _paths(args[0]) if args else [None]
        return RouteBuilder(app, paths[0] if len(paths) == 1 else None)
    if name == "use":
        prefix: Value = "/"
        rest = args
        if args and isinstance(args[0], (str, ArrayValue)):
            prefix, rest = args[0], args[1:]
        elif len(args) > 1 and args[0] is UNKNOWN:
            prefix, rest = UNKNOWN, args[1:]  # alone, it is a middleware out of view
        for value in _paths(prefix):
            _use(interp, app, value, rest, where, frame)
        return app
    if name in ("set", "enable", "disable") and args and isinstance(args[0], str):
        if app.router_made:
            return app  # the app's router took its options when it was made
        on = name == "enable" or (name == "set" and len(args) > 1 and args[1] is True)
        if args[0] == "case sensitive routing":
            app.case_sensitive = on
        elif args[0] == "strict routing":
            app.strict = on
        return app
    return app if name in _RETURNS_SELF else UNKNOWN


def _hono(
    interp: Interpreter, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> Value:
    if name in HONO_VERBS or name == "all":
        if args and isinstance(args[0], str):
            app.last_path, handlers = args[0], args[1:]
        elif args and args[0] is UNKNOWN and len(args) > 1:
            app.last_path, handlers = None, args[1:]
        else:
            handlers = args
        path = (
            app.last_path
            if app.last_path is not None
            else ("/" if not args or not isinstance(args[0], str) else None)
        )
        _verb(interp, app, name, path, handlers, where, frame)
        return app
    if name == "on" and len(args) >= 2:
        methods = [m for m in _paths(args[0])]
        for path in _paths(args[1]):
            for method in methods:
                if method is None:
                    interp.note("unresolved-method", where)
                else:  # a method the contract has no name for becomes a scoped gap
                    _route(interp, app, (method.upper(),), path, args[2:], where, frame)
        return app
    if name == "route" and len(args) >= 2 and not isinstance(args[1], RouterValue):
        prefix = args[0] if isinstance(args[0], str) else None
        if isinstance(args[1], External):
            # A sub-app from a package: its routes are not in view, its prefix is.
            name_of = args[1].package
            served = Served(
                _view_prefix(app, prefix), "package", name_of, where, _context(app, frame)
            )
            _add(app, served)
        else:
            interp.note("unresolved-mounted-router", where)
        return app
    if name == "route" and len(args) >= 2 and isinstance(args[1], RouterValue):
        child = args[1]
        child.home().mounted = True  # a basePath view is its app
        prefix = args[0] if isinstance(args[0], str) else None
        _add(
            app,
            Mount(
                _view_prefix(app, prefix),
                child,
                where,
                _context(app, frame),
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
            view.prefix = _unknown_base_tail(prefix)
        else:
            view.prefix = _view_prefix(app, prefix) or ""
        return view
    if name == "use":
        prefix_value: Value = "*"
        rest = args
        if args and isinstance(args[0], str):
            prefix_value, rest = args[0], args[1:]
            app.last_path = prefix_value  # Hono 4.13.12 use() sets the chain's path too
        elif len(args) > 1 and args[0] is UNKNOWN:
            prefix_value, rest = UNKNOWN, args[1:]  # a path that is not proven, not `*`
        # The path is a Hono route pattern (use() adds ALL routes), joined like a route's.
        prefix = prefix_value if isinstance(prefix_value, str) else None
        _use(interp, app, _view_prefix(app, prefix), rest, where, frame)
        return app
    if name == "mount" and args:
        prefix = args[0] if isinstance(args[0], str) else None
        _add(
            app,
            Served(
                _view_prefix(app, prefix), "package", "mounted-app", where, _context(app, frame)
            ),
        )
        return app
    return app if name in _RETURNS_SELF else UNKNOWN


def _view_prefix(app: RouterValue, prefix: str | None) -> str | None:
    return None if prefix is None else _view_path(app, prefix)


def _koa_router(
    interp: Interpreter,
    router: RouterValue,
    name: str,
    args: list[Value],
    where: Place,
    frame: Frame,
) -> Value:
    if name == "del":
        name = "delete"  # @koa/router's alias
    if name in CONTRACT_VERBS or name == "all" or name in OTHER_VERBS:
        rest = args
        if len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], (str, ArrayValue)):
            rest = args[1:]  # a named route: (name, path, ...middleware)
        elif len(args) >= 3 and isinstance(args[0], str) and args[1] is UNKNOWN:
            # (name, path) or (path, middleware): @koa/router 13.1.1 decides by the type
            # of the second argument, which is not proven, so neither is the path.
            rest = [UNKNOWN, *args[2:]]
        if not rest:
            return router
        for path in _paths(rest[0]):
            _verb(interp, router, name, path, rest[1:], where, frame)
        return router
    if name == "use":
        prefix: Value = ""
        rest = args
        if args and isinstance(args[0], (str, ArrayValue)):
            prefix, rest = args[0], args[1:]
        elif len(args) > 1 and args[0] is UNKNOWN:
            prefix, rest = UNKNOWN, args[1:]  # a path that is not proven, not no path
        for value in _paths(prefix):
            _use(interp, router, value, rest, where, frame)
        return router
    if name == "prefix" and args:
        router.prefix = args[0] if isinstance(args[0], str) else router.prefix
        if not isinstance(args[0], str):
            interp.note("unresolved-router-prefix", where)
        return router
    if name in ("routes", "middleware"):
        return router
    if name == "allowedMethods":
        return External("@koa/router", ("allowedMethods",), True)
    return router if name in _RETURNS_SELF else UNKNOWN


def _fastify(
    interp: Interpreter, app: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
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
        for path in _paths(args[0]):
            _route(interp, app, (verb,), path, [handler], where, frame, narrowed=narrowed)
        return app
    if name == "route" and args and isinstance(args[0], ObjectValue):
        spec = args[0].members
        methods = _paths(spec.get("method", UNKNOWN))
        url = spec.get("url", spec.get("path", UNKNOWN))
        for path in _paths(url):
            for method in methods:
                if method is None:
                    interp.note("unresolved-method", where)
                else:
                    _route(
                        interp,
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
        _register(interp, app, args, where, frame)
        return app
    return app if name in _RETURNS_SELF else UNKNOWN


def _register(
    interp: Interpreter, app: RouterValue, args: list[Value], where: Place, frame: Frame
) -> None:
    plugin = args[0]
    options = args[1] if len(args) > 1 and isinstance(args[1], ObjectValue) else ObjectValue()
    prefix_value = options.members.get("prefix", "")
    prefix = prefix_value if isinstance(prefix_value, str) else None
    if isinstance(plugin, ModuleValue):
        plugin = interp.default_of(plugin)
    if isinstance(plugin, Wrapped) and isinstance(plugin.callee, External):
        if plugin.callee.package == "fastify-plugin":
            view = RouterValue(app.framework, "plugin", app.name, app.module, target=app.home())
            interp.invoke(plugin.inner, [view, options], frame)
            return
        plugin = plugin.inner
    if isinstance(plugin, FunctionValue):
        child = RouterValue(app.framework, "plugin", app.name, app.home().module, mounted=True)
        child.strict, child.case_sensitive = app.strict, app.case_sensitive
        child.created_conditionally = app.home().created_conditionally
        _add(app, Mount(prefix, child, where, _context(app, frame)))
        interp.invoke(plugin, [child, options], frame)
        return
    if isinstance(plugin, External):
        if plugin.package in STATIC_PACKAGES:
            _add(app, Served(prefix, "static", plugin.package, where, _context(app, frame)))
        elif plugin.package not in PASS_THROUGH_PACKAGES:
            _add(app, Served(prefix, "package", plugin.package, where, _context(app, frame)))
        return
    interp.note("unresolved-plugin", where)


def _use(
    interp: Interpreter,
    router: RouterValue,
    prefix: str | None,
    values: list[Value],
    where: Place,
    frame: Frame,
) -> None:
    """Middleware: mounted routers, static files, package middleware and answering functions."""
    context = _context(router, frame)
    for value in _flat(values):
        if isinstance(value, RouterValue):
            value.home().mounted = True
            _add(router, Mount(prefix, value.home(), where, context))
        elif isinstance(value, External):
            if _is_static(value):
                _add(router, Served(prefix, "static", value.package, where, context))
            elif not _passes_through(value):
                _add(router, Served(prefix, "package", value.package, where, context))
        elif isinstance(value, (FunctionValue, Wrapped)):
            handler = handler_of(value, router.framework)
            if handler is not None and not handler.passes_on and not _error_handler(value):
                _add(router, Served(prefix, "open", "", where, context, handler))
        elif value is not None:
            interp.note("unresolved-middleware", where)


def _is_static(value: External) -> bool:
    return (
        value.package in STATIC_PACKAGES
        or (value.package == "express" and value.path == ("static",))
        or (_hono_package(value.package) and value.path[-1:] == ("serveStatic",))
    )


def _passes_through(value: External) -> bool:
    if value.package in PASS_THROUGH_PACKAGES:
        return True
    if value.package == "express" and value.path[-1:] and value.path[-1] in EXPRESS_PASS_THROUGH:
        return True
    if value.package == "@koa/router":
        return True  # allowedMethods() answers only methods the router's own paths lack
    # Hono's own middleware (hono/cors, hono/logger, …) passes requests on, serveStatic aside.
    return _hono_package(value.package)


def _hono_package(package: str) -> bool:
    return package == "hono" or package.startswith("@hono/")


def _error_handler(value: Value) -> bool:
    """Express error middleware `(err, req, res, next)` runs only after an error."""
    inner = value.inner if isinstance(value, Wrapped) else value
    if not isinstance(inner, FunctionValue):
        return False
    params = inner.node.child_by_field_name("parameters")
    return (
        params is not None and len([p for p in params.named_children if p.type != "comment"]) >= 4
    )
