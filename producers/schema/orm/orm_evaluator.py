"""Provenance: what a receiver expression is, proven from the syntax alone.

`Evaluator.value(path, node)` follows an expression of the neutral syntax form (the
project's SyntaxFiles) back to where its value comes from: variable initializers (and,
for `let x;`, every assignment agreeing), function return values (declared return type
first, then the returned expressions), type annotations (type_values.py: aliases,
interfaces with what they extend, global and namespaced declarations of scripts and
`.d.ts` files, `Promise<T>`, `ReturnType<typeof f>`), class fields and constructor
parameter properties (`this.db`), callback parameters of calls whose receiver is proven
(`db.transaction(tx => …)`, Hono route handlers), parameters that every call site in
the project fills with the same proven value (`module.exports = (sequelize) => …`
called as `require('./m')(sequelize)`), ES imports, re-exports and CommonJS `require` /
`module.exports`, across files through the project's module resolver. What a package
export gives is the shared provenance table (producers/values/provenance.py); what a
method or a callback gives is read from the tables of packages.py.
`constant()` reads strings the same way (`TABLE_NAMES.users`). Nothing is executed and
no inferred type is used: a value that cannot be followed is None, and a chain longer
than the shared depth budget (producers/values/budget.py) stops (counted in `cuts`).

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

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import is_function
from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema.orm import packages
from tsograph.producers.schema.orm.declarations import CALLS
from tsograph.producers.schema.orm.declarations import SCOPES
from tsograph.producers.schema.orm.declarations import Binding
from tsograph.producers.schema.orm.declarations import call_arguments
from tsograph.producers.schema.orm.declarations import callee_of
from tsograph.producers.schema.orm.declarations import code_nodes
from tsograph.producers.schema.orm.declarations import is_const
from tsograph.producers.schema.orm.declarations import key_name
from tsograph.producers.schema.orm.declarations import simple_assignments
from tsograph.producers.schema.orm.declarations import single_unparenthesized
from tsograph.producers.schema.orm.receivers import PkgRef
from tsograph.producers.schema.orm.receivers import Val
from tsograph.producers.schema.orm.type_values import TypeReader
from tsograph.producers.values import class_members
from tsograph.producers.values import exports
from tsograph.producers.values import modules
from tsograph.producers.values import provenance
from tsograph.producers.values import scopes
from tsograph.producers.values.budget import DepthBudget
from tsograph.producers.values.returns import function_results

# Callee shapes whose calls are indexed for caller provenance.
CALLER_SHAPES = frozenset({"identifier", "member", "call", "tagged"})


Hook = Callable[["Evaluator", str, Node, Val], "Val | None"]
MemoKey = tuple[str, Node, str]


@dataclass
class OrmProject:
    """The sources the phase reads: syntax files, `.d.ts` files and module resolution."""

    files: dict[str, SyntaxFile]
    declaration_files: dict[str, SyntaxFile] = field(default_factory=dict)
    resolve: Callable[[str, str], str | None] = lambda importer, specifier: None

    def file(self, path: str) -> SyntaxFile | None:
        return self.files.get(path) or self.declaration_files.get(path)


class Evaluator:
    def __init__(self, project: OrmProject, hooks: dict[str, Hook] | None = None) -> None:
        self.project = project
        self.hooks = hooks or {}
        # kind -> what a member of such a value is (`sequelize.models`).
        self.member_hooks: dict[str, Callable[[Val, str], Val | None]] = {}
        # Expressions where tracing stopped at the depth budget (counted once each).
        self.cuts: set[tuple[str, int]] = set()
        self.memo: dict[MemoKey, Val | None] = {}
        self._active: set[MemoKey] = set()
        self.budget = DepthBudget()
        self.this_writes = class_members.ThisWrites()
        self.exports = exports.ExportIndex()
        self._callers: dict[tuple[str, int], list[tuple[str, Node]]] | None = None
        self._nodes: dict[str, tuple[Node, ...]] = {}
        # The value layer's scope table, one for every file read.
        self._scopes = scopes.Scopes()
        self._assignments: dict[Node, dict[str, list[Node]]] = {}
        self.types = TypeReader(self)

    # ---- entry points ------------------------------------------------------

    def nodes(self, path: str) -> tuple[Node, ...]:
        """Calls, tagged templates, `new` expressions and member accesses of a file, in
        source order."""
        found = self._nodes.get(path)
        if found is None:
            file = self.project.file(path)
            found = () if file is None else code_nodes(file.root)
            self._nodes[path] = found
        return found

    def data(self, path: str) -> bytes:
        file = self.project.file(path)
        return b"" if file is None else file.data

    def text(self, path: str, node: Node) -> str:
        """The source text of a node, as written."""
        return self.data(path)[node.start : node.end].decode("utf-8", "replace")

    def value(self, path: str, node: Node | None) -> Val | None:
        if node is None:
            return None
        key = (path, node, "value")
        if key in self.memo:
            return self.memo[key]
        if key in self._active:
            return None
        if self.budget.spent:
            self.cuts.add((path, node.start))
            return None
        return self.evaluate(key, lambda: self._value(path, node))

    def evaluate(self, key: MemoKey, compute: Callable[[], Val | None]) -> Val | None:
        """Compute and remember the value under `key`, marked active (a cycle gives None)
        and one level deeper while it runs; None when it is active or too deep."""
        if key in self._active:
            return None
        if not self.budget.enter():
            self.cuts.add((key[0], key[1].start))
            return None
        self._active.add(key)
        try:
            result = compute()
        finally:
            self.budget.leave()
            self._active.discard(key)
        self.memo[key] = result
        return result

    def constant(self, path: str, node: Node | None) -> str | None:
        """A string the expression always is: a literal, a `const`, a member of a const
        object (`TABLE_NAMES.users`), across imports."""
        found = self.value(path, node)
        return found.ref if found is not None and found.kind == "string" else None

    def type_value(self, path: str, node: Node | None) -> Val | None:
        """What a type annotation proves about a value (see type_values.py)."""
        return self.types.type_value(path, node)

    # ---- expressions -------------------------------------------------------

    def _value(self, path: str, node: Node) -> Val | None:
        node = unwrap_value(node)
        kind = node.kind
        if kind in ("identifier", "shorthand"):
            return self.name_value(path, node, node.value or "")
        if kind == "this":
            return self._this_value(path, node)
        if kind == "member":
            obj = node.part("object")
            prop = node.part("property")
            if obj is None or prop is None or prop.value is None:
                return None
            name = prop.value
            if obj.kind == "this":
                found = self._this_member(path, node, name)
                if found is not None:
                    return found
            if self.text(path, obj).replace(" ", "") == "process.env":
                return Val("text")  # an environment variable: some text
            return self.member(path, self.value(path, obj), name)
        if kind in ("call", "tagged", "new"):
            return self._call(path, node)
        if kind == "binary":
            if node.value in ("??", "||"):
                for side in ("left", "right"):
                    found = self.value(path, node.part(side))
                    if found is not None:
                        return found
            return None
        if kind == "object":
            return Val("object", (path, node))
        if kind in ("string", "template"):
            written = string_value(node)
            # A template with substitutions is some text, not a constant.
            return Val("text") if written is None else Val("string", written)
        if is_function(node):
            return Val("function", (path, node))
        if kind == "class":
            return self.class_value(path, node)
        return None

    def name_value(self, path: str, at: Node, name: str) -> Val | None:
        binding = self.lookup(path, at, name)
        return None if binding is None else self.binding_value(path, binding)

    def binding_value(self, path: str, binding: Binding) -> Val | None:
        node = binding.node
        kind = node.kind
        keys = binding.keys
        if keys is None:
            return None  # a name no property path reaches (`[db]`, `...rest`): not followed
        if kind == "declarator":
            annotation = node.part("type")
            found = None
            if annotation is not None and not keys:
                found = self.type_value(path, annotation)
            initializer = node.part("value")
            if found is None and initializer is None and not keys:
                found = self._assigned(path, node)
            if found is None:
                found = self.value(path, initializer)
                for key in keys:
                    found = self.member(path, found, key)
            if found is not None and found.kind == "string" and not is_const(node):
                return None  # a `let` may be reassigned: its string is not a constant
            return found
        if kind == "parameter":
            return self._parameter(path, node, keys)
        if kind in scopes.IMPORT_ENTRIES:
            return self.import_value(path, node, keys)
        if kind == "function":
            return Val("function", (path, node))
        if kind == "class":
            return self.class_value(path, node)
        return None

    def _assigned(self, path: str, declarator: Node) -> Val | None:
        """`let db; … db = new Pool()`: every assignment to the variable in its scope must
        give the same proven value."""
        name_node = declarator.part("name")
        scope = next((node for node in declarator.ancestors() if node.kind in SCOPES), None)
        if name_node is None or scope is None:
            return None
        name = self.text(path, name_node)
        values: list[Val | None] = []
        for assignment in self._assignments_in(scope).get(name, ()):
            left = assignment.part("left")
            binding = None if left is None else self.lookup(path, left, name)
            if binding is not None and binding.node is declarator:
                values.append(self.value(path, assignment.part("right")))
        if not values or any(value != values[0] for value in values):
            return None
        return values[0]

    def _assignments_in(self, scope: Node) -> dict[str, list[Node]]:
        """`name = …` assignments anywhere below a scope, by name (walked once per scope)."""
        found = self._assignments.get(scope)
        if found is None:
            found = {}
            for node in simple_assignments(scope):
                left = node.part("left")
                if left is not None:
                    found.setdefault(left.value or "", []).append(node)
            self._assignments[scope] = found
        return found

    def class_value(self, path: str, node: Node) -> Val:
        hook = self.hooks.get("class")
        found = None if hook is None else hook(self, path, node, Val("class", (path, node)))
        return found or Val("class", (path, node))

    # ---- scopes --------------------------------------------------------------

    def lookup(self, path: str, at: Node, name: str) -> Binding | None:
        """The innermost declaration of `name` visible at `at` (the shared scope table)."""
        found = self._scopes.lookup(at, name)
        return None if found is None else Binding.of(found)

    def declares(self, statement: Node, name: str) -> Binding | None:
        """The declaration of `name` by one statement (an `export`ed declaration)."""
        return next(
            (
                Binding.of(found)
                for found in scopes.statement_declarations(statement)
                if found.name.value == name
            ),
            None,
        )

    # ---- imports and exports ------------------------------------------------------

    def import_source(self, node: Node) -> str | None:
        """The module specifier of the import statement that holds `node`."""
        statement = next((item for item in node.ancestors() if item.kind == "import"), None)
        return None if statement is None else statement.value

    def import_value(self, path: str, node: Node, keys: tuple[str, ...]) -> Val | None:
        specifier = self.import_source(node)
        if specifier is None:
            return None
        if node.kind == "import_named":
            imported = node.value or ""
        elif node.kind == "import_namespace":
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
        """The value module `path` exports as `name`, read at its sites in the shared export
        order (producers/values/exports.py)."""
        file = self.project.file(path)
        if file is None or path in seen:
            return None
        seen = seen | {path}
        for site in self.exports.sites(file.root, name):
            found = self._export_site(path, site, name, seen)
            if found is not None or site.kind in exports.DECIDING:
                return found
        return None

    def _export_site(
        self, path: str, site: exports.ExportSite, name: str, seen: frozenset[str]
    ) -> Val | None:
        node = site.node
        if site.kind == "default":
            if node.kind == "class":
                return self.class_value(path, node)
            if node.kind == "function" and node.value == "declaration":
                return Val("function", (path, node))
            return self.value(path, node)
        if site.kind == "declared" and site.declaration is not None:
            return self.binding_value(path, Binding.of(site.declaration))
        if site.kind == "local":
            binding = self.lookup(path, node, site.name)
            return None if binding is None else self.binding_value(path, binding)
        if site.kind == "reexport":
            return self.imported(path, site.specifier, site.name)
        if site.kind == "module-exports":
            whole = self.value(path, node)
            return whole if name == "default" else self.member(path, whole, name)
        if site.kind == "member":
            return self.value(path, node)
        target = self.project.resolve(path, site.specifier)  # a star
        return None if target is None else self.exported(target, name, seen)

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
                annotation = self.types.struct_member(body, name)
                if annotation is not None:
                    return self.type_value(struct_path, annotation)
            return None
        if kind == "object":
            return self._object_member(obj.ref[0], obj.ref[1], name)
        if kind == "hono-ctx" and name == "env":
            return obj.ref  # type: ignore[no-any-return]
        direct = packages.MEMBER_VALUES.get((kind, name))
        if direct is not None:
            return Val(direct)
        hook = self.member_hooks.get(kind)
        return None if hook is None else hook(obj, name)

    def _object_member(self, path: str, node: Node, name: str) -> Val | None:
        for item in node.items:
            if item.kind == "property":
                if key_name(item.part("key")) == name:
                    return self.value(path, item.part("value"))
            elif item.kind == "shorthand" and item.value == name:
                return self.name_value(path, item, name)
            elif item.kind == "function" and static_key(item) == name:
                return Val("function", (path, item))
        for item in node.items:  # a later spread may hold the key: `{ ...schema }`
            if item.kind == "spread":
                found = self.member(path, self.value(path, item.part("value")), name)
                if found is not None:
                    return found
        return None

    def _call(self, path: str, node: Node) -> Val | None:
        callee = callee_of(node)
        if callee is None:
            return None
        callee = unwrap_value(callee)
        if modules.is_dynamic_import(callee):
            specifier = modules.specifier_argument(node)
            return None if specifier is None else self.imported(path, specifier, "*")
        if modules.is_global_require(callee, self._scopes):
            specifier = modules.specifier_argument(node)
            if specifier is None:
                return None
            found = self.imported(path, specifier, "*")
            if found is not None and found.kind == "module":
                # require() of a project file is its module.exports when one is assigned.
                return self.exported(found.ref, "default") or found
            return found
        if callee.kind == "member":
            prop = callee.part("property")
            method = None if prop is None else prop.value
            receiver = self.value(path, callee.part("object"))
            if receiver is not None and method is not None:
                found = self._method_result(path, node, receiver, method)
                if found is not None:
                    return found
        target = self.value(path, callee)
        if target is None:
            return None
        if target.kind == "pkg":
            return self._package_call(path, node, target)
        if target.kind == "function":
            return self.returned(target.ref[0], target.ref[1])
        hook = self.hooks.get("call")
        return None if hook is None else hook(self, path, node, target)

    def _package_call(self, path: str, node: Node, target: Val) -> Val | None:
        """A package export called or constructed: the hooks first, then the tables."""
        ref: PkgRef = target.ref
        hook = self.hooks.get("package-call")
        found = None if hook is None else hook(self, path, node, target)
        if found is not None:
            return found
        export = "" if ref.name == "*" else ref.name
        factory = provenance.kind_of(ref.package, export, "new" if node.kind == "new" else "call")
        if factory == provenance.PACKAGE_MODULE:
            return Val("pkg", PkgRef(ref.package, ref.specifier, "*"))
        if factory == "hono":
            arguments = node.part("type_arguments")
            first = arguments.items[0] if arguments is not None and arguments.items else None
            return Val("hono", self.types.bindings(path, first))
        return None if factory is None else Val(factory)

    def _method_result(self, path: str, node: Node, receiver: Val, method: str) -> Val | None:
        kind = receiver.kind
        result = packages.METHOD_RESULTS.get((kind, method))
        if result == packages.SAME:
            return receiver
        if result == "typeorm-repo":  # getRepository(Entity): the entity's repository
            args = call_arguments(node)
            return Val(result, self.value(path, args[0]) if args else None)
        if result is not None:
            return Val(result)
        hook = self.hooks.get("method")
        return None if hook is None else hook(self, path, node, Val(kind, (receiver, method)))

    def returned(self, path: str, function: Node) -> Val | None:
        annotation = function.part("return_type")
        if annotation is not None:
            found = self.type_value(path, annotation)
            if found is not None:
                return found
        for returned in function_results(function) or ():
            found = None if returned is None else self.value(path, returned)
            if found is not None:
                return found
        return None

    # ---- parameters, this, classes --------------------------------------------

    def _parameter(self, path: str, param: Node, keys: tuple[str, ...]) -> Val | None:
        annotation = param.part("type")
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
                if node.kind not in CALLS:
                    continue
                callee = callee_of(node)
                if callee is None or callee.kind not in CALLER_SHAPES:
                    continue
                value = self.value(path, callee)
                if value is not None and value.kind == "function":
                    target_path, function = value.ref
                    found.setdefault((target_path, function.start), []).append((path, node))
        self._callers = found
        self.hooks, self.member_hooks = hooks, member_hooks
        # Answers and cuts of this pass are recomputed by the questions collectors ask.
        self.memo.clear()
        self.cuts.clear()

    def _passed(self, path: str, param: Node) -> Val | None:
        """A parameter every call site in the project fills with the same proven value."""
        params = param.parent
        function = None if params is None else params.parent
        if self._callers is None or params is None or function is None:
            return None
        if function.value == "arrow" and single_unparenthesized(params, self.data(path)):
            return None  # `x => …` (kept as before the neutral form: not traced to callers)
        position = params.items.index(param)
        sites = self._callers.get((path, function.start), [])
        values = []
        for site_path, call in sites:
            args = call_arguments(call)
            values.append(self.value(site_path, args[position]) if position < len(args) else None)
        if not values or any(value != values[0] for value in values):
            return None  # unproven somewhere, or callers disagree (two table names)
        return values[0]

    def _callback_parameter(self, path: str, param: Node) -> Val | None:
        """A parameter of a function passed to a call on a proven receiver."""
        params = param.parent
        function = None if params is None else params.parent
        if params is None or function is None or not is_function(function):
            return None
        if params.items.index(param) != 0:
            return None
        call = function.parent
        if call is None or call.kind != "call" or function not in call.items:
            return None
        callee = call.part("callee")
        if callee is None or callee.kind != "member":
            return None
        prop = callee.part("property")
        method = None if prop is None else prop.value
        receiver = self.value(path, callee.part("object"))
        if receiver is None or method is None:
            return None
        given = packages.CALLBACK_PARAMETERS.get((receiver.kind, method))
        if given == packages.SAME:
            return Val(receiver.kind)
        if given == "hono-ctx":
            return Val(given, receiver.ref)
        return None if given is None else Val(given)

    def _this_value(self, path: str, node: Node) -> Val | None:
        """`this` in a class that extends TypeORM's `Repository<Entity>` is that repository."""
        cls = class_members.this_class(node)
        base_node = None if cls is None else cls.part("base")
        if cls is None or base_node is None:
            return None
        base = self.value(path, base_node)
        arguments = cls.part("base_type_arguments")
        first = arguments.items[0] if arguments is not None and arguments.items else None
        if base is None or base.kind != "pkg":
            return None
        if packages.BASE_CLASSES.get((base.ref.package, base.ref.name)) != "typeorm-repo":
            return None
        entity = self.type_value(path, first)
        if entity is not None and entity.kind == "instance":
            entity = entity.ref
        return Val("typeorm-repo", entity)

    def _this_member(self, path: str, node: Node, name: str) -> Val | None:
        """`this.name`: the declared type of its field or parameter property (it holds for
        every write); else the one value its class proves (values/class_members.this_value),
        or what the callers pass a parameter property no code writes again."""
        parameter = None
        for kind, member in class_members.this_declarations(node, name):
            annotation = None if kind == "constructor" else member.part("type")
            found = None if annotation is None else self.type_value(path, annotation)
            if found is not None:
                return found
            if kind == "parameter":
                parameter = member
        written = class_members.this_value(node, name, self.this_writes)
        if written is not None:
            return self.value(path, written)
        owner = class_members.this_class(node)
        if parameter is None or owner is None or self.this_writes.of(owner, name):
            return None
        return self._parameter(path, parameter, ())
