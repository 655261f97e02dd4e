"""What a type annotation proves about a value, for the ORM evaluator (orm_evaluator.py).

Aliases, interfaces with what they extend, global and namespaced declarations of
scripts and `.d.ts` files (wrangler's `interface Env`, `declare namespace Cloudflare`),
`Promise<T>` and the other wrappers that keep a value's kind, `ReturnType<typeof f>`,
package types by the table in packages.py (`Repository<Entity>`, `NodePgDatabase<…>`,
Hono's `Context<{ Bindings }>`), and project classes (an `instance`). A shape
(`struct`) is a tuple of (path, node whose items are property signatures): an
interface or an object type literal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema.orm import packages
from tsograph.producers.schema.orm.declarations import SCOPES
from tsograph.producers.schema.orm.declarations import declared_name
from tsograph.producers.schema.orm.declarations import global_types
from tsograph.producers.schema.orm.declarations import is_internal_module
from tsograph.producers.schema.orm.declarations import key_name
from tsograph.producers.schema.orm.receivers import PkgRef
from tsograph.producers.schema.orm.receivers import Val
from tsograph.producers.values import scopes

if TYPE_CHECKING:
    from tsograph.producers.schema.orm.orm_evaluator import Evaluator

# Types that stand for their first type argument's value.
SAME_AS_ARGUMENT = frozenset(
    {"Promise", "Awaited", "Readonly", "NonNullable", "Required", "Omit", "Pick"}
)
TYPE_DECLARATIONS = ("interface", "type_alias", "class")


class TypeReader:
    def __init__(self, evaluator: Evaluator) -> None:
        self.ev = evaluator
        self._globals: dict[str, list[tuple[str, Node]]] | None = None

    def type_value(self, path: str, node: Node | None) -> Val | None:
        if node is None:
            return None
        key = (path, node, "type")
        if key in self.ev.memo:
            return self.ev.memo[key]
        return self.ev.evaluate(key, lambda: self._type_value(path, node))

    def _type_value(self, path: str, node: Node) -> Val | None:
        kind = node.kind
        if kind == "union":
            for member in node.items:
                found = self.type_value(path, member)
                if found is not None:
                    return found
            return None
        if kind == "intersection":
            parts = [self.type_value(path, member) for member in node.items]
            bodies = tuple(
                item for part in parts if part and part.kind == "struct" for item in part.ref
            )
            proven = [part for part in parts if part is not None and part.kind != "struct"]
            return proven[0] if proven else (Val("struct", bodies) if bodies else None)
        if kind == "object_type":
            return Val("struct", ((path, node),))
        if kind == "type_query":  # typeof client
            return self.ev.value(path, node.part("value"))
        if kind == "type_ref" and node.value is not None:
            chain = node.value.replace(" ", "").split(".")
            return self._named_type(path, node, chain, list(node.items))
        return None

    def _named_type(self, path: str, at: Node, chain: list[str], args: list[Node]) -> Val | None:
        head = chain[0]
        if len(chain) == 1 and head in SAME_AS_ARGUMENT:
            return self.type_value(path, args[0]) if args else None
        if chain == ["ReturnType"] and args:  # ReturnType<typeof createDb>
            function = self.type_value(path, args[0])
            if function is not None and function.kind == "function":
                return self.ev.returned(function.ref[0], function.ref[1])
            return None
        if chain == ["D1Database"] and self._type_binding(path, at, head, local=True) is None:
            # The global runtime type (wrangler's generated declarations even spell out its
            # interface); only a local declaration or an import of that name shadows it.
            return Val("d1")
        declared = self._type_binding(path, at, head)
        if declared is None:
            return None
        decl_path, decl = declared
        if decl.kind in scopes.IMPORT_ENTRIES:
            return self._imported_type(decl_path, decl, chain, args)
        for segment in chain[1:]:  # Cloudflare.Env: a type inside a namespace
            block = decl.part("body") if decl.kind == "namespace" else None
            found = None if block is None else self._in_block(block, decl_path, segment)
            if found is None:
                return None
            decl = found
        if decl.kind == "interface" and len(chain) == 1:
            merged = [item for item in self.globals().get(head, []) if item[1].kind == "interface"]
            if (decl_path, decl) in merged:  # a global interface: every declaration merges
                return self._interfaces(merged)
        return self._declared_type(decl_path, decl)

    def _in_block(self, block: Node, path: str, name: str) -> Node | None:
        for statement in block.items:
            inner: Node | None = statement
            if statement.kind == "ambient":
                inner = statement.items[0] if statement.items else None
            found = None if inner is None else self._declares_type(path, inner, name)
            if found is not None:
                return found
        return None

    def _interfaces(self, declarations: list[tuple[str, Node]]) -> Val | None:
        """One shape from interface declarations: their members and what they extend."""
        bodies: list[tuple[str, Node]] = []
        for path, decl in declarations:
            bodies.append((path, decl))
            extends = decl.part("extends")
            for base in [] if extends is None else extends.items:
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
        imported = self.ev.import_value(path, decl, ())
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
                return Val("hono-ctx", self.bindings(path, args[0] if args else None))
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
        if decl.kind != "import_named":
            return None
        specifier = self.ev.import_source(decl)
        if specifier is None or decl.value is None:
            return None
        target = self.ev.project.resolve(path, specifier)
        return None if target is None else self._exported_type(target, decl.value, 0)

    def _exported_type(self, path: str, name: str, depth: int) -> tuple[str, Node] | None:
        file = self.ev.project.file(path)
        if file is None or depth > 8:
            return None
        for statement in file.root.items:
            if statement.kind != "export":
                continue
            declaration = statement.part("declaration")
            if declaration is not None:
                found = self._declares_type(path, declaration, name)
                if found is not None and found.kind not in scopes.IMPORT_ENTRIES:
                    return path, found
                continue
            specifier = statement.value
            target = None if specifier is None else self.ev.project.resolve(path, specifier)
            names = [(spec.part("name"), spec.part("alias")) for spec in statement.items]
            for local, alias in names:
                if local is None or self.ev.text(path, alias or local) != name:
                    continue
                local_name = self.ev.text(path, local)
                if target is not None:
                    return self._exported_type(target, local_name, depth + 1)
                return self._type_binding(path, statement, local_name)
            if target is not None and not names:  # export * from
                found_star = self._exported_type(target, name, depth + 1)
                if found_star is not None:
                    return found_star
        return None

    def _declared_type(self, path: str, decl: Node) -> Val | None:
        if decl.kind == "interface":
            return self._interfaces([(path, decl)])
        if decl.kind == "type_alias":
            return self.type_value(path, decl.part("type"))
        if decl.kind == "class" and decl.value == "declaration":
            return Val("instance", self.ev.class_value(path, decl))
        return None

    def _type_binding(
        self, path: str, at: Node, name: str, *, local: bool = False
    ) -> tuple[str, Node] | None:
        """Where a type name is declared: a local interface/alias/class/import, or a global
        one. `local` leaves globals out, including the top level of a script or `.d.ts`
        file without imports or exports (its declarations are global)."""
        file = self.ev.project.file(path)
        script = file is not None and not file.facts.module_syntax
        node: Node | None = at
        while node is not None:
            if node.kind in SCOPES and not (local and script and node.kind == "module"):
                for statement in node.items:
                    found = self._declares_type(path, statement, name)
                    if found is not None:
                        return path, found
            node = node.parent
        for global_path, decl in [] if local else self.globals().get(name, ()):
            return global_path, decl
        return None

    def _declares_type(self, path: str, statement: Node, name: str) -> Node | None:
        if statement.kind == "export":
            inner = statement.part("declaration")
            return None if inner is None else self._declares_type(path, inner, name)
        data = self.ev.data(path)
        if (
            (statement.kind in TYPE_DECLARATIONS and statement.value != "expression")
            or is_internal_module(statement, data)
        ) and declared_name(statement, data) == name:
            return statement
        if statement.kind == "import":
            binding = self.ev.declares(statement, name)
            return None if binding is None else binding.node
        return None

    def globals(self) -> dict[str, list[tuple[str, Node]]]:
        """Interfaces and type aliases of `.d.ts` files and script files (no import/export)."""
        if self._globals is None:
            found: dict[str, list[tuple[str, Node]]] = {}
            project = self.ev.project
            everything = {**project.files, **project.declaration_files}
            for path in sorted(everything):
                file = everything[path]
                for statement in global_types(file, path in project.declaration_files):
                    name = declared_name(statement, file.data)
                    if name is not None:
                        found.setdefault(name, []).append((path, statement))
            self._globals = found
        return self._globals

    def bindings(self, path: str, environment: Node | None) -> Val | None:
        """The `Bindings` member of Hono's environment type argument (`Hono<{ Bindings: Env }>`)."""
        return self.ev.member(path, self.type_value(path, environment), "Bindings")

    @staticmethod
    def struct_member(body: Node, name: str) -> Node | None:
        for member in body.items:
            if member.kind == "property_signature" and key_name(member.part("name")) == name:
                return member.part("type")
        return None
