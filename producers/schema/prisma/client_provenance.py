"""Which expressions are a Prisma Client, proven from the syntax alone.

A receiver is a client only when its provenance is proven from the syntax (no
type checker, nothing executed): `new PrismaClient()` with the constructor
imported from `@prisma/client` (or a subpath), `.prisma/client` or a generator
output folder, or of a top-level class extending a client class (`class
PrismaService extends PrismaClient`, also a client type); names annotated
`PrismaClient` / `Prisma.TransactionClient` (also inside
Omit/Pick/Readonly/NonNullable/Required, intersections, local aliases, `typeof
client`); calls of functions whose declared return type is one, or, declared
without one (neither async nor a generator), whose every `return` gives one;
`a ?? b` / `a || b` with a client side; `client.$extends(…)`; the first parameter
of a `client.$transaction(callback)`; class fields and constructor parameter
properties (`this.db`: typed as a client, or holding one by the shared rule of
values/class_members.this_value); `this.repo.name` where `this.repo` is typed with
a project class whose field `name` is typed as a client; calls of a generic
function `f<T>(…, get: () => T): T` whose `T` only that callback fixes, when every
value the callback returns is a client (a `remember(name, () => new
PrismaClient())` cache); and bindings imported across files (ES, CommonJS, `await
import()`), followed lazily through the exporting files with a cycle guard. The
nearest declaration of a name wins, so locals and parameters shadow outer clients.

A mock is never a client (mocks.py): a value annotated or cast to a mock type
(`prisma as unknown as DeepMockProxy<PrismaClient>`), and the bindings a file
imports from a module it replaces with `jest.mock(…)` / `vi.mock(…)`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_read import top_level
from tsograph.producers.lang.syntax_read import unwrap
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project import paths
from tsograph.producers.project.resolve import SOURCE
from tsograph.producers.project.tsconfig import match_pattern
from tsograph.producers.project.tsconfig import substitute
from tsograph.producers.schema import mocks
from tsograph.producers.schema.prisma import bindings
from tsograph.producers.schema.schema_scan import SchemaScan
from tsograph.producers.values import class_members
from tsograph.producers.values import exports
from tsograph.producers.values import object_writes
from tsograph.producers.values import provenance
from tsograph.producers.values import scopes
from tsograph.producers.values.budget import DepthBudget
from tsograph.producers.values.returns import function_results

PRISMA_PACKAGE = "@prisma/client"
CLIENT_MODULES = re.compile(r"^(?:@prisma/client(?:/.*)?|\.prisma/client(?:/.*)?)$")
# Generic types that keep a client a client (Omit/Pick/… keep its delegates; a function's
# declared Promise<…> return type is awaited before use).
_CLIENT_TYPE_WRAPPERS = frozenset(
    {"Omit", "Pick", "Readonly", "NonNullable", "Required", "Promise", "PromiseLike", "Awaited"}
)
_NULLISH = frozenset({"null", "undefined"})


@dataclass
class ClientFile:
    """What one file says about clients: constructor names, client types, scopes."""

    path: str
    file: SyntaxFile
    constructors: set[str] = field(default_factory=set)  # local names of PrismaClient
    client_types: set[str] = field(default_factory=set)  # local type names meaning a client
    prisma_namespaces: set[str] = field(default_factory=set)  # `Prisma` from the client module
    # local name -> (import kind, specifier, imported name)
    imports: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    mocked: set[str] = field(default_factory=set)  # specifiers replaced by jest/vi.mock
    client_nodes: dict[Node, bool] = field(default_factory=dict)


def _type_name(written: Node | None) -> str | None:
    """The name of a plain named type (`T`, `ns.T`), None for anything else."""
    if written is None or written.kind != "type_ref" or written.items:
        return None
    return written.value


def _generic_callback_argument(function: Node, call: Node) -> Node | None:
    """The argument that alone fixes a generic function's return type, or None.

    `function f<T>(…, getValue: () => T): T` returns what `getValue` returns when
    `T` appears in no other parameter: TypeScript then infers `T` from that callback's
    return type only (documenso's `remember(name, () => new PrismaClient())`).
    """
    name = _type_name(function.part("return_type"))
    generics = function.part("type_parameters")
    if name is None or generics is None:
        return None
    declared = {
        declared_name.value
        for item in generics.items
        if (declared_name := item.part("name")) is not None
    }
    if name not in declared:
        return None
    parameters = function.part("parameters")
    position: int | None = None
    for index, parameter in enumerate(parameters.items if parameters is not None else ()):
        annotation = parameter.part("type")
        if annotation is None or not any(
            node.kind == "type_ref" and node.value == name for node in annotation.walk()
        ):
            continue
        if position is not None or annotation.kind != "function_type":
            return None  # T is inferred from more than one place, or not from a callback
        if _type_name(annotation.part("return_type")) != name:
            return None
        position = index
    given = call.items
    if position is None or position >= len(given):
        return None
    if any(item.kind == "spread" for item in given[: position + 1]):
        return None
    return given[position]


class ClientIndex:
    """Client provenance across the project's files, computed on demand and memoised."""

    def __init__(self, scan: SchemaScan, outputs: list[str]) -> None:
        self.scan = scan
        self.outputs = outputs
        self.files: dict[str, ClientFile | None] = {}
        self.exports: dict[tuple[str, str], bool] = {}
        # (file, function span) -> whether every call of that function gives a client
        self.factories: dict[object, bool] = {}
        self.busy: set[object] = set()  # the proofs on the current chain
        self.this_writes = class_members.ThisWrites()
        self.budget = DepthBudget()  # the value layer's one depth budget, spent by the chain
        self.cuts = 0  # how many proofs were cut at the shared depth budget so far
        self.resolver = scan.resolver()
        self.scopes = scopes.Scopes()  # the value layer's scope table, for every file
        self.export_index = exports.ExportIndex()  # where each module's exports come from
        # (file, declaration span, name) -> the object literal that binding holds
        self.holders: dict[tuple[str, int, int, str], tuple[ClientFile, Node] | None] = {}
        self.sources = frozenset(scan.files.sources)

    # ---- files and imports ------------------------------------------------------

    def file(self, path: str) -> ClientFile | None:
        if path not in self.files:
            file = self.scan.syntax(path)
            self.files[path] = None if file is None else self._index(path, file)
        return self.files[path]

    def _client_module(self, importer: str, specifier: str) -> bool:
        if CLIENT_MODULES.match(specifier):
            return True
        if not self.outputs:
            return False
        if specifier.startswith("."):
            targets = [paths.join(paths.parent(importer), specifier)]
        else:
            # tsconfig/jsconfig `paths` are matched as written: the generated files
            # need not be committed for `@/generated/prisma` to name the output folder.
            config = self.resolver.configs.for_file(importer)
            targets = [
                substitute(target, star)
                for mapping in config.mappings
                if (star := match_pattern(mapping.pattern, specifier)) is not None
                for target in mapping.targets
            ]
            if config.base_url is not None:
                targets.append(paths.join(config.base_url, specifier))
        return any(
            target == out or target.startswith(out + "/")
            for target in targets
            for out in self.outputs
        )

    def _index(self, path: str, file: SyntaxFile) -> ClientFile:
        info = ClientFile(path, file, mocked=mocks.mocked_modules(file.root))
        for record in file.facts.imports:
            info.imports[record.local] = (record.kind, record.specifier, record.imported)
            if not record.local or not self._client_module(path, record.specifier):
                continue
            # Every client module (a subpath, `.prisma/client`, a generator output) exports
            # what `@prisma/client` does: its constructor is the shared table's row.
            if provenance.kind_of(PRISMA_PACKAGE, record.imported, "new") == "prisma-client":
                if record.specifier not in info.mocked:  # a mocked module builds mocks
                    info.constructors.add(record.local)
                info.client_types.add(record.local)
            elif record.imported == "Prisma" or record.imported == "*":
                info.prisma_namespaces.add(record.local)
        # A class extending a client class is one (NestJS's `class PrismaService extends
        # PrismaClient`): the PrismaClient constructor returns the object with the model
        # delegates (@prisma/client 6.5.0 runtime/library.js: `return
        # this._appliedParent=xr(this)`), so `super()` makes it the subclass instance.
        for inner in top_level(file.root, ("class",)):
            name, base = inner.part("name"), inner.part("base")
            if name is None or base is None or base.kind != "identifier":
                continue
            if base.value in info.constructors or base.value in info.client_types:
                info.client_types.add(name.value or "")
                info.constructors.add(name.value or "")
        # Local type aliases and interfaces of a client type are client types too.
        for inner in top_level(file.root, ("type_alias", "interface")):
            name = inner.part("name")
            if name is not None and any(
                self._is_client_type(info, written, inner)
                for written in bindings.defining_types(inner)
            ):
                info.client_types.add(name.value or "")
        return info

    def _is_client_type(self, info: ClientFile, node: Node, at: Node) -> bool:
        """A written type that is a client: a client type name, Omit/Pick/Readonly/… or
        Promise of one, an intersection with one, a union of one with null/undefined, or
        `typeof` a client. A type that only mentions one (`{ db: PrismaClient }`,
        `PrismaClient[]`, `() => PrismaClient`) or a mock type (mocks.py) is not."""
        if mocks.names_mock_type(node):
            return False
        return self._client_type_node(info, node, at)

    def _client_type_node(self, info: ClientFile, node: Node, at: Node) -> bool:
        kind = node.kind
        if kind == "type_ref" and not node.items:
            return self._client_type_name(info, node.value or "")
        if kind == "type_ref":
            return node.value in _CLIENT_TYPE_WRAPPERS and self._client_type_node(
                info, node.items[0], at
            )
        if kind == "intersection":
            return any(self._client_type_node(info, child, at) for child in node.items)
        if kind == "union":
            members = [child for child in node.items if not _nullish_type(child)]
            return bool(members) and all(
                self._client_type_node(info, child, at) for child in members
            )
        queried = node.part("value") if kind == "type_query" else None
        if queried is not None and queried.kind == "identifier" and queried.value:
            found = self.lookup(info, at, queried.value)
            return (
                found is not None
                and found[1] is not at
                and self._binding_is_client(info, found[1], queried.value)
            )
        return False

    def _client_type_name(self, info: ClientFile, word: str) -> bool:
        head, _, last = word.rpartition(".")
        if word in info.client_types:
            return True
        if head in info.prisma_namespaces and last in ("TransactionClient", "PrismaClient"):
            return True
        return not head and word in info.imports and self._imported_type_is_client(info, word)

    def _imported_type_is_client(self, info: ClientFile, local: str) -> bool:
        """An imported type alias or interface that stands for a client type."""
        found = self._imported_declaration(info, local)
        return found is not None and found[1] in found[0].client_types

    def _imported_declaration(self, info: ClientFile, local: str) -> tuple[ClientFile, str] | None:
        """(exporting file, local name there) of an imported name, following re-exports."""
        _, specifier, imported = info.imports[local]
        target = self._resolve_source(info.path, specifier)
        for _ in range(16):  # re-export chains are short; a cycle stops here
            if target is None or imported in ("*", ""):
                return None
            exporting = self.file(target)
            if exporting is None:
                return None
            record = next((e for e in exporting.file.facts.exports if e.name == imported), None)
            if record is None:
                return None
            if record.kind == "reexport":
                target = self._resolve_source(target, record.specifier)
                imported = record.imported
                continue
            ref = record.value
            if ref is None:  # an exported interface or type alias names itself
                return exporting, imported
            if ref.head == "import" and ref.name in exporting.imports and not ref.members:
                info, local = exporting, ref.name
                _, specifier, imported = info.imports[local]
                target = self._resolve_source(info.path, specifier)
                continue
            return (exporting, ref.name) if ref.head == "decl" and not ref.members else None
        return None

    def _resolve_source(self, importer: str, specifier: str) -> str | None:
        resolved = self.resolver.resolve(importer, specifier)
        # The model resolves over every walked file; only the run's sources are read.
        return resolved.path if resolved.kind == SOURCE and resolved.path in self.sources else None

    # ---- exports across files ---------------------------------------------------

    def export_is_client(self, path: str, name: str) -> bool:
        key = (path, name)
        if key in self.exports:
            return self.exports[key]
        return self._proved(
            key, self.exports, key, "import-chains", lambda: self._export_is_client(path, name)
        )

    def _proved(
        self,
        busy: object,
        memo: dict[Any, bool],
        memo_key: object,
        chains: str,
        prove: Callable[[], bool],
    ) -> bool:
        """`prove()` once per `busy` key on the current chain, cut at the shared depth budget.

        A cycle proves nothing by itself; a "no" reached through a cut is not remembered.
        """
        if busy in self.busy:
            return False
        if not self.budget.enter():
            self.scan.note("provenance-truncated:", chains)
            self.cuts += 1
            return False
        self.busy.add(busy)
        cuts = self.cuts
        try:
            found = prove()
        finally:
            self.busy.discard(busy)
            self.budget.leave()
        if found or cuts == self.cuts:
            memo[memo_key] = found
        return found

    def _export_is_client(self, path: str, name: str) -> bool:
        """The module's own export decides (ES ResolveExport, as values/exports.py orders
        it for the other evaluators); CommonJS assignments and then its `export *`
        modules are tried in turn, the stars never for `default`."""
        info = self.file(path)
        if info is None:
            return False
        stars: list[str] = []
        for record in info.file.facts.exports:
            if record.kind == "star":
                stars.append(record.specifier)
                continue
            wanted = record.name == name or (name in ("default", "=") and record.kind == "equals")
            found = self._record_is_client(info, record) if wanted else None
            if found is not None and (found or record.kind in ("local", "reexport")):
                return found
        if name not in ("default", "="):
            for specifier in stars:
                target = self._resolve_source(path, specifier)
                if target is not None and self.export_is_client(target, name):
                    return True
        return False

    def _record_is_client(self, info: ClientFile, record: Export) -> bool | None:
        """Whether an export record's value is a client; None for a record that exports
        no value (a type)."""
        if record.type_only:
            return None
        if record.kind == "reexport":
            target = self._resolve_source(info.path, record.specifier)
            return target is not None and self.export_is_client(target, record.imported)
        ref = record.value
        if ref is None:
            return None
        if ref.head == "import" and ref.name in info.imports:
            return self._import_is_client(info, ref.name, ref.members)
        if ref.head == "decl" and ref.name == "default":
            expression = bindings.default_expression(info.file.root)
            return expression is not None and self.is_client(info, expression)
        if ref.head == "decl" and not ref.members:
            binding = self._module_declaration(info, ref.name)
            return binding is not None and self._binding_is_client(info, binding, ref.name)
        return False

    def _import_is_client(
        self, info: ClientFile, local: str, members: tuple[str, ...] = ()
    ) -> bool:
        kind, specifier, imported = info.imports[local]
        if specifier in info.mocked:
            return False
        target = self._resolve_source(info.path, specifier)
        if target is None:
            return False
        if imported == "*":
            if members:
                return self.export_is_client(target, members[0]) and len(members) == 1
            return kind in ("require", "dynamic") and self.export_is_client(target, "=")
        if imported == "default":
            return self.export_is_client(target, "default")
        return self.export_is_client(target, imported)

    # ---- scopes and bindings ----------------------------------------------------

    def _module_declaration(self, info: ClientFile, name: str) -> Node | None:
        found = self.scopes.table(info.file.root).get(name)
        return None if found is None else bindings.declaring_node(found)

    def lookup(self, info: ClientFile, node: Node, name: str) -> tuple[Node, Node] | None:
        """(scope, declaring node) of the nearest declaration of `name` around `node`."""
        found = self.scopes.lookup_scoped(node, name)
        return None if found is None else (found[0], bindings.declaring_node(found[1]))

    def _binding_is_client(self, info: ClientFile, declared: Node, name: str) -> bool:
        if declared in info.client_nodes:
            return info.client_nodes[declared]
        marker = (info.path, declared.start, declared.end, declared.kind)
        return self._proved(
            marker,
            info.client_nodes,
            declared,
            "binding-chains",
            lambda: self._declared_client(info, declared, name),
        )

    def _declared_client(self, info: ClientFile, declared: Node, name: str) -> bool:
        if declared.kind == "import":
            return name in info.imports and self._import_is_client(info, name)
        annotation = declared.part("type")
        if annotation is not None and self._is_client_type(info, annotation, declared):
            return True
        if declared.kind == "declarator":
            value = declared.part("value")
            target = declared.part("name")
            if target is not None and target.kind != "identifier":
                if name in info.imports:
                    return self._import_is_client(info, name)
                return self._destructured_is_client(info, target, value, name)
            if value is not None and bindings.is_require_or_import(value):
                return name in info.imports and self._import_is_client(info, name)
            if value is not None:
                member = self._required_member(info, value)
                if member is not None:
                    return member
            return value is not None and self.is_client(info, value)
        if declared.kind == "parameter":
            return self._transaction_parameter(info, declared)
        return False

    def _required_member(self, info: ClientFile, value: Node) -> bool | None:
        """`require("./db").prisma`: whether that export is a client; None for other shapes."""
        value = unwrap(value)
        if value.kind != "member":
            return None
        obj = value.part("object")
        prop = value.part("property")
        if obj is None or prop is None or not bindings.is_require_or_import(obj):
            return None
        call = unwrap(obj)
        specifier = string_value(call.items[0]) if call.items else None
        target = None if specifier is None else self._resolve_source(info.path, specifier)
        return target is not None and self.export_is_client(target, prop.value or "")

    def _transaction_parameter(self, info: ClientFile, parameter: Node) -> bool:
        """The first parameter of a callback passed to `client.$transaction(…)`."""
        parameters = parameter.parent
        if parameters is None or parameters.items[:1] != (parameter,):
            return False
        function = parameters.parent
        if (
            function is None
            or function.kind != "function"
            or function.value not in ("arrow", "expression")
            or "generator" in function.flags
        ):
            return False
        call = function.parent
        if call is None or call.kind != "call" or call.part("callee") is function:
            return False
        callee = call.part("callee")
        if callee is None or callee.kind != "member":
            return False
        prop = callee.part("property")
        receiver = callee.part("object")
        return (
            prop is not None
            and prop.value == "$transaction"
            and receiver is not None
            and self.is_client(info, receiver)
        )

    # ---- expressions ------------------------------------------------------------

    def is_client(self, info: ClientFile, node: Node) -> bool:
        if mocks.is_mock_cast(node):
            return False
        node = unwrap(node)
        if node.kind == "await":
            inner = node.part("value")
            return inner is not None and self.is_client(info, inner)
        if node.kind == "new":
            constructor = node.part("callee")
            return constructor is not None and self._is_constructor(info, constructor)
        if node.kind == "identifier":
            name = node.value or ""
            found = self.lookup(info, node, name)
            if found is None:
                return False
            return self._binding_is_client(info, found[1], name)
        if node.kind == "binary":
            if node.value in ("??", "||"):
                return any(
                    side is not None and self.is_client(info, side)
                    for side in (node.part("left"), node.part("right"))
                )
            return False
        if node.kind == "call":
            return self._call_is_client(info, node)
        if node.kind == "member":
            return self._member_is_client(info, node)
        return False

    def _is_constructor(self, info: ClientFile, node: Node) -> bool:
        node = unwrap(node)
        if node.kind == "identifier":
            name = node.value or ""
            found = self.lookup(info, node, name)
            # Bound by an import or a module-level `const { PrismaClient } = require(…)`.
            return name in info.constructors and (
                found is None or found[1].kind == "import" or found[0].kind == "module"
            )
        if node.kind == "member":
            return bindings.prisma_member(node, info.prisma_namespaces, "PrismaClient")
        return False

    def _call_is_client(self, info: ClientFile, node: Node) -> bool:
        callee = node.part("callee")
        if callee is None:
            return False
        callee = unwrap(callee)
        if callee.kind == "member":
            prop = callee.part("property")
            receiver = callee.part("object")
            if prop is not None and prop.value == "$extends" and receiver is not None:
                return self.is_client(info, receiver)
            return False
        if callee.kind == "identifier":
            name = callee.value or ""
            found = self.lookup(info, callee, name)
            if found is None:
                return False
            declared: Node | None = found[1]
            owner = info
            if declared is not None and declared.kind == "import" and name in info.imports:
                if info.imports[name][1] in info.mocked:
                    return False
                exported = self._imported_declaration(info, name)
                if exported is None:
                    return False
                owner, local = exported
                declared = self._module_declaration(owner, local)
            if declared is None or declared.kind != "function" or declared.value != "declaration":
                return False
            returns = declared.part("return_type")
            if returns is not None and self._is_client_type(owner, returns, declared):
                return True
            if returns is None and self._returns_client(owner, declared):
                return True
            callback = _generic_callback_argument(declared, node)
            return callback is not None and self._callback_returns_client(info, callback)
        return False

    def _returns_client(self, info: ClientFile, function: Node) -> bool:
        """A function declared without a return type, neither async nor a generator (whose
        calls give a promise or an iterator), every `return` of which gives a client: a
        factory (`function getClient() { const c = new PrismaClient(); …; return c }`).
        A bare `return;` gives undefined, so it proves nothing."""
        if "async" in function.flags or "generator" in function.flags:
            return False
        marker = (info.path, function.start, function.end)
        if marker in self.factories:
            return self.factories[marker]
        return self._proved(
            ("returns", marker),
            self.factories,
            marker,
            "function-returns",
            lambda: self._every_return_is_client(info, function),
        )

    def _every_return_is_client(self, info: ClientFile, function: Node) -> bool:
        values = function_results(function)
        return bool(values) and all(
            value is not None and self.is_client(info, value) for value in values or ()
        )

    def _callback_returns_client(self, info: ClientFile, function: Node) -> bool:
        """An arrow function or function expression every returned value of which is a client."""
        function = unwrap(function)
        if (
            function.kind != "function"
            or function.value not in ("arrow", "expression")
            or "generator" in function.flags
        ):
            return False
        values = function_results(function)
        if not values:
            return False
        return all(value is not None and self.is_client(info, value) for value in values)

    def _member_is_client(self, info: ClientFile, node: Node) -> bool:
        obj = node.part("object")
        prop = node.part("property")
        if obj is None or prop is None:
            return False
        obj = unwrap(obj)
        name = prop.value or ""
        if obj.kind == "this":
            return self._this_member_is_client(info, node, name)
        if obj.kind == "member" and unwrap(obj.part("object") or obj).kind == "this":
            return self._class_field_is_client(info, obj, name)
        if obj.kind == "identifier":
            local = obj.value or ""
            found = self.lookup(info, obj, local)
            if (
                found is not None
                and found[1].kind == "import"
                and local in info.imports
                and info.imports[local][2] == "*"
            ):
                return self._import_is_client(info, local, (name,))
            holder = self._object_holder(info, obj, local)
            return holder is not None and self._property_is_client(*holder, name)
        return False

    def _object_holder(
        self, info: ClientFile, obj: Node, local: str
    ) -> tuple[ClientFile, Node] | None:
        """The object literal `local` holds, with the file that writes it, when neither the
        module that declares it nor the one reading it writes into it
        (values/object_writes.py; other importers are not searched, as for the client
        evaluator's closed consts): a module-level or local `const x = {…}`, or an
        imported one (`export default {…}` or an exported `const`), as umami's
        `export default { client, … }` in src/lib/prisma.ts."""
        found = self.scopes.lookup_scoped(obj, local)
        if found is None:
            return None
        # Asked for every `holder.member` and destructuring; the answer is the binding's.
        key = (info.path, found[1].node.start, found[1].node.end, local)
        if key not in self.holders:
            self.holders[key] = self._held_object(info, local, found[1])
        return self.holders[key]

    def _held_object(
        self, info: ClientFile, local: str, declaration: scopes.Declaration
    ) -> tuple[ClientFile, Node] | None:
        if self._written(info, local, declaration):
            return None
        if declaration.kind == "const":
            return self._const_object(info, declaration.node)
        if declaration.kind != "import" or local not in info.imports:
            return None
        kind, specifier, imported = info.imports[local]
        if kind not in ("named", "default") or specifier in info.mocked:
            return None
        target = self._resolve_source(info.path, specifier)
        exporting = None if target is None else self.file(target)
        if exporting is None:
            return None
        sites = self.export_index.sites(exporting.file.root, imported)
        site = next((site for site in sites if site.kind in exports.DECIDING), None)
        if site is None:
            return None
        if site.kind == "default":
            value = unwrap(site.node)
            return (exporting, value) if value.kind == "object" else None
        held = site.declaration
        if site.kind != "declared" or held is None or held.kind != "const":
            return None
        if self._written(exporting, imported, held):
            return None
        return self._const_object(exporting, held.node)

    def _written(self, info: ClientFile, name: str, declaration: scopes.Declaration) -> bool:
        def same(identifier: Node) -> bool:
            # By node: the export index and the scope table each make their Declaration.
            found = self.scopes.lookup_scoped(identifier, name)
            return found is not None and found[1].node is declaration.node

        return object_writes.written_through(info.file.root, name, same)

    def _destructured_is_client(
        self, info: ClientFile, pattern: Node, value: Node | None, name: str
    ) -> bool:
        """`const { client } = holder` (or `{ client: name }`): the property of the object
        literal `holder` holds (umami's `const { client, transaction } = prisma`)."""
        holder = unwrap(value) if value is not None else None
        if pattern.kind != "object_pattern" or holder is None or holder.kind != "identifier":
            return False
        key = next(
            (
                static_key(entry)
                for entry in pattern.items
                if (entry.kind == "shorthand" and entry.value == name)
                or (
                    entry.kind == "property"
                    and (bound := entry.part("value")) is not None
                    and bound.kind == "identifier"
                    and bound.value == name
                )
            ),
            None,
        )
        found = None if key is None else self._object_holder(info, holder, holder.value or "")
        return found is not None and key is not None and self._property_is_client(*found, key)

    @staticmethod
    def _const_object(info: ClientFile, declarator: Node) -> tuple[ClientFile, Node] | None:
        value = declarator.part("value")
        if value is None or unwrap(value).kind != "object":
            return None
        return info, unwrap(value)

    def _property_is_client(self, info: ClientFile, literal: Node, name: str) -> bool:
        """Whether property `name` of an object literal is a client: its last plain entry
        (`name` or `name: value`); a spread or a computed key may override it."""
        if any(item.kind == "spread" or static_key(item) is None for item in literal.items):
            return False
        entries = [item for item in literal.items if static_key(item) == name]
        if not entries:
            return False
        entry = entries[-1]
        if entry.kind == "shorthand":
            found = self.lookup(info, entry, name)
            return found is not None and self._binding_is_client(info, found[1], name)
        value = entry.part("value") if entry.kind == "property" else None
        return value is not None and self.is_client(info, value)

    def _class_field_is_client(self, info: ClientFile, holder: Node, name: str) -> bool:
        """`this.repo.name` where `this.repo` is declared with the type of a project class
        whose field `name` is typed as a client (postiz-app: `this._user.model.user` with
        `_user: PrismaRepository<'user'>` and `model: Pick<PrismaService, T>`)."""
        prop = holder.part("property")
        if prop is None or not prop.value:
            return False
        for kind, declared in class_members.this_declarations(holder, prop.value):
            annotation = None if kind == "constructor" else declared.part("type")
            if annotation is None or annotation.kind != "type_ref" or not annotation.value:
                continue
            found = self._class_declaration(info, annotation.value)
            if found is None:
                continue
            owner, cls = found
            for member in cls.items:
                typed = member.part("type") if class_members.is_field_named(member, name) else None
                if typed is not None and self._is_client_type(owner, typed, member):
                    return True
        return False

    def _class_declaration(self, info: ClientFile, word: str) -> tuple[ClientFile, Node] | None:
        """The file and declaration of the class a type name names: a top-level class of
        this file, or one an import names (through re-exports)."""
        owner: ClientFile | None = info
        if word in info.imports:
            found = self._imported_declaration(info, word)
            owner, word = (None, word) if found is None else found
        if owner is None or "." in word:
            return None
        cls = next(
            (
                inner
                for inner in top_level(owner.file.root, ("class",))
                if (inner.part("name") or inner).value == word
            ),
            None,
        )
        return None if cls is None else (owner, cls)

    def _this_member_is_client(self, info: ClientFile, node: Node, name: str) -> bool:
        """A field or parameter property typed as a client, or the one value the class
        proves `this.name` holds (values/class_members.this_value) being one."""
        for kind, declared in class_members.this_declarations(node, name):
            annotation = None if kind == "constructor" else declared.part("type")
            if annotation is not None and self._is_client_type(info, annotation, declared):
                return True
        written = class_members.this_value(node, name, self.this_writes)
        return written is not None and self.is_client(info, written)


def _nullish_type(written: Node) -> bool:
    if written.kind == "type_ref":
        return written.value in _NULLISH
    inner = written.part("value") if written.kind == "literal_type" else None
    return inner is not None and inner.kind in _NULLISH
