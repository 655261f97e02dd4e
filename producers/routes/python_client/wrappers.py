"""Project functions that only forward to a request: followed under the narrow proof JS uses.

A wrapper is a plain function (not a method: its receiver's class is not
proven) whose body is one `return <call>` (or `return await <call>`), after
an optional docstring. Its plain parameters are bound to the arguments of
each invocation, so `get_json(f"/users/{uid}")` is a fact at the invocation,
owned by the code that invokes it. A `*args`/`**kwargs` parameter stays
unknown (it may be forwarded, never read). An invocation with a spread
argument, a missing parameter or a parameter with a default value the call
leaves out is not followed.

The request inside a wrapper is also a site of its own, with unknown
parameters. It is left out only when every use of the wrapper in the project
is an invocation that became a fact; a wrapper passed as a value, or used in
any other way, keeps its inner request (dynamic), so known calls never hide
other entries.
"""

from __future__ import annotations

from collections.abc import Callable

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Env
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Fn
from tsograph.producers.routes.python_client.libraries import Outcome
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.routes.python_client.scopes import nodes
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.unknown import UNKNOWN

MAX_DEPTH = 4
Follow = Callable[[Evaluator, Context, Node, int], Outcome | None]


def forwarded_call(function: Node) -> Node | None:
    """The call a wrapper returns, when the function is one."""
    if function.value != "declaration" or _is_method(function) or function.decorators:
        return None
    body = function.part("body")
    statements = list(body.items) if body is not None else []
    if statements and statements[0].kind == "statement":
        first = statements[0].part("value")
        if first is not None and first.kind in ("string", "template"):
            statements = statements[1:]
    if len(statements) != 1 or statements[0].kind != "return":
        return None
    value = statements[0].part("value")
    if value is not None and value.kind == "await":
        value = value.part("value")
    return value if value is not None and value.kind == "call" else None


def _is_method(function: Node) -> bool:
    parent = function.parent
    return parent is not None and parent.kind == "class"


def bind(ev: Evaluator, ctx: Context, call: Node, function: Node) -> Env | None:
    """The parameters of `function` bound to the arguments of `call`; None when not provable."""
    args = Arguments.of(call)
    if args.open:
        return None
    params = function.part("parameters")
    env: Env = dict(ev.env)
    index = 0
    used: set[str] = set()
    keyword_only = False
    for parameter in params.items if params is not None else ():
        if parameter.kind == "parameter_separator":
            keyword_only = keyword_only or parameter.value == "*"
            continue
        pattern = parameter.part("pattern")
        if pattern is None or pattern.kind != "identifier" or not pattern.value:
            return None
        name = pattern.value
        if "rest" in parameter.flags:
            keyword_only = True
            index = len(args.positional)
            continue
        if "keywords" in parameter.flags:
            continue
        given: Node | None = None
        if not keyword_only and index < len(args.positional):
            given = args.positional[index]
            index += 1
        elif name in args.keywords:
            given = args.keywords[name]
            used.add(name)
        if given is None:
            # A default value is another value than the one written at the call: not followed.
            return None
        env[(id(function), name)] = ev.value(ctx, given)
    if index < len(args.positional) or set(args.keywords) - used:
        return None  # more arguments than plain parameters: a TypeError or a **kwargs
    return env


class Wrappers:
    def __init__(self, project: PyProject) -> None:
        self.project = project
        self.followed: set[int] = set()  # invocation call nodes that became facts
        # wrapper function node id -> (its file, the function, invocations that became facts)
        self.invoked: dict[int, tuple[str, Node, int]] = {}

    def invoke(
        self, follow: Follow, ev: Evaluator, ctx: Context, call: Node, fn: Fn, depth: int
    ) -> Outcome | None:
        inner = forwarded_call(fn.node)
        if inner is None or depth >= MAX_DEPTH:
            return None
        env = bind(ev, ctx, call, fn.node)
        if env is None:
            return None
        inner_ctx = self.project.context(fn.path)
        if inner_ctx is None:
            return None
        outcome = follow(Evaluator(self.project, env), inner_ctx, inner, depth + 1)
        if outcome is not None:
            self.followed.add(id(call))
            _, _, count = self.invoked.get(id(fn.node), (fn.path, fn.node, 0))
            self.invoked[id(fn.node)] = (fn.path, fn.node, count + 1)
        return outcome

    def inner_of(self, ctx: Context, call: Node) -> Node | None:
        """The wrapper function whose forwarded call `call` is."""
        for ancestor in call.ancestors():
            if ancestor.kind == "function":
                return ancestor if forwarded_call(ancestor) is call else None
        return None

    def replaced(self) -> set[int]:
        """The wrappers whose inner request is left out: invoked as facts, and every use of
        them is such an invocation. A wrapper nothing invokes keeps its request (a framework
        may call it)."""
        dropped: set[int] = set()
        for key, (path, function, _) in self.invoked.items():
            name_node = function.part("name")
            name = name_node.value if name_node is not None else None
            if name and self._all_uses_followed(path, function, name):
                dropped.add(key)
        return dropped

    def _all_uses_followed(self, path: str, function: Node, name: str) -> bool:
        needle = name.encode()
        for other in self.project.paths:
            data = self.project.data(other)
            if data is None or needle not in data:
                continue
            ctx = self.project.context(other)
            if ctx is None:
                continue
            for node in nodes(ctx.root):
                if not _names(node, name):
                    continue
                if node.parent is not None and node.parent.kind.startswith("import"):
                    continue
                if node is function.part("name"):
                    continue
                value = Evaluator(self.project).value(ctx, node)
                if not isinstance(value, Fn):
                    # Only a use whose value is not proven may still be the wrapper.
                    if value is UNKNOWN and _may_name(ctx, node, name, function, path):
                        return False
                    continue
                if value.node is not function:
                    continue
                parent = node.parent
                if parent is None or parent.kind != "call" or parent.part("callee") is not node:
                    return False
                if id(parent) not in self.followed:
                    return False
        return True


def _may_name(ctx: Context, node: Node, name: str, function: Node, path: str) -> bool:
    """Whether a use whose value is not proven may still be the wrapper (then it escapes)."""
    if node.kind != "identifier":
        return True  # `x.name` on an unknown object may be the module's function
    found = ctx.scopes.lookup(node, name)
    if found is None:
        return ctx.path == path  # a global of another file that imports nothing of that name
    return any(site.kind == "import" or site.node is function for site in found[1])


def _names(node: Node, name: str) -> bool:
    if node.kind == "identifier":
        return node.value == name
    if node.kind == "member":
        prop = node.part("property")
        return prop is not None and prop.value == name
    return False
