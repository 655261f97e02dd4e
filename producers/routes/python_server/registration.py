"""What the framework modules (fastapi.py, flask.py, django.py) share to read registrations.

Each framework keeps its own rules; the readings that mean the same in all of
them live here once: a proven list of HTTP method names, a route path's text,
the name a registration is located at, the name of the variable an app is
assigned to, and the decorator
values that register the function they are applied to.
"""

from __future__ import annotations

from typing import Any
from typing import ClassVar
from typing import TypeVar

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_server.argument_values import Args
from tsograph.producers.routes.python_server.interpreter import Context
from tsograph.producers.routes.python_server.interpreter import Framework
from tsograph.producers.routes.python_server.interpreter import Interpreter
from tsograph.producers.routes.python_server.interpreter_values import Alternatives
from tsograph.producers.routes.python_server.interpreter_values import Include
from tsograph.producers.routes.python_server.interpreter_values import Mount
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.interpreter_values import Router
from tsograph.producers.values.python.literals import Seq
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Text


class RouteDecorators(Framework):
    """A framework whose route decorators (`@app.get("/x")`) are values of
    `decorator_type`, built before the function they register is known."""

    decorator_type: ClassVar[type]

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp

    def decorate(self, decorator: Any, function: Any, ctx: Context, node: Node) -> bool:
        if not isinstance(decorator, self.decorator_type):
            return False
        self.register(decorator, function, ctx, node)
        return True

    def register(self, decorator: Any, function: Any, ctx: Context, node: Node) -> None:
        """Register `function` as the handler `decorator` names."""
        raise NotImplementedError

    def include_argument(
        self,
        router: Router,
        keyword: str,
        prefix: Text | None,
        args: Args,
        ctx: Context,
        at: Node,
        kinds: frozenset[str],
        unproven: str,
    ) -> None:
        """`router.include_router(router, prefix=…)` (FastAPI) and
        `register_blueprint(blueprint, url_prefix=…)` (Flask): the first argument (or
        `keyword`) included at `prefix`, which `**kwargs` may set to anything; `unproven`
        names a child that is no router of `kinds` (see `include`)."""
        child = args.get(0, keyword)
        if args.open:
            prefix = UNKNOWN_TEXT
        place = self.interp.place(ctx.file, at)
        value = None if child is None else child[0]
        include(router, value, kinds, prefix, place, ctx.conditional, unproven)


def http_method_names(value: Any) -> tuple[str, ...] | None:
    """A list of method names (`["get", "POST"]`) upper-cased, first occurrence first;
    None when it is not a list of proven, non-empty strings."""
    if isinstance(value, Seq):
        names = [item.known for item in value.items if isinstance(item, Text)]
        if len(names) == len(value.items) and all(names):
            return tuple(dict.fromkeys(name.upper() for name in names if name))
    return None


def as_text(value: Any) -> Text:
    """A path argument's text; a string with no proven part when it is not a string."""
    return value if isinstance(value, Text) else UNKNOWN_TEXT


def as_texts(value: Any) -> tuple[Text, ...]:
    """A path argument's possible texts: one per alternative a function's conditional
    returns give (`Alternatives`), else the one `as_text` reads."""
    if isinstance(value, Alternatives):
        return tuple(as_text(one) for one in value.values)
    return (as_text(value),)


# What an argument reads as when the call does not give it.
_Missing = TypeVar("_Missing", Text, None)
_NoMethods = TypeVar("_NoMethods", tuple[str, ...], None)


def text_argument(args: Args, index: int, name: str, missing: _Missing) -> Text | _Missing:
    """A path or prefix argument's text (see `as_text`), `missing` when it is not given."""
    given = args.get(index, name)
    return missing if given is None else as_text(given[0])


def methods_argument(
    args: Args, index: int, name: str, missing: _NoMethods
) -> tuple[str, ...] | _NoMethods:
    """A list of HTTP method names given as an argument (see `http_method_names`):
    `missing` when it is not given, () when it is not proven."""
    given = args.get(index, name)
    return missing if given is None else http_method_names(given[0]) or ()


def name_node(call: Node) -> Node:
    """Where a registration call is located: the method name of `app.get(...)`, else the
    callee."""
    callee = call.part("callee")
    if callee is not None and callee.kind == "member":
        name = callee.part("property")
        if name is not None:
            return name
    return callee or call


def group_name(node: Node, ctx: Context) -> str:
    """An app's name for order groups: the variable it is assigned to, else the code that
    makes it."""
    owner = ctx.file.owner_at(node.start)
    parent = node.parent
    if parent is not None and parent.kind == "assign":
        left = parent.part("left")
        if left is not None and left.kind == "identifier" and left.value:
            module = ctx.file.facts.declarations[0].id
            return f"{ctx.file.path}#{left.value}" if owner == module else f"{owner}.{left.value}"
    return owner


def include(
    router: Router,
    child: Any,
    kinds: frozenset[str],
    prefix: Text | None,
    place: Place,
    conditional: bool,
    unproven: str,
) -> None:
    """`router` includes `child` at `prefix` when it is a router of one of `kinds`; anything
    else is a mount of what could not be proven (`unproven` names it) under the prefix."""
    if isinstance(child, Router) and child.kind in kinds:
        child.included = True
        router.entries.append(Include(place, conditional, child, prefix))
    else:
        router.entries.append(Mount(place, conditional, prefix or UNKNOWN_TEXT, None, unproven))
