"""A static interpreter of module top levels: the part of a Node backend that builds its routers.

Modules run in import order (an imported project module runs first, once),
statements in source order. Calls into project functions are followed with
their arguments bound (`registerRoutes(app)`, `createApp()`, Fastify
plugins) as deep as the value layer's one depth budget (a call cut there is
counted, `interpreter-call-depth`), callbacks handed to routers are not: they
are handlers. Values are
followed through consts, imports, enums, `as const` objects, template
literals and CommonJS `require` / `module.exports`; anything else is UNKNOWN.
Code under a condition, a loop or a `switch` case runs once with its registrations marked
conditional, so the facts say the route may exist and carry no order.

Expressions are evaluated by the `Expressions` base (expressions.py); this
module runs modules, statements and calls.

Framework calls (`app.get`, `router.use`, `fastify.register`, …) are handed to
`frameworks.call_method` with the evaluated arguments; the frameworks
themselves are a table (producers/routes/node/frameworks/).

The interpreter reads the neutral syntax form of each file (SyntaxFile),
cached by content, so a warm run parses nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes.node import frameworks
from tsograph.producers.routes.node.expressions import Expressions
from tsograph.producers.routes.node.promise_callbacks import ON_REJECTION
from tsograph.producers.routes.node.promise_callbacks import Deferred
from tsograph.producers.routes.node.promise_callbacks import awaits_at_top_level
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import ArrayValue
from tsograph.producers.routes.node.runtime_values import ClassValue
from tsograph.producers.routes.node.runtime_values import Context
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue
from tsograph.producers.routes.node.runtime_values import ModuleValue
from tsograph.producers.routes.node.runtime_values import ObjectValue
from tsograph.producers.routes.node.runtime_values import Place
from tsograph.producers.routes.node.runtime_values import RouteBuilder
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Scope
from tsograph.producers.routes.node.runtime_values import Value
from tsograph.producers.routes.node.runtime_values import Wrapped
from tsograph.producers.values import modules
from tsograph.producers.values.budget import DepthBudget
from tsograph.producers.values.budget import recursion_room
from tsograph.producers.values.scopes import Scopes

# A followed call costs about twenty Python frames (statements, expressions, the call;
# 978 frames at the cut of a measured 56-call chain): room for twice that.
_FRAMES_PER_CALL = 40
MAX_STEPS = 400_000  # statements and expressions over the whole project
_LOOPS = frozenset({"for", "for_in", "while", "do"})


class _Budget(Exception):
    """The step budget ran out: the rest of the project is not interpreted."""


@dataclass
class Interpreter(Expressions):
    model: ProjectModel
    modules: dict[str, ModuleValue] = field(default_factory=dict)
    routers: list[RouterValue] = field(default_factory=list)
    coverage: Counter[str] = field(default_factory=Counter)
    coverage_places: set[tuple[str, int]] = field(default_factory=set)
    steps: int = 0
    stack: list[Node] = field(default_factory=list)  # the functions being run, outermost first
    budget: DepthBudget = field(default_factory=DepthBudget)  # how deep calls are followed
    out_of_budget: bool = False
    scopes: dict[str, Scope] = field(default_factory=dict)
    declarations: Scopes = field(default_factory=Scopes)  # the value layer's scope table
    invoked: set[Node] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)  # modules another module imports
    running: set[str] = field(default_factory=set)  # modules whose top level has not ended
    # Names imported from a module of an import cycle before that module had bound them.
    early_reads: list[tuple[ModuleValue, str]] = field(default_factory=list)
    # The framework whose plugins a module exports (`module.exports = async function (fastify)`),
    # loaded by a runner outside the project (fastify-cli, @fastify/autoload).
    plugin_framework: str | None = None
    deferred: list[Deferred] = field(default_factory=list)  # promise callbacks, queued
    reacted: set[Node] = field(default_factory=set)  # the promise callbacks run
    awaiting: dict[str, bool] = field(default_factory=dict)  # module → its top level awaits

    # ---- modules ------------------------------------------------------------

    def run_all(self) -> None:
        self.model.preload()
        try:
            with recursion_room(_FRAMES_PER_CALL):
                paths = self.model.paths
                # Entry modules (imported by no other) run first, as Node starts at one:
                # the modules of an import cycle then run in the order the entry's imports
                # give, not in the order of their paths.
                statically_imported = self._statically_imported(paths)
                entries_first = sorted(paths, key=lambda path: (path in statically_imported, path))
                for path in entries_first:
                    self.module(path)
                self.run_deferred()
                self._unmounted_early_reads()
                # Entry modules (imported by no other) first: what they register is then
                # called, not run a second time as a function nothing calls. A require in
                # a function body that has not run yet still makes its target no entry.
                imported = self.imported | statically_imported
                for path in sorted(paths, key=lambda path: (path in imported, path)):
                    self.uncalled_functions(path)
        except _Budget:
            self.out_of_budget = True

    def _statically_imported(self, paths: list[str]) -> set[str]:
        """Project files some import or require names, wherever the import sits."""
        found: set[str] = set()
        for path in paths:
            parsed = self.model.syntax(path)
            for item in [] if parsed is None else parsed.facts.imports:
                target = None if item.type_only else self.model.source_of(path, item.specifier)
                if target is not None:
                    found.add(target)
        return found

    def uncalled_functions(self, path: str) -> None:
        """Run the module's top-level functions nothing in the project calls.

        Factories such as `export function buildServer()` are called by an entry
        point outside the walk (a test, a CLI): the routers they create are real,
        and a router parameter known only by its type annotation is a router at an
        unknown place (pathAnchor "base"). Registrations they would make on routers
        that exist already are not kept: nothing proves the function runs.
        """
        scope = self.scopes.get(path)
        module = self.modules.get(path)
        if scope is None or module is None:
            return
        exported = [module.commonjs, module.exports.get("default")]
        candidates = {
            value.node: value
            for value in [*scope.names.values(), *exported]
            if isinstance(value, FunctionValue)
            and value.file.facts.path == path
            and value.node not in self.invoked
        }
        functions = sorted(candidates.values(), key=lambda value: value.node.start)
        for function in functions:
            if function.node in self.invoked:
                continue  # called by a function run earlier in this pass
            plugin = self.plugin_framework if any(function is value for value in exported) else None
            frame = Frame(function.file, module, Context(), path)
            existing = list(self.routers)
            args = frameworks.typed_arguments(self, function, frame, plugin)
            for router in existing:
                router.frozen = True
            try:
                self.invoke(function, args, frame)
                self.run_deferred()
            finally:
                for router in existing:
                    router.frozen = False

    def module(self, path: str) -> ModuleValue:
        found = self.modules.get(path)
        if found is not None:
            return found  # already run, or running (an import cycle sees the partial exports)
        module = ModuleValue(path, {})
        self.modules[path] = module
        parsed = self.model.syntax(path)
        if parsed is None:
            return module
        frame = Frame(parsed, module, Context(), path)
        scope = Scope()
        self.scopes[path] = scope
        self.running.add(path)
        try:
            self.block(parsed.root.items, scope, frame)
        finally:
            self.running.discard(path)
        return module

    def _unmounted_early_reads(self) -> None:
        """A router imported from a cycle's module before it was bound was mounted, if at all,
        where the interpreter saw no router (`unresolved-mounted-router`): it is no app at
        the root, so its routes sit below an unknown base (pathAnchor "base")."""
        for module, name in self.early_reads:
            value = module.exports.get(name)
            if isinstance(value, RouterValue) and not value.home().mounted:
                value.home().mounted_unknown = True

    def _imported_name(self, target: Value, name: str) -> Value:
        if (
            isinstance(target, ModuleValue)
            and target.path in self.running
            and name not in target.exports
        ):
            self.early_reads.append((target, name))
        return self.member(target, name)

    def note(self, reason: str, place: Place | None = None) -> None:
        self.coverage[reason] += 1
        if place is not None:
            self.coverage_places.add((place.path, place.line))

    def place(self, file: SyntaxFile, node: Node) -> Place:
        line, column = file.location(node.start)
        return Place(file.facts.path, line, column)

    # ---- statements -----------------------------------------------------------

    def block(self, statements: tuple[Node, ...] | list[Node], scope: Scope, frame: Frame) -> None:
        for statement in statements:  # function declarations are hoisted
            inner = statement.part("declaration") if statement.kind == "export" else statement
            if inner is not None and inner.kind == "function" and inner.value == "declaration":
                self.declare_function(inner, scope, frame)
        for statement in statements:
            if frame.done:
                return
            self.statement(statement, scope, frame)

    def declare_function(self, node: Node, scope: Scope, frame: Frame) -> None:
        name = node.part("name")
        if name is not None and name.value is not None:
            scope.names[name.value] = FunctionValue(frame.file, node, scope)

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Budget

    def statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        self.tick()
        kind = node.kind
        if kind == "declaration":
            for declarator in node.items:
                self.declarator(declarator, scope, frame)
        elif kind == "statement":
            value = node.part("value")
            if value is not None:
                self.eval(value, scope, frame)
        elif kind == "class":
            name = node.part("name")
            if name is not None and name.value is not None:
                scope.names[name.value] = ClassValue(frame.file, node, scope)
        elif kind == "enum":
            self.enum(node, scope, frame)
        elif kind == "import":
            self.import_statement(node, scope, frame)
        elif kind == "export":
            self.export_statement(node, scope, frame)
        elif kind == "block":
            self.block(node.items, Scope(parent=scope), frame)
        elif kind == "if":
            self.if_statement(node, scope, frame)
        elif kind in _LOOPS:
            self.conditional(_statements_of(node.part("body")), scope, frame)
        elif kind == "try":
            body = node.part("body")
            if body is not None:
                self.statement(body, scope, frame)
            handler = node.part("handler")
            if handler is not None:
                self.conditional(_statements_of(handler.part("body")), scope, frame)
            finalizer = node.part("finalizer")
            if finalizer is not None:
                self.conditional(_statements_of(finalizer), scope, frame)
        elif kind == "return":
            value = node.part("value")
            frame.returned = None if value is None else self.eval(value, scope, frame)
            frame.done = True
        elif kind == "labeled":
            body = node.part("body")
            if body is not None:
                self.statement(body, scope, frame)
        elif kind == "switch":
            # Which case runs is not known: every case's statements may run.
            cases = [statement for case in node.items for statement in case.items]
            self.conditional(cases, scope, frame)

    def conditional(self, statements: list[Node], scope: Scope, frame: Frame) -> None:
        """Run statements that may not run: their registrations are marked conditional.

        A `return` among them may or may not happen, so the caller goes on after them.
        """
        inner = replace(frame, context=replace(frame.context, conditional=True), done=False)
        self.block(statements, Scope(parent=scope), inner)

    def if_statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        known, consequence, alternative = self.branches(node, scope, frame)
        if known is not None:
            for statement in _statements_of(consequence if known else alternative):
                self.statement(statement, scope, frame)
            return
        for branch in (consequence, alternative):
            self.conditional(_statements_of(branch), scope, frame)

    def declarator(self, node: Node, scope: Scope, frame: Frame) -> None:
        name = node.part("name")
        value_node = node.part("value")
        value: Value = None if value_node is None else self.eval(value_node, scope, frame)
        if name is None:
            return
        self.bind(name, value, scope, frame)

    def bind(self, pattern: Node, value: Value, scope: Scope, frame: Frame) -> None:
        if pattern.kind == "identifier" and pattern.value is not None:
            scope.names[pattern.value] = value
        elif pattern.kind == "object_pattern":
            for item in pattern.items:
                if item.kind == "shorthand" and item.value is not None:
                    scope.names[item.value] = self.member(value, item.value)
                elif item.kind == "property":
                    target = item.part("value")
                    pair_key = static_key(item)
                    if target is not None:
                        member = UNKNOWN if pair_key is None else self.member(value, pair_key)
                        self.bind(target, member, scope, frame)
                elif item.kind == "assign_pattern":
                    # `{ a = 1 }`: the member, its default not evaluated.
                    left = item.part("left")
                    if left is not None and left.kind == "identifier" and left.value is not None:
                        scope.names[left.value] = self.member(value, left.value)
        elif pattern.kind == "array_pattern":
            items = value.items if isinstance(value, ArrayValue) else []
            for index, item in enumerate(pattern.items):
                self.bind(item, items[index] if index < len(items) else UNKNOWN, scope, frame)

    def enum(self, node: Node, scope: Scope, frame: Frame) -> None:
        name = node.part("name")
        if name is None or name.value is None:
            return
        members: dict[str, Value] = {}
        counter: int | None = 0
        for item in node.items:
            key_node = item.part("name")
            key = None if key_node is None else _property_name(key_node)
            value_node = item.part("value")
            value: Value = counter
            if value_node is not None:
                value = self.eval(value_node, scope, frame)
            if key is not None:
                members[key] = value
            counter = value + 1 if isinstance(value, int) and not isinstance(value, bool) else None
            if counter is None and value_node is None:
                members[key or ""] = UNKNOWN
        scope.names[name.value] = ObjectValue(members)

    # ---- modules: imports and exports ---------------------------------------

    def import_statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        specifier = node.value
        if specifier is None:
            return
        if "type" in node.flags:
            target = self.erased_import(frame.file.facts.path, specifier)
        else:
            target = self.required(frame.file.facts.path, specifier)
        for part in node.items:
            local = part.part("local")
            if local is None or local.value is None:
                continue
            if "type" in part.flags and part.value is not None:
                # `import { type T }`: read for annotations, never a binding of a cycle
                scope.names[local.value] = self.member(target, part.value)
            elif part.kind == "import_default":
                if isinstance(target, ModuleValue) and target.path in self.running:
                    self.early_reads.append((target, "default"))
                scope.names[local.value] = self.default_of(target)
            elif part.kind == "import_namespace":
                scope.names[local.value] = target
            elif part.kind == "import_named" and part.value is not None:
                scope.names[local.value] = self._imported_name(target, part.value)

    def required(self, importer: str, specifier: str) -> Value:
        """What `require(specifier)` / `import * as x` gives: a module, a package, or UNKNOWN."""
        path = self.model.source_of(importer, specifier)
        if path is not None:
            self.imported.add(path)
            return self.module(path)
        if specifier.startswith((".", "/")):
            return UNKNOWN
        return External(_package_name(specifier))

    def erased_import(self, importer: str, specifier: str) -> Value:
        """What `import type` names: the package as for annotations (`router: Router`), or a
        project module only if it has run already. The statement is erased from the emitted
        JavaScript, so the module does not run because of it; running it here ran a module of
        an import cycle first (openstatus: a sub-app's file importing the app file's `Env`
        type left the app's `route('/', sub)` unresolved and the sub-app's routes at the root).
        """
        path = self.model.source_of(importer, specifier)
        if path is None:
            return self.required(importer, specifier)
        return self.modules.get(path, UNKNOWN)

    def default_of(self, target: Value) -> Value:
        if isinstance(target, ModuleValue):
            if "default" in target.exports:
                return target.exports["default"]
            return target.commonjs if target.commonjs is not None else UNKNOWN
        return target  # `import express from 'express'` is the package's main export

    def export_statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        exports = frame.module.exports
        declaration = node.part("declaration")
        if declaration is not None:
            self.statement(declaration, scope, frame)
            names = _declared_names(declaration)
            if "default" in node.flags:
                exports["default"] = scope.lookup(names[0]) if names else UNKNOWN
                return
            for name in names:
                exports[name] = scope.lookup(name)
            return
        if "equals" in node.flags:
            return  # `export = x` is read by `import x = require()`, which is not followed
        value = node.part("value")
        if value is not None:  # export default <expression>
            exports["default"] = self.eval(value, scope, frame)
            return
        target: Value = None
        if node.value is not None and "type" in node.flags:
            return  # `export type { T } from`, `export type * from`: erased, nothing runs
        if node.value is not None:
            target = self.required(frame.file.facts.path, node.value)
        namespace = node.part("namespace")
        if namespace is not None:  # export * as ns from
            if namespace.value is not None:
                exports[namespace.value] = target
            return
        if not node.items:
            if isinstance(target, ModuleValue):  # export * from
                for key, item in target.exports.items():
                    if key != "default":
                        exports.setdefault(key, item)
            return
        for spec in node.items:
            name_node = spec.part("name")
            alias_node = spec.part("alias") or name_node
            if name_node is None or alias_node is None:
                continue
            name, alias = name_node.value or "", alias_node.value or ""
            if node.value is not None:
                exports[alias] = self.member(target, name)
            else:
                found = scope.lookup(name)
                exports[alias] = UNKNOWN if found is None else found

    # ---- calls ----------------------------------------------------------------

    def call(self, node: Node, scope: Scope, frame: Frame) -> Value:
        """A call, or a tagged template (a call whose arguments are not read)."""
        callee = node.part("callee") if node.kind == "call" else node.part("tag")
        if callee is None:
            return UNKNOWN
        arg_nodes = list(node.items) if node.kind == "call" else []
        if modules.is_global_require(callee, self.declarations):
            literal = modules.specifier_argument(node)
            if literal is None:
                return UNKNOWN
            loaded = self.required(frame.file.facts.path, literal)
            if isinstance(loaded, ModuleValue) and loaded.commonjs is not None:
                return loaded.commonjs  # `module.exports = router`
            return loaded
        if modules.is_dynamic_import(callee):
            return UNKNOWN  # a dynamic import: a promise of a module
        if callee.kind == "member":
            target = callee.part("object")
            prop = callee.part("property")
            name = None if prop is None else prop.value
            base = UNKNOWN if target is None else self.eval(target, scope, frame)
            if name is not None and isinstance(base, (RouterValue, RouteBuilder)):
                args = [self.eval(arg, scope, frame) for arg in arg_nodes]
                where = self.place(frame.file, prop if prop is not None else callee)
                return frameworks.call_method(self, base, name, args, where, frame)
            function = UNKNOWN if name is None else self.member(base, name)
            if (
                name in ON_REJECTION
                and target is not None
                and not isinstance(function, (FunctionValue, Wrapped))
            ):
                # A promise method (a project's own `then` is followed as a call).
                args = [self.eval(arg, scope, frame) for arg in arg_nodes]
                if target.kind in ("call", "new"):
                    self.defer(name, args, frame)
                    return UNKNOWN
                if any(isinstance(arg, FunctionValue) for arg in args):
                    # A held value (`p.then(f)`) is not proven a promise: `f` is not
                    # run, and what it may register is counted, not dropped unseen.
                    where = self.place(frame.file, prop if prop is not None else callee)
                    self.note("callback-of-unproven-promise", where)
                return self.apply(function, args, node, frame)
            if name in frameworks.MOUNT_METHODS and not isinstance(
                function, (FunctionValue, Wrapped)
            ):
                args = [self.eval(arg, scope, frame) for arg in arg_nodes]
                frameworks.mounted_by_unknown(args)
                return self.apply(function, args, node, frame)
        else:
            function = self.eval(callee, scope, frame)
        args = [self.eval(arg, scope, frame) for arg in arg_nodes]
        return self.apply(function, args, node, frame)

    def defer(self, method: str, args: list[Value], frame: Frame) -> None:
        """Queue the project-function callbacks of `then`/`catch`/`finally` (promise_callbacks.py).

        After a top level that awaits, the callbacks may run before its later
        statements: they then run as code from outside the module, so their
        registrations on its routers carry no order.
        """
        callbacks = [
            (arg, on_rejection)
            for arg, on_rejection in zip(args, ON_REJECTION[method], strict=False)
            if isinstance(arg, FunctionValue)
        ]
        if not callbacks:
            return
        top = frame.top_module
        if top not in self.awaiting:
            parsed = self.model.syntax(top)
            self.awaiting[top] = parsed is not None and awaits_at_top_level(parsed.root)
        if self.awaiting[top]:
            top = f"{top}#awaiting"
        for function, on_rejection in callbacks:
            context = replace(frame.context, conditional=frame.context.conditional or on_rejection)
            queued = replace(frame, context=context, top_module=top)
            self.deferred.append(Deferred(function, queued))

    def run_deferred(self) -> None:
        """Run the queued callbacks in order; one queued meanwhile runs after them.

        A callback that has run already is not run again: queued anew by its own run
        (a retry loop), it would run until the step budget ends the whole pass.
        """
        while self.deferred:
            waiting = self.deferred.pop(0)
            if waiting.function.node not in self.reacted:
                self.reacted.add(waiting.function.node)
                self.invoke(waiting.function, [UNKNOWN], waiting.frame)

    def apply(self, function: Value, args: list[Value], node: Node, frame: Frame) -> Value:
        if isinstance(function, External):
            made = frameworks.construct(self, function, args, node, frame, new=False)
            if made is not None:
                return made
            return self.wrap(function.__class__(function.package, function.path, True), args)
        if isinstance(function, FunctionValue):
            result = self.invoke(function, args, frame)
            made_inside = isinstance(result, FunctionValue) and _inside(result.node, function.node)
            if made_inside:
                # A project wrapper (`asyncHandler(fn)`) returns its own closure; the code
                # that answers is the function it was given.
                return self.wrap(function, args)
            return result
        if isinstance(function, Wrapped):
            return self.invoke(function.inner, args, frame)
        return self.wrap(UNKNOWN, args)

    def wrap(self, callee: Value, args: list[Value]) -> Value:
        """A call the interpreter cannot see into: keep a function argument as the handler."""
        inner = next((arg for arg in reversed(args) if isinstance(arg, FunctionValue)), None)
        if inner is None:
            inner_wrapped = next((arg for arg in reversed(args) if isinstance(arg, Wrapped)), None)
            if inner_wrapped is not None:
                return Wrapped(callee, inner_wrapped.inner)
            return callee if isinstance(callee, External) else UNKNOWN
        return Wrapped(callee, inner)

    def new(self, node: Node, scope: Scope, frame: Frame) -> Value:
        constructor = node.part("callee")
        if constructor is None:
            return UNKNOWN
        function = self.eval(constructor, scope, frame)
        args = [self.eval(arg, scope, frame) for arg in node.items]
        if isinstance(function, External):
            made = frameworks.construct(self, function, args, node, frame, new=True)
            if made is not None:
                return made
        return UNKNOWN

    def invoke(self, function: FunctionValue, args: list[Value], frame: Frame) -> Value:
        node = function.node
        if node in self.stack:
            return UNKNOWN  # a recursive call: what it gives is not proven
        if self.budget.spent:
            self.note("interpreter-call-depth", self.place(frame.file, node))
            return UNKNOWN
        self.invoked.add(node)
        module = self.modules.get(function.file.facts.path) or ModuleValue(
            function.file.facts.path, {}
        )
        inner = Frame(function.file, module, frame.context, frame.top_module)
        scope = Scope(parent=function.scope)
        params = node.part("parameters")
        for index, param in enumerate([] if params is None else params.items):
            self.bind_parameter(param, args[index] if index < len(args) else None, scope, inner)
        body = node.part("body")
        if body is None:
            return UNKNOWN
        self.stack.append(node)
        self.budget.enter()
        try:
            if body.kind == "block":
                self.block(body.items, scope, inner)
                return inner.returned
            return self.eval(body, scope, inner)
        finally:
            self.budget.leave()
            self.stack.pop()

    def bind_parameter(self, param: Node, value: Value, scope: Scope, frame: Frame) -> None:
        pattern = param.part("pattern")
        if pattern is None or "rest" in param.flags:
            return
        default = param.part("value")
        if value is None and default is not None:
            value = self.eval(default, scope, frame)
        if pattern.kind in ("identifier", "object_pattern", "array_pattern"):
            self.bind(pattern, value, scope, frame)


def _inside(inner: Node, outer: Node) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end and inner is not outer


def _statements_of(branch: Node | None) -> list[Node]:
    """The statements of a branch or body: a block's items, or the lone statement."""
    if branch is None:
        return []
    if branch.kind == "block":
        return list(branch.items)
    return [branch]


def _property_name(node: Node) -> str | None:
    """A static key as written: a name, string, number or identifier; None when computed."""
    if node.kind in ("name", "identifier", "number", "string"):
        return node.value
    return None


def _declared_names(node: Node) -> list[str]:
    if node.kind == "declaration":
        names = []
        for declarator in node.items:
            name = declarator.part("name")
            if name is not None and name.kind == "identifier" and name.value is not None:
                names.append(name.value)
        return names
    name = node.part("name")
    return [] if name is None or name.value is None else [name.value]


def _package_name(specifier: str) -> str:
    parts = specifier.split("/")
    if specifier.startswith("@") and len(parts) > 1:
        return "/".join(parts[:2])
    if specifier.startswith("node:"):
        return specifier
    return parts[0]
