"""Django and Django REST framework: URLconfs, views and DRF routers.

Rules read from django 5.2.19 (urls/conf.py, urls/resolvers.py, views/generic/,
views/decorators/http.py, middleware/common.py) and djangorestframework
3.18.3 (routers.py, decorators.py, viewsets.py, generics.py, mixins.py), and
replayed from oracle/recordings/python-routes/:

* The root URLconf is `ROOT_URLCONF = "<module>"` in a settings module, read
  as text (a module-level string assignment), never executed.
* `urlpatterns` is tried in order and the first pattern that matches answers
  (an include that matches a prefix but none of its patterns lets the next
  pattern try): Django documents are registration-order.
* `path(route, view)`, `re_path(regex, view)`; `include("module")`,
  `include(module)`, `include(list)`, `include((list, app_name), namespace=…)`
  add the included patterns under the route, in place.
* A function view answers every method unless `require_http_methods([...])`,
  `require_GET`, `require_POST` or `require_safe` (GET and HEAD) limits it;
  DRF `@api_view([...])` answers its methods (GET by default).
* `View.as_view()`: the HTTP methods the class defines (through project
  bases), and those Django's generic views and DRF's generic views define
  (then the class is the handler: its code runs through the inherited
  method). `as_view()` of a class from outside the project is a view too
  (as_view returns a function): the generic view's methods, else any method,
  with no graph id; so is `functools.partial(view, …)`, and an instance of a
  syndication `Feed` subclass (any method, the class answering). A view
  wrapped by Django's view decorators in the URLconf (`login_required(v)`,
  `csrf_exempt(v)`, `cache_page(t)(v)`, …) is the view. `head` falls back to
  `get` and `options` is answered by View: automatic answers, no facts of
  their own.
* DRF `DefaultRouter`/`SimpleRouter.register(prefix, viewset)`: the list
  route `prefix/` (GET list, POST create) and the detail route
  `prefix/{lookup}/` (GET retrieve, PUT update, PATCH partial_update, DELETE
  destroy) for the actions the viewset has, and `@action` routes
  (`url_path`, default the method name; `methods`, default GET), in
  SimpleRouter.routes' order: list route, list-level actions, detail route,
  detail-level actions (actions by name, inherited ones included, as
  `get_extra_actions` lists them; `@a.mapping.delete` adds a method); the
  prefix and `url_path` are regular expressions (literal up to their first
  regex character); `trailing_slash=False` drops the final `/`. DefaultRouter's API root and
  format suffixes (`.json`) are counted, not emitted.
* CommonMiddleware's APPEND_SLASH redirects a path without its slash to the
  pattern with it, and a path with a slash that no pattern has answers 404:
  the written form is the one served (`trailingSlash: "strict"`).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_server.argument_values import Args
from tsograph.producers.routes.python_server.django_paths import DRF_LOOKUP
from tsograph.producers.routes.python_server.django_paths import optional_slash
from tsograph.producers.routes.python_server.django_paths import regex_route
from tsograph.producers.routes.python_server.interpreter import Context
from tsograph.producers.routes.python_server.interpreter import Framework
from tsograph.producers.routes.python_server.interpreter import Interpreter
from tsograph.producers.routes.python_server.interpreter_values import Class
from tsograph.producers.routes.python_server.interpreter_values import External
from tsograph.producers.routes.python_server.interpreter_values import Function
from tsograph.producers.routes.python_server.interpreter_values import Handler
from tsograph.producers.routes.python_server.interpreter_values import KeepsClass
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.interpreter_values import Route
from tsograph.producers.routes.python_server.interpreter_values import Router
from tsograph.producers.routes.python_server.interpreter_values import derives
from tsograph.producers.routes.python_server.interpreter_values import inherited_attribute
from tsograph.producers.routes.python_server.registration import methods_argument
from tsograph.producers.routes.python_server.registration import name_node
from tsograph.producers.values.python.literals import Seq
from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import text
from tsograph.producers.values.unknown import UNKNOWN

PATH = frozenset({"django.urls.path", "django.urls.conf.path"})
RE_PATH = frozenset({"django.urls.re_path", "django.urls.conf.re_path", "django.conf.urls.url"})
INCLUDE = frozenset({"django.urls.include", "django.urls.conf.include", "django.conf.urls.include"})
_HTTP = "django.views.decorators.http."
LIMITS = {
    f"{_HTTP}require_GET": ("GET",),
    f"{_HTTP}require_POST": ("POST",),
    f"{_HTTP}require_safe": ("GET", "HEAD"),
}
VIEW_METHODS = ("get", "post", "put", "patch", "delete", "head", "options", "trace")
# RedirectView (django 5.2.19 views/generic/base.py) defines these, each answering the redirect.
_REDIRECT = ("get", "head", "post", "options", "delete", "put", "patch")
_GET = ("get",)
_FORM = ("get", "post", "put")  # ProcessFormView
_DELETE = ("get", "post", "delete")  # BaseDeleteView
# Django's generic views by module, with the HTTP methods each defines (read from django
# 5.2.19 by `hasattr(cls, method)` over View.http_method_names); django.views.generic
# re-exports the ones without `Base`.
_DJANGO_GENERIC: dict[str, dict[str, tuple[str, ...]]] = {
    "base": {"TemplateView": _GET, "RedirectView": _REDIRECT},
    "list": {"BaseListView": _GET, "ListView": _GET},
    "detail": {"BaseDetailView": _GET, "DetailView": _GET},
    "edit": {
        "ProcessFormView": _FORM,
        "BaseFormView": _FORM,
        "FormView": _FORM,
        "BaseCreateView": _FORM,
        "CreateView": _FORM,
        "BaseUpdateView": _FORM,
        "UpdateView": _FORM,
        "BaseDeleteView": _DELETE,
        "DeleteView": _DELETE,
    },
    "dates": {
        name: _GET
        for name in (
            "BaseDateListView",
            "BaseArchiveIndexView",
            "ArchiveIndexView",
            "BaseYearArchiveView",
            "YearArchiveView",
            "BaseMonthArchiveView",
            "MonthArchiveView",
            "BaseWeekArchiveView",
            "WeekArchiveView",
            "BaseDayArchiveView",
            "DayArchiveView",
            "BaseTodayArchiveView",
            "TodayArchiveView",
            "BaseDateDetailView",
            "DateDetailView",
        )
    },
}
# Methods the framework's own view classes define, by class name (django 5.2.19, DRF 3.18.3).
GENERIC_METHODS: dict[str, tuple[str, ...]] = {
    **{
        f"django.views.generic.{module}.{name}": methods
        for module, classes in _DJANGO_GENERIC.items()
        for name, methods in classes.items()
    },
    **{
        f"django.views.generic.{name}": methods
        for classes in _DJANGO_GENERIC.values()
        for name, methods in classes.items()
        if not name.startswith("Base") and name != "ProcessFormView"
    },
    "rest_framework.generics.ListAPIView": ("get",),
    "rest_framework.generics.CreateAPIView": ("post",),
    "rest_framework.generics.RetrieveAPIView": ("get",),
    "rest_framework.generics.DestroyAPIView": ("delete",),
    "rest_framework.generics.UpdateAPIView": ("put", "patch"),
    "rest_framework.generics.ListCreateAPIView": ("get", "post"),
    "rest_framework.generics.RetrieveUpdateAPIView": ("get", "put", "patch"),
    "rest_framework.generics.RetrieveDestroyAPIView": ("get", "delete"),
    "rest_framework.generics.RetrieveUpdateDestroyAPIView": ("get", "put", "patch", "delete"),
}
VIEW_BASES = frozenset(
    {
        "django.views.View",
        "django.views.generic.View",
        "django.views.generic.base.View",
        "rest_framework.views.APIView",
        "rest_framework.generics.GenericAPIView",
        *GENERIC_METHODS,
    }
)
# drf-spectacular 0.30.0 utils.py: both return the view class they decorate (after
# attaching schema data), so the class keeps its routes.
SCHEMA_DECORATORS = frozenset(
    {"drf_spectacular.utils.extend_schema_view", "drf_spectacular.utils.extend_schema"}
)
FEEDS = frozenset({"django.contrib.syndication.views.Feed"})
# Django's view decorators (django 5.2.19): each returns a function that calls the view for
# every method (auth ones may redirect first). Applied to the view directly:
_DECO = "django.views.decorators."
VIEW_WRAPPERS = frozenset(
    {
        f"{_DECO}csrf.csrf_exempt",
        f"{_DECO}csrf.csrf_protect",
        f"{_DECO}csrf.requires_csrf_token",
        f"{_DECO}csrf.ensure_csrf_cookie",
        f"{_DECO}cache.never_cache",
        f"{_DECO}clickjacking.xframe_options_deny",
        f"{_DECO}clickjacking.xframe_options_sameorigin",
        f"{_DECO}clickjacking.xframe_options_exempt",
        f"{_DECO}gzip.gzip_page",
        f"{_DECO}vary.vary_on_cookie",
        "django.contrib.auth.decorators.login_not_required",
    }
)
# ... or made by a call first; login_required and staff_member_required take the view
# directly when given one, else make the decorator.
VIEW_WRAPPER_FACTORIES = frozenset(
    {
        f"{_DECO}cache.cache_page",
        f"{_DECO}cache.cache_control",
        f"{_DECO}vary.vary_on_headers",
        "django.contrib.auth.decorators.user_passes_test",
        "django.contrib.auth.decorators.permission_required",
    }
)
VIEW_WRAPPERS_EITHER = frozenset(
    {
        "django.contrib.auth.decorators.login_required",
        "django.contrib.admin.views.decorators.staff_member_required",
    }
)
ROUTERS = frozenset({"rest_framework.routers.DefaultRouter", "rest_framework.routers.SimpleRouter"})
# Viewset actions their framework bases provide (DRF 3.18.3 viewsets.py, mixins.py).
VIEWSET_ACTIONS: dict[str, tuple[str, ...]] = {
    "rest_framework.viewsets.ModelViewSet": (
        "list",
        "create",
        "retrieve",
        "update",
        "partial_update",
        "destroy",
    ),
    "rest_framework.viewsets.ReadOnlyModelViewSet": ("list", "retrieve"),
    "rest_framework.viewsets.ViewSet": (),
    "rest_framework.viewsets.GenericViewSet": (),
    "rest_framework.viewsets.ViewSetMixin": (),
    "rest_framework.mixins.ListModelMixin": ("list",),
    "rest_framework.mixins.CreateModelMixin": ("create",),
    "rest_framework.mixins.RetrieveModelMixin": ("retrieve",),
    "rest_framework.mixins.UpdateModelMixin": ("update", "partial_update"),
    "rest_framework.mixins.DestroyModelMixin": ("destroy",),
}
LIST_ACTIONS = (("GET", "list"), ("POST", "create"))
DETAIL_ACTIONS = (
    ("GET", "retrieve"),
    ("PUT", "update"),
    ("PATCH", "partial_update"),
    ("DELETE", "destroy"),
)


@dataclass(frozen=True)
class UrlPattern:
    route: Text
    view: Any
    place: Place
    conditional: bool
    optional_slash: bool = False  # re_path `…/?$`: both trailing-slash forms answer


@dataclass(frozen=True)
class UrlInclude:
    target: Any


@dataclass(frozen=True)
class MethodLimit:
    methods: tuple[str, ...]  # () when not proven


@dataclass(frozen=True)
class ClassView:
    view: Class
    # A base from outside the project not known to be a view: its methods are not known
    # (django-contact-form's ContactFormView), and the URL pattern hands it every method.
    open: bool = False


@dataclass(frozen=True)
class ViewWrapper:
    """A decorator a VIEW_WRAPPER_FACTORIES call made: applied to a view, the view."""


@dataclass(frozen=True)
class FeedView:
    """An instance of a project subclass of Django's syndication Feed: its __call__ serves
    the request whatever the method (django 5.2.19 contrib/syndication/views.py)."""

    view: Class


@dataclass(frozen=True)
class LibraryClassView:
    """`X.as_view()` of a class from outside the project: View.as_view returns a function,
    so `path()` makes a URLPattern of it, never an include."""

    qualified: str  # the class


@dataclass(eq=False)
class DrfRouter:
    default: bool
    trailing_slash: Text
    lookup: Text  # `/` and the detail lookup, unknown after the `/` when not the regex one
    registrations: list[tuple[Text, Any, Place]] = field(default_factory=list)


@dataclass(frozen=True)
class DrfUrls:
    router: DrfRouter


class DjangoFramework(Framework):
    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.limits: dict[str, tuple[str, ...]] = {}  # function usr → the methods it answers
        self.actions: dict[str, tuple[bool, tuple[str, ...], Text]] = {}  # DRF @action
        # DRF `@<action>.mapping.<method>`: action usr -> (method, handler usr)
        self.mappings: dict[str, list[tuple[str, str]]] = {}
        self.provided: list[tuple[str, Text]] = []

    def construct(self, name: str, args: Args, ctx: Context, node: Node) -> Any | None:
        place = self.interp.place(ctx.file, name_node(node))
        if name in PATH or name in RE_PATH:
            route = args.get(0, "route")
            view = args.get(1, "view")
            value = UNKNOWN_TEXT if route is None else route[0]
            optional = False
            if name in RE_PATH and isinstance(value, Text) and value.known is not None:
                endpoint = not isinstance(_value(view), UrlInclude)
                shorter = optional_slash(value.known) if endpoint else None
                optional = shorter is not None
                value = regex_route(shorter or value.known, endpoint)
            return UrlPattern(
                value if isinstance(value, Text) else UNKNOWN_TEXT,
                _value(view),
                place,
                ctx.conditional,
                optional,
            )
        if name in INCLUDE:
            target = args.get(0, "arg")
            found = UNKNOWN if target is None else target[0]
            if (
                isinstance(found, Seq)
                and len(found.items) == 2
                and isinstance(found.items[1], Text)
                and isinstance(found.items[0], (Seq, Module))
            ):
                found = found.items[0]  # (patterns, app_name)
            if isinstance(found, Text) and found.known is not None:
                found = self.interp.resolve_module(ctx.file.path, found.known) or UNKNOWN
            return UrlInclude(found)
        if name == "django.views.decorators.http.require_http_methods":
            return MethodLimit(methods_argument(args, 0, "request_method_list", ()))
        if name in ("rest_framework.decorators.api_view",):
            return MethodLimit(methods_argument(args, 0, "http_method_names", ("GET",)))
        if name == "rest_framework.decorators.action":
            detail = args.get(-1, "detail")
            url_path = args.get(-1, "url_path")
            return _Action(
                detail is not None and detail[1].kind == "boolean" and detail[1].value == "true",
                detail is None or detail[1].kind != "boolean",
                methods_argument(args, -1, "methods", ("GET",)),
                None if url_path is None else url_path[0],
            )
        if name in SCHEMA_DECORATORS:
            return KeepsClass()
        if name in VIEW_WRAPPERS | VIEW_WRAPPERS_EITHER:
            target = args.get(0, "")
            if target is not None and _is_view(target[0]) and len(args.positional) == 1:
                return target[0]
        if name in VIEW_WRAPPER_FACTORIES or (
            name in VIEW_WRAPPERS_EITHER and not args.positional and not args.open
        ):
            return ViewWrapper()
        if name.endswith(".as_view"):
            return LibraryClassView(name.removesuffix(".as_view"))
        if name == "functools.partial":
            # A partial object calls its function; path() takes it as a view (callable).
            target = args.get(0, "func")
            if target is not None and isinstance(target[0], (Function, External)):
                return target[0]
        if name in ROUTERS:
            slash = args.get(-1, "trailing_slash")
            trailing = text("/")
            if slash is not None:
                flag = slash[1]
                trailing = (
                    text("")
                    if flag.kind == "boolean" and flag.value == "false"
                    else text("/")
                    if flag.kind == "boolean"
                    else UNKNOWN_TEXT
                )
            regex = args.get(-1, "use_regex_path")
            lookup = text("/" + DRF_LOOKUP)
            if regex is not None and not (regex[1].kind == "boolean" and regex[1].value == "true"):
                # path() routes: the prefix is no regex and the lookup is `<str:pk>`
                # (a `lookup_value_converter` may change it); not modelled.
                lookup = text("/") + UNKNOWN_TEXT
            return DrfRouter(name.endswith("DefaultRouter"), trailing, lookup)
        return None

    def class_method(self, view: Class, name: str, args: Args, ctx: Context) -> Any | None:
        if name == "as_view":
            # View.as_view returns a function, whatever library the class comes from.
            return ClassView(view, not derives(view, VIEW_BASES | frozenset(VIEWSET_ACTIONS)))
        return None

    def instance(self, cls: Class, args: Args, ctx: Context) -> Any | None:
        if derives(cls, FEEDS):
            return FeedView(cls)
        return None

    def member(self, owner: Any, name: str) -> Any | None:
        if isinstance(owner, DrfRouter) and name == "urls":
            return Seq((DrfUrls(owner),))
        return None

    def call_member(self, owner: Any, name: str, args: Args, ctx: Context, node: Node) -> bool:
        if isinstance(owner, DrfRouter) and name == "register":
            prefix = args.get(0, "prefix")
            viewset = args.get(1, "viewset")
            owner.registrations.append(
                (
                    _prefix_route(prefix[0], owner)
                    if prefix is not None and isinstance(prefix[0], Text)
                    else UNKNOWN_TEXT,
                    UNKNOWN if viewset is None else viewset[0],
                    self.interp.place(ctx.file, name_node(node)),
                )
            )
            return True
        return False

    def decorate(self, decorator: Any, function: Any, ctx: Context, node: Node) -> bool:
        if isinstance(decorator, ViewWrapper):
            return _is_view(function)
        if not isinstance(function, Function):
            return False
        if isinstance(decorator, External) and decorator.qualified in LIMITS:
            self.limits[function.usr] = LIMITS[decorator.qualified]
            return True
        if isinstance(decorator, MethodLimit):
            self.limits[function.usr] = decorator.methods
            return True
        mapped = _mapped_method(node)
        if mapped is not None:
            # `@publish.mapping.delete`: DELETE on the route of the action `publish`.
            action_usr = function.usr.rpartition(".")[0] + "." + mapped[0]
            self.mappings.setdefault(action_usr, []).append((mapped[1], function.usr))
            return True
        if isinstance(decorator, _Action):
            url = decorator.url_path
            name = function.node.part("name")
            path = (
                url
                if isinstance(url, Text)
                else UNKNOWN_TEXT
                if url is not None
                else text(name.value or "" if name is not None else "")
            )
            if path.known is not None:
                # `url_path` is spliced into the router's regular expression unescaped
                # (`versions/(?P<version_id>\d+)`): route text up to its first regex character.
                path = regex_route("^" + path.known, False)
            if decorator.unknown_detail:
                path = UNKNOWN_TEXT
            self.actions[function.usr] = (decorator.detail, decorator.methods, path)
            return True
        return False

    # ---- patterns into routes -------------------------------------------------------

    def routes(self, patterns: Any, group: str, place: Place) -> Router:
        """The URLconf's patterns as one router of flat routes, in the order Django tries them."""
        root = Router("django", group, place)
        self._walk(patterns, text("/"), False, root, set(), place)
        return root

    def _walk(
        self,
        patterns: Any,
        prefix: Text,
        conditional: bool,
        root: Router,
        seen: set[str],
        place: Place,
    ) -> None:
        """`place` names the patterns: the settings line of the root URLconf, else the
        `path()` call that includes them (where unread patterns are reported)."""
        if isinstance(patterns, Module):
            if patterns.path in seen:
                return
            scope = self.interp.run_module(patterns.path)
            found = UNKNOWN if scope is None else scope.names.get("urlpatterns", UNKNOWN)
            self._walk(found, prefix, conditional, root, seen | {patterns.path}, place)
            return
        if not isinstance(patterns, Seq):
            _below(root, place, conditional, prefix, "an unresolved URLconf")
            return
        for item in patterns.items:
            if isinstance(item, DrfUrls):
                self._router(item.router, prefix, conditional, root)
            elif isinstance(item, UrlPattern):
                below = conditional or item.conditional
                if isinstance(item.view, UrlInclude):
                    self._walk(item.view.target, prefix + item.route, below, root, seen, item.place)
                elif isinstance(item.view, Seq):
                    # `path("api/", router.urls)`, `path("x/", (patterns, app, namespace))`.
                    first = item.view.items[0] if item.view.items else None
                    target = first if isinstance(first, (Seq, Module)) else item.view
                    self._walk(target, prefix + item.route, below, root, seen, item.place)
                elif _maybe_patterns(item.view):
                    # `path("admin/", admin.site.urls)`: a (patterns, app, namespace) tuple
                    # is an include, so the paths below the route may answer too.
                    _below(root, item.place, below, prefix + item.route, _view_name(item.view))
                else:
                    start = len(root.entries)
                    self._view(item.view, prefix + item.route, item.place, below, root)
                    if item.optional_slash:
                        for route in root.entries[start:]:
                            if isinstance(route, Route):
                                route.options["strict_slashes"] = False
            else:
                _below(root, place, conditional, prefix, "an unresolved URL pattern")

    def _view(self, view: Any, path: Text, place: Place, conditional: bool, root: Router) -> None:
        for methods, handler in self._answers(view):
            root.entries.append(Route(place, conditional, methods, path, handler))

    def _answers(self, view: Any) -> list[tuple[tuple[str, ...], Handler]]:
        if isinstance(view, Function):
            return [(self.limits.get(view.usr, ("ANY",)), Handler(view.usr, view.usr))]
        if isinstance(view, ClassView) and view.open:
            return [(("ANY",), Handler(view.view.usr, view.view.usr))]
        if isinstance(view, ClassView):
            found: list[tuple[tuple[str, ...], Handler]] = []
            for name in VIEW_METHODS:
                own = inherited_attribute(view.view, name)
                if isinstance(own, Function):
                    found.append(((name.upper(),), Handler(own.usr, own.usr)))
                elif name in _inherited(view.view, GENERIC_METHODS) and name not in (
                    "head",
                    "options",
                ):
                    found.append(((name.upper(),), Handler(view.view.usr, view.view.usr)))
            return found
        if isinstance(view, FeedView):
            call = inherited_attribute(view.view, "__call__")
            usr = call.usr if isinstance(call, Function) else view.view.usr
            return [(("ANY",), Handler(usr, usr))]
        if isinstance(view, LibraryClassView):
            # The methods the framework's generic view defines; any other class's are not
            # known, and the URL pattern hands it every method.
            handler = Handler(None, view.qualified)
            if view.qualified not in GENERIC_METHODS:
                return [(("ANY",), handler)]
            return [
                ((name.upper(),), handler)
                for name in GENERIC_METHODS[view.qualified]
                if name not in ("head", "options")
            ]
        return [(("ANY",), Handler(None, _view_name(view)))]

    def _router(self, router: DrfRouter, prefix: Text, conditional: bool, root: Router) -> None:
        """SimpleRouter.get_urls: per registration, in SimpleRouter.routes' order, the list
        route, the list-level actions, the detail route, the detail-level actions; the
        actions are `get_extra_actions()`, the viewset's members (inherited ones too) in
        name order (inspect.getmembers)."""
        slash = router.trailing_slash
        for base, viewset, place in router.registrations:
            if not isinstance(viewset, Class):
                root.entries.append(
                    Route(
                        place,
                        conditional,
                        ("ANY",),
                        prefix + base + UNKNOWN_TEXT,
                        Handler(None, "an unresolved viewset"),
                    )
                )
                continue
            actions = set(_inherited(viewset, VIEWSET_ACTIONS))
            own = {
                name: inherited_attribute(viewset, name)
                for name in (*dict(LIST_ACTIONS).values(), *dict(DETAIL_ACTIONS).values())
            }
            actions |= {name for name, value in own.items() if isinstance(value, Function)}
            lookup = router.lookup
            if inherited_attribute(viewset, "lookup_value_regex") is not None:
                lookup = text("/") + UNKNOWN_TEXT  # a pattern of the viewset's own
            extra = self._extra_actions(viewset)
            for detail, table in ((False, LIST_ACTIONS), (True, DETAIL_ACTIONS)):
                path = prefix + base + (lookup if detail else text("")) + slash
                for method, action in table:
                    if action in actions:
                        function = own.get(action)
                        usr = function.usr if isinstance(function, Function) else viewset.usr
                        root.entries.append(
                            Route(place, conditional, (method,), path, Handler(usr, usr))
                        )
                for usr, methods, url_path in extra[detail]:
                    path = prefix + base + (lookup if detail else text(""))
                    path = path + text("/") + url_path + slash
                    root.entries.append(Route(place, conditional, methods, path, Handler(usr, usr)))
                    for method, handler in self.mappings.get(usr, ()):
                        root.entries.append(
                            Route(place, conditional, (method,), path, Handler(handler, handler))
                        )
        if router.default:
            self.provided.append(
                ("the API root and format suffixes of a DRF DefaultRouter", prefix)
            )

    def _extra_actions(self, viewset: Class) -> dict[bool, list[tuple[str, tuple[str, ...], Text]]]:
        """The viewset's `@action` methods by detail, in name order: an action a subclass
        overrides without the decorator is gone, as getmembers sees the override."""
        found: dict[bool, list[tuple[str, tuple[str, ...], Text]]] = {False: [], True: []}
        names = sorted({usr.rpartition(".")[2] for usr in self.actions})
        for name in names:
            member = inherited_attribute(viewset, name)
            if not isinstance(member, Function) or member.usr not in self.actions:
                continue
            detail, methods, url_path = self.actions[member.usr]
            found[detail].append((member.usr, methods, url_path))
        return found


@dataclass(frozen=True)
class _Action:
    detail: bool
    unknown_detail: bool
    methods: tuple[str, ...]
    url_path: Any


def _below(root: Router, place: Place, conditional: bool, prefix: Text, name: str) -> None:
    """Patterns not read: any method on any path under the prefix, by a handler not proven."""
    root.entries.append(
        Route(place, conditional, ("ANY",), prefix + UNKNOWN_TEXT, Handler(None, name))
    )


def _maybe_patterns(view: Any) -> bool:
    """A view that may be a list or tuple of patterns: one not proven (a list is an include
    in Django's `path()`), or a `.urls` attribute (admin.site.urls, a DRF or Wagtail
    router's urls)."""
    if isinstance(view, External):
        return view.qualified.endswith(".urls")
    return not isinstance(view, (Function, ClassView, FeedView, LibraryClassView, Seq))


def _is_view(value: Any) -> bool:
    """A value proven to be a view function or view-like callable (not a pattern list)."""
    if isinstance(value, External):
        return not value.qualified.endswith(".urls")
    return isinstance(value, (Function, ClassView, FeedView, LibraryClassView))


def _view_name(view: Any) -> str:
    return view.qualified if isinstance(view, External) else "an unresolved view"


def _value(given: tuple[Any, Node] | None) -> Any:
    return UNKNOWN if given is None else given[0]


def _bases(view: Class, depth: int = 0) -> list[Any]:
    found: list[Any] = []
    for base in view.bases:
        found.append(base)
        if isinstance(base, Class) and depth < 16:
            found.extend(_bases(base, depth + 1))
    return found


def _inherited(view: Class, table: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    found: list[str] = []
    for base in _bases(view):
        if isinstance(base, External):
            found.extend(table.get(base.qualified, ()))
    return tuple(found)


def _prefix_route(prefix: Text, router: DrfRouter) -> Text:
    """A registration prefix: DRF splices it into its regular expressions unescaped, so
    it is route text up to its first regex character (django_paths.regex_route)."""
    if router.lookup.known is None:
        # path() routes: the prefix is route text, a `<converter:name>` part not modelled.
        return prefix if prefix.known is not None and "<" not in prefix.known else UNKNOWN_TEXT
    if prefix.known is None:
        return prefix
    return regex_route("^" + prefix.known, False)


def _mapped_method(expression: Node) -> tuple[str, str] | None:
    """`@<action>.mapping.<method>`: (action name, METHOD)."""
    if expression.kind != "member":
        return None
    method, mapping = expression.part("property"), expression.part("object")
    if method is None or mapping is None or mapping.kind != "member":
        return None
    name, action = mapping.part("property"), mapping.part("object")
    if name is None or name.value != "mapping" or action is None or action.kind != "identifier":
        return None
    if not action.value or (method.value or "") not in VIEW_METHODS:
        return None
    return action.value, (method.value or "").upper()
