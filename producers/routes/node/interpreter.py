"""A static interpreter of module top levels: the part of a Node backend that builds its routers.

Modules run in import order (an imported project module runs first, once),
statements in source order. Calls into project functions are followed with
their arguments bound (`registerRoutes(app)`, `createApp()`, Fastify
plugins), callbacks handed to routers are not: they are handlers. Values are
followed through consts, imports, enums, `as const` objects, template
literals and CommonJS `require` / `module.exports`; anything else is UNKNOWN.
Code under a condition or a loop runs once with its registrations marked
conditional, so the facts say the route may exist and carry no order.

Framework calls (`app.get`, `router.use`, `fastify.register`, …) are handed to
`frameworks.call_method` with the evaluated arguments.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.lang.typescript.strings import decode_js_string
from tsograph.producers.lang.typescript.syntax import WRAPPERS, property_name, string_value, text
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes.node import frameworks
from tsograph.producers.routes.node.values import (
    UNKNOWN,
    ArrayValue,
    ClassValue,
    Context,
    External,
    FunctionValue,
    ModuleValue,
    ObjectValue,
    Place,
    RouteBuilder,
    RouterValue,
    Scope,
    Value,
    Wrapped,
)

MAX_CALL_DEPTH = 24
MAX_STEPS = 400_000  # statements and expressions over the whole project
_FUNCTIONS = frozenset(
    {
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
        "function_declaration",
    }
)
# Expressions evaluated as the value they wrap, `await` included.
_WRAPPERS = WRAPPERS | {"await_expression"}
_LOOPS = frozenset(
    {"for_statement", "for_in_statement", "while_statement", "do_statement", "switch_statement"}
)


class _Budget(Exception):
    """The step budget ran out: the rest of the project is not interpreted."""


@dataclass
class Frame:
    file: ParsedFile
    module: ModuleValue
    context: Context
    top_module: str  # the module whose top level started this chain of calls
    returned: Value = None
    done: bool = False


@dataclass
class Interpreter:
    model: ProjectModel
    modules: dict[str, ModuleValue] = field(default_factory=dict)
    routers: list[RouterValue] = field(default_factory=list)
    coverage: Counter[str] = field(default_factory=Counter)
    coverage_names: set[str] = field(default_factory=set)
    steps: int = 0
    stack: list[int] = field(default_factory=list)
    out_of_budget: bool = False
    scopes: dict[str, Scope] = field(default_factory=dict)
    invoked: set[int] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)  # modules another module imports
    # The framework whose plugins a module exports (`module.exports = async function (fastify)`),
    # loaded by a runner outside the project (fastify-cli, @fastify/autoload).
    plugin_framework: str | None = None

    # ---- modules ------------------------------------------------------------

    def run_all(self) -> None:
        try:
            for path in self.model.paths:
                self.module(path)
            # Entry modules (imported by no other) first: what they register is then
            # called, not run a second time as a function nothing calls. A require inside
            # a function body that has not run yet still makes its target no entry.
            paths = self.model.paths
            imported = self.imported | self._statically_imported(paths)
            for path in sorted(paths, key=lambda path: (path in imported, path)):
                self.uncalled_functions(path)
        except _Budget:
            self.out_of_budget = True

    def _statically_imported(self, paths: list[str]) -> set[str]:
        """Project files some import or require names, wherever the import sits."""
        found: set[str] = set()
        for path in paths:
            parsed = self.model.parse(path)
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
            value.node.id: value
            for value in [*scope.names.values(), *exported]
            if isinstance(value, FunctionValue)
            and value.file.facts.path == path
            and value.node.id not in self.invoked
        }
        functions = sorted(candidates.values(), key=lambda value: value.node.start_byte)
        for function in functions:
            if function.node.id in self.invoked:
                continue  # called by a function run earlier in this pass
            plugin = self.plugin_framework if any(function is value for value in exported) else None
            frame = Frame(function.file, module, Context(), path)
            existing = list(self.routers)
            args = frameworks.typed_arguments(self, function, frame, plugin)
            for router in existing:
                router.frozen = True
            try:
                self.invoke(function, args, frame)
            finally:
                for router in existing:
                    router.frozen = False

    def module(self, path: str) -> ModuleValue:
        found = self.modules.get(path)
        if found is not None:
            return found  # already run, or running (an import cycle sees the partial exports)
        module = ModuleValue(path, {})
        self.modules[path] = module
        parsed = self.model.parse(path)
        if parsed is None:
            return module
        frame = Frame(parsed, module, Context(), path)
        scope = Scope()
        self.scopes[path] = scope
        self.block(parsed.root.named_children, scope, frame)
        return module

    def note(self, reason: str, place: Place | None = None) -> None:
        self.coverage[reason] += 1
        if place is not None:
            self.coverage_names.add(place.path)

    def place(self, file: ParsedFile, node: Node) -> Place:
        line, column = file.location(node.start_byte)
        return Place(file.facts.path, line, column)

    # ---- statements -----------------------------------------------------------

    def block(self, statements: list[Node], scope: Scope, frame: Frame) -> None:
        for statement in statements:  # function declarations are hoisted
            if statement.type in ("function_declaration", "generator_function_declaration"):
                self.declare_function(statement, scope, frame)
            elif statement.type == "export_statement":
                inner = statement.child_by_field_name("declaration")
                if inner is not None and inner.type in (
                    "function_declaration",
                    "generator_function_declaration",
                ):
                    self.declare_function(inner, scope, frame)
        for statement in statements:
            if frame.done:
                return
            self.statement(statement, scope, frame)

    def declare_function(self, node: Node, scope: Scope, frame: Frame) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            scope.names[text(frame.file.data, name)] = FunctionValue(frame.file, node, scope)

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Budget

    def statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        self.tick()
        kind = node.type
        if kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if declarator.type == "variable_declarator":
                    self.declarator(declarator, scope, frame)
        elif kind == "expression_statement":
            for child in node.named_children:
                self.eval(child, scope, frame)
        elif kind in ("class_declaration", "abstract_class_declaration"):
            name = node.child_by_field_name("name")
            if name is not None:
                scope.names[text(frame.file.data, name)] = ClassValue(frame.file, node, scope)
        elif kind == "enum_declaration":
            self.enum(node, scope, frame)
        elif kind == "import_statement":
            self.import_statement(node, scope, frame)
        elif kind == "export_statement":
            self.export_statement(node, scope, frame)
        elif kind == "statement_block":
            self.block(node.named_children, Scope(parent=scope), frame)
        elif kind == "if_statement":
            self.if_statement(node, scope, frame)
        elif kind in _LOOPS:
            self.conditional_children(node, scope, frame)
        elif kind == "try_statement":
            body = node.child_by_field_name("body")
            if body is not None:
                self.statement(body, scope, frame)
            for part in ("handler", "finalizer"):
                clause = node.child_by_field_name(part)
                if clause is not None:
                    self.conditional_children(clause, scope, frame)
        elif kind == "return_statement":
            value = node.named_children[0] if node.named_children else None
            frame.returned = None if value is None else self.eval(value, scope, frame)
            frame.done = True
        elif kind == "labeled_statement":
            body = node.child_by_field_name("body")
            if body is not None:
                self.statement(body, scope, frame)

    def conditional(self, statements: list[Node], scope: Scope, frame: Frame) -> None:
        """Run statements that may not run: their registrations are marked conditional.

        A `return` among them may or may not happen, so the caller goes on after them.
        """
        inner = replace(frame, context=replace(frame.context, conditional=True), done=False)
        self.block(statements, Scope(parent=scope), inner)

    def conditional_children(self, node: Node, scope: Scope, frame: Frame) -> None:
        statements: list[Node] = []
        for child in node.named_children:
            if child.type in ("statement_block", "switch_body", "switch_case", "switch_default"):
                statements.extend(c for c in child.named_children if c.type != "comment")
            elif child.type.endswith("statement") or child.type == "catch_clause":
                statements.append(child)
        self.conditional(statements, scope, frame)

    def branches(
        self, node: Node, scope: Scope, frame: Frame
    ) -> tuple[bool | None, Node | None, Node | None]:
        """(the condition when it is a known boolean, consequence, alternative) of an if or `?:`."""
        condition = node.child_by_field_name("condition")
        known = None if condition is None else self.eval(condition, scope, frame)
        return (
            known if isinstance(known, bool) else None,
            node.child_by_field_name("consequence"),
            node.child_by_field_name("alternative"),
        )

    def if_statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        known, consequence, alternative = self.branches(node, scope, frame)
        if known is not None:
            for statement in _statements_of(consequence if known else alternative):
                self.statement(statement, scope, frame)
            return
        for branch in (consequence, alternative):
            self.conditional(_statements_of(branch), scope, frame)

    def declarator(self, node: Node, scope: Scope, frame: Frame) -> None:
        name = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        value: Value = None if value_node is None else self.eval(value_node, scope, frame)
        if name is None:
            return
        self.bind(name, value, scope, frame)

    def bind(self, pattern: Node, value: Value, scope: Scope, frame: Frame) -> None:
        data = frame.file.data
        if pattern.type == "identifier":
            scope.names[text(data, pattern)] = value
        elif pattern.type == "object_pattern":
            for item in pattern.named_children:
                if item.type == "shorthand_property_identifier_pattern":
                    key = text(data, item)
                    scope.names[key] = self.member(value, key)
                elif item.type == "pair_pattern":
                    key_node = item.child_by_field_name("key")
                    target = item.child_by_field_name("value")
                    pair_key = None if key_node is None else property_name(data, key_node)
                    if target is not None:
                        member = UNKNOWN if pair_key is None else self.member(value, pair_key)
                        self.bind(target, member, scope, frame)
                elif item.type == "object_assignment_pattern":
                    left = item.child_by_field_name("left")
                    if left is not None and left.type == "shorthand_property_identifier_pattern":
                        scope.names[text(data, left)] = self.member(value, text(data, left))
        elif pattern.type == "array_pattern":
            items = value.items if isinstance(value, ArrayValue) else []
            for index, item in enumerate(pattern.named_children):
                self.bind(item, items[index] if index < len(items) else UNKNOWN, scope, frame)

    def enum(self, node: Node, scope: Scope, frame: Frame) -> None:
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is None or body is None:
            return
        members: dict[str, Value] = {}
        counter: int | None = 0
        for item in body.named_children:
            key_node = item.child_by_field_name("name") if item.type == "enum_assignment" else item
            key = None if key_node is None else property_name(frame.file.data, key_node)
            value_node = (
                item.child_by_field_name("value") if item.type == "enum_assignment" else None
            )
            value: Value = counter
            if value_node is not None:
                value = self.eval(value_node, scope, frame)
            if key is not None:
                members[key] = value
            counter = value + 1 if isinstance(value, int) and not isinstance(value, bool) else None
            if counter is None and value_node is None:
                members[key or ""] = UNKNOWN
        scope.names[text(frame.file.data, name)] = ObjectValue(members)

    # ---- modules: imports and exports ---------------------------------------

    def import_statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        source = node.child_by_field_name("source")
        specifier = None if source is None else string_value(frame.file.data, source)
        if specifier is None:
            return
        target = self.required(frame.file.facts.path, specifier)
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if clause is None:
            return
        data = frame.file.data
        for part in clause.named_children:
            if part.type == "identifier":  # default import
                scope.names[text(data, part)] = self.default_of(target)
            elif part.type == "namespace_import":
                ident = next((c for c in part.named_children if c.type == "identifier"), None)
                if ident is not None:
                    scope.names[text(data, ident)] = target
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    imported = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias") or imported
                    if imported is None or alias is None:
                        continue
                    name = property_name(data, imported) or text(data, imported)
                    scope.names[text(data, alias)] = self.member(target, name)

    def required(self, importer: str, specifier: str) -> Value:
        """What `require(specifier)` / `import * as x` gives: a module, a package, or UNKNOWN."""
        path = self.model.source_of(importer, specifier)
        if path is not None:
            self.imported.add(path)
            return self.module(path)
        if specifier.startswith((".", "/")):
            return UNKNOWN
        return External(_package_name(specifier))

    def default_of(self, target: Value) -> Value:
        if isinstance(target, ModuleValue):
            if "default" in target.exports:
                return target.exports["default"]
            return target.commonjs if target.commonjs is not None else UNKNOWN
        return target  # `import express from 'express'` is the package's main export

    def export_statement(self, node: Node, scope: Scope, frame: Frame) -> None:
        data = frame.file.data
        exports = frame.module.exports
        declaration = node.child_by_field_name("declaration")
        if declaration is not None:
            self.statement(declaration, scope, frame)
            names = _declared_names(data, declaration)
            if any(child.type == "default" for child in node.children):
                exports["default"] = scope.lookup(names[0]) if names else UNKNOWN
                return
            for name in names:
                exports[name] = scope.lookup(name)
            return
        value = node.child_by_field_name("value")
        if value is not None:  # export default <expression>
            exports["default"] = self.eval(value, scope, frame)
            return
        source = node.child_by_field_name("source")
        target: Value = None
        if source is not None:
            specifier = string_value(data, source)
            target = (
                UNKNOWN if specifier is None else self.required(frame.file.facts.path, specifier)
            )
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        if clause is None:
            if isinstance(target, ModuleValue):  # export * from
                for key, item in target.exports.items():
                    if key != "default":
                        exports.setdefault(key, item)
            return
        for spec in clause.named_children:
            if spec.type != "export_specifier":
                continue
            name_node = spec.child_by_field_name("name")
            alias_node = spec.child_by_field_name("alias") or name_node
            if name_node is None or alias_node is None:
                continue
            name = property_name(data, name_node) or text(data, name_node)
            alias = property_name(data, alias_node) or text(data, alias_node)
            if source is not None:
                exports[alias] = self.member(target, name)
            else:
                found = scope.lookup(name)
                exports[alias] = UNKNOWN if found is None else found

    # ---- expressions ------------------------------------------------------------

    def eval(self, node: Node, scope: Scope, frame: Frame) -> Value:
        self.tick()
        kind = node.type
        data = frame.file.data
        if kind in _WRAPPERS:
            inner = node.named_children[-1] if node.named_children else None
            if kind in ("parenthesized_expression", "as_expression", "satisfies_expression"):
                inner = node.named_children[0] if node.named_children else None
            return UNKNOWN if inner is None else self.eval(inner, scope, frame)
        if kind == "string":
            value = string_value(data, node)
            return UNKNOWN if value is None else value
        if kind == "template_string":
            return self.template(node, scope, frame)
        if kind == "number":
            return _number(text(data, node))
        if kind in ("true", "false"):
            return kind == "true"
        if kind in ("null", "undefined"):
            return None
        if kind == "identifier":
            name = text(data, node)
            if scope.has(name):
                return scope.lookup(name)
            return None if name == "undefined" else UNKNOWN
        if kind == "member_expression":
            return self.member_expression(node, scope, frame)
        if kind == "subscript_expression":
            target = node.child_by_field_name("object")
            index = node.child_by_field_name("index")
            if target is None or index is None:
                return UNKNOWN
            key = self.eval(index, scope, frame)
            base = self.eval(target, scope, frame)
            if isinstance(key, str):
                return self.member(base, key)
            if isinstance(key, int) and isinstance(base, ArrayValue) and 0 <= key < len(base.items):
                return base.items[key]
            return UNKNOWN
        if kind == "object":
            return self.object(node, scope, frame)
        if kind == "array":
            items = [
                self.eval(child, scope, frame)
                for child in node.named_children
                if child.type != "spread_element"
            ]
            complete = all(child.type != "spread_element" for child in node.named_children)
            return ArrayValue(items, complete)
        if kind in _FUNCTIONS:
            return FunctionValue(frame.file, node, scope)
        if kind == "class":
            return ClassValue(frame.file, node, scope)
        if kind == "call_expression":
            return self.call(node, scope, frame)
        if kind == "new_expression":
            return self.new(node, scope, frame)
        if kind == "binary_expression":
            return self.binary(node, scope, frame)
        if kind == "ternary_expression":
            known, consequence, alternative = self.branches(node, scope, frame)
            if known is not None:
                chosen = consequence if known else alternative
                return UNKNOWN if chosen is None else self.eval(chosen, scope, frame)
            unsure = replace(frame, context=replace(frame.context, conditional=True))
            for part in (consequence, alternative):
                if part is not None:
                    self.eval(part, scope, unsure)
            return UNKNOWN
        if kind == "assignment_expression":
            return self.assignment(node, scope, frame)
        if kind == "sequence_expression":
            result: Value = UNKNOWN
            for child in node.named_children:
                result = self.eval(child, scope, frame)
            return result
        if kind == "unary_expression":
            operand = node.child_by_field_name("argument")
            operand_value = UNKNOWN if operand is None else self.eval(operand, scope, frame)
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type == "!" and isinstance(operand_value, bool):
                return not operand_value
            return UNKNOWN
        return UNKNOWN

    def template(self, node: Node, scope: Scope, frame: Frame) -> Value:
        parts: list[str] = []
        for child in node.named_children:
            if child.type == "string_fragment":
                parts.append(text(frame.file.data, child))
            elif child.type == "escape_sequence":
                parts.append(decode_js_string(text(frame.file.data, child)))
            elif child.type == "template_substitution":
                inner = child.named_children[0] if child.named_children else None
                value = UNKNOWN if inner is None else self.eval(inner, scope, frame)
                if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                    return UNKNOWN
                parts.append(_js_string(value))
        return "".join(parts)

    def binary(self, node: Node, scope: Scope, frame: Frame) -> Value:
        operator = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if operator is None or left is None or right is None:
            return UNKNOWN
        op = operator.type
        left_value = self.eval(left, scope, frame)
        if op in ("&&", "||", "??"):
            if (op == "&&" and left_value is False) or (op == "||" and left_value is True):
                return left_value
            if op == "??" and left_value is not None and left_value is not UNKNOWN:
                return left_value
            decided = isinstance(left_value, bool) or (op == "??" and left_value is None)
            inner = (
                frame
                if decided
                else replace(frame, context=replace(frame.context, conditional=True))
            )
            right_value = self.eval(right, scope, inner)
            return right_value if decided else UNKNOWN
        right_value = self.eval(right, scope, frame)
        if op == "+" and isinstance(left_value, str) and _is_scalar(right_value):
            return left_value + _js_string(right_value)
        if op == "+" and isinstance(right_value, str) and _is_scalar(left_value):
            return _js_string(left_value) + right_value
        if op in ("===", "==", "!==", "!=") and _is_scalar(left_value) and _is_scalar(right_value):
            same = left_value == right_value
            return same if op in ("===", "==") else not same
        return UNKNOWN

    def object(self, node: Node, scope: Scope, frame: Frame) -> Value:
        result = ObjectValue()
        data = frame.file.data
        for item in node.named_children:
            if item.type == "pair":
                key_node = item.child_by_field_name("key")
                value_node = item.child_by_field_name("value")
                key = None
                if key_node is not None:
                    key = property_name(data, key_node)
                    if key_node.type == "computed_property_name" and key_node.named_children:
                        computed = self.eval(key_node.named_children[0], scope, frame)
                        key = computed if isinstance(computed, str) else None
                if key is None or value_node is None:
                    result.complete = False
                    continue
                result.members[key] = self.eval(value_node, scope, frame)
            elif item.type == "shorthand_property_identifier":
                key = text(data, item)
                found = scope.lookup(key)
                result.members[key] = UNKNOWN if found is None else found
            elif item.type == "method_definition":
                name = item.child_by_field_name("name")
                key = None if name is None else property_name(data, name)
                if key is None:
                    result.complete = False
                else:
                    result.members[key] = FunctionValue(frame.file, item, scope)
            elif item.type == "spread_element":
                spread = (
                    self.eval(item.named_children[0], scope, frame)
                    if item.named_children
                    else UNKNOWN
                )
                if isinstance(spread, ObjectValue):
                    result.members.update(spread.members)
                    result.complete = result.complete and spread.complete
                else:
                    result.complete = False
        return result

    def member(self, base: Value, name: str) -> Value:
        if isinstance(base, ObjectValue):
            return base.members.get(name, UNKNOWN)
        if isinstance(base, ModuleValue):
            if name in base.exports:
                return base.exports[name]
            if base.commonjs is not None:
                return self.member(base.commonjs, name)
            return UNKNOWN
        if isinstance(base, External):
            return base.member(name)
        if isinstance(base, ClassValue):
            return _static_method(base, name)
        if isinstance(base, ArrayValue) and name == "length" and base.complete:
            return len(base.items)
        return UNKNOWN

    def member_expression(self, node: Node, scope: Scope, frame: Frame) -> Value:
        target = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if target is None or prop is None:
            return UNKNOWN
        data = frame.file.data
        name = property_name(data, prop)
        if target.type == "identifier" and text(data, target) == "module" and name == "exports":
            exported = frame.module.commonjs
            if exported is None:
                exported = ObjectValue(frame.module.exports)
            return exported
        base = self.eval(target, scope, frame)
        if name is None:
            return UNKNOWN
        return self.member(base, name)

    def assignment(self, node: Node, scope: Scope, frame: Frame) -> Value:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return UNKNOWN
        value = self.eval(right, scope, frame)
        data = frame.file.data
        chain = text(data, left)
        if chain == "module.exports":
            frame.module.commonjs = value
            if isinstance(value, ObjectValue):
                frame.module.exports.update(value.members)
        elif left.type == "member_expression" and chain.startswith(("exports.", "module.exports.")):
            prop = left.child_by_field_name("property")
            key = None if prop is None else property_name(data, prop)
            if key is not None and chain.count(".") == (1 if chain.startswith("exports.") else 2):
                frame.module.exports[key] = value
                if isinstance(frame.module.commonjs, ObjectValue):
                    frame.module.commonjs.members[key] = value
        elif left.type == "identifier":
            scope.assign(text(data, left), value)
        elif left.type == "member_expression":
            target = left.child_by_field_name("object")
            prop = left.child_by_field_name("property")
            key = None if prop is None else property_name(data, prop)
            base = None if target is None else self.eval(target, scope, frame)
            if isinstance(base, ObjectValue) and key is not None:
                base.members[key] = value
        return value

    # ---- calls ----------------------------------------------------------------

    def arguments(self, node: Node) -> list[Node]:
        args = node.child_by_field_name("arguments")
        if args is None or args.type != "arguments":
            return []
        return [child for child in args.named_children if child.type != "comment"]

    def call(self, node: Node, scope: Scope, frame: Frame) -> Value:
        callee = node.child_by_field_name("function")
        if callee is None:
            return UNKNOWN
        data = frame.file.data
        arg_nodes = self.arguments(node)
        if callee.type == "identifier" and text(data, callee) == "require":
            literal = string_value(data, arg_nodes[0]) if arg_nodes else None
            if literal is None:
                return UNKNOWN
            loaded = self.required(frame.file.facts.path, literal)
            if isinstance(loaded, ModuleValue) and loaded.commonjs is not None:
                return loaded.commonjs  # `module.exports = router`
            return loaded
        if callee.type == "import":
            return UNKNOWN
        if callee.type == "member_expression":
            target = callee.child_by_field_name("object")
            prop = callee.child_by_field_name("property")
            name = None if prop is None else property_name(data, prop)
            base = UNKNOWN if target is None else self.eval(target, scope, frame)
            if name is not None and isinstance(base, (RouterValue, RouteBuilder)):
                args = [self.eval(arg, scope, frame) for arg in arg_nodes]
                where = self.place(frame.file, prop if prop is not None else callee)
                return frameworks.call_method(self, base, name, args, arg_nodes, where, frame)
            function = UNKNOWN if name is None else self.member(base, name)
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
        constructor = node.child_by_field_name("constructor")
        if constructor is None:
            return UNKNOWN
        function = self.eval(constructor, scope, frame)
        args = [self.eval(arg, scope, frame) for arg in self.arguments(node)]
        if isinstance(function, External):
            made = frameworks.construct(self, function, args, node, frame, new=True)
            if made is not None:
                return made
        return UNKNOWN

    def invoke(self, function: FunctionValue, args: list[Value], frame: Frame) -> Value:
        node = function.node
        if len(self.stack) >= MAX_CALL_DEPTH or node.id in self.stack:
            return UNKNOWN
        self.invoked.add(node.id)
        module = self.modules.get(function.file.facts.path) or ModuleValue(
            function.file.facts.path, {}
        )
        inner = Frame(function.file, module, frame.context, frame.top_module)
        scope = Scope(parent=function.scope)
        params = node.child_by_field_name("parameters")
        if params is None and node.type == "arrow_function":
            single = node.child_by_field_name("parameter")
            if single is not None:
                scope.names[text(function.file.data, single)] = args[0] if args else None
        for index, param in enumerate([] if params is None else params.named_children):
            self.bind_parameter(param, args[index] if index < len(args) else None, scope, inner)
        body = node.child_by_field_name("body")
        if body is None:
            return UNKNOWN
        self.stack.append(node.id)
        try:
            if body.type == "statement_block":
                self.block(body.named_children, scope, inner)
                return inner.returned
            return self.eval(body, scope, inner)
        finally:
            self.stack.pop()

    def bind_parameter(self, param: Node, value: Value, scope: Scope, frame: Frame) -> None:
        pattern = (
            param.child_by_field_name("pattern")
            if param.type
            in (
                "required_parameter",
                "optional_parameter",
            )
            else param
        )
        if pattern is None:
            return
        default = param.child_by_field_name("value")
        if value is None and default is not None:
            value = self.eval(default, scope, frame)
        if pattern.type == "assignment_pattern":
            left = pattern.child_by_field_name("left")
            right = pattern.child_by_field_name("right")
            if value is None and right is not None:
                value = self.eval(right, scope, frame)
            if left is not None:
                self.bind(left, value, scope, frame)
            return
        if pattern.type in ("identifier", "object_pattern", "array_pattern"):
            self.bind(pattern, value, scope, frame)


def _static_method(cls: ClassValue, name: str) -> Value:
    """`Controller.list` handed to a router or called: the class's static method of that name."""
    body = cls.node.child_by_field_name("body")
    for item in [] if body is None else body.named_children:
        kinds = {child.type for child in item.children}
        if item.type != "method_definition" or "static" not in kinds or kinds & {"get", "set"}:
            continue  # an accessor's value is what it returns, not the function
        key = item.child_by_field_name("name")
        if key is not None and property_name(cls.file.data, key) == name:
            return FunctionValue(cls.file, item, cls.scope)
    return UNKNOWN


def _inside(inner: Node, outer: Node) -> bool:
    return (
        outer.start_byte <= inner.start_byte
        and inner.end_byte <= outer.end_byte
        and inner.id != outer.id
    )


def _statements_of(branch: Node | None) -> list[Node]:
    """The statements of an if branch: a block's children, an else clause's, or the lone one."""
    if branch is None:
        return []
    if branch.type == "else_clause":
        return [child for c in branch.named_children for child in _statements_of(c)]
    if branch.type == "statement_block":
        return [child for child in branch.named_children if child.type != "comment"]
    return [branch]


def _declared_names(data: bytes, node: Node) -> list[str]:
    if node.type in ("lexical_declaration", "variable_declaration"):
        names = []
        for declarator in node.named_children:
            name = declarator.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                names.append(text(data, name))
        return names
    name = node.child_by_field_name("name")
    return [] if name is None else [text(data, name)]


def _package_name(specifier: str) -> str:
    parts = specifier.split("/")
    if specifier.startswith("@") and len(parts) > 1:
        return "/".join(parts[:2])
    if specifier.startswith("node:"):
        return specifier
    return parts[0]


def _number(literal: str) -> Value:
    try:
        return int(literal.replace("_", ""), 0)
    except ValueError:
        try:
            return float(literal.replace("_", ""))
        except ValueError:
            return UNKNOWN


def _is_scalar(value: Value) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def _js_string(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
