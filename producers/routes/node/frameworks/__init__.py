"""What each framework's router calls do, as the interpreter sees them: one module a framework.

Each framework module (express, hono, koa, fastify, nest) gives a `Framework`:
the routers its constructors make, what a method call on one of them does,
and the router types a parameter annotation can name. The interpreter asks
this table; nothing here imports the interpreter (it is reached through
`registration.Host`). Each rule names the package version it was checked
against by running it (scratch installs, see tests/routes/node).
"""

from __future__ import annotations

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.node.frameworks import express
from tsograph.producers.routes.node.frameworks import fastify
from tsograph.producers.routes.node.frameworks import hono
from tsograph.producers.routes.node.frameworks import koa
from tsograph.producers.routes.node.frameworks import nest
from tsograph.producers.routes.node.frameworks.registration import MOUNT_METHODS
from tsograph.producers.routes.node.frameworks.registration import ROUTER_METHODS
from tsograph.producers.routes.node.frameworks.registration import Construction
from tsograph.producers.routes.node.frameworks.registration import Framework
from tsograph.producers.routes.node.frameworks.registration import Host
from tsograph.producers.routes.node.frameworks.registration import handler_of
from tsograph.producers.routes.node.frameworks.registration import mounted_by_unknown
from tsograph.producers.routes.node.frameworks.registration import new_router
from tsograph.producers.routes.node.frameworks.registration import verb
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouteBuilder
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Value
from tsograph.producers.values import provenance

__all__ = ["MOUNT_METHODS", "call_method", "construct", "handler_of", "mounted_by_unknown"]

FRAMEWORKS: tuple[Framework, ...] = (
    express.FRAMEWORK,
    hono.FRAMEWORK,
    fastify.FRAMEWORK,
    koa.FRAMEWORK,
    nest.FRAMEWORK,
)
_BY_ROUTER = {name: framework for framework in FRAMEWORKS for name in framework.routers}
_BY_KIND = {kind: framework for framework in FRAMEWORKS for kind in framework.makes}
ROUTER_TYPES = {
    key: found for framework in FRAMEWORKS for key, found in framework.router_types.items()
}


def construct(
    host: Host, function: External, args: list[Value], node: Node, frame: Frame, *, new: bool
) -> Value | None:
    """The router (or value) a framework constructor call makes, or None when it is not one.

    Which export makes what is the shared provenance table's answer."""
    kind = provenance.kind_of(function.package, ".".join(function.path), "new" if new else "call")
    framework = None if kind is None else _BY_KIND.get(kind)
    if kind is None or framework is None:
        return None
    return framework.construct(host, Construction(kind, function, args, node, frame))


def call_method(
    host: Host,
    base: RouterValue | RouteBuilder,
    name: str,
    args: list[Value],
    where: Place,
    frame: Frame,
) -> Value:
    if isinstance(base, RouteBuilder):  # Express `app.route(path).get(...)`
        if name in ROUTER_METHODS:
            verb(host, base.router, name, base.path, args, where, frame)
        return base
    framework = _BY_ROUTER.get(base.framework)
    if framework is None:
        return UNKNOWN
    return framework.call(host, base, name, args, where, frame)


def typed_arguments(
    host: Host, function: FunctionValue, frame: Frame, plugin: str | None
) -> list[Value]:
    """Arguments for a function nothing calls: a router for each router-typed parameter.

    A module's exported function taking an untyped `fastify` (or `app`, `server`,
    `instance`) first parameter in a Fastify project is a plugin its runner
    registers (fastify-cli `fastify start`, @fastify/autoload): that parameter is
    a Fastify instance at a place the project does not show.
    """
    params = function.node.part("parameters")
    args: list[Value] = []
    for position, param in enumerate([] if params is None else params.items):
        named = param.part("type")
        value = None if named is None else _type_value(host, function, named)
        found = None
        if isinstance(value, External):
            found = ROUTER_TYPES.get((value.package, value.path))
        pattern = param.part("pattern") or param
        plugin_instance = function.file.text(pattern) in ("fastify", "app", "server", "instance")
        if found is None and plugin == "fastify" and position == 0 and named is None:
            found = ("fastify", "router") if plugin_instance else None
        if found is None:
            args.append(UNKNOWN)
            continue
        router = new_router(host, found[0], found[1], param, frame)
        # Its options are out of view: the framework defaults decide which paths it
        # serves (Hono and Fastify strict), and the facts claim no trailing-slash flag.
        router.strict = found[0] in ("hono", "fastify")
        router.case_sensitive = found[0] in ("hono", "fastify")
        router.options_known = False
        args.append(router)
    return args


def _type_value(host: Host, function: FunctionValue, node: Node) -> Value:
    """What a type name (`Router`, `express.Router`, `Router<T>`) refers to in scope."""
    if node.kind != "type_ref" or node.value is None:
        return UNKNOWN
    head, *members = node.value.split(".")
    value = function.scope.lookup(head) if function.scope.has(head) else UNKNOWN
    for member in members:
        value = host.member(value, member)
    return value
