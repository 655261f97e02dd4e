"""`--client-model FILE`: requests through opaque injected transports, declared by the user.

A model names a transport by declaration identity: the project file (or
package specifier) that declares a class, interface or type, and its name.
A call `receiver.method(…)` is a request only when the receiver's declared
type resolves to exactly that declaration: a parameter or `const` annotated
with it, a `const` initialised with `new Type(…)`, or `this.field` where the
class declares the field (or a constructor parameter property) with that
type. A global name or a method of the same shape elsewhere never matches.

The path comes from the declared argument and is joined below `basePrefix`
(one slash between them); without `basePrefix` the fact is anchored at the
base. `{{NAME}}` build placeholders are unknown text, so a path that starts
with one is dynamic. The format is schemas/client-model-v1.json.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
from jsonschema import Draft202012Validator

from tsograph.exchange.errors import InputError
from tsograph.producers.command_args import json_problem
from tsograph.producers.command_args import read_input_file
from tsograph.producers.command_args import shown
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.requests import Request
from tsograph.producers.routes.client.static_values import Context
from tsograph.producers.routes.client.static_values import Evaluator
from tsograph.producers.routes.client.static_values import argument_nodes
from tsograph.producers.routes.client.static_values import callee_of
from tsograph.producers.routes.client.urls import BASE_MARK
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.client.urls import literal_text
from tsograph.producers.values import class_members
from tsograph.schemas import SCHEMA_DIR

MODEL_SCHEMA = "client-model-v1.json"
_MAX_MODEL_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Transport:
    source: str
    type: str
    method: str
    verb: str
    path_argument: int
    base_prefix: str | None


@dataclass(frozen=True)
class ClientModel:
    transports: tuple[Transport, ...]

    def find(self, identity: tuple[str, str], method: str) -> Transport | None:
        for transport in self.transports:
            if (transport.source, transport.type) == identity and transport.method == method:
                return transport
        return None


def load_model(path: str) -> ClientModel:
    """Read and check a model file; any problem is exit 2 with one line."""
    label = f"--client-model {shown(path)}"
    fix = f"pass a client model as {MODEL_SCHEMA} describes"
    data = read_input_file(path, label, _MAX_MODEL_BYTES, fix)
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise InputError(f"{label}: {json_problem(error)}; {fix}") from None
    schema = orjson.loads((SCHEMA_DIR / MODEL_SCHEMA).read_bytes())
    problem = next(iter(Draft202012Validator(schema).iter_errors(raw)), None)
    if problem is not None:
        where = "/" + "/".join(str(part) for part in problem.absolute_path)
        reason = " ".join(problem.message.split())[:160]
        raise InputError(f"{label}: invalid model at {where}: {reason}; {fix}")
    transports = tuple(
        Transport(
            entry["source"],
            entry["type"],
            entry["method"],
            entry["verb"],
            entry["pathArgument"],
            entry.get("basePrefix"),
        )
        for entry in raw["transports"]
    )
    return ClientModel(transports)


def model_request(model: ClientModel, ev: Evaluator, ctx: Context, call: Node) -> Request | None:
    callee = callee_of(call)
    if callee is None or callee.kind != "member":
        return None
    prop = callee.part("property")
    receiver = callee.part("object")
    if prop is None or receiver is None or prop.value is None:
        return None
    identity = receiver_type(ctx, receiver)
    if identity is None:
        return None
    transport = model.find(identity, prop.value)
    if transport is None:
        return None
    args = argument_nodes(call)
    if args is None or transport.path_argument >= len(args):
        return Request(HOLE, transport.verb)
    path = ev.string(ctx, args[transport.path_argument])
    if path.startswith(HOLE):
        return Request(path, transport.verb)
    base = BASE_MARK if transport.base_prefix is None else literal_text(transport.base_prefix)
    joined = path if "://" in path else base.rstrip("/") + "/" + path.lstrip("/")
    return Request(joined, transport.verb)


def receiver_type(ctx: Context, receiver: Node) -> tuple[str, str] | None:
    """(declaring file or package, type name) of a receiver's declared type."""
    annotation = _annotation(ctx, receiver)
    if annotation is None:
        return None
    return _declaration_identity(ctx, annotation)


def _annotation(ctx: Context, receiver: Node) -> Node | None:
    """The node naming the type a receiver is declared with."""
    if receiver.kind == "identifier":
        binding = ctx.scopes.lookup(receiver, receiver.value or "")
        if binding is None:
            return None
        if binding.kind == "param":
            params = binding.node.part("parameters")
            if params is None or binding.position >= len(params.items):
                return None
            return _type_name(params.items[binding.position])
        if binding.kind == "const":
            found = _type_name(binding.node)
            if found is not None:
                return found
            value = binding.node.part("value")
            if value is not None and value.kind == "new":
                return value.part("callee")
        return None
    if receiver.kind == "member":
        obj = receiver.part("object")
        prop = receiver.part("property")
        if obj is None or prop is None or obj.kind != "this" or prop.value is None:
            return None
        return _field_type(receiver, prop.value)
    return None


def _field_type(node: Node, name: str) -> Node | None:
    for kind, declared in class_members.this_declarations(node, name):
        if kind != "constructor":
            return _type_name(declared)
    return None


def _type_name(node: Node) -> Node | None:
    """The declared type of a parameter, field or declarator when it is a plain type name."""
    annotation = node.part("type")
    if annotation is None or annotation.kind != "type_ref" or annotation.items:
        return None
    name = annotation.value or ""
    return annotation if name.isidentifier() and name != "this" else None


def _declaration_identity(ctx: Context, name_node: Node) -> tuple[str, str] | None:
    if name_node.kind not in ("identifier", "type_ref") or name_node.value is None:
        return None
    name = name_node.value
    binding = ctx.scopes.lookup_type(name_node, name)
    if binding is None:
        return None
    if binding.kind == "import":
        target = ctx.project.resolve(ctx.path, binding.specifier)
        return (target or binding.specifier, binding.imported)
    if binding.kind in ("class", "other"):
        return (ctx.path, name)
    return None
