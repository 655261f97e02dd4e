"""What every framework's router calls share: making routers, naming handlers, adding entries.

The framework modules beside this one (express, hono, koa, fastify, nest)
decide what a call means; the entries they add (routes, mounts, served
prefixes) and the handlers they name are built here, the same way for all.
They reach the interpreter only through `Host`, so no framework module
imports the interpreter.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Protocol

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.node.paths import join_prefix
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import ArrayValue
from tsograph.producers.routes.node.runtime_values import Context
from tsograph.producers.routes.node.runtime_values import Entry
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue
from tsograph.producers.routes.node.runtime_values import Handler
from tsograph.producers.routes.node.runtime_values import Mount
from tsograph.producers.routes.node.runtime_values import ObjectValue
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import Route
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Value
from tsograph.producers.routes.node.runtime_values import Wrapped

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
# What registers a route on an Express router or a @koa/router: a method name of Node's
# http.METHODS in lower case, or `all`.
ROUTER_METHODS = frozenset({*CONTRACT_VERBS, "all", *OTHER_VERBS})
# Index of the `next` parameter: a handler declaring it can pass the request on.
NEXT_PARAMETER = {"express": 2, "hono": 1, "koa": 1, "koa-app": 1, "fastify": 99}
RETURNS_SELF = frozenset(
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
# Casts a router's variable is found through (`const app = express() as Express`), as
# before the neutral form: `!` and `<T>x` were not among them.
_NAMING_CASTS = frozenset({"as", "as const", "satisfies"})


class Host(Protocol):
    """What a framework rule asks of the interpreter running the code."""

    routers: list[RouterValue]

    def note(self, reason: str, place: Place | None = None) -> None: ...

    def place(self, file: SyntaxFile, node: Node) -> Place: ...

    def member(self, base: Value, name: str) -> Value: ...

    def invoke(self, function: FunctionValue, args: list[Value], frame: Frame) -> Value: ...

    def default_of(self, target: Value) -> Value: ...


@dataclass(frozen=True)
class Construction:
    """A call or `new` of a package export that the provenance table proved makes `kind`."""

    kind: str  # a kind of producers/values/provenance.py (`express-router`, `hono`, …)
    function: External
    args: list[Value]
    node: Node
    frame: Frame

    @property
    def options(self) -> ObjectValue:
        """The options object of the first argument (empty when there is none)."""
        return options_at(self.args, 0)

    def router(self, host: Host, framework: str, kind: str) -> RouterValue:
        return new_router(host, framework, kind, self.node, self.frame)


# (host, the construction): the router or value made, or None when the arguments do not
# make one.
Constructor = Callable[[Host, Construction], Value | None]
# (host, the router, method name, arguments, where, frame): what the call returns.
MethodCall = Callable[[Host, RouterValue, str, list[Value], Place, Frame], Value]


@dataclass(frozen=True)
class Framework:
    """One framework's rules, as the table in frameworks/__init__.py lists them."""

    routers: tuple[str, ...]  # the RouterValue.framework names whose calls it answers
    makes: tuple[str, ...]  # the provenance kinds (producers/values/provenance.py) it constructs
    construct: Constructor
    call: MethodCall
    # Router types a parameter annotation can name: (package, exported name) → (framework, kind).
    router_types: Mapping[tuple[str, tuple[str, ...]], tuple[str, str]] = field(
        default_factory=dict
    )


# ---- routers ------------------------------------------------------------------


def new_router(host: Host, framework: str, kind: str, node: Node, frame: Frame) -> RouterValue:
    # The module whose top level started the code that made it: registrations from
    # another module's top level depend on import order.
    router = RouterValue(framework, kind, router_name(frame, node), frame.top_module)
    router.created_conditionally = frame.context.conditional
    host.routers.append(router)
    return router


def router_name(frame: Frame, node: Node) -> str:
    """`<file>#<variable>` when the router is assigned to a name, else `<file>:<line>`."""
    parent = node.parent
    while parent is not None and (
        parent.kind == "await" or (parent.kind == "cast" and parent.value in _NAMING_CASTS)
    ):
        parent = parent.parent
    path = frame.file.facts.path
    if parent is not None and parent.kind == "declarator":
        name = parent.part("name")
        if name is not None and name.kind == "identifier":
            return f"{path}#{name.value}"
    return f"{path}:{frame.file.location(node.start)[0]}"


# ---- handlers -------------------------------------------------------------------


def handler_of(value: Value, framework: str) -> Handler | None:
    """The code that answers: a project function's graph node, or a name outside the project."""
    if isinstance(value, Wrapped):
        value = value.inner
    if isinstance(value, FunctionValue):
        file = value.file
        start = value.node.start
        usr = file.owner_at(start)
        own = any(s == start and owner == usr for s, _, owner in file.spans)
        module_id = file.facts.declarations[0].id
        unmodeled = usr == module_id or not own
        return Handler(usr, usr, _declares_next(value, framework), unmodeled)
    if isinstance(value, External):
        name = ".".join(value.path) or "default"
        return Handler(f"{value.package}#{name}", None, False)
    return None


def parameter_count(function: FunctionValue) -> int:
    params = function.node.part("parameters")
    return 0 if params is None else len(params.items)


def _declares_next(function: FunctionValue, framework: str) -> bool:
    return parameter_count(function) > NEXT_PARAMETER.get(framework, 99)


def flat(values: list[Value]) -> list[Value]:
    found: list[Value] = []
    for value in values:
        if isinstance(value, ArrayValue):
            found.extend(flat(value.items))
        else:
            found.append(value)
    return found


def options_at(args: list[Value], index: int) -> ObjectValue:
    """The options object passed at `index`; an empty one when it is absent or not an object."""
    value = args[index] if len(args) > index else None
    return value if isinstance(value, ObjectValue) else ObjectValue()


def leading_path(
    args: list[Value], default: Value, kinds: tuple[type, ...] = (str, ArrayValue)
) -> tuple[Value, list[Value]]:
    """`use([path], ...rest)`: the path argument and the rest, or `default` and all arguments.

    An unknown first argument with more after it is a path that is not proven, not no path;
    alone, it is a middleware out of view.
    """
    if args and isinstance(args[0], kinds):
        return args[0], args[1:]
    if len(args) > 1 and args[0] is UNKNOWN:
        return UNKNOWN, args[1:]
    return default, args


def paths(value: Value) -> list[str | None]:
    """The registered path(s): a literal, an array of literals; None when not proven."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, ArrayValue) and value.complete and value.items:
        return [item if isinstance(item, str) else None for item in flat(value.items)]
    return [None]


# ---- registration -------------------------------------------------------------


def context(router: RouterValue, frame: Frame) -> Context:
    # A registration under the same condition as the app itself (`if (START) buildServer()`)
    # exists whenever the app does; only a further condition makes it optional.
    home = router.home()
    conditional = frame.context.conditional and not home.created_conditionally
    return Context(conditional, frame.top_module != home.module)


def add(router: RouterValue, entry: Entry) -> None:
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
    for value in flat(values):
        if isinstance(value, RouterValue):
            value.home().mounted_unknown = True


def route(
    host: Host,
    router: RouterValue,
    methods: tuple[str, ...],
    path: str | None,
    handlers: list[Value],
    where: Place,
    frame: Frame,
    *,
    narrowed: bool = False,
) -> None:
    found = flat(handlers)
    handler = handler_of(found[-1], router.framework) if found else None
    if handler is None:
        # The route exists but has no fact without a handler to name: say so, not drop it.
        host.note("unresolved-route-handler", where)
    if path is not None:
        path = view_path(router, path)
    add(router, Route(methods, path, handler, where, context(router, frame), narrowed))


def verb(
    host: Host,
    router: RouterValue,
    name: str,
    path: str | None,
    handlers: list[Value],
    where: Place,
    frame: Frame,
) -> None:
    method = "ALL" if name == "all" else name.upper()
    route(host, router, (method,), path, handlers, where, frame)


def verbs(
    host: Host, router: RouterValue, name: str, args: list[Value], where: Place, frame: Frame
) -> RouterValue:
    """`router.get(path, ...handlers)` (Express, @koa/router): one route per proven path
    (a path array gives several); a call without arguments registers nothing."""
    if args:
        for path in paths(args[0]):
            verb(host, router, name, path, args[1:], where, frame)
    return router


def view_path(router: RouterValue, path: str) -> str:
    """The path a registration through a Hono `basePath()` view gets on the app."""
    if router.target is not None and router.prefix:
        # Hono basePath views are the only views with a prefix (fastify-plugin scopes have none).
        return join_prefix("hono", router.prefix, path)
    if router.unknown_base:
        return unknown_base_tail(path) or "/"
    return path


def view_prefix(app: RouterValue, prefix: str | None) -> str | None:
    return None if prefix is None else view_path(app, prefix)


def unknown_base_tail(path: str) -> str:
    """What Hono 4.13.12 `mergePath(B, path)` puts after an unknown B: `/path`, nothing for `/`."""
    return "" if path == "/" else "/" + path.removeprefix("/")
