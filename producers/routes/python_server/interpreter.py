"""A small static interpreter for Python server modules: top levels in import order.

Modules are run the way CPython imports them: a module's statements in order,
an `import` of a project module running that module first (once; a cycle sees
the names bound so far). Functions are followed when module code calls them
(`app = create_app()`), with their arguments, to a fixed depth (`*args` and
`**kwargs` as given, when the body only passes them on). Only what builds
servers is evaluated: strings (literals, f-strings, `+`, `%`, `str.format` and
the string methods of values/python/strings.py), names, imports, attribute
reads of modules, lists and `[f(x) for x in proven_list]`, project functions
and classes, and calls a framework module (FRAMEWORKS) recognises; everything
else is UNKNOWN. An instance of a project class deriving from a library class
a framework makes (`class ApiExt(flask_restful.Api)`) is that library value,
with the project class's methods run with `self` bound. Code under `if`,
`try`, `for`, `while` and `match` runs with `conditional` set: what it
registers may not exist, and the names it binds are unknown after it (unless
they keep the value they had). A function that may return under a condition
returns `Alternatives`: one of the values its `return`s give.

Nothing is executed and nothing is imported: this reads the lowered syntax
(producers/lang/syntax_tree.py) and the per-file facts only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import is_dataclass
from dataclasses import replace
from typing import Any

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.python_modules import PythonModules
from tsograph.producers.routes.python_server.argument_values import Args
from tsograph.producers.routes.python_server.argument_values import library_arguments
from tsograph.producers.routes.python_server.argument_values import only_passed_on
from tsograph.producers.routes.python_server.argument_values import text_field
from tsograph.producers.routes.python_server.argument_values import text_items
from tsograph.producers.routes.python_server.interpreter_values import MAX_BASES_DEPTH
from tsograph.producers.routes.python_server.interpreter_values import Alternatives
from tsograph.producers.routes.python_server.interpreter_values import BoundMethod
from tsograph.producers.routes.python_server.interpreter_values import Class
from tsograph.producers.routes.python_server.interpreter_values import External
from tsograph.producers.routes.python_server.interpreter_values import Function
from tsograph.producers.routes.python_server.interpreter_values import Handler
from tsograph.producers.routes.python_server.interpreter_values import Instance
from tsograph.producers.routes.python_server.interpreter_values import KeepsClass
from tsograph.producers.routes.python_server.interpreter_values import Keywords
from tsograph.producers.routes.python_server.interpreter_values import Place
from tsograph.producers.routes.python_server.interpreter_values import Router
from tsograph.producers.routes.python_server.interpreter_values import Scope
from tsograph.producers.routes.python_server.interpreter_values import alternatives
from tsograph.producers.routes.python_server.interpreter_values import inherited_attribute
from tsograph.producers.values.budget import DepthBudget
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.python.literals import Seq
from tsograph.producers.values.python.literals import fstring_pieces
from tsograph.producers.values.python.members import BoundMember
from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.python.modules import Namespace
from tsograph.producers.values.python.modules import module_value
from tsograph.producers.values.python.modules import star_brings
from tsograph.producers.values.python.modules import submodule_of
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Field
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import percent_format
from tsograph.producers.values.python.strings import string_method
from tsograph.producers.values.python.strings import text
from tsograph.producers.values.unknown import UNKNOWN

# How deep calls of project functions are followed from module code.
MAX_CALL_DEPTH = 8
_BLOCKS = ("if", "try", "for", "for_in", "while", "match")


@dataclass(frozen=True)
class _Escaped:
    """A statement result: a `return` under a condition may have run with one of `values`,
    or the code goes on."""

    values: tuple[Any, ...]


# The evaluated arguments of a call, each with its node.


@dataclass
class Context:
    """Where code runs: its file, its scope, and whether it runs only under a condition."""

    file: SyntaxFile
    scope: Scope
    conditional: bool = False
    depth: int = 0
    # Inside a compound statement of the code being run: a `return` may not run.
    branch: bool = False
    # Inside a project method of a library subclass (`api.add_org_resource(…)`): the call
    # a registration it makes is located at, as a wrapper's facts belong to its call.
    site: Place | None = None


class Framework:
    """What a framework module answers for the interpreter; each hook's default declines."""

    def construct(self, name: str, args: Args, ctx: Context, node: Node) -> Any | None:
        """The value a call of the outside name `name` (its qualified name) makes, None when
        not this framework's."""
        return None

    def method(self, router: Router, name: str, args: Args, ctx: Context, node: Node) -> Any | None:
        """The value of `router.name(...)`, None when not this framework's router."""
        return None

    def decorate(self, decorator: Any, function: Any, ctx: Context, node: Node) -> bool:
        """Apply a decorator value to a function value; False when not this framework's."""
        return False

    def class_method(self, view: Class, name: str, args: Args, ctx: Context) -> Any | None:
        """The value of `SomeClass.name(...)` for a name the project class does not define."""
        return None

    def instance(self, cls: Class, args: Args, ctx: Context) -> Any | None:
        """The value of `SomeClass(...)` for a project class, None when not known."""
        return None

    def member(self, owner: Any, name: str) -> Any | None:
        """The value of `owner.name` for another framework object, None when not known."""
        return None

    def call_member(self, owner: Any, name: str, args: Args, ctx: Context, node: Node) -> bool:
        """Run `owner.name(...)` on another framework object; False when not this one's."""
        return False

    def finish(self) -> None:
        """Once every server module has run: what registrations still wait for."""


class Interpreter:
    def __init__(self, model: ProjectModel, paths: list[str], frameworks: list[Framework]):
        self.model = model
        self.frameworks = frameworks
        self.modules = PythonModules.load(model.root, paths)
        self.scopes: dict[str, Scope] = {}
        self.routers: list[Router] = []
        # Calls and decorators a framework consumed, by (path, offset): the rest are reported.
        self.consumed: set[tuple[str, int]] = set()
        self.unreadable: list[str] = []
        self._budget = DepthBudget()

    # ---- modules --------------------------------------------------------------------

    def run_module(self, path: str) -> Scope | None:
        if path in self.scopes:
            return self.scopes[path]
        syntax = self.model.syntax(path)
        if syntax is None:
            self.unreadable.append(path)
            return None
        scope = Scope(file=syntax)
        self.scopes[path] = scope  # a cycle sees the names bound so far
        self.block(syntax.root.items, Context(syntax, scope))
        return scope

    def resolve_module(self, importer: str, specifier: str) -> Module | External | None:
        """The module a dotted name names, as a string names one (Django's `include`)."""
        found = self.modules.resolve(importer, specifier)
        if found.kind in ("external", "miss"):
            return External(specifier)
        value = module_value(found)
        return value if isinstance(value, Module) else None

    def _import_source(self, importer: str, specifier: str) -> Module | Namespace | External | None:
        """What an import statement's module is: a namespace package too (PEP 420)."""
        found = self.modules.resolve(importer, specifier)
        if found.kind in ("external", "miss"):
            return External(specifier)
        return module_value(found)  # None: ambiguous

    def module_member(self, module: Module | Namespace, name: str, load: bool = False) -> Any:
        """A name of a module; a package's submodule when the package does not bind it
        (`load`: `from pkg import sub` imports it, so it runs)."""
        scope = self.run_module(module.path) if isinstance(module, Module) else None
        if scope is not None and name in scope.names:
            return scope.names[name]
        sub = module_value(submodule_of(self.modules, module, name))
        if isinstance(sub, Module) and load:
            self.run_module(sub.path)
        return UNKNOWN if sub is None else sub

    # ---- statements -----------------------------------------------------------------

    def block(self, statements: tuple[Node, ...], ctx: Context) -> Any | None:
        """Run statements; the value of a `return` reached unconditionally, else None (or
        `_Escaped` when a `return` under a condition may have run).

        Once a `return` under a condition may have left (`if MULTI_ORG: return …`), a
        later return's value is not the only one: the result is one of the values
        returned (`Alternatives`), and the statements after still run for what they
        register.
        """
        escaped: list[Any] = []
        for statement in statements:
            returned = self.statement(statement, ctx)
            if isinstance(returned, _Escaped):
                escaped.extend(returned.values)
            elif returned is not None:
                return alternatives([*escaped, returned]) if escaped else returned
        return _Escaped(tuple(escaped)) if escaped else None

    def statement(self, node: Node, ctx: Context) -> Any | None:
        kind = node.kind
        if kind == "import":
            self.import_(node, ctx)
        elif kind == "statement":
            value = node.part("value")
            if value is not None:
                self.expression_statement(value, ctx)
        elif kind == "function":
            self.define_function(node, ctx)
        elif kind == "class":
            self.define_class(node, ctx)
        elif kind == "return":
            value = node.part("value")
            # A bare `return` gives None, which no reader uses: unknown.
            result = UNKNOWN if value is None else self.eval(value, ctx)
            return _Escaped((result,)) if ctx.branch else result
        elif kind == "with":
            body = node.part("body")
            if body is not None:
                return self.block(body.items if body.kind == "block" else (body,), ctx)
        elif kind in _BLOCKS:
            return self.conditional_block(node, ctx)
        return None

    def expression_statement(self, node: Node, ctx: Context) -> None:
        if node.kind == "assign":
            self.assign(node, ctx)
        else:
            self.eval(node, ctx)

    def assign(self, node: Node, ctx: Context) -> None:
        left, right = node.part("left"), node.part("right")
        if left is None or right is None:
            return
        value = self.eval(right, ctx)
        if node.value == "+=" and left.kind == "identifier" and left.value:
            # `urlpatterns += [...]`, `prefix += "/v2"`: lists and strings are followed.
            before = ctx.scope.lookup(left.value)
            if isinstance(before, Seq):
                # The list grows in place, also under a condition: the items added there
                # are marked conditional, an unproven addition is one unknown item, and
                # the items before stay known.
                added = value.items if isinstance(value, Seq) else (UNKNOWN,)
                if ctx.conditional:
                    added = tuple(_conditional(item) for item in added)
                ctx.scope.names[left.value] = Seq(before.items + added)
                return
            if isinstance(before, Text) and isinstance(value, Text):
                value = before + value
            else:
                value = UNKNOWN
        elif node.value != "=":
            value = UNKNOWN  # other compound assignments are not followed
        self.bind(left, value, ctx)

    def bind(self, target: Node, value: Any, ctx: Context) -> None:
        if target.kind == "identifier" and target.value:
            self._set(ctx, target.value, value)
        elif target.kind in ("array", "array_pattern"):
            for item in target.items:
                self.bind(item, UNKNOWN, ctx)
        # attribute and subscript targets change nothing the interpreter reads

    def _set(self, ctx: Context, name: str, value: Any) -> None:
        names = ctx.scope.names
        if ctx.conditional and names.get(name, UNKNOWN) is not value:
            names[name] = UNKNOWN
        else:
            names[name] = value

    def conditional_block(self, node: Node, ctx: Context) -> _Escaped | None:
        """Run a compound statement's blocks as conditional; the values its `return`s may
        give (None when it has none)."""
        inner = Context(ctx.file, ctx.scope, True, ctx.depth, branch=True)
        escaped: list[Any] = []
        for child in _block_bodies(node):
            found = self.block(child.items if child.kind == "block" else (child,), inner)
            if isinstance(found, _Escaped):
                escaped.extend(found.values)
        return _Escaped(tuple(escaped)) if escaped else None

    def import_(self, node: Node, ctx: Context) -> None:
        specifier = node.value or ""
        module = self._import_source(ctx.file.path, specifier)
        for item in node.items:
            local = item.part("local")
            if item.kind == "import_namespace" and local is not None and local.value:
                if item.value == "bind-first":
                    # `import a.b` binds `a` (and loads a.b, read through `a.b` later).
                    head = specifier.split(".")[0]
                    first = self._import_source(ctx.file.path, head)
                    self._set(ctx, local.value, first or UNKNOWN)
                    if isinstance(module, Module):
                        self.run_module(module.path)
                else:
                    self._set(ctx, local.value, module or UNKNOWN)
                    if isinstance(module, Module):
                        self.run_module(module.path)
            elif item.kind == "import_named":
                name = item.value or ""
                if name == "*" and isinstance(module, Module):
                    self._import_star(module, ctx)
                if name == "*" or local is None or not local.value:
                    continue
                self._set(ctx, local.value, self._imported(module, name))

    def _import_star(self, module: Module, ctx: Context) -> None:
        """`from m import *`: the names of m bound so far that the star brings (a star from
        outside the project binds names nothing here reads, and is passed over)."""
        scope = self.run_module(module.path)
        if scope is None or scope.file is None:
            return
        for name, value in list(scope.names.items()):
            if star_brings(scope.file.facts, name):
                self._set(ctx, name, value)

    def _imported(self, module: Module | Namespace | External | None, name: str) -> Any:
        if isinstance(module, External):
            return module.member(name)
        if isinstance(module, (Module, Namespace)):
            return self.module_member(module, name, load=True)
        return UNKNOWN

    def define_function(self, node: Node, ctx: Context) -> None:
        name = node.part("name")
        if name is None or not name.value:
            return
        function = Function(node, ctx.file, ctx.scope, ctx.file.owner_at(name.start))
        value: Any = function
        self.decorate(function, node, ctx)
        self._set(ctx, name.value, value)

    def decorate(self, function: Function, node: Node, ctx: Context) -> None:
        """Apply a function's decorators, bottom-up.

        A route decorator registers the function and returns it unchanged; another
        decorator may wrap it, but a route still runs this function's code, so the name
        keeps the function (as the JS rules name wrapped handlers by their own code).
        """
        for decorator in reversed(node.decorators):
            expression = decorator.part("value")
            if expression is None:
                continue
            applied = self.eval(expression, ctx)
            if any(fw.decorate(applied, function, ctx, expression) for fw in self.frameworks):
                self.consumed.add((ctx.file.path, expression.start))

    def define_class(self, node: Node, ctx: Context) -> None:
        name = node.part("name")
        if name is None or not name.value:
            return
        bases_node = node.part("bases")
        bases = tuple(
            self._base(item, ctx)
            for item in (bases_node.items if bases_node is not None else ())
            if item.kind != "keyword"
        )
        value = Class(node, ctx.file, ctx.file.owner_at(name.start), bases)
        for member in node.items:
            if member.kind == "statement":
                inner = member.part("value")
                if inner is not None and inner.kind == "assign":
                    left, right = inner.part("left"), inner.part("right")
                    if left is not None and left.kind == "identifier" and right is not None:
                        value.attributes[left.value or ""] = self.eval(right, ctx)
            elif member.kind == "function":
                member_name = member.part("name")
                if member_name is not None and member_name.value:
                    method = Function(
                        member, ctx.file, ctx.scope, ctx.file.owner_at(member_name.start)
                    )
                    value.attributes[member_name.value] = method
                    self.decorate(method, member, ctx)
        # A class decorator may return anything, except those proven to return the class.
        kept = all(self._keeps_class(decorator, ctx) for decorator in node.decorators)
        self._set(ctx, name.value, value if kept else UNKNOWN)

    def _keeps_class(self, decorator: Node, ctx: Context) -> bool:
        expression = decorator.part("value")
        return expression is not None and isinstance(self.eval(expression, ctx), KeepsClass)

    def _base(self, node: Node, ctx: Context) -> Any:
        """A base class; `Base[Any]` is `Base`: a generic alias's `__mro_entries__` (and
        DRF's `GenericAPIView.__class_getitem__`, 3.18.3) put the class itself in the MRO."""
        if node.kind == "index":
            inner = node.part("object")
            found = UNKNOWN if inner is None else self.eval(inner, ctx)
            return found if isinstance(found, (Class, External)) else UNKNOWN
        return self.eval(node, ctx)

    def _items(self, node: Node, ctx: Context) -> list[Any]:
        """A list or tuple literal's items; `*other` splices a proven list in place."""
        found: list[Any] = []
        for item in node.items:
            inner = item.part("value") if item.kind == "spread" else None
            if inner is not None:
                spliced = self.eval(inner, ctx)
                found.extend(spliced.items if isinstance(spliced, Seq) else (UNKNOWN,))
            else:
                found.append(self.eval(item, ctx))
        return found

    # ---- expressions ----------------------------------------------------------------

    def eval(self, node: Node, ctx: Context) -> Any:
        """The value of an expression; past the readers' one depth budget (along the whole
        chain of expressions and calls) an unknown one."""
        return self._budget.within(lambda: self._eval(node, ctx), UNKNOWN)

    def _eval(self, node: Node, ctx: Context) -> Any:
        kind = node.kind
        if kind == "string":
            return text(node.value or "") if "bytes" not in node.flags else UNKNOWN
        if kind == "template":
            return self._template(node, ctx)
        if kind == "binary":
            return self._binary(node, ctx)
        if kind == "identifier":
            return ctx.scope.lookup(node.value or "")
        if kind == "member":
            return self._member(node, ctx)
        if kind == "call":
            return self.call(node, ctx)
        if kind == "array":
            return Seq(tuple(self._items(node, ctx)))
        if kind == "comprehension" and node.value == "list":
            found = self._list_comprehension(node, ctx)
            if found is not None:
                return found
        if kind in ("cast", "await", "annotation"):
            inner = node.part("value")
            return UNKNOWN if inner is None else self.eval(inner, ctx)
        if kind == "function" and node.value == "lambda":
            return Function(node, ctx.file, ctx.scope, ctx.file.owner_at(node.start))
        if kind == "assign" and node.value == ":=":
            right = node.part("right")
            value = UNKNOWN if right is None else self.eval(right, ctx)
            left = node.part("left")
            if left is not None:
                self.bind(left, value, ctx)
            return value
        # Arguments and sub-expressions may still register routes (`f(app.get(...)(h))`).
        for child in node.children():
            if child.kind in ("call", "function"):
                self.eval(child, ctx)
        return UNKNOWN

    def _list_comprehension(self, node: Node, ctx: Context) -> Seq | None:
        """`[f(x) for x in items]` over a proven list, one name bound, no `if`: the body's
        value per item (the name lives in the comprehension's own scope); None when the
        comprehension is not of that form or its list is not proven."""
        body = node.part("body")
        clause = node.items[0] if len(node.items) == 1 else None
        if body is None or clause is None or clause.kind != "comprehension_for":
            return None
        target, source = clause.part("left"), clause.part("right")
        if target is None or target.kind != "identifier" or source is None:
            return None
        items = self.eval(source, ctx)
        if not isinstance(items, Seq):
            return None
        found: list[Any] = []
        for item in items.items:
            scope = Scope(names={target.value or "": item}, parent=ctx.scope, file=ctx.file)
            found.append(self.eval(body, replace(ctx, scope=scope)))
        return Seq(tuple(found))

    def _template(self, node: Node, ctx: Context) -> Any:
        found = fstring_pieces(ctx.file, node)
        if found is None:
            return UNKNOWN
        pieces: list[str | None] = []
        for piece in found:
            if isinstance(piece, Node):
                value = self.eval(piece, ctx)
                pieces.extend(value.pieces if isinstance(value, Text) else (None,))
            else:
                pieces.append(piece)
        return Text(tuple(pieces))

    def _binary(self, node: Node, ctx: Context) -> Any:
        left, right = node.part("left"), node.part("right")
        if left is None or right is None or node.value not in ("+", "%"):
            return UNKNOWN
        a, b = self.eval(left, ctx), self.eval(right, ctx)
        if node.value == "%":
            return _percent(a, b)
        if isinstance(a, Text) and isinstance(b, Text):
            return a + b
        if isinstance(a, Text) or isinstance(b, Text):
            # One side a string, the other unknown: a string with an unknown part.
            return (a if isinstance(a, Text) else UNKNOWN_TEXT) + (
                b if isinstance(b, Text) else UNKNOWN_TEXT
            )
        if isinstance(a, Seq) and isinstance(b, Seq):
            return Seq(a.items + b.items)
        return UNKNOWN

    def _member(self, node: Node, ctx: Context) -> Any:
        target, prop = node.part("object"), node.part("property")
        if target is None or prop is None or not prop.value:
            return UNKNOWN
        return self._attribute(self.eval(target, ctx), prop.value)

    def _attribute(self, owner: Any, name: str) -> Any:
        if isinstance(owner, (Module, Namespace)):
            return self.module_member(owner, name)
        if isinstance(owner, External):
            return owner.member(name)
        if isinstance(owner, Router):
            return BoundMember(owner, name)
        if isinstance(owner, Class):
            return _class_attribute(owner, name)
        if isinstance(owner, Instance):
            # The project classes' own names first (methods bound to the instance), then
            # the library value's.
            found = inherited_attribute(owner.cls, name)
            if isinstance(found, Function):
                return BoundMethod(found, owner)
            return self._attribute(owner.base, name) if found is None else found
        if owner is UNKNOWN or isinstance(owner, (Text, Seq, Function, Alternatives)):
            return UNKNOWN
        for framework in self.frameworks:
            found = framework.member(owner, name)
            if found is not None:
                return found
        return BoundMember(owner, name)

    def arguments(self, node: Node, ctx: Context) -> Args:
        return Arguments.read(
            node,
            lambda item: (self.eval(item, ctx), item),
            lambda item, star: self._spread(item, star, ctx),
        )

    def _spread(self, node: Node, star: str, ctx: Context) -> Args | None:
        """The arguments `*x` (a proven list) or `**x` (a proven `**kwargs`) stand for; each
        spliced item is located at the spread."""
        value = self.eval(node, ctx)
        if star == "*" and isinstance(value, Seq):
            return Arguments(positional=[(item, node) for item in value.items])
        if star == "**" and isinstance(value, Keywords):
            return Arguments(keywords=dict(value.items))
        return None

    def call(self, node: Node, ctx: Context) -> Any:
        callee_node = node.part("callee")
        if callee_node is None:
            return UNKNOWN
        target = callee_node.part("object") if callee_node.kind == "member" else None
        prop = callee_node.part("property")
        if target is not None and prop is not None and prop.value:
            owner = self.eval(target, ctx)
            if isinstance(owner, Text):
                found = string_method(
                    owner, prop.value, self.arguments(node, ctx), text_field, text_items
                )
                return UNKNOWN if found is None else found
            callee = self._attribute(owner, prop.value)
        else:
            callee = self.eval(callee_node, ctx)
        args = self.arguments(node, ctx)
        if isinstance(callee, Function):
            return self.call_function(callee, args, ctx)
        if isinstance(callee, BoundMethod):
            receiver = (callee.receiver, callee_node)
            bound = replace(args, positional=[receiver, *args.positional])
            site = ctx.site or self.place(ctx.file, prop or callee_node)
            return self.call_function(callee.function, bound, replace(ctx, site=site))
        # Frameworks read library values: an instance of a project subclass is its base.
        args = library_arguments(args)
        if isinstance(callee, External):
            for framework in self.frameworks:
                made = framework.construct(callee.qualified, args, ctx, node)
                if made is not None:
                    if isinstance(made, Router):
                        self.routers.append(made)
                    return made
            return UNKNOWN
        if isinstance(callee, BoundMember):
            return self._call_member(callee, args, ctx, node)
        if isinstance(callee, Class):
            for framework in self.frameworks:
                made = framework.instance(callee, args, ctx)
                if made is not None:
                    return made
            return self._subclass_instance(callee, args, ctx, node)
        # A decorator factory called with the function: `app.get("/x")(handler)`.
        if args.positional and len(args.positional) == 1 and not args.keywords:
            function, _ = args.positional[0]
            if any(fw.decorate(callee, function, ctx, callee_node) for fw in self.frameworks):
                self.consumed.add((ctx.file.path, callee_node.start))
                return function
        return UNKNOWN

    def _subclass_instance(self, cls: Class, args: Args, ctx: Context, node: Node) -> Any:
        """`ApiExt()` for `class ApiExt(flask_restful.Api)`: the library value a framework
        makes for the outside base, as an `Instance` of the project class. A project
        `__init__` may pass the library other arguments (redash's `Redash(Flask)` sets
        `static_folder`), so the library then sees arguments that are not known."""
        base = _outside_base(cls)
        if base is None:
            return UNKNOWN
        if inherited_attribute(cls, "__init__") is not None:
            args = Arguments(open=True)
        for framework in self.frameworks:
            made = framework.construct(base.qualified, args, ctx, node)
            if made is not None:
                if isinstance(made, Router):
                    self.routers.append(made)
                return Instance(cls, made)
        return UNKNOWN

    def _call_member(self, callee: BoundMember, args: Args, ctx: Context, node: Node) -> Any:
        """`owner.name(...)`: a router's method, a project class's inherited one, or another
        framework object's; the frameworks say which they read."""
        owner, name = callee.owner, callee.name
        if isinstance(owner, Router):
            for framework in self.frameworks:
                result = framework.method(owner, name, args, ctx, node)
                if result is not None:
                    self.consumed.add((ctx.file.path, node.start))
                    return result
        elif isinstance(owner, Class):
            for framework in self.frameworks:
                made = framework.class_method(owner, name, args, ctx)
                if made is not None:
                    return made
        elif any(fw.call_member(owner, name, args, ctx, node) for fw in self.frameworks):
            self.consumed.add((ctx.file.path, node.start))
        return UNKNOWN

    def call_function(self, function: Function, args: Args, ctx: Context) -> Any:
        if ctx.depth >= MAX_CALL_DEPTH or function.node.value == "lambda":
            return UNKNOWN
        body = function.node.part("body")
        if body is None:
            return UNKNOWN
        scope = Scope(parent=function.scope, file=function.file)
        parameters = function.node.part("parameters")
        index = 0
        named: set[str] = set()
        for parameter in parameters.items if parameters is not None else ():
            if parameter.kind != "parameter":
                continue
            pattern = parameter.part("pattern")
            if pattern is None or pattern.kind != "identifier" or not pattern.value:
                continue
            # `*urls` and `**kwargs`: the arguments left, when no spread hides more and the
            # body only passes them on (nothing reads a change made to them).
            passed = not args.open and only_passed_on(body, pattern.value)
            if "rest" in parameter.flags:
                rest = tuple(value for value, _ in args.positional[index:])
                scope.names[pattern.value] = Seq(rest) if passed else UNKNOWN
                index = len(args.positional)
                continue
            if "keywords" in parameter.flags:
                left = tuple((k, given) for k, given in args.keywords.items() if k not in named)
                scope.names[pattern.value] = Keywords(left) if passed else UNKNOWN
                continue
            named.add(pattern.value)
            given = args.get(index, pattern.value)
            default = parameter.part("value")
            if given is not None:
                scope.names[pattern.value] = given[0]
            elif default is not None:
                scope.names[pattern.value] = self.eval(default, ctx)
            else:
                scope.names[pattern.value] = UNKNOWN
            index += 1
        inner = Context(function.file, scope, ctx.conditional, ctx.depth + 1, site=ctx.site)
        returned = self.block(body.items if body.kind == "block" else (body,), inner)
        # Falling off the end (or maybe so, after a conditional `return`) gives None.
        return UNKNOWN if returned is None or isinstance(returned, _Escaped) else returned

    # ---- helpers for framework modules ------------------------------------------------

    def place(self, file: SyntaxFile, node: Node) -> Place:
        line, column = file.location(node.start)
        return Place(file.path, line, column)

    def registration_place(self, ctx: Context, node: Node) -> Place:
        """Where a registration is located: its call, or the call of the project method of
        a library subclass it runs in (see `Context.site`)."""
        return ctx.site or self.place(ctx.file, node)

    def handler(self, value: Any, file: SyntaxFile, node: Node) -> Handler | None:
        """The handler a value names: a project function (its graph id) or an outside one."""
        if isinstance(value, Function):
            return Handler(value.usr, value.usr)
        if isinstance(value, External):
            return Handler(None, value.qualified)
        return None

    def unknown_handler(self, file: SyntaxFile, node: Node) -> Handler:
        """A handler that could not be proven: named by where it is registered."""
        line, _ = file.location(node.start)
        return Handler(None, f"{file.path}:{line}")


def _class_attribute(owner: Class, name: str) -> Any:
    """A class attribute, through project base classes; a BoundMember when none defines it."""
    found = inherited_attribute(owner, name)
    return BoundMember(owner, name) if found is None else found


def _outside_base(cls: Class, depth: int = 0) -> External | None:
    """The first outside class among a project class's bases, depth first (the MRO's order
    for single inheritance)."""
    for base in cls.bases:
        if isinstance(base, External):
            return base
        if isinstance(base, Class) and depth < MAX_BASES_DEPTH:
            found = _outside_base(base, depth + 1)
            if found is not None:
                return found
    return None


def _percent(template: Any, right: Any) -> Any:
    """`template % right` where the template is a string (a tuple's items, or one value)."""
    if not isinstance(template, Text):
        return UNKNOWN
    fields: list[Field] | None
    if isinstance(right, Seq):
        fields = [item if isinstance(item, Text) else None for item in right.items]
    elif right is UNKNOWN:
        fields = None  # a tuple of unknown size or a mapping: the fields are not known
    else:
        fields = [right if isinstance(right, Text) else None]
    found = percent_format(template, fields)
    return UNKNOWN if found is None else found


def _block_bodies(node: Node) -> Iterator[Node]:
    """The statement blocks of a compound statement, in source order."""
    for name in ("consequence", "alternative", "body", "finalizer"):
        part = node.part(name)
        if part is not None:
            if part.kind == "if":  # elif
                yield from _block_bodies(part)
            else:
                yield part
    for item in node.items:
        if item.kind in ("catch", "case"):
            body = item.part("body")
            if body is not None:
                yield body
            elif item.kind == "case":
                yield from (child for child in item.items if child.kind == "block")


def _conditional(item: Any) -> Any:
    """An item added under a condition: registrations say so, anything else is unknown."""
    if is_dataclass(item) and not isinstance(item, type) and hasattr(item, "conditional"):
        return replace(item, conditional=True)
    return UNKNOWN
