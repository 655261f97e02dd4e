"""Static values of JavaScript/TypeScript expressions, as far as they are proven.

Strings are Python strings in which urls.HOLE stands for unknown text;
objects are `Obj` (members by static key, `open` when an unknown spread or
computed key may add or override members); `Client` is a fetch, axios or ky
callable with its merged defaults; `Fn` is a project function, `Cls` a project
class. Everything
else is UNKNOWN, and a missing argument or absent member is UNDEFINED.

Only immutable bindings are followed: `const` declarations (their
initializer is their value), imports of project modules (resolved with the
project's module resolution) and, inside a followed wrapper, the arguments
the outer invocation passed. `let`, `var`, destructuring, class members and
anything written at run time are not values. Which package exports and
which client methods give a client is data (client_libraries.py and the shared
producers/values/provenance.py). The code is read
from the neutral syntax form (producers/lang/syntax_tree.py), never a parser's tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from enum import Enum

from tsograph.producers.lang.syntax_read import enclosing_function
from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.bindings import Binding
from tsograph.producers.routes.client.bindings import Scopes
from tsograph.producers.routes.client.client_libraries import INSTANCE_FACTORIES
from tsograph.producers.routes.client.client_libraries import Library
from tsograph.producers.routes.client.client_libraries import client_export
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.client.urls import QUERY_TAIL
from tsograph.producers.routes.client.urls import literal_text
from tsograph.producers.values import class_members
from tsograph.producers.values import exports
from tsograph.producers.values import modules
from tsograph.producers.values import object_writes
from tsograph.producers.values.budget import DepthBudget
from tsograph.producers.values.project_classes import ProjectClass
from tsograph.producers.values.unknown import UNKNOWN
from tsograph.producers.values.unknown import Unknown


class Special(Enum):
    UNDEFINED = "undefined"
    TRUE = "true"
    FALSE = "false"
    INSTANCE = "instance"  # the result of `new X(…)`: a Request, a URL, …


UNDEFINED = Special.UNDEFINED


@dataclass(frozen=True)
class Obj:
    members: tuple[tuple[str, Value], ...] = ()
    open: bool = False

    def get(self, name: str) -> Value:
        for key, value in reversed(self.members):
            if key == name:
                return value
        return UNKNOWN if self.open else UNDEFINED

    def has(self, name: str) -> bool:
        return any(key == name for key, _ in self.members)


@dataclass(frozen=True)
class Client:
    """A request function: global fetch, axios or an instance, ky or an instance.

    `config` holds the merged defaults; `origins` the creation sites (file,
    start byte) from the library default to this instance, so interceptors
    and mutations found anywhere can be charged to the instances they touch.
    """

    library: Library
    config: Obj = Obj()
    origins: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Member:
    """`client.name`: a request method of a client, not called yet."""

    client: Client
    name: str


@dataclass(frozen=True)
class Fn:
    """A project function: its file and node, and how it was reached."""

    path: str
    node: Node = field(compare=False)
    start: int = 0
    exported: bool = False  # reached through an export, or declared exported


# A project class declaration (a class is never a client).
Cls = ProjectClass


@dataclass(frozen=True)
class Module:
    """`import * as ns from "./m"`: a project module's exports."""

    path: str


Value = str | Obj | Client | Member | Fn | Cls | Module | Special | Unknown


def merge(base: Obj, extra: Value) -> Obj:
    """`{...base, ...extra}` as axios mergeConfig and ky deep merge treat URL options."""
    if isinstance(extra, Obj):
        return Obj(base.members + extra.members, base.open or extra.open)
    if extra is UNDEFINED:
        return base
    return Obj((), True)


class Context:
    """What evaluating code of one file needs: its tree, scopes, and a way to other files."""

    def __init__(self, path: str, root: Node, project: ProjectView) -> None:
        self.path = path
        self.root = root
        self.scopes = Scopes(root)
        self.project = project
        # Values of module-level consts: no wrapper argument can reach them, so one
        # evaluation serves every use (None marks one in progress: a cycle).
        self.module_consts: dict[Node, Value | None] = {}
        self.this_writes = class_members.ThisWrites()
        self.exports = exports.ExportIndex()


class ProjectView:
    """Cross-file lookups; implemented by the scan (parsing and module resolution)."""

    def context(self, path: str) -> Context | None:
        raise NotImplementedError

    def resolve(self, importer: str, specifier: str) -> str | None:
        raise NotImplementedError

    def read(self, path: str) -> bytes | None:
        """A source's bytes (what a model reads beyond the tree, such as a banner comment)."""
        raise NotImplementedError


Env = dict[Node, tuple[Value, ...]]  # a followed function -> the argument values of one call


@dataclass
class Evaluator:
    env: Env = field(default_factory=dict)
    budget: DepthBudget = field(default_factory=DepthBudget)

    def value(self, ctx: Context, node: Node | None) -> Value:
        if node is None:
            return UNDEFINED
        if not self.budget.enter():
            return UNKNOWN
        try:
            return self._value(ctx, node)
        finally:
            self.budget.leave()

    def string(self, ctx: Context, node: Node | None) -> str:
        """The value as URL text: anything not a proven string is a hole."""
        value = self.value(ctx, node)
        return value if isinstance(value, str) else HOLE

    def _value(self, ctx: Context, node: Node) -> Value:
        kind = node.kind
        if kind == "string":
            return literal_text(node.value or "")
        if kind == "template":
            return self._template(ctx, node)
        if kind == "number":
            return node.value or ""
        if kind == "cast":
            # `x as T`, `x satisfies T`, `x!`, `<T>x`; an instantiation `f<T>` is another value.
            if node.value == "instantiate":
                return UNKNOWN
            return self.value(ctx, node.part("value"))
        if kind == "binary":
            return self._binary(ctx, node)
        if kind == "conditional":
            return self._conditional(ctx, node)
        if kind == "identifier":
            return self.identifier(ctx, node, node.value or "")
        if kind == "undefined":
            return UNDEFINED
        if kind == "boolean":
            return Special.TRUE if node.value == "true" else Special.FALSE
        if kind == "member":
            return self._member(ctx, node)
        if kind == "object":
            return self._object(ctx, node)
        if kind == "function" and node.value in ("arrow", "expression"):
            return Fn(ctx.path, node, node.start)
        if kind == "call":
            return self._call(ctx, node)
        if kind == "new":
            return Special.INSTANCE
        return UNKNOWN

    def _template(self, ctx: Context, node: Node) -> str:
        out: list[str] = []
        for item in node.items:
            if item.kind == "substitution":
                inner = item.part("value")
                out.append(self.string(ctx, inner) if inner is not None else HOLE)
            else:
                out.append(literal_text(item.value or ""))
        return "".join(out)

    def _conditional(self, ctx: Context, node: Node) -> Value:
        """`c ? a : b` with the condition unknown: the value both branches have, or a
        QUERY_TAIL when each branch is a query, a fragment or nothing (linkwarden:
        "/api/v1/tags" + (paged ? `?cursor=${n}` : "")); otherwise unknown."""
        first = self.value(ctx, node.part("consequence"))
        second = self.value(ctx, node.part("alternative"))
        if not isinstance(first, str) or not isinstance(second, str):
            return UNKNOWN
        if first == second:
            return first
        if _query_or_nothing(first) and _query_or_nothing(second):
            return QUERY_TAIL
        return UNKNOWN

    def _binary(self, ctx: Context, node: Node) -> Value:
        if node.value != "+":
            return UNKNOWN
        left = self.value(ctx, node.part("left"))
        right = self.value(ctx, node.part("right"))
        if isinstance(left, str) or isinstance(right, str):
            return (left if isinstance(left, str) else HOLE) + (
                right if isinstance(right, str) else HOLE
            )
        return UNKNOWN

    def identifier(self, ctx: Context, use: Node, name: str) -> Value:
        binding = ctx.scopes.lookup(use, name)
        if binding is None:
            return Client("fetch") if name == "fetch" else UNKNOWN
        return self.bound(ctx, binding)

    def bound(self, ctx: Context, binding: Binding) -> Value:
        if binding.kind == "const":
            return self._const(ctx, binding.node)
        if binding.kind == "function":
            return Fn(ctx.path, binding.node, binding.node.start, _exported(binding.node))
        if binding.kind == "class":
            return Cls(ctx.path, binding.node)
        if binding.kind == "param":
            args = self.env.get(binding.node)
            if args is None or not binding.simple:
                return UNKNOWN
            return args[binding.position] if binding.position < len(args) else UNDEFINED
        if binding.kind == "import":
            return self._import(ctx, binding)
        return UNKNOWN

    def _const(self, ctx: Context, declarator: Node) -> Value:
        value_node = declarator.part("value")
        if enclosing_function(declarator) is not None:
            return self.value(ctx, value_node)
        if declarator in ctx.module_consts:
            cached = ctx.module_consts[declarator]
            return UNKNOWN if cached is None else cached
        ctx.module_consts[declarator] = None
        value = self.value(ctx, value_node)
        if isinstance(value, Obj) and _mutated(ctx, declarator):
            value = Obj((), True)  # a const object written through is not closed
        ctx.module_consts[declarator] = value
        return value

    def _import(self, ctx: Context, binding: Binding) -> Value:
        specifier = binding.specifier
        library = client_export(specifier, binding.imported)
        if library is not None:
            return Client(library, origins=((specifier, 0),))
        target = ctx.project.resolve(ctx.path, specifier)
        if target is None:
            return UNKNOWN
        if binding.imported == "*":
            return Module(target)
        other = ctx.project.context(target)
        if other is None:
            return UNKNOWN
        return self.export(other, binding.imported)

    def export(self, ctx: Context, name: str) -> Value:
        """The value a module exports under `name` (the shared export order; CommonJS
        exports of project modules are not followed)."""
        if not self.budget.enter():
            return UNKNOWN
        try:
            for site in ctx.exports.sites(ctx.root, name):
                if site.kind in exports.DECIDING:
                    return _mark_exported(self._export_site(ctx, site))
                if site.kind == "star":
                    value = self._module_export(ctx, site.specifier, name)
                    if value is not UNKNOWN:
                        return value
            return UNKNOWN
        finally:
            self.budget.leave()

    def _export_site(self, ctx: Context, site: exports.ExportSite) -> Value:
        node = site.node
        if site.kind == "declared" and site.declaration is not None:
            return self.bound(ctx, ctx.scopes.of(site.declaration))
        if site.kind == "default" and node.kind == "function" and node.value == "declaration":
            return Fn(ctx.path, node, node.start, True)
        if site.kind == "default":
            return self.value(ctx, node)
        if site.kind == "local":
            return self.identifier(ctx, node, site.name)
        return self._module_export(ctx, site.specifier, site.name)  # a re-export

    def _module_export(self, ctx: Context, specifier: str, name: str) -> Value:
        target = ctx.project.resolve(ctx.path, specifier)
        other = ctx.project.context(target) if target else None
        return self.export(other, name) if other is not None else UNKNOWN

    def _member(self, ctx: Context, node: Node) -> Value:
        prop = node.part("property")
        obj_node = node.part("object")
        if prop is None or obj_node is None or prop.value is None or prop.value.startswith("#"):
            return UNKNOWN
        name = prop.value
        if obj_node.kind == "identifier" and name == "fetch":
            head = obj_node.value or ""
            if (
                head in ("window", "globalThis", "self")
                and ctx.scopes.lookup(obj_node, head) is None
            ):
                return Client("fetch")
        if obj_node.kind == "this":
            return self._this_field(ctx, node, name)
        owner = self.value(ctx, obj_node)
        if isinstance(owner, Module):
            other = ctx.project.context(owner.path)
            return self.export(other, name) if other is not None else UNKNOWN
        if isinstance(owner, Obj):
            return owner.get(name)
        if isinstance(owner, Client):
            return Member(owner, name)
        return UNKNOWN

    def _this_field(self, ctx: Context, use: Node, name: str) -> Value:
        """`this.name` in a class method: the field's only value, when the class proves one
        (values/class_members.this_value)."""
        written = class_members.this_value(use, name, ctx.this_writes)
        return UNKNOWN if written is None else self.value(ctx, written)

    def _object(self, ctx: Context, node: Node) -> Obj:
        members: list[tuple[str, Value]] = []
        is_open = False
        for child in node.items:
            if child.kind == "property":
                key = static_key(child)
                if key is None:
                    is_open = True
                    continue
                members.append((key, self.value(ctx, child.part("value"))))
            elif child.kind == "shorthand":
                name = child.value or ""
                members.append((name, self.identifier(ctx, child, name)))
            elif child.kind == "function":
                key = static_key(child)
                if key is None:
                    is_open = True
                    continue
                members.append((key, Fn(ctx.path, child, child.start)))
            elif child.kind == "spread":
                spread = self.value(ctx, child.part("value")) if child.parts else UNKNOWN
                if isinstance(spread, Obj):
                    members.extend(spread.members)
                    is_open = is_open or spread.open
                elif spread is not UNDEFINED:
                    # Whatever was written before may be overridden by the unknown spread.
                    members = []
                    is_open = True
            else:
                is_open = True
        return Obj(tuple(members), is_open)

    def _call(self, ctx: Context, node: Node) -> Value:
        callee_node = node.part("callee")
        required = _required(ctx, callee_node, node)
        if required is not None:
            library = client_export(required, "")
            if library is not None:
                return Client(library, origins=((required, 0),))
        callee = self.value(ctx, callee_node)
        if not isinstance(callee, Member):
            return UNKNOWN
        args = argument_nodes(node)
        if args is None:
            return UNKNOWN
        client, name = callee.client, callee.name
        factory = INSTANCE_FACTORIES.get((client.library, name))
        if factory is None:
            return UNKNOWN
        origin = (ctx.path, node.start)
        config = self.value(ctx, args[0]) if args else UNDEFINED
        if factory.options_may_compute and isinstance(config, Fn):
            config = UNKNOWN
        if factory.inherits:
            return Client(client.library, merge(client.config, config), (*client.origins, origin))
        return Client(client.library, merge(Obj(), config), (*client.origins[:1], origin))


def is_call(node: Node) -> bool:
    """A call, or a tagged template (a call whose arguments are not expressions)."""
    return node.kind in ("call", "tagged")


def callee_of(call: Node) -> Node | None:
    return call.part("callee") if call.kind == "call" else call.part("tag")


def argument_nodes(call: Node) -> list[Node] | None:
    """The argument expressions of a call; None when a spread makes positions unknown."""
    if call.kind != "call":
        return None  # a tagged template
    if any(item.kind == "spread" for item in call.items):
        return None
    return list(call.items)


def _mutated(ctx: Context, declarator: Node) -> bool:
    """Whether the file writes into the object the const declares (values/object_writes.py)."""
    name_node = declarator.part("name")
    if name_node is None or name_node.value is None:
        return False

    def declared_here(identifier: Node) -> bool:
        binding = ctx.scopes.lookup(identifier, identifier.value or "")
        return binding is not None and binding.node is declarator

    return object_writes.written_through(ctx.root, name_node.value, declared_here)


def _required(ctx: Context, callee: Node | None, call: Node) -> str | None:
    """The specifier of `require("x")` with the global require; None for other calls."""
    if not modules.is_global_require(callee, ctx.scopes.shared):
        return None
    args = argument_nodes(call)
    if not args or len(args) != 1:
        return None
    return modules.specifier_argument(call)


def _exported(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.kind == "export"


def _mark_exported(value: Value) -> Value:
    if isinstance(value, Fn):
        return Fn(value.path, value.node, value.start, True)
    return value


def _query_or_nothing(text: str) -> bool:
    """A URL tail that changes no path: empty, a query, a fragment, or another such tail."""
    return text in ("", QUERY_TAIL) or text.startswith(("?", "#"))
