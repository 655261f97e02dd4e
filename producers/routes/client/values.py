"""Static values of JavaScript/TypeScript expressions, as far as they are proven.

Strings are Python strings in which urls.HOLE stands for unknown text;
objects are `Obj` (members by static key, `open` when an unknown spread or
computed key may add or override members); `Client` is a fetch, axios or ky
callable with its merged defaults; `Fn` is a project function. Everything
else is UNKNOWN, and a missing argument or absent member is UNDEFINED.

Only immutable bindings are followed: `const` declarations (their
initializer is their value), imports of project modules (resolved with the
project's module resolution) and, inside a followed wrapper, the arguments
the outer invocation passed. `let`, `var`, destructuring, class members and
anything written at run time are not values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from tree_sitter import Node

from tsograph.producers.routes.client.scopes import (
    FUNCTIONS,
    Binding,
    Key,
    Scopes,
    enclosing_function,
    key_of,
    piece_value,
    text,
    unquote,
)
from tsograph.producers.routes.client.urls import HOLE, literal_text

Library = Literal["fetch", "axios", "ky"]
MAX_DEPTH = 24


class Special(Enum):
    UNKNOWN = "unknown"
    UNDEFINED = "undefined"
    TRUE = "true"
    FALSE = "false"
    INSTANCE = "instance"  # the result of `new X(…)`: a Request, a URL, …


UNKNOWN = Special.UNKNOWN
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


@dataclass(frozen=True)
class Module:
    """`import * as ns from "./m"`: a project module's exports."""

    path: str


Value = str | Obj | Client | Member | Fn | Module | Special


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
        self.module_consts: dict[Key, Value | None] = {}


class ProjectView:
    """Cross-file lookups; implemented by the scan (parsing and module resolution)."""

    def context(self, path: str) -> Context | None:
        raise NotImplementedError

    def resolve(self, importer: str, specifier: str) -> str | None:
        raise NotImplementedError


Env = dict[Key, tuple[Value, ...]]  # a followed function -> the argument values of one call


@dataclass
class Evaluator:
    env: Env = field(default_factory=dict)
    depth: int = 0

    def value(self, ctx: Context, node: Node | None) -> Value:
        if node is None:
            return UNDEFINED
        if self.depth > MAX_DEPTH:
            return UNKNOWN
        self.depth += 1
        try:
            return self._value(ctx, node)
        finally:
            self.depth -= 1

    def string(self, ctx: Context, node: Node | None) -> str:
        """The value as URL text: anything not a proven string is a hole."""
        value = self.value(ctx, node)
        return value if isinstance(value, str) else HOLE

    def _value(self, ctx: Context, node: Node) -> Value:
        kind = node.type
        if kind == "string":
            return literal_text(unquote(node) or "")
        if kind == "template_string":
            return self._template(ctx, node)
        if kind == "number":
            return text(node)
        if kind in ("parenthesized_expression", "non_null_expression"):
            inner = node.named_children
            return self.value(ctx, inner[0]) if inner else UNKNOWN
        if kind in ("as_expression", "satisfies_expression", "type_assertion"):
            inner = node.named_children
            return self.value(ctx, inner[0] if kind != "type_assertion" else inner[-1])
        if kind == "binary_expression":
            return self._binary(ctx, node)
        if kind == "identifier":
            return self.identifier(ctx, node, text(node))
        if kind == "undefined":
            return UNDEFINED
        if kind == "true":
            return Special.TRUE
        if kind == "false":
            return Special.FALSE
        if kind == "member_expression":
            return self._member(ctx, node)
        if kind == "object":
            return self._object(ctx, node)
        if kind in ("arrow_function", "function_expression", "function"):
            return Fn(ctx.path, node, node.start_byte)
        if kind == "call_expression":
            return self._call(ctx, node)
        if kind == "new_expression":
            return Special.INSTANCE
        return UNKNOWN

    def _template(self, ctx: Context, node: Node) -> str:
        out: list[str] = []
        for child in node.named_children:
            if child.type == "template_substitution":
                inner = child.named_children
                out.append(self.string(ctx, inner[0]) if inner else HOLE)
            elif child.type == "escape_sequence":
                out.append(literal_text(piece_value(child)))
            else:
                out.append(literal_text(text(child)))
        return "".join(out)

    def _binary(self, ctx: Context, node: Node) -> Value:
        operator = node.child_by_field_name("operator")
        if operator is None or text(operator) != "+":
            return UNKNOWN
        left = self.value(ctx, node.child_by_field_name("left"))
        right = self.value(ctx, node.child_by_field_name("right"))
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
            return Fn(ctx.path, binding.node, binding.node.start_byte, _exported(binding.node))
        if binding.kind == "param":
            args = self.env.get(key_of(binding.node))
            if args is None or not binding.simple:
                return UNKNOWN
            return args[binding.position] if binding.position < len(args) else UNDEFINED
        if binding.kind == "import":
            return self._import(ctx, binding)
        return UNKNOWN

    def _const(self, ctx: Context, declarator: Node) -> Value:
        value_node = declarator.child_by_field_name("value")
        if enclosing_function(declarator) is not None:
            return self.value(ctx, value_node)
        key = key_of(declarator)
        if key in ctx.module_consts:
            cached = ctx.module_consts[key]
            return UNKNOWN if cached is None else cached
        ctx.module_consts[key] = None
        value = self.value(ctx, value_node)
        if isinstance(value, Obj) and _mutated(ctx, declarator):
            value = Obj((), True)  # a const object written through is not closed
        ctx.module_consts[key] = value
        return value

    def _import(self, ctx: Context, binding: Binding) -> Value:
        specifier = binding.specifier
        if specifier == "axios" and binding.imported == "default":
            return Client("axios", origins=(("axios", 0),))
        if specifier == "ky" and binding.imported == "default":
            return Client("ky", origins=(("ky", 0),))
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
        """The value a module exports under `name` (ES exports, `export *` last)."""
        if self.depth > MAX_DEPTH:
            return UNKNOWN
        self.depth += 1
        try:
            stars: list[str] = []
            for statement in ctx.root.named_children:
                if statement.type != "export_statement":
                    continue
                value = self._export_of(ctx, statement, name)
                if value is not None:
                    return _mark_exported(value)
                source = statement.child_by_field_name("source")
                if source is not None and _is_star_export(statement) and name != "default":
                    stars.append(unquote(source) or "")
            for specifier in stars:
                target = ctx.project.resolve(ctx.path, specifier)
                other = ctx.project.context(target) if target else None
                value = self.export(other, name) if other is not None else UNKNOWN
                if value is not UNKNOWN:
                    return value
            return UNKNOWN
        finally:
            self.depth -= 1

    def _export_of(self, ctx: Context, statement: Node, name: str) -> Value | None:
        declaration = statement.child_by_field_name("declaration")
        is_default = any(child.type == "default" for child in statement.children)
        if declaration is not None:
            if declaration.type in ("lexical_declaration", "variable_declaration"):
                for declarator in declaration.named_children:
                    ident = declarator.child_by_field_name("name")
                    if ident is not None and ident.type == "identifier" and text(ident) == name:
                        binding = ctx.scopes.lookup(ident, name)
                        return self.bound(ctx, binding) if binding is not None else UNKNOWN
                return None
            ident = declaration.child_by_field_name("name")
            if (is_default and name == "default") or (
                ident is not None and text(ident) == name and not is_default
            ):
                if declaration.type in FUNCTIONS or declaration.type.startswith("function"):
                    return Fn(ctx.path, declaration, declaration.start_byte, True)
                return UNKNOWN
            return None
        value = statement.child_by_field_name("value")
        if is_default and value is not None:
            return self.value(ctx, value) if name == "default" else None
        source = statement.child_by_field_name("source")
        for clause in statement.named_children:
            if clause.type != "export_clause":
                continue
            for spec in clause.named_children:
                local = spec.child_by_field_name("name")
                alias = spec.child_by_field_name("alias") or local
                if local is None or text(alias) != name:
                    continue
                if source is not None:
                    target = ctx.project.resolve(ctx.path, unquote(source) or "")
                    other = ctx.project.context(target) if target else None
                    return self.export(other, text(local)) if other else UNKNOWN
                return self.identifier(ctx, local, text(local))
        return None

    def _member(self, ctx: Context, node: Node) -> Value:
        prop = node.child_by_field_name("property")
        obj_node = node.child_by_field_name("object")
        if prop is None or obj_node is None or prop.type != "property_identifier":
            return UNKNOWN
        name = text(prop)
        if obj_node.type == "identifier" and name == "fetch":
            head = text(obj_node)
            if (
                head in ("window", "globalThis", "self")
                and ctx.scopes.lookup(obj_node, head) is None
            ):
                return Client("fetch")
        if obj_node.type == "this":
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
        """`this.name` in a class method: the field's only value, when the class proves one.

        Proven when the field has an initializer and is never assigned, or has
        none and is assigned exactly once, by a statement of the constructor.
        """
        body = _class_body_of(use)
        if body is None:
            return UNKNOWN
        initializer: Node | None = None
        for member in body.named_children:
            if member.type == "public_field_definition":
                field_name = member.child_by_field_name("name")
                if field_name is not None and text(field_name) == name:
                    if any(child.type == "static" for child in member.children):
                        return UNKNOWN
                    initializer = member.child_by_field_name("value")
        assignments = _this_assignments(body, name)
        if initializer is not None and not assignments:
            return self.value(ctx, initializer)
        if initializer is None and len(assignments) == 1 and _in_constructor(assignments[0]):
            return self.value(ctx, assignments[0].child_by_field_name("right"))
        return UNKNOWN

    def _object(self, ctx: Context, node: Node) -> Obj:
        members: list[tuple[str, Value]] = []
        is_open = False
        for child in node.named_children:
            if child.type == "pair":
                key = _static_key(child.child_by_field_name("key"))
                if key is None:
                    is_open = True
                    continue
                members.append((key, self.value(ctx, child.child_by_field_name("value"))))
            elif child.type == "shorthand_property_identifier":
                members.append((text(child), self.identifier(ctx, child, text(child))))
            elif child.type == "method_definition":
                key = _static_key(child.child_by_field_name("name"))
                if key is None:
                    is_open = True
                    continue
                members.append((key, Fn(ctx.path, child, child.start_byte)))
            elif child.type == "spread_element":
                inner = child.named_children
                spread = self.value(ctx, inner[0]) if inner else UNKNOWN
                if isinstance(spread, Obj):
                    members.extend(spread.members)
                    is_open = is_open or spread.open
                elif spread is not UNDEFINED:
                    # Whatever was written before may be overridden by the unknown spread.
                    members = []
                    is_open = True
            elif child.type != "comment":
                is_open = True
        return Obj(tuple(members), is_open)

    def _call(self, ctx: Context, node: Node) -> Value:
        callee_node = node.child_by_field_name("function")
        if _is_require(ctx, callee_node, node) == "axios":
            return Client("axios", origins=(("axios", 0),))  # CommonJS: module.exports = axios
        callee = self.value(ctx, callee_node)
        if not isinstance(callee, Member):
            return UNKNOWN
        args = argument_nodes(node)
        if args is None:
            return UNKNOWN
        client, name = callee.client, callee.name
        origin = (ctx.path, node.start_byte)
        config = self.value(ctx, args[0]) if args else UNDEFINED
        if client.library == "axios" and name == "create":
            return Client("axios", merge(client.config, config), (*client.origins, origin))
        if client.library == "ky" and name == "create":
            return Client("ky", merge(Obj(), config), (*client.origins[:1], origin))
        if client.library == "ky" and name == "extend":
            if isinstance(config, Fn):
                config = UNKNOWN  # extend(fn) computes the options at run time
            return Client("ky", merge(client.config, config), (*client.origins, origin))
        return UNKNOWN


def _mutated(ctx: Context, declarator: Node) -> bool:
    """`name.x = …`, `name.x += …`, `delete name.x` or `Object.assign(name, …)` in the file."""
    name_node = declarator.child_by_field_name("name")
    if name_node is None:
        return False
    name = text(name_node)
    encoded = name.encode("utf-8")
    stack = [ctx.root]
    while stack:
        node = stack.pop()
        if node.text is not None and encoded not in node.text:
            continue
        target: Node | None = None
        if node.type in ("assignment_expression", "augmented_assignment_expression"):
            target = node.child_by_field_name("left")
        elif node.type == "unary_expression" and text(node.child(0)) == "delete":
            target = node.child_by_field_name("argument")
        elif node.type == "call_expression" and text(node.child_by_field_name("function")) in (
            "Object.assign",
            "Object.defineProperty",
        ):
            args = argument_nodes(node)
            target = args[0] if args else None
        while target is not None and target.type in ("member_expression", "subscript_expression"):
            target = target.child_by_field_name("object")
        if target is not None and target.type == "identifier" and text(target) == name:
            binding = ctx.scopes.lookup(target, name)
            if binding is not None and key_of(binding.node) == key_of(declarator):
                return True
        stack.extend(node.named_children)
    return False


def _class_body_of(use: Node) -> Node | None:
    """The class body whose instance `this` is at `use` (arrow functions keep `this`)."""
    node = use.parent
    while node is not None:
        if node.type == "method_definition":
            parent = node.parent
            return parent if parent is not None and parent.type == "class_body" else None
        if node.type == "public_field_definition":
            parent = node.parent
            return parent if parent is not None and parent.type == "class_body" else None
        if node.type in FUNCTIONS and node.type != "arrow_function":
            return None
        node = node.parent
    return None


def _this_assignments(body: Node, name: str) -> list[Node]:
    found: list[Node] = []
    stack = [body]
    encoded = name.encode("utf-8")
    while stack:
        node = stack.pop()
        if node.text is not None and encoded not in node.text:
            continue
        if node.type in ("assignment_expression", "augmented_assignment_expression"):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "member_expression":
                obj = left.child_by_field_name("object")
                prop = left.child_by_field_name("property")
                if obj is not None and obj.type == "this" and text(prop) == name:
                    found.append(node)
        stack.extend(node.named_children)
    return found


def _in_constructor(assignment: Node) -> bool:
    statement = assignment.parent
    block = statement.parent if statement is not None else None
    method = block.parent if block is not None else None
    return (
        statement is not None
        and statement.type == "expression_statement"
        and block is not None
        and block.type == "statement_block"
        and method is not None
        and method.type == "method_definition"
        and text(method.child_by_field_name("name")) == "constructor"
    )


def _is_require(ctx: Context, callee: Node | None, call: Node) -> str | None:
    """The specifier of `require("x")` with the global require; None for other calls."""
    if callee is None or callee.type != "identifier" or text(callee) != "require":
        return None
    if ctx.scopes.lookup(callee, "require") is not None:
        return None
    args = argument_nodes(call)
    return unquote(args[0]) if args and len(args) == 1 else None


def argument_nodes(call: Node) -> list[Node] | None:
    """The argument expressions of a call; None when a spread makes positions unknown."""
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments":
        return None
    nodes = [child for child in arguments.named_children if child.type != "comment"]
    if any(child.type == "spread_element" for child in nodes):
        return None
    return nodes


def _static_key(node: Node | None) -> str | None:
    if node is None:
        return None
    if node.type in ("property_identifier", "number"):
        return text(node)
    if node.type == "string":
        return unquote(node)
    return None


def _is_star_export(statement: Node) -> bool:
    """`export * from "x"` (not `export * as ns from "x"`, which exports one name)."""
    return any(child.type == "*" for child in statement.children) and not any(
        child.type == "namespace_export" for child in statement.children
    )


def _exported(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type == "export_statement"


def _mark_exported(value: Value) -> Value:
    if isinstance(value, Fn):
        return Fn(value.path, value.node, value.start, True)
    return value
