"""The values the route interpreter tracks while it reads a Node backend without running it.

Only what routing depends on is modelled: literals, objects and arrays built
from them, functions and classes of the project (with the scope they close
over), names from outside packages, and the routers themselves. Everything
else is `UNKNOWN`, which the interpreter never guesses past.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Union

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values.unknown import UNKNOWN
from tsograph.producers.values.unknown import Unknown

__all__ = ["UNKNOWN"]


@dataclass(eq=False)
class ObjectValue:
    members: dict[str, Value] = field(default_factory=dict)
    complete: bool = True  # False when a spread or computed key could add members


@dataclass(eq=False)
class ArrayValue:
    items: list[Value] = field(default_factory=list)
    complete: bool = True


@dataclass(eq=False)
class FunctionValue:
    file: SyntaxFile
    node: Node  # a `function` node: declaration, expression, arrow or method
    scope: Scope


@dataclass(eq=False)
class ClassValue:
    file: SyntaxFile
    node: Node  # a `class` node
    scope: Scope


@dataclass(frozen=True)
class External:
    """A name from an outside package: `express`, `express.Router`, `cors()` (called)."""

    package: str
    path: tuple[str, ...] = ()
    called: bool = False

    def member(self, name: str) -> External:
        return External(self.package, (*self.path, name), self.called)


@dataclass(eq=False)
class ModuleValue:
    """A project module's exports (a namespace import or a `require` result)."""

    path: str
    exports: dict[str, Value]
    commonjs: Value | None = None  # what `module.exports =` assigned, when it did


@dataclass(eq=False)
class Wrapped:
    """A call whose result the interpreter cannot see, kept for the function inside it.

    `asyncHandler(async (req, res) => …)` answers with the inner function, so the
    handler body is the function argument.
    """

    callee: Value
    inner: FunctionValue


Value = Union[
    str,
    int,
    float,
    bool,
    None,
    Unknown,
    ObjectValue,
    ArrayValue,
    FunctionValue,
    ClassValue,
    External,
    ModuleValue,
    Wrapped,
    "RouterValue",
    "RouteBuilder",
    "NestRoutes",
]


@dataclass(eq=False)
class Scope:
    """Lexical names of one module, function or block."""

    names: dict[str, Value] = field(default_factory=dict)
    parent: Scope | None = None

    def holder(self, name: str) -> Scope | None:
        """The innermost scope declaring `name`, this one or an enclosing one."""
        scope: Scope | None = self
        while scope is not None and name not in scope.names:
            scope = scope.parent
        return scope

    def lookup(self, name: str) -> Value | None:
        scope = self.holder(name)
        return None if scope is None else scope.names[name]

    def has(self, name: str) -> bool:
        return self.holder(name) is not None

    def assign(self, name: str, value: Value) -> None:
        scope = self.holder(name)
        if scope is not None:
            scope.names[name] = value


@dataclass(frozen=True, slots=True)
class Place:
    """A project-relative location: 1-based line and UTF-8 byte column."""

    path: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Handler:
    """The code that answers a route: a graph node id, or a name outside the project."""

    qualified: str
    usr: str | None
    passes_on: bool  # declares a `next` parameter, so a later registration may answer
    unmodeled: bool = False  # an inline function without a graph node of its own


@dataclass(frozen=True, slots=True)
class Context:
    """How a registration was reached: under a condition, or from another module's top level."""

    conditional: bool = False
    out_of_module: bool = False


@dataclass(eq=False)
class Route:
    methods: tuple[str, ...]  # upper case; "ALL" for every method
    path: str | None  # None: not a literal the interpreter could prove
    handler: Handler | None
    place: Place
    context: Context
    narrowed: bool = False
    unordered: tuple[str, ...] = ()  # why the framework may not try it in order (NestJS filters)


@dataclass(eq=False)
class Mount:
    prefix: str | None  # None: not proven
    child: RouterValue
    place: Place
    context: Context
    snapshot: list[Entry] | None = None  # Hono `route()` copies the routes present then


@dataclass(eq=False)
class Served:
    """Middleware that answers requests by itself under a prefix (static files, packages)."""

    prefix: str | None
    kind: str  # "static" | "package" | "open"
    name: str
    place: Place
    context: Context
    handler: Handler | None = None


Entry = Route | Mount | Served


@dataclass(eq=False)
class RouterValue:
    """An app, router, plugin instance or controller that routes are registered on."""

    framework: str  # express | hono | koa | fastify | koa-app
    kind: str  # app | router | plugin
    name: str  # where it was created, used as the order group of a root
    module: str
    entries: list[Entry] = field(default_factory=list)
    strict: bool = False  # trailing slash must match exactly
    case_sensitive: bool = False
    # False for a router known only by a type or a runner's parameter: the options it
    # was created with are not in view, so no trailing-slash flag is claimed for it.
    options_known: bool = True
    exclusive: bool = False
    narrowed: bool = False  # @koa/router `host`: only some hosts reach its routes
    prefix: str = ""  # @koa/router prefix, Hono basePath, Fastify plugin prefix
    target: RouterValue | None = None  # Hono basePath views and Fastify fastify-plugin scopes
    mounted: bool = False
    # Handed to `use`/`route`/`register`/`mount` on a receiver the interpreter cannot
    # evaluate: served somewhere below a prefix nothing proves.
    mounted_unknown: bool = False
    # A Hono `basePath(p)` view whose `p` is not proven: what it registers sits below an
    # unknown prefix, followed by the view's known `prefix` tail.
    unknown_base: bool = False
    created_conditionally: bool = False  # then only conditions beyond that one count
    frozen: bool = False  # takes no registrations while functions nothing calls run
    # Express makes an app's router at its first use/route/METHOD call (4.22.3 lazyrouter,
    # 5.2.1 the `router` getter) with the routing settings of that moment.
    router_made: bool = False
    # Hono chains (`app.get('/a', h).post(h2)`): the path a handler-only call uses; None is
    # a path that is not proven. A new app or basePath() clone starts at "/".
    last_path: str | None = "/"
    nest: NestSetup | None = None  # the application NestFactory.create made

    def home(self) -> RouterValue:
        return self if self.target is None else self.target.home()


@dataclass(eq=False)
class NestSetup:
    """What `NestFactory.create(AppModule)` and the calls on the app configure."""

    root_module: Value
    global_prefix: str | None = ""  # None: not a literal
    exclude: list[Value] = field(default_factory=list)
    versioning: ObjectValue | None = None
    specificity: bool = False  # routeResolutionStrategy: 'specificity'
    # `{ preview: true }`: @nestjs/core 11.2.10 throws on listen() in preview mode (a spec
    # generator's app), so the app serves nothing.
    preview: bool = False


@dataclass(eq=False)
class NestRoutes:
    """`RouterModule.register(routes)`: module paths of @nestjs/core's RouterModule."""

    routes: Value


@dataclass
class Frame:
    """Where code runs: its file and module, how it was reached, and what it returned."""

    file: SyntaxFile
    module: ModuleValue
    context: Context
    top_module: str  # the module whose top level started this chain of calls
    returned: Value = None
    done: bool = False


@dataclass(eq=False)
class RouteBuilder:
    """Express `app.route(path)`: method calls on it register that path."""

    router: RouterValue
    path: str | None
