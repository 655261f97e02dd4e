"""Flask: apps, blueprints, their rules and class-based views.

Rules read from flask 3.1.3 (flask/sansio/scaffold.py, sansio/app.py,
sansio/blueprints.py, views.py) and werkzeug 3.1.9, and replayed from
oracle/recordings/python-routes/ (oracle/python-routes/):

* `Flask()` and `Blueprint()` are proven only through an import of `flask`.
* `route(rule, methods=…)` and `add_url_rule(rule, endpoint, view_func,
  methods=…)` default to GET; `get`/`post`/`put`/`delete`/`patch(rule)`
  register one method. Werkzeug answers HEAD for every GET rule and Flask
  answers OPTIONS for every rule (`provide_automatic_options`); like the Node
  producers, these automatic answers are no facts of their own.
* A blueprint's rules are added when it is registered: the url_prefix is
  register_blueprint's `url_prefix`, else the blueprint's own; a rule joins
  it as `prefix.rstrip("/") + "/" + rule.lstrip("/")` (the prefix alone for
  an empty rule). A blueprint registered inside another joins the outer
  state's prefix the same way (`Blueprint.register`). A blueprint registered
  twice serves its rules under both prefixes.
* `strict_slashes` (default True): a rule ending in `/` redirects the form
  without it (308), a rule without one answers 404 for the form with it;
  False answers both.
* Werkzeug matches by specificity (static parts before variables), not in
  registration order: Flask documents declare `dispatch: "specificity"`.
* Flask-RESTful 0.3.10 `Api.add_resource` (see `RestfulApi`): each url a
  rule answered as the resource's MethodView answers. A project subclass of
  `Api` (redash's `ApiExt`) is the library's Api for what it does not define
  (checked with flask 3.1.3 and flask-restful 0.3.10: a subclass method's
  `self.add_resource(resource, *urls, **kwargs)` registers like a direct
  call); an Api no running code binds to an app is read as a router nothing
  includes (under an unknown prefix, like a blueprint nothing registers).
* A rule given by a helper that returns one of several values (redash's
  `org_scoped_rule`: `/<org_slug>` + rule under a setting, else the rule) is
  registered once per value, each under a condition: which one the app
  serves depends on the setting (checked with both settings on flask 3.1.3).
* `MethodView` subclasses answer the HTTP methods they define (`get`,
  `post`, …, also through project base classes); a `View` subclass answers
  its `methods` (GET by default) with `dispatch_request`.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_server.argument_values import Args
from tsograph.producers.routes.python_server.emit import Joins
from tsograph.producers.routes.python_server.interpreter import Context
from tsograph.producers.routes.python_server.interpreter import Interpreter
from tsograph.producers.routes.python_server.interpreter_values import Class
from tsograph.producers.routes.python_server.interpreter_values import External
from tsograph.producers.routes.python_server.interpreter_values import Function
from tsograph.producers.routes.python_server.interpreter_values import Handler
from tsograph.producers.routes.python_server.interpreter_values import Include
from tsograph.producers.routes.python_server.interpreter_values import Mount
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.interpreter_values import Route
from tsograph.producers.routes.python_server.interpreter_values import Router
from tsograph.producers.routes.python_server.interpreter_values import inherited_attribute
from tsograph.producers.routes.python_server.registration import RouteDecorators
from tsograph.producers.routes.python_server.registration import as_texts
from tsograph.producers.routes.python_server.registration import group_name
from tsograph.producers.routes.python_server.registration import http_method_names
from tsograph.producers.routes.python_server.registration import methods_argument
from tsograph.producers.routes.python_server.registration import name_node
from tsograph.producers.routes.python_server.registration import text_argument
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import text
from tsograph.producers.values.unknown import UNKNOWN

APP_CONSTRUCTORS = frozenset({"flask.Flask", "flask.app.Flask"})
BLUEPRINT_CONSTRUCTORS = frozenset({"flask.Blueprint", "flask.blueprints.Blueprint"})
# flask_restful 0.3.10: `class Resource(MethodView)`, its dispatch_request as MethodView's.
METHOD_VIEWS = frozenset({"flask.views.MethodView", "flask_restful.Resource"})
RESTFUL_APIS = frozenset({"flask_restful.Api"})
VIEWS = frozenset({"flask.views.View"})
METHOD_DECORATORS = ("get", "post", "put", "delete", "patch")
HTTP_METHOD_FUNCS = ("get", "post", "head", "options", "delete", "put", "trace", "patch")
KINDS = frozenset({"flask-app", "blueprint"})
BLUEPRINTS = frozenset({"blueprint"})


@dataclass(frozen=True)
class RuleDecorator:
    router: Router
    methods: tuple[str, ...] | None  # None: not given (GET); (): not proven
    # One rule, or one of several (a helper's conditional returns): each then a
    # registration under a condition.
    rules: tuple[Text, ...]
    strict_slashes: bool | None
    node: Node
    conditional: bool


@dataclass(eq=False)
class RestfulApi:
    """A flask_restful `Api` (0.3.10 __init__.py): resources added before it is bound to
    an app wait in `pending`; `init_app(app)` registers them, and `add_resource` on an
    Api made with `Api(app)` registers at once. Resources added after `init_app` are
    never registered (`self.app` stays None)."""

    prefix: Text
    name: str  # the variable or code that made it (see `group_name`)
    place: Place
    target: Router | None = None
    bound: bool = False  # init_app ran: later add_resource calls are never registered
    pending: list[tuple[Class | None, list[tuple[Text, ...]], Args, Node, Context]] = field(
        default_factory=list
    )


@dataclass(frozen=True)
class ViewFunction:
    """`SomeView.as_view("name")`: the class answers the request."""

    view: Class


class FlaskFramework(RouteDecorators):
    decorator_type = RuleDecorator

    def __init__(self, interp: Interpreter) -> None:
        super().__init__(interp)
        self.apis: list[RestfulApi] = []

    def finish(self) -> None:
        """An Api no code that runs binds to an app (redash binds it in an `init_app(app)`
        only its app factory calls): its resources are a router nothing includes, read
        under an unknown prefix like a blueprint nothing registers."""
        for api in self.apis:
            if api.bound or not api.pending:
                continue
            router = Router("restful-api", api.name, api.place)
            self.interp.routers.append(router)
            for cls, urls, args, at, made in api.pending:
                self._resource(api, router, cls, urls, args, at, made)
                self.interp.consumed.add((made.file.path, at.start))
            api.pending.clear()

    def construct(self, name: str, args: Args, ctx: Context, node: Node) -> Any | None:
        place = self.interp.place(ctx.file, node)
        if name in APP_CONSTRUCTORS:
            app = Router("flask-app", group_name(node, ctx), place)
            given = args.get(-1, "static_folder") is not None or args.get(-1, "static_url_path")
            if given or args.open:
                app.entries.append(Mount(place, False, UNKNOWN_TEXT, None, "a static folder"))
            else:
                # Flask 3.1.3 (app.py, Flask.__init__) adds `/static/<path:filename>` whenever
                # static_folder is set, "static" by default, without checking that the
                # folder exists.
                app.entries.append(Mount(place, False, text("/static"), None, "a static folder"))
            return app
        if name in RESTFUL_APIS:
            api_prefix = UNKNOWN_TEXT if args.open else text_argument(args, 1, "prefix", text(""))
            api = RestfulApi(api_prefix, group_name(node, ctx), place)
            self.apis.append(api)
            bound = args.get(0, "app")
            if bound is not None:
                self._bind(api, bound[0], ctx, node)
                if isinstance(bound[0], Router) and bound[0].kind == "flask-app":
                    api.target = bound[0]  # `self.app = app`: later resources register at once
            return api
        if name in BLUEPRINT_CONSTRUCTORS:
            prefix = text_argument(args, 5, "url_prefix", None)
            if args.open:
                prefix = UNKNOWN_TEXT
            return Router("blueprint", group_name(node, ctx), place, prefix)
        return None

    def class_method(self, view: Class, name: str, args: Args, ctx: Context) -> Any | None:
        if name == "as_view" and _view_kind(view) is not None:
            return ViewFunction(view)
        return None

    def method(self, router: Router, name: str, args: Args, ctx: Context, node: Node) -> Any | None:
        if router.kind not in KINDS:
            return None
        at = name_node(node)
        if name == "route":
            return self._decorator(router, _methods(args), args, ctx, at)
        if name == "register_error_handler" or name == "errorhandler":
            return None
        if name in METHOD_DECORATORS:
            return self._decorator(router, (name.upper(),), args, ctx, at)
        if name == "add_url_rule":
            view = args.get(2, "view_func")
            decorator = self._decorator(router, _methods(args), args, ctx, at)
            self.register(decorator, UNKNOWN if view is None else view[0], ctx, node)
            return True
        if name == "register_blueprint":
            prefix = text_argument(args, -1, "url_prefix", None)
            self.include_argument(
                router, "blueprint", prefix, args, ctx, at, BLUEPRINTS, "a blueprint"
            )
            return True
        return None

    def call_member(self, owner: Any, name: str, args: Args, ctx: Context, node: Node) -> bool:
        if not isinstance(owner, RestfulApi):
            return False
        if name == "init_app":
            app = args.get(0, "app")
            self._bind(owner, UNKNOWN if app is None else app[0], ctx, node)
            return True
        if name != "add_resource":
            return False
        resource = args.get(0, "resource")
        cls = resource[0] if resource is not None and isinstance(resource[0], Class) else None
        urls = [as_texts(value) for value, _ in args.positional[1:]]
        if args.open:
            urls.append((UNKNOWN_TEXT,))
        if owner.target is not None:
            self._resource(owner, owner.target, cls, urls, args, node, ctx)
        elif not owner.bound:
            # Registered by a later init_app, else by `finish` under an unknown prefix (an
            # app factory the interpreter never runs may bind it); either marks it read.
            owner.pending.append((cls, urls, args, node, ctx))
            return False
        return True

    def _bind(self, api: RestfulApi, app: Any, ctx: Context, node: Node) -> None:
        """`Api(app)` / `api.init_app(app)`: a Flask app registers the waiting resources; a
        blueprint defers them to its registration, where flask_restful joins the prefixes
        by plain concatenation (not Flask's), so only a scope under the blueprint is kept."""
        api.bound = True
        if isinstance(app, Router) and app.kind == "flask-app":
            for cls, urls, args, at, made in api.pending:
                self._resource(api, app, cls, urls, args, at, made)
                self.interp.consumed.add((made.file.path, at.start))
        elif isinstance(app, Router) and app.kind == "blueprint":
            place = self.interp.place(ctx.file, node)
            label = "Flask-RESTful resources on a blueprint"
            app.entries.append(Mount(place, ctx.conditional, UNKNOWN_TEXT, None, label))
        api.pending.clear()

    def _resource(
        self,
        api: RestfulApi,
        app: Router,
        cls: Class | None,
        urls: list[tuple[Text, ...]],
        args: Args,
        node: Node,
        ctx: Context,
    ) -> None:
        """`add_resource(Resource, *urls, **kwargs)`: each url is `api.prefix + url` (the
        blueprint-less `_complete_url`), answered as a MethodView answers; the other
        keywords go to add_url_rule (`strict_slashes`)."""
        at = name_node(node)
        strict = _strict_slashes(args)
        # A class not proven a Resource answers methods that are not known.
        methods = None if cls is not None and _view_kind(cls) == "method" else ()
        for url in urls:
            rules = tuple(api.prefix + one for one in url)
            rule = RuleDecorator(app, methods, rules, strict, at, ctx.conditional)
            target: Any = ViewFunction(cls) if cls is not None else UNKNOWN
            self.register(rule, target, ctx, node)

    def _decorator(
        self, router: Router, methods: tuple[str, ...] | None, args: Args, ctx: Context, at: Node
    ) -> RuleDecorator:
        rule = args.get(0, "rule")
        rules = (UNKNOWN_TEXT,) if rule is None else as_texts(rule[0])
        return RuleDecorator(router, methods, rules, _strict_slashes(args), at, ctx.conditional)

    def register(self, decorator: RuleDecorator, function: Any, ctx: Context, node: Node) -> None:
        place = self.interp.registration_place(ctx, decorator.node)
        conditional = decorator.conditional or ctx.conditional
        if isinstance(function, ViewFunction):
            for methods, handler in _view_routes(function.view, decorator.methods):
                self._add(decorator, place, conditional, methods, handler)
            return
        found = self.interp.handler(function, ctx.file, node)
        handler = found if found is not None else self.interp.unknown_handler(ctx.file, node)
        methods = decorator.methods if decorator.methods is not None else ("GET",)
        self._add(decorator, place, conditional, methods, handler)

    def _add(
        self,
        decorator: RuleDecorator,
        place: Any,
        conditional: bool,
        methods: tuple[str, ...],
        handler: Handler,
    ) -> None:
        alternative = len(decorator.rules) > 1
        for rule in decorator.rules:
            route = Route(place, conditional or alternative, methods, rule, handler)
            route.options["strict_slashes"] = decorator.strict_slashes
            decorator.router.entries.append(route)


def _view_kind(view: Class, depth: int = 0) -> str | None:
    """ "method" for a MethodView subclass, "view" for a View subclass, else None."""
    if depth > 16:
        return None
    for base in view.bases:
        if isinstance(base, External):
            if base.qualified in METHOD_VIEWS:
                return "method"
            if base.qualified in VIEWS:
                return "view"
        elif isinstance(base, Class):
            found = _view_kind(base, depth + 1)
            if found is not None:
                return found
    return None


def _view_routes(
    view: Class, given: tuple[str, ...] | None
) -> list[tuple[tuple[str, ...], Handler]]:
    """Per handler method of a view class, the HTTP methods it answers."""
    if given == ():
        return [((), Handler(None, view.usr))]
    if _view_kind(view) == "method":
        found: list[tuple[tuple[str, ...], Handler]] = []
        for name in HTTP_METHOD_FUNCS:
            function = inherited_attribute(view, name)
            if isinstance(function, Function):
                method = name.upper()
                if not given or method in given:
                    found.append(((method,), Handler(function.usr, function.usr)))
        return found
    dispatch = inherited_attribute(view, "dispatch_request")
    methods = given or http_method_names(inherited_attribute(view, "methods")) or ("GET",)
    if isinstance(dispatch, Function):
        return [(methods, Handler(dispatch.usr, dispatch.usr))]
    return [(methods, Handler(None, view.usr))]


def _methods(args: Args) -> tuple[str, ...] | None:
    """`methods=`: None when not given, () when not proven."""
    return methods_argument(args, -1, "methods", None)


def _strict_slashes(args: Args) -> bool | None:
    """`strict_slashes=`: True when not given, None when not proven (a `**kwargs` spread
    may give it)."""
    slashes = args.get(-1, "strict_slashes")
    if slashes is None:
        return None if args.open else True
    return _boolean(slashes[1])


def _boolean(node: Node) -> bool | None:
    if node.kind == "boolean":
        return node.value == "true"
    return None


class FlaskJoins(Joins):
    """Blueprint prefixes as Flask joins them: the state is (outer prefixes, url_prefix)."""

    def start(self, anchored: bool) -> Any:
        return ([text("") if anchored else UNKNOWN_TEXT], None)

    def enter(self, state: Any, entry: Include | Mount) -> Any:
        outer, current = state
        own = entry.prefix
        if own is None and isinstance(entry, Include):
            own = entry.child.prefix
        if current is not None and own is not None:
            return (outer, current.rstrip_slash() + text("/") + own.lstrip_slash())
        return (outer, own if own is not None else current)

    def parts(self, state: Any, path: Text) -> list[Text]:
        outer, current = state
        if current is None:
            return [*outer, path]
        if path.known == "":
            return [*outer, current, path]
        return [*outer, current.rstrip_slash() + text("/"), path.lstrip_slash()]
