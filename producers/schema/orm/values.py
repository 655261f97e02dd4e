"""Provenance: what a receiver expression is, proven from the syntax alone.

`Evaluator.value(path, node)` follows an expression back to where its value comes from:
variable initializers (and, for `let x;`, every assignment agreeing), function return
values (declared return type first, then the returned expressions), type annotations
(aliases, interfaces with what they extend, global and namespaced declarations of
scripts and `.d.ts` files, `Promise<T>`, `ReturnType<typeof f>`), class fields and
constructor parameter properties (`this.db`), callback parameters of calls whose
receiver is proven (`db.transaction(tx => …)`, Hono route handlers), parameters that
every call site in the project fills with the same proven value (`module.exports =
(sequelize) => …` called as `require('./m')(sequelize)`), ES imports, re-exports and
CommonJS `require` / `module.exports`, across files through the project's module
resolver. `constant()` reads strings the same way (`TABLE_NAMES.users`). Nothing is
executed and no inferred type is used: a value that cannot be followed is None, and a
chain longer than MAX_DEPTH stops (counted in `cuts`).

Values (`Val.kind`):
  pkg              an imported package value; `ref` is a `PkgRef`
  drizzle, knex    a Drizzle database / knex instance (or transaction)
  sql              a raw driver client whose query/execute/prepare/… take SQL
  tag              a tagged-template SQL function (postgres.js, neon, @vercel/postgres)
  d1               a Cloudflare D1 binding
  typeorm-ds, typeorm-manager, typeorm-repo (`ref` the entity value)
  sequelize        a Sequelize instance
  hono, hono-ctx   a Hono app / handler context (`ref` the Bindings type node, or None)
  struct           a declared object shape; `ref` is a tuple of (path, type body node)
  object           an object literal; `ref` is (path, node)
  function         a project function; `ref` is (path, node)
  class            a project class that no ORM claimed; `ref` is (path, node)
  module           a project file imported whole; `ref` is its path
  string, text     a constant string (`ref` is it) / some text that is not constant
  instance         an instance of a project class (a type annotation naming a class)
  …                and whatever the ORM hooks return (drizzle-table, typeorm-entity, …)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.lang.typescript.syntax import (
    property_name,
    string_value,
    text,
    unwrap_value,
)
from tsograph.producers.schema.orm import packages
from tsograph.producers.schema.orm.nodes import ASSIGNMENTS, code_nodes
from tsograph.producers.schema.orm.tree import (
    Binding,
    args_node_of,
    call_arguments,
    children,
    declared,
    global_types,
    imported_names,
    is_const,
    parameter_names,
    plain_template,
    returned_expressions,
    scope_names,
)
from tsograph.producers.schema.syntax import FUNCTIONS

# How deep one question may follow values before giving up (counted as a cut).
MAX_DEPTH = 48
SCOPES = frozenset({"program", "statement_block", "switch_case", "switch_default", "class_body"})
ROUTE_METHODS = frozenset({"get", "post", "put", "delete", "patch", "all", "use", "on", "options"})
TRANSACTION_KINDS = frozenset({"drizzle", "knex", "tag", "sql"})
TYPEORM_REPOSITORY = ("typeorm", "Repository")
# Callee shapes whose calls are indexed for caller provenance.
CALLER_SHAPES = frozenset({"identifier", "member_expression", "call_expression"})


@dataclass(frozen=True, slots=True)
class PkgRef:
    package: str  # the supported package entry (`drizzle-orm`)
    specifier: str  # as written (`drizzle-orm/pg-core`)
    name: str  # imported name, `default`, or `*` for the module object


@dataclass(frozen=True, slots=True)
class Val:
    kind: str
    ref: Any = None


Hook = Callable[["Evaluator", str, Node, Val], "Val | None"]


@dataclass
class OrmProject:
    """The sources the phase reads: parsed files, `.d.ts` texts and module resolution."""

    files: dict[str, ParsedFile]
    declaration_files: dict[str, ParsedFile] = field(default_factory=dict)
    resolve: Callable[[str, str], str | None] = lambda importer, specifier: None

    def parsed(self, path: str) -> ParsedFile | None:
        return self.files.get(path) or self.declaration_files.get(path)


class Evaluator:
    def __init__(self, project: OrmProject, hooks: dict[str, Hook] | None = None) -> None:
        self.project = project
        self.hooks = hooks or {}
        # kind -> what a member of such a value is (`sequelize.models`).
        self.member_hooks: dict[str, Callable[[Val, str], Val | None]] = {}
        # Expressions where tracing stopped at MAX_DEPTH (counted once each).
        self.cuts: set[tuple[str, int]] = set()
        self._memo: dict[tuple[str, int, int, str], Val | None] = {}
        self._active: set[tuple[str, int, int, str]] = set()
        self._depth = 0
        self._globals: dict[str, list[tuple[str, Node]]] | None = None
        self._callers: dict[tuple[str, int], list[tuple[str, Node]]] | None = None
        self._nodes: dict[str, tuple[Node, ...]] = {}
        # Keyed by (id of the file's bytes, start, end, node type): one table per scope.
        self._scopes: dict[tuple[int, int, int, str], dict[str, Binding]] = {}
        self._assignments: dict[tuple[int, int, int, str], dict[str, list[Node]]] = {}

    # ---- entry points ------------------------------------------------------

    def nodes(self, path: str) -> tuple[Node, ...]:
        """Calls, `new` expressions and member accesses of a file, in source order."""
        found = self._nodes.get(path)
        if found is None:
            parsed = self.project.parsed(path)
            found = () if parsed is None else code_nodes(path, parsed.root)
            self._nodes[path] = found
        return found

    def data(self, path: str) -> bytes:
        parsed = self.project.parsed(path)
        return b"" if parsed is None else parsed.data

    def value(self, path: str, node: Node | None) -> Val | None:
        if node is None:
            return None
        key = (path, node.start_byte, node.end_byte, node.type)
        if key in self._memo:
            return self._memo[key]
        if key in self._active:
            return None
        if self._depth >= MAX_DEPTH:
            self.cuts.add((path, node.start_byte))
            return None
        return self._evaluate(key, lambda: self._value(path, node))

    def _evaluate(
        self, key: tuple[str, int, int, str], compute: Callable[[], Val | None]
    ) -> Val | None:
        """Compute and remember the value under `key`, marked active (a cycle gives None)
        and one level deeper while it runs."""
        self._active.add(key)
        self._depth += 1
        try:
            result = compute()
        finally:
            self._depth -= 1
            self._active.discard(key)
        self._memo[key] = result
        return result

    def constant(self, path: str, node: Node | None) -> str | None:
        """A string the expression always is: a literal, a `const`, a member of a const
        object (`TABLE_NAMES.users`), across imports."""
        found = self.value(path, node)
        return found.ref if found is not None and found.kind == "string" else None

    # ---- expressions -------------------------------------------------------

    def _value(self, path: str, node: Node) -> Val | None:
        node = unwrap_value(node)
        kind = node.type
        data = self.data(path)
        if kind in ("identifier", "shorthand_property_identifier"):
            return self.name_value(path, node, text(data, node))
        if kind == "this":
            return self._this_value(path, node)
        if kind == "member_expression":
            obj = node.child_by_field_name("object")
            prop = node.child_by_field_name("property")
            if obj is None or prop is None:
                return None
            name = property_name(data, prop)
            if name is None:
                return None
            if obj.type == "this":
                found = self._this_member(path, node, name)
                if found is not None:
                    return found
            if text(data, obj).replace(" ", "") == "process.env":
                return Val("text")  # an environment variable: some text
            return self.member(path, self.value(path, obj), name)
        if kind in ("call_expression", "new_expression"):
            return self._call(path, node)
        if kind == "binary_expression":
            operator = node.child_by_field_name("operator")
            if operator is not None and text(data, operator) in ("??", "||"):
                for side in ("left", "right"):
                    found = self.value(path, node.child_by_field_name(side))
                    if found is not None:
                        return found
            return None
        if kind == "object":
            return Val("object", (path, node))
        if kind in ("string", "template_string"):
            written = string_value(data, node) if kind == "string" else plain_template(data, node)
            # A template with substitutions is some text, not a constant.
            return Val("text") if written is None else Val("string", written)
        if kind in FUNCTIONS:
            return Val("function", (path, node))
        if kind == "class":
            return self._class(path, node)
        return None

    def name_value(self, path: str, at: Node, name: str) -> Val | None:
        binding = self.lookup(path, at, name)
        return None if binding is None else self.binding_value(path, binding)

    def binding_value(self, path: str, binding: Binding) -> Val | None:
        node = binding.node
        kind = node.type
        if kind == "variable_declarator":
            annotation = node.child_by_field_name("type")
            found = None
            if annotation is not None and not binding.keys:
                found = self.type_value(path, annotation)
            initializer = node.child_by_field_name("value")
            if found is None and initializer is None and not binding.keys:
                found = self._assigned(path, node)
            if found is None:
                found = self.value(path, initializer)
                for key in binding.keys:
                    found = self.member(path, found, key)
            if found is not None and found.kind == "string" and not is_const(node):
                return None  # a `let` may be reassigned: its string is not a constant
            return found
        if kind in ("required_parameter", "optional_parameter", "identifier"):
            return self._parameter(path, node, binding.keys)
        if kind in ("import_specifier", "import_clause", "namespace_import"):
            return self._import(path, node, binding.keys)
        if kind in ("function_declaration", "generator_function_declaration"):
            return Val("function", (path, node))
        if kind in ("class_declaration", "abstract_class_declaration"):
            return self._class(path, node)
        return None

    def _assigned(self, path: str, declarator: Node) -> Val | None:
        """`let db; … db = new Pool()`: every assignment to the variable in its scope must
        give the same proven value."""
        name_node = declarator.child_by_field_name("name")
        scope = declarator.parent
        while scope is not None and scope.type not in SCOPES:
            scope = scope.parent
        if name_node is None or scope is None:
            return None
        data = self.data(path)
        name = text(data, name_node)
        values: list[Val | None] = []
        for assignment in self._assignments_in(path, scope, data).get(name, ()):
            left = assignment.child_by_field_name("left")
            binding = None if left is None else self.lookup(path, left, name)
            if binding is not None and binding.node == declarator:
                values.append(self.value(path, assignment.child_by_field_name("right")))
        if not values or any(value != values[0] for value in values):
            return None
        return values[0]

    def _assignments_in(self, path: str, scope: Node, data: bytes) -> dict[str, list[Node]]:
        """`name = …` assignments anywhere below a scope, by name (walked once per scope)."""
        key = (id(data), scope.start_byte, scope.end_byte, scope.type)
        found = self._assignments.get(key)
        if found is None:
            found = {}
            for node in code_nodes(path, scope, ASSIGNMENTS):
                left = node.child_by_field_name("left")
                if left is not None:
                    found.setdefault(text(data, left), []).append(node)
            self._assignments[key] = found
        return found

    def _class(self, path: str, node: Node) -> Val:
        hook = self.hooks.get("class")
        found = None if hook is None else hook(self, path, node, Val("class", (path, node)))
        return found or Val("class", (path, node))

    # ---- scopes --------------------------------------------------------------

    def lookup(self, path: str, at: Node, name: str) -> Binding | None:
        """The innermost declaration of `name` visible at `at` (hoisting ignored)."""
        data = self.data(path)
        node: Node | None = at
        while node is not None:
            if node.type in FUNCTIONS:
                found = self._in_parameters(node, data, name)
                if found is not None:
                    return found
            if node.type in SCOPES:
                found = self._in_scope(node, data, name)
                if found is not None:
                    return found
            node = node.parent
        return None

    def _in_parameters(self, function: Node, data: bytes, name: str) -> Binding | None:
        return self._table(function, data, parameter_names).get(name)

    def _in_scope(self, scope: Node, data: bytes, name: str) -> Binding | None:
        return self._table(scope, data, scope_names).get(name)

    def _table(
        self,
        node: Node,
        data: bytes,
        names: Callable[[Node, bytes], Iterator[tuple[str, Binding]]],
    ) -> dict[str, Binding]:
        """The names a scope or parameter list declares, first declaration first (built
        once per node: a lookup walks up a handful of scopes, not their statements)."""
        key = (id(data), node.start_byte, node.end_byte, node.type)
        table = self._scopes.get(key)
        if table is None:
            table = {}
            for name, binding in names(node, data):
                table.setdefault(name, binding)
            self._scopes[key] = table
        return table

    def _declares(self, statement: Node, data: bytes, name: str) -> Binding | None:
        return next(
            (found for written, found in declared(statement, data) if written == name), None
        )

    def _import_binding(self, statement: Node, data: bytes, name: str) -> Binding | None:
        return next(
            (found for written, found in imported_names(statement, data) if written == name), None
        )

    # ---- imports and exports ------------------------------------------------------

    def _import_source(self, path: str, node: Node) -> str | None:
        """The module specifier of the import statement that holds `node`."""
        statement = node
        while statement.type != "import_statement" and statement.parent is not None:
            statement = statement.parent
        source = statement.child_by_field_name("source")
        return None if source is None else string_value(self.data(path), source)

    def _import(self, path: str, node: Node, keys: tuple[str, ...]) -> Val | None:
        data = self.data(path)
        specifier = self._import_source(path, node)
        if specifier is None:
            return None
        if node.type == "import_specifier":
            imported_node = node.child_by_field_name("name")
            imported = "" if imported_node is None else text(data, imported_node)
            if imported_node is not None and imported_node.type == "string":
                imported = string_value(data, imported_node) or ""
        elif node.type == "namespace_import":
            imported = "*"
        else:
            imported = "default"
        found = self.imported(path, specifier, imported)
        for key in keys:
            found = self.member(path, found, key)
        return found

    def imported(self, importer: str, specifier: str, name: str) -> Val | None:
        """The value `name` of module `specifier` as seen from `importer`."""
        package = packages.package_of(specifier, packages.SUPPORTED + packages.HELPERS)
        if package is not None:
            ref = PkgRef(package, specifier, name)
            direct = packages.IMPORTED_VALUES.get((package, name))
            return Val(direct) if direct else Val("pkg", ref)
        target = self.project.resolve(importer, specifier)
        if target is None:
            return None
        if name == "*":
            return Val("module", target)
        return self.exported(target, name)

    def exported(self, path: str, name: str, seen: frozenset[str] = frozenset()) -> Val | None:
        parsed = self.project.parsed(path)
        if parsed is None or path in seen:
            return None
        data = parsed.data
        seen = seen | {path}
        for statement in children(parsed.root):
            found = self._export_of(path, statement, data, name, seen)
            if found is not None:
                return found
        return None

    def _export_of(
        self, path: str, statement: Node, data: bytes, name: str, seen: frozenset[str]
    ) -> Val | None:
        if statement.type == "expression_statement":
            return self._commonjs_export(path, statement, data, name)
        if statement.type != "export_statement":
            return None
        declaration = statement.child_by_field_name("declaration")
        source = statement.child_by_field_name("source")
        specifier = None if source is None else string_value(data, source)
        is_default = any(child.type == "default" for child in statement.children)
        if is_default:
            if name != "default":
                return None
            value = declaration or statement.child_by_field_name("value")
            if value is not None and value.type in ("class_declaration", "class"):
                return self._class(path, value)
            if value is not None and value.type == "function_declaration":
                return Val("function", (path, value))
            return self.value(path, value)
        if declaration is not None:
            binding = self._declares(declaration, data, name)
            return None if binding is None else self.binding_value(path, binding)
        for clause in children(statement):
            if clause.type == "export_clause":
                for spec in children(clause):
                    local = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias") or local
                    if local is None or alias is None or property_name(data, alias) != name:
                        continue
                    local_name = property_name(data, local) or ""
                    if specifier is not None:
                        return self.imported(path, specifier, local_name)
                    binding = self.lookup(path, statement, local_name)
                    return None if binding is None else self.binding_value(path, binding)
        if specifier is not None and not any(
            child.type in ("export_clause", "namespace_export") for child in statement.children
        ):
            target = self.project.resolve(path, specifier)
            return None if target is None else self.exported(target, name, seen)
        return None

    def _commonjs_export(self, path: str, statement: Node, data: bytes, name: str) -> Val | None:
        assignment = next(children(statement), None)
        if assignment is None or assignment.type != "assignment_expression":
            return None
        left = assignment.child_by_field_name("left")
        right = assignment.child_by_field_name("right")
        if left is None or right is None:
            return None
        written = text(data, left).replace(" ", "")
        if written == "module.exports":
            whole = self.value(path, right)
            return whole if name == "default" else self.member(path, whole, name)
        if written in (f"module.exports.{name}", f"exports.{name}"):
            return self.value(path, right)
        return None

    # ---- members and calls ----------------------------------------------------

    def member(self, path: str, obj: Val | None, name: str) -> Val | None:
        if obj is None:
            return None
        kind = obj.kind
        if kind == "pkg" and obj.ref.name in ("*", "default"):
            ref: PkgRef = obj.ref
            direct = packages.IMPORTED_VALUES.get((ref.package, name))
            return Val(direct) if direct else Val("pkg", PkgRef(ref.package, ref.specifier, name))
        if kind == "module":
            return self.exported(obj.ref, name)
        if kind == "struct":
            for struct_path, body in obj.ref:
                annotation = self._struct_member(struct_path, body, name)
                if annotation is not None:
                    return self.type_value(struct_path, annotation)
            return None
        if kind == "object":
            return self._object_member(obj.ref[0], obj.ref[1], name)
        if kind == "typeorm-ds" and name == "manager":
            return Val("typeorm-manager")
        if kind == "hono-ctx" and name == "env":
            return obj.ref  # type: ignore[no-any-return]
        hook = self.member_hooks.get(kind)
        return None if hook is None else hook(obj, name)

    def _object_member(self, path: str, node: Node, name: str) -> Val | None:
        data = self.data(path)
        for item in children(node):
            if item.type == "pair":
                key = item.child_by_field_name("key")
                if key is not None and property_name(data, key) == name:
                    return self.value(path, item.child_by_field_name("value"))
            elif item.type == "shorthand_property_identifier" and text(data, item) == name:
                return self.name_value(path, item, name)
            elif item.type == "method_definition":
                key = item.child_by_field_name("name")
                if key is not None and property_name(data, key) == name:
                    return Val("function", (path, item))
        for item in children(node):  # a later spread may hold the key: `{ ...schema }`
            if item.type == "spread_element":
                found = self.member(path, self.value(path, next(children(item), None)), name)
                if found is not None:
                    return found
        return None

    def _call(self, path: str, node: Node) -> Val | None:
        data = self.data(path)
        callee = node.child_by_field_name("function") or node.child_by_field_name("constructor")
        if callee is None:
            return None
        callee = unwrap_value(callee)
        if callee.type == "import":
            args = call_arguments(node)
            specifier = string_value(data, args[0]) if args else None
            return None if specifier is None else self.imported(path, specifier, "*")
        if callee.type == "identifier" and text(data, callee) == "require":
            args = call_arguments(node)
            specifier = string_value(data, args[0]) if args else None
            if specifier is None:
                return None
            found = self.imported(path, specifier, "*")
            if found is not None and found.kind == "module":
                # require() of a project file is its module.exports when one is assigned.
                return self.exported(found.ref, "default") or found
            return found
        if callee.type == "member_expression":
            obj = callee.child_by_field_name("object")
            prop = callee.child_by_field_name("property")
            method = None if prop is None else property_name(data, prop)
            receiver = self.value(path, obj)
            if receiver is not None and method is not None:
                found = self._method_result(path, node, receiver, method)
                if found is not None:
                    return found
        target = self.value(path, callee)
        if target is None:
            return None
        if target.kind == "pkg":
            ref: PkgRef = target.ref
            hook = self.hooks.get("package-call")
            found = None if hook is None else hook(self, path, node, target)
            if found is not None:
                return found
            factory = packages.FACTORIES.get((ref.package, ref.name))
            if factory is not None:
                return Val(factory)
            if (ref.package, ref.name) in packages.MODULE_RETURNING:
                return Val("pkg", PkgRef(ref.package, ref.specifier, "*"))
            if (ref.package, ref.name) == ("hono", "Hono"):
                return Val("hono", self._bindings(path, node.child_by_field_name("type_arguments")))
            return None
        if target.kind == "function":
            return self._returned(target.ref[0], target.ref[1])
        hook = self.hooks.get("call")
        return None if hook is None else hook(self, path, node, target)

    def _method_result(self, path: str, node: Node, receiver: Val, method: str) -> Val | None:
        kind = receiver.kind
        if kind == "sql" and method in ("connect", "getConnection", "promise", "connection"):
            return receiver
        if kind == "knex" and method in ("transaction", "transactionProvider", "queryBuilder"):
            return receiver
        if kind in ("typeorm-ds", "typeorm-manager"):
            if method in ("getRepository", "getTreeRepository"):
                args = call_arguments(node)
                entity = self.value(path, args[0]) if args else None
                return Val("typeorm-repo", entity)
            if method == "createQueryRunner":
                return Val("sql")
            if method in ("initialize", "connect"):
                return receiver
        if kind == "hono" and method in ("basePath", "route"):
            return receiver
        hook = self.hooks.get("method")
        return None if hook is None else hook(self, path, node, Val(kind, (receiver, method)))

    def _returned(self, path: str, function: Node) -> Val | None:
        annotation = function.child_by_field_name("return_type")
        if annotation is not None:
            found = self.type_value(path, annotation)
            if found is not None:
                return found
        body = function.child_by_field_name("body")
        if body is None:
            return None
        if body.type != "statement_block":
            return self.value(path, body)
        for returned in returned_expressions(body):
            found = self.value(path, returned)
            if found is not None:
                return found
        return None

    # ---- parameters, this, classes --------------------------------------------

    def _parameter(self, path: str, param: Node, keys: tuple[str, ...]) -> Val | None:
        annotation = None if param.type == "identifier" else param.child_by_field_name("type")
        found = None
        if annotation is not None:
            found = self.type_value(path, annotation)
        else:
            found = self._callback_parameter(path, param)
        if found is None:  # `table: string` proves nothing; its callers may
            found = self._passed(path, param)
        for key in keys:
            found = self.member(path, found, key)
        return found

    def index_callers(self) -> None:
        """Which calls call which project function: `f(x)`, `ns.f(x)`, `require('./f')(x)`.

        Built once before any other question, with caller provenance and the ORM hooks
        switched off, so no answer or ORM declaration that depended on them is kept."""
        self._callers = {}
        hooks, member_hooks = self.hooks, self.member_hooks
        self.hooks, self.member_hooks = {}, {}
        found: dict[tuple[str, int], list[tuple[str, Node]]] = {}
        for path in sorted(self.project.files):
            for node in self.nodes(path):
                if node.type != "call_expression":
                    continue
                callee = node.child_by_field_name("function")
                if callee is None or callee.type not in CALLER_SHAPES:
                    continue
                value = self.value(path, callee)
                if value is not None and value.kind == "function":
                    target_path, function = value.ref
                    found.setdefault((target_path, function.start_byte), []).append((path, node))
        self._callers = found
        self.hooks, self.member_hooks = hooks, member_hooks
        # Answers and cuts of this pass are recomputed by the questions collectors ask.
        self._memo.clear()
        self.cuts.clear()

    def _passed(self, path: str, param: Node) -> Val | None:
        """A parameter every call site in the project fills with the same proven value."""
        function = param.parent
        if self._callers is None or function is None or function.type != "formal_parameters":
            return None
        position = list(children(function)).index(param)
        function = function.parent
        if function is None:
            return None
        sites = self._callers.get((path, function.start_byte), [])
        values = []
        for site_path, call in sites:
            args = call_arguments(call)
            values.append(self.value(site_path, args[position]) if position < len(args) else None)
        if not values or any(value != values[0] for value in values):
            return None  # unproven somewhere, or callers disagree (two table names)
        return values[0]

    def _callback_parameter(self, path: str, param: Node) -> Val | None:
        """A parameter of a function passed to a call on a proven receiver."""
        function = param.parent
        if function is not None and function.type == "formal_parameters":
            params = list(children(function))
            position = params.index(param) if param in params else -1
            function = function.parent
        else:
            position = 0
        if function is None or function.type not in FUNCTIONS or position != 0:
            return None
        args = function.parent
        call = None if args is None else args.parent
        if args is None or args.type != "arguments" or call is None:
            return None
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            return None
        prop = callee.child_by_field_name("property")
        method = None if prop is None else property_name(self.data(path), prop)
        receiver = self.value(path, callee.child_by_field_name("object"))
        if receiver is None or method is None:
            return None
        if method in ("transaction", "begin", "reserve") and receiver.kind in TRANSACTION_KINDS:
            return Val(receiver.kind)
        if method == "transaction" and receiver.kind in ("typeorm-ds", "typeorm-manager"):
            return Val("typeorm-manager")
        if receiver.kind == "drizzle-table" and method == "as":  # pgView(…).as((qb) => …)
            return Val("drizzle")
        if receiver.kind == "hono" and method in ROUTE_METHODS:
            return Val("hono-ctx", receiver.ref)
        return None

    def _enclosing_class(self, node: Node) -> Node | None:
        current = node.parent
        while current is not None:
            if current.type in ("class_declaration", "abstract_class_declaration", "class"):
                return current
            current = current.parent
        return None

    def _this_value(self, path: str, node: Node) -> Val | None:
        """`this` in a class that extends TypeORM's `Repository<Entity>` is that repository."""
        cls = self._enclosing_class(node)
        heritage = (
            None
            if cls is None
            else next((child for child in children(cls) if child.type == "class_heritage"), None)
        )
        clause = None if heritage is None else next(children(heritage), None)
        if clause is None or clause.type != "extends_clause":
            return None
        base = self.value(path, clause.child_by_field_name("value"))
        arguments = clause.child_by_field_name("type_arguments")
        first = None if arguments is None else next(children(arguments), None)
        if base is None or base.kind != "pkg":
            return None
        if (base.ref.package, base.ref.name) != TYPEORM_REPOSITORY:
            return None
        entity = self.type_value(path, first)
        if entity is not None and entity.kind == "instance":
            entity = entity.ref
        return Val("typeorm-repo", entity)

    def _this_member(self, path: str, node: Node, name: str) -> Val | None:
        cls = self._enclosing_class(node)
        if cls is None:
            return None
        data = self.data(path)
        body = cls.child_by_field_name("body")
        if body is None:
            return None
        for member in children(body):
            if member.type == "public_field_definition":
                key = member.child_by_field_name("name")
                if key is not None and property_name(data, key) == name:
                    annotation = member.child_by_field_name("type")
                    found = None if annotation is None else self.type_value(path, annotation)
                    return found or self.value(path, member.child_by_field_name("value"))
            if member.type == "method_definition":
                key = member.child_by_field_name("name")
                if key is None or text(data, key) != "constructor":
                    continue
                params = member.child_by_field_name("parameters")
                for param in [] if params is None else children(params):
                    pattern = param.child_by_field_name("pattern")
                    is_property = any(
                        child.type in ("accessibility_modifier", "readonly")
                        for child in param.children
                    )
                    if is_property and pattern is not None and text(data, pattern) == name:
                        return self._parameter(path, param, ())
                found = self._constructor_assignment(path, member, name)
                if found is not None:
                    return found
        return None

    def _constructor_assignment(self, path: str, constructor: Node, name: str) -> Val | None:
        """`this.db = <value>` written directly in the constructor body."""
        data = self.data(path)
        body = constructor.child_by_field_name("body")
        for statement in [] if body is None else children(body):
            expression = next(children(statement), None)
            if expression is None or expression.type != "assignment_expression":
                continue
            left = expression.child_by_field_name("left")
            if left is not None and text(data, left).replace(" ", "") == f"this.{name}":
                return self.value(path, expression.child_by_field_name("right"))
        return None

    # ---- types ------------------------------------------------------------------

    def type_value(self, path: str, node: Node | None) -> Val | None:
        if node is None:
            return None
        key = (path, node.start_byte, node.end_byte, "type:" + node.type)
        if key in self._memo:
            return self._memo[key]
        if key in self._active or self._depth >= MAX_DEPTH:
            if self._depth >= MAX_DEPTH:
                self.cuts.add((path, node.start_byte))
            return None
        return self._evaluate(key, lambda: self._type_value(path, node))

    def _type_value(self, path: str, node: Node) -> Val | None:
        data = self.data(path)
        kind = node.type
        if kind in ("type_annotation", "parenthesized_type", "readonly_type"):
            return self.type_value(path, next(children(node), None))
        if kind == "union_type":
            for member in children(node):
                found = self.type_value(path, member)
                if found is not None:
                    return found
            return None
        if kind == "intersection_type":
            parts = [self.type_value(path, member) for member in children(node)]
            bodies = tuple(
                item for part in parts if part and part.kind == "struct" for item in part.ref
            )
            proven = [part for part in parts if part is not None and part.kind != "struct"]
            return proven[0] if proven else (Val("struct", bodies) if bodies else None)
        if kind == "object_type":
            return Val("struct", ((path, node),))
        if kind == "type_query":  # typeof client
            inner = next(children(node), None)
            return None if inner is None else self.value(path, inner)
        if kind in ("type_identifier", "nested_type_identifier", "generic_type"):
            base = node.child_by_field_name("name") if kind == "generic_type" else node
            if base is None:
                return None
            chain = text(data, base).replace(" ", "").split(".")
            args_node = (
                node.child_by_field_name("type_arguments") if kind == "generic_type" else None
            )
            args = [] if args_node is None else list(children(args_node))
            return self._named_type(path, node, chain, args)
        return None

    def _named_type(self, path: str, at: Node, chain: list[str], args: list[Node]) -> Val | None:
        head = chain[0]
        if chain in (["Promise"], ["Awaited"], ["Readonly"], ["NonNullable"], ["Required"]):
            return self.type_value(path, args[0]) if args else None
        if chain == ["ReturnType"] and args:  # ReturnType<typeof createDb>
            function = self.type_value(path, args[0])
            if function is not None and function.kind == "function":
                return self._returned(function.ref[0], function.ref[1])
            return None
        if chain in (["Omit"], ["Pick"]):
            return self.type_value(path, args[0]) if args else None
        if chain == ["D1Database"] and self._type_binding(path, at, head, local=True) is None:
            # The global runtime type (wrangler's generated declarations even spell out its
            # interface); only a local declaration or an import of that name shadows it.
            return Val("d1")
        declared = self._type_binding(path, at, head)
        if declared is None:
            return None
        decl_path, decl = declared
        if decl.type in ("import_specifier", "import_clause", "namespace_import"):
            return self._imported_type(decl_path, decl, chain, args)
        for segment in chain[1:]:  # Cloudflare.Env: a type inside a namespace
            block = decl.child_by_field_name("body") if decl.type == "internal_module" else None
            found = None if block is None else self._in_block(block, decl_path, segment)
            if found is None:
                return None
            decl = found
        if decl.type == "interface_declaration" and len(chain) == 1:
            merged = [
                item
                for item in self.globals().get(head, [])
                if item[1].type == "interface_declaration"
            ]
            if (decl_path, decl) in merged:  # a global interface: every declaration merges
                return self._interfaces(merged)
        return self._declared_type(decl_path, decl)

    def _in_block(self, block: Node, path: str, name: str) -> Node | None:
        data = self.data(path)
        for statement in children(block):
            inner = (
                next(children(statement), None)
                if statement.type == "ambient_declaration"
                else statement
            )
            found = None if inner is None else self._declares_type(inner, data, name)
            if found is not None:
                return found
        return None

    def _interfaces(self, declarations: list[tuple[str, Node]]) -> Val | None:
        """One shape from interface declarations: their bodies and what they extend."""
        bodies: list[tuple[str, Node]] = []
        for path, decl in declarations:
            body = decl.child_by_field_name("body")
            if body is not None:
                bodies.append((path, body))
            for clause in children(decl):
                if clause.type != "extends_type_clause":
                    continue
                for base in children(clause):
                    found = self.type_value(path, base)
                    if found is not None and found.kind == "struct":
                        bodies.extend(found.ref)
        return Val("struct", tuple(bodies)) if bodies else None

    def _imported_type(
        self, path: str, decl: Node, chain: list[str], args: list[Node]
    ) -> Val | None:
        local_type = self._project_type(path, decl)
        if local_type is not None:
            type_path, type_node = local_type
            return self._declared_type(type_path, type_node)
        imported = self._import(path, decl, ())
        if imported is None:
            return None
        if imported.kind == "pkg":
            ref: PkgRef = imported.ref
            name = chain[-1] if len(chain) > 1 or ref.name in ("*", "default") else ref.name
            if len(chain) == 1 and ref.name in ("*", "default"):
                name = ref.name
            if ref.package == "drizzle-orm" and name.endswith(packages.DRIZZLE_TYPE_SUFFIXES):
                # NodePgDatabase<typeof schema>: the schema names db.query's keys.
                return Val("drizzle", self.type_value(path, args[0]) if args else None)
            if ref.package == "knex":  # Knex, Knex.Transaction, Knex.QueryBuilder
                return Val("knex") if "Knex" in (name, chain[0]) else None
            if (ref.package, name) == ("hono", "Context"):
                return Val("hono-ctx", self._bindings(path, args_node_of(args)))
            kind = packages.TYPES.get((ref.package, name))
            if kind == "typeorm-repo":  # Repository<Entity>: the entity class itself
                entity = self.type_value(path, args[0]) if args else None
                if entity is not None and entity.kind == "instance":
                    entity = entity.ref
                return Val(kind, entity)
            return None if kind is None else Val(kind)
        return imported

    def _project_type(self, path: str, decl: Node) -> tuple[str, Node] | None:
        """The interface, type alias or class an import names in a project file."""
        if decl.type != "import_specifier":
            return None
        data = self.data(path)
        specifier = self._import_source(path, decl)
        name_node = decl.child_by_field_name("name")
        if specifier is None or name_node is None:
            return None
        target = self.project.resolve(path, specifier)
        return None if target is None else self._exported_type(target, text(data, name_node), 0)

    def _exported_type(self, path: str, name: str, depth: int) -> tuple[str, Node] | None:
        parsed = self.project.parsed(path)
        if parsed is None or depth > 8:
            return None
        for statement in children(parsed.root):
            if statement.type != "export_statement":
                continue
            declaration = statement.child_by_field_name("declaration")
            if declaration is not None:
                found = self._declares_type(declaration, parsed.data, name)
                if found is not None and found.type != "import_statement":
                    return path, found
                continue
            source = statement.child_by_field_name("source")
            specifier = None if source is None else string_value(parsed.data, source)
            target = None if specifier is None else self.project.resolve(path, specifier)
            names = [
                (spec.child_by_field_name("name"), spec.child_by_field_name("alias"))
                for clause in children(statement)
                if clause.type == "export_clause"
                for spec in children(clause)
            ]
            for local, alias in names:
                if local is None or text(parsed.data, alias or local) != name:
                    continue
                local_name = text(parsed.data, local)
                if target is not None:
                    return self._exported_type(target, local_name, depth + 1)
                binding = self._type_binding(path, statement, local_name)
                return binding
            if target is not None and not names:  # export * from
                found_star = self._exported_type(target, name, depth + 1)
                if found_star is not None:
                    return found_star
        return None

    def _declared_type(self, path: str, decl: Node) -> Val | None:
        if decl.type == "interface_declaration":
            return self._interfaces([(path, decl)])
        if decl.type == "type_alias_declaration":
            return self.type_value(path, decl.child_by_field_name("value"))
        if decl.type in ("class_declaration", "abstract_class_declaration"):
            return Val("instance", self._class(path, decl))
        return None

    def _type_binding(
        self, path: str, at: Node, name: str, *, local: bool = False
    ) -> tuple[str, Node] | None:
        """Where a type name is declared: a local interface/alias/class/import, or a global
        one. `local` leaves globals out, including the top level of a script or `.d.ts`
        file without imports or exports (its declarations are global)."""
        data = self.data(path)
        parsed = self.project.parsed(path)
        script = parsed is not None and not parsed.facts.module_syntax
        node: Node | None = at
        while node is not None:
            if node.type in SCOPES and not (local and script and node.type == "program"):
                for statement in children(node):
                    found = self._declares_type(statement, data, name)
                    if found is not None:
                        return path, found
            node = node.parent
        for global_path, decl in [] if local else self.globals().get(name, ()):
            return global_path, decl
        return None

    def _declares_type(self, statement: Node, data: bytes, name: str) -> Node | None:
        if statement.type == "export_statement":
            inner = statement.child_by_field_name("declaration")
            return None if inner is None else self._declares_type(inner, data, name)
        if statement.type in (
            "interface_declaration",
            "type_alias_declaration",
            "class_declaration",
            "abstract_class_declaration",
            "internal_module",
        ):
            ident = statement.child_by_field_name("name")
            return statement if ident is not None and text(data, ident) == name else None
        if statement.type == "import_statement":
            binding = self._import_binding(statement, data, name)
            return None if binding is None else binding.node
        return None

    def globals(self) -> dict[str, list[tuple[str, Node]]]:
        """Interfaces and type aliases of `.d.ts` files and script files (no import/export)."""
        if self._globals is None:
            found: dict[str, list[tuple[str, Node]]] = {}
            everything = {**self.project.files, **self.project.declaration_files}
            for path in sorted(everything):
                parsed = everything[path]
                for statement, data in global_types(parsed, path in self.project.declaration_files):
                    ident = statement.child_by_field_name("name")
                    if ident is not None:
                        found.setdefault(text(data, ident), []).append((path, statement))
            self._globals = found
        return self._globals

    def _bindings(self, path: str, type_arguments: Node | None) -> Val | None:
        """The `Bindings` member of Hono's environment type argument (`Hono<{ Bindings: Env }>`)."""
        first = None if type_arguments is None else next(children(type_arguments), None)
        env = self.type_value(path, first)
        return self.member(path, env, "Bindings")

    def _struct_member(self, path: str, body: Node, name: str) -> Node | None:
        data = self.data(path)
        for member in children(body):
            if member.type == "property_signature":
                key = member.child_by_field_name("name")
                if key is not None and property_name(data, key) == name:
                    return member.child_by_field_name("type")
        return None
