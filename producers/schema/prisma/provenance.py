"""Which expressions are a Prisma Client, proven from the syntax alone.

A receiver is a client only when its provenance is proven from the syntax (no
type checker, nothing executed): `new PrismaClient()` with the constructor
imported from `@prisma/client` (or a subpath), `.prisma/client` or a generator
output folder; names annotated `PrismaClient` / `Prisma.TransactionClient` (also
inside Omit/Pick/Readonly/NonNullable/Required, intersections, local aliases,
`typeof client`); calls of functions whose declared return type is one;
`a ?? b` / `a || b` with a client side; `client.$extends(…)`; the first parameter
of a `client.$transaction(callback)`; class fields and constructor parameter
properties (`this.db`); calls of a generic function `f<T>(…, get: () => T): T`
whose `T` only that callback fixes, when every value the callback returns is a
client (a `remember(name, () => new PrismaClient())` cache); and bindings
imported across files (ES, CommonJS,
`await import()`), followed lazily through the exporting files with a cycle
guard. The nearest declaration of a name wins, so locals and parameters shadow
outer clients.

A mock is never a client (mocks.py): a value annotated or cast to a mock type
(`prisma as unknown as DeepMockProxy<PrismaClient>`), and the bindings a file
imports from a module it replaces with `jest.mock(…)` / `vi.mock(…)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.project import paths
from tsograph.producers.project.resolve import SOURCE
from tsograph.producers.project.tsconfig import match_pattern, substitute
from tsograph.producers.schema import mocks, syntax
from tsograph.producers.schema.prisma import bindings
from tsograph.producers.schema.scan import SchemaScan

CLIENT_MODULES = re.compile(r"^(?:@prisma/client(?:/.*)?|\.prisma/client(?:/.*)?)$")
_SCOPES = syntax.FUNCTIONS | {
    "program",
    "statement_block",
    "for_statement",
    "for_in_statement",
    "catch_clause",
    "class_body",
}
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
# Generic types that keep a client a client (Omit/Pick/… keep its delegates; a function's
# declared Promise<…> return type is awaited before use).
_CLIENT_TYPE_WRAPPERS = frozenset(
    {"Omit", "Pick", "Readonly", "NonNullable", "Required", "Promise", "PromiseLike", "Awaited"}
)
_NULLISH = frozenset({"null", "undefined"})
# How many bindings and exports one proof may pass through; deeper chains are cut
# (counted) instead of risking the interpreter's recursion limit.
MAX_PROVENANCE_DEPTH = 64


def _key(node: Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


@dataclass
class ClientFile:
    """What one file says about clients: constructor names, client types, scopes."""

    path: str
    parsed: ParsedFile
    constructors: set[str] = field(default_factory=set)  # local names of PrismaClient
    client_types: set[str] = field(default_factory=set)  # local type names meaning a client
    prisma_namespaces: set[str] = field(default_factory=set)  # `Prisma` from the client module
    # local name -> (import kind, specifier, imported name)
    imports: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    mocked: set[str] = field(default_factory=set)  # specifiers replaced by jest/vi.mock
    scopes: dict[tuple[int, int, str], dict[str, Node]] = field(default_factory=dict)
    client_nodes: dict[tuple[int, int, str], bool] = field(default_factory=dict)


def _generic_callback_argument(function: Node, call: Node) -> Node | None:
    """The argument that alone fixes a generic function's return type, or None.

    `function f<T>(…, getValue: () => T): T` returns what `getValue` returns when
    `T` appears in no other parameter: TypeScript then infers `T` from that callback's
    return type only (documenso's `remember(name, () => new PrismaClient())`).
    """
    returns = function.child_by_field_name("return_type")
    written = returns.named_children[-1] if returns is not None and returns.named_children else None
    generics = function.child_by_field_name("type_parameters")
    if written is None or written.type != "type_identifier" or generics is None:
        return None
    name = syntax.text(written)
    declared = {
        syntax.text(item.child_by_field_name("name") or item)
        for item in generics.named_children
        if item.type == "type_parameter"
    }
    if name not in declared:
        return None
    parameters = function.child_by_field_name("parameters")
    position: int | None = None
    for index, parameter in enumerate(parameters.named_children if parameters else []):
        annotation = parameter.child_by_field_name("type")
        if annotation is None or not any(
            node.type == "type_identifier" and syntax.text(node) == name
            for node in syntax.walk(annotation)
        ):
            continue
        written_type = annotation.named_children[-1] if annotation.named_children else None
        result = None if written_type is None else written_type.child_by_field_name("return_type")
        if position is not None or written_type is None or written_type.type != "function_type":
            return None  # T is inferred from more than one place, or not from a callback
        if result is None or syntax.text(result) != name:
            return None
        position = index
    arguments = call.child_by_field_name("arguments")
    given = arguments.named_children if arguments is not None else []
    if position is None or position >= len(given):
        return None
    if any(item.type == "spread_element" for item in given[: position + 1]):
        return None
    return given[position]


class ClientIndex:
    """Client provenance across the project's files, computed on demand and memoised."""

    def __init__(self, scan: SchemaScan, outputs: list[str]) -> None:
        self.scan = scan
        self.outputs = outputs
        self.files: dict[str, ClientFile | None] = {}
        self.exports: dict[tuple[str, str], bool] = {}
        self.busy: set[object] = set()
        self.cuts = 0  # how many proofs were cut at MAX_PROVENANCE_DEPTH so far
        self.resolver = scan.resolver()
        self.sources = frozenset(scan.files.sources)

    # ---- files and imports ------------------------------------------------------

    def file(self, path: str) -> ClientFile | None:
        if path not in self.files:
            parsed = self.scan.parsed(path)
            self.files[path] = None if parsed is None else self._index(path, parsed)
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

    def _index(self, path: str, parsed: ParsedFile) -> ClientFile:
        info = ClientFile(path, parsed, mocked=mocks.mocked_modules(parsed.root))
        for record in parsed.facts.imports:
            info.imports[record.local] = (record.kind, record.specifier, record.imported)
            if not record.local or not self._client_module(path, record.specifier):
                continue
            if record.imported == "PrismaClient":
                if record.specifier not in info.mocked:  # a mocked module builds mocks
                    info.constructors.add(record.local)
                info.client_types.add(record.local)
            elif record.imported == "Prisma" or record.imported == "*":
                info.prisma_namespaces.add(record.local)
        # Local type aliases and interfaces of a client type are client types too.
        for node in parsed.root.named_children:
            inner = (
                node.child_by_field_name("declaration") if node.type == "export_statement" else node
            )
            if inner is None or inner.type not in (
                "type_alias_declaration",
                "interface_declaration",
            ):
                continue
            name = inner.child_by_field_name("name")
            if name is not None and any(
                self._is_client_type(info, written, inner)
                for written in bindings.defining_types(inner)
            ):
                info.client_types.add(syntax.text(name))
        return info

    def _is_client_type(self, info: ClientFile, node: Node, at: Node) -> bool:
        """A written type that is a client: a client type name, Omit/Pick/Readonly/… or
        Promise of one, an intersection with one, a union of one with null/undefined, or
        `typeof` a client. A type that only mentions one (`{ db: PrismaClient }`,
        `PrismaClient[]`, `() => PrismaClient`) or a mock type (mocks.py) is not."""
        if mocks.names_mock_type(syntax.text(node)):
            return False
        return self._client_type_node(info, node, at)

    def _client_type_node(self, info: ClientFile, node: Node, at: Node) -> bool:
        kind = node.type
        children = node.named_children
        if kind in ("type_annotation", "parenthesized_type"):
            return bool(children) and self._client_type_node(info, children[-1], at)
        if kind in ("type_identifier", "nested_type_identifier"):
            return self._client_type_name(info, syntax.text(node))
        if kind == "generic_type":
            name = node.child_by_field_name("name")
            arguments = node.child_by_field_name("type_arguments")
            first = arguments.named_children[0] if arguments and arguments.named_children else None
            return (
                name is not None
                and syntax.text(name) in _CLIENT_TYPE_WRAPPERS
                and first is not None
                and self._client_type_node(info, first, at)
            )
        if kind == "intersection_type":
            return any(self._client_type_node(info, child, at) for child in children)
        if kind == "union_type":
            members = [child for child in children if syntax.text(child) not in _NULLISH]
            return bool(members) and all(
                self._client_type_node(info, child, at) for child in members
            )
        if kind == "type_query" and children and children[0].type == "identifier":
            queried = syntax.text(children[0])
            found = self.lookup(info, at, queried)
            return (
                found is not None
                and found[1] is not at
                and self._binding_is_client(info, found[1], queried)
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
            record = next((e for e in exporting.parsed.facts.exports if e.name == imported), None)
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
        if key in self.busy:
            return False  # an import cycle proves nothing by itself
        if len(self.busy) >= MAX_PROVENANCE_DEPTH:
            self.scan.note("provenance-truncated:", "import-chains")
            self.cuts += 1
            return False
        self.busy.add(key)
        cuts = self.cuts
        try:
            found = self._export_is_client(path, name)
        finally:
            self.busy.discard(key)
        if found or cuts == self.cuts:  # a "no" reached through a cut is not remembered
            self.exports[key] = found
        return found

    def _export_is_client(self, path: str, name: str) -> bool:
        info = self.file(path)
        if info is None:
            return False
        stars: list[str] = []
        for record in info.parsed.facts.exports:
            if record.kind == "star":
                stars.append(record.specifier)
                continue
            wanted = record.name == name or (name in ("default", "=") and record.kind == "equals")
            if not wanted:
                continue
            if record.kind == "reexport":
                target = self._resolve_source(path, record.specifier)
                if target is not None and self.export_is_client(target, record.imported):
                    return True
                continue
            ref = record.value
            if ref is None:
                continue
            if ref.head == "import" and ref.name in info.imports:
                if self._import_is_client(info, ref.name, ref.members):
                    return True
            elif ref.head == "decl" and ref.name == "default":
                expression = bindings.default_expression(info.parsed.root)
                if expression is not None and self.is_client(info, expression):
                    return True
            elif ref.head == "decl" and not ref.members:
                binding = self._scope(info, info.parsed.root).get(ref.name)
                if binding is not None and self._binding_is_client(info, binding, ref.name):
                    return True
        if name not in ("default", "="):
            for specifier in stars:
                target = self._resolve_source(path, specifier)
                if target is not None and self.export_is_client(target, name):
                    return True
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

    def _scope(self, info: ClientFile, scope: Node) -> dict[str, Node]:
        key = _key(scope)
        if key not in info.scopes:
            info.scopes[key] = dict(bindings.declarations(scope))
        return info.scopes[key]

    def lookup(self, info: ClientFile, node: Node, name: str) -> tuple[Node, Node] | None:
        """(scope, declaring node) of the nearest declaration of `name` around `node`."""
        current: Node | None = node
        while current is not None:
            if current.type in _SCOPES and current.type != "class_body":
                declared = self._scope(info, current).get(name)
                if declared is not None:
                    return current, declared
            current = current.parent
        return None

    def _binding_is_client(self, info: ClientFile, declared: Node, name: str) -> bool:
        key = _key(declared)
        if key in info.client_nodes:
            return info.client_nodes[key]
        marker = (info.path, key)
        if marker in self.busy:
            return False
        if len(self.busy) >= MAX_PROVENANCE_DEPTH:
            self.scan.note("provenance-truncated:", "binding-chains")
            self.cuts += 1
            return False
        self.busy.add(marker)
        cuts = self.cuts
        try:
            found = self._declared_client(info, declared, name)
        finally:
            self.busy.discard(marker)
        if found or cuts == self.cuts:
            info.client_nodes[key] = found
        return found

    def _declared_client(self, info: ClientFile, declared: Node, name: str) -> bool:
        if declared.type == "import":
            return name in info.imports and self._import_is_client(info, name)
        annotation = declared.child_by_field_name("type")
        if annotation is not None and self._is_client_annotation(info, annotation, declared):
            return True
        if declared.type == "variable_declarator":
            value = declared.child_by_field_name("value")
            if declared.child_by_field_name("name") is not None and (
                declared.child_by_field_name("name").type != "identifier"  # type: ignore[union-attr]
            ):
                return name in info.imports and self._import_is_client(info, name)
            if value is not None and bindings.is_require_or_import(value):
                return name in info.imports and self._import_is_client(info, name)
            if value is not None:
                member = self._required_member(info, value)
                if member is not None:
                    return member
            return value is not None and self.is_client(info, value)
        if declared.type in _PARAMETERS:
            return self._transaction_parameter(info, declared)
        if declared.type == "identifier":  # the single parameter of `tx => …`
            return self._transaction_parameter(info, declared)
        return False

    def _required_member(self, info: ClientFile, value: Node) -> bool | None:
        """`require("./db").prisma`: whether that export is a client; None for other shapes."""
        value = syntax.unwrap(value)
        if value.type != "member_expression":
            return None
        obj = value.child_by_field_name("object")
        prop = value.child_by_field_name("property")
        if obj is None or prop is None or not bindings.is_require_or_import(obj):
            return None
        arguments = syntax.unwrap(obj).child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments and arguments.named_children else None
        specifier = None if first is None else syntax.string_value(first)
        target = None if specifier is None else self._resolve_source(info.path, specifier)
        return target is not None and self.export_is_client(target, syntax.text(prop))

    def _is_client_annotation(self, info: ClientFile, annotation: Node, at: Node) -> bool:
        return self._is_client_type(info, annotation, at)

    def _transaction_parameter(self, info: ClientFile, parameter: Node) -> bool:
        """The first parameter of a callback passed to `client.$transaction(…)`."""
        function = parameter.parent
        if function is not None and function.type == "formal_parameters":
            if function.named_children[:1] != [parameter]:
                return False
            function = function.parent
        if function is None or function.type not in ("arrow_function", "function_expression"):
            return False
        arguments = function.parent
        call = arguments.parent if arguments is not None else None
        if arguments is None or call is None or arguments.type != "arguments":
            return False
        callee = call.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            return False
        prop = callee.child_by_field_name("property")
        receiver = callee.child_by_field_name("object")
        return (
            prop is not None
            and syntax.text(prop) == "$transaction"
            and receiver is not None
            and self.is_client(info, receiver)
        )

    # ---- expressions ------------------------------------------------------------

    def is_client(self, info: ClientFile, node: Node) -> bool:
        if mocks.is_mock_cast(node):
            return False
        node = syntax.unwrap(node)
        if node.type == "await_expression" and node.named_children:
            return self.is_client(info, node.named_children[0])
        if node.type == "new_expression":
            constructor = node.child_by_field_name("constructor")
            return constructor is not None and self._is_constructor(info, constructor)
        if node.type == "identifier":
            name = syntax.text(node)
            found = self.lookup(info, node, name)
            if found is None:
                return False
            return self._binding_is_client(info, found[1], name)
        if node.type == "binary_expression":
            operator = node.child_by_field_name("operator")
            if operator is not None and syntax.text(operator) in ("??", "||"):
                left = node.child_by_field_name("left")
                right = node.child_by_field_name("right")
                return any(
                    side is not None and self.is_client(info, side) for side in (left, right)
                )
            return False
        if node.type == "call_expression":
            return self._call_is_client(info, node)
        if node.type == "member_expression":
            return self._member_is_client(info, node)
        return False

    def _is_constructor(self, info: ClientFile, node: Node) -> bool:
        node = syntax.unwrap(node)
        if node.type == "identifier":
            name = syntax.text(node)
            found = self.lookup(info, node, name)
            # Bound by an import or a module-level `const { PrismaClient } = require(…)`.
            return name in info.constructors and (
                found is None or found[1].type == "import" or found[0].type == "program"
            )
        if node.type == "member_expression":
            obj = node.child_by_field_name("object")
            prop = node.child_by_field_name("property")
            return (
                obj is not None
                and prop is not None
                and syntax.text(prop) == "PrismaClient"
                and syntax.text(obj) in info.prisma_namespaces
            )
        return False

    def _call_is_client(self, info: ClientFile, node: Node) -> bool:
        callee = node.child_by_field_name("function")
        if callee is None:
            return False
        callee = syntax.unwrap(callee)
        if callee.type == "member_expression":
            prop = callee.child_by_field_name("property")
            receiver = callee.child_by_field_name("object")
            if prop is not None and syntax.text(prop) == "$extends" and receiver is not None:
                return self.is_client(info, receiver)
            return False
        if callee.type == "identifier":
            name = syntax.text(callee)
            found = self.lookup(info, callee, name)
            if found is None:
                return False
            declared: Node | None = found[1]
            owner = info
            if declared is not None and declared.type == "import" and name in info.imports:
                if info.imports[name][1] in info.mocked:
                    return False
                exported = self._imported_declaration(info, name)
                if exported is None:
                    return False
                owner, local = exported
                declared = self._scope(owner, owner.parsed.root).get(local)
            if declared is None or declared.type not in (
                "function_declaration",
                "generator_function_declaration",
            ):
                return False
            returns = declared.child_by_field_name("return_type")
            if returns is not None and self._is_client_annotation(owner, returns, declared):
                return True
            callback = _generic_callback_argument(declared, node)
            return callback is not None and self._callback_returns_client(info, callback)
        return False

    def _callback_returns_client(self, info: ClientFile, function: Node) -> bool:
        """An arrow function or function expression every returned value of which is a client."""
        function = syntax.unwrap(function)
        if function.type not in ("arrow_function", "function_expression"):
            return False
        body = function.child_by_field_name("body")
        if body is None:
            return False
        if body.type != "statement_block":
            return self.is_client(info, body)
        values = bindings.returned_values(body)
        return bool(values) and all(
            value is not None and self.is_client(info, value) for value in values
        )

    def _member_is_client(self, info: ClientFile, node: Node) -> bool:
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if obj is None or prop is None:
            return False
        obj = syntax.unwrap(obj)
        name = syntax.text(prop)
        if obj.type == "this":
            return self._this_member_is_client(info, node, name)
        if obj.type == "identifier":
            found = self.lookup(info, obj, syntax.text(obj))
            local = syntax.text(obj)
            if (
                found is not None
                and found[1].type == "import"
                and local in info.imports
                and info.imports[local][2] == "*"
            ):
                return self._import_is_client(info, local, (name,))
        return False

    def _this_member_is_client(self, info: ClientFile, node: Node, name: str) -> bool:
        current: Node | None = node
        while current is not None and current.type not in (
            "class_declaration",
            "class",
            "abstract_class_declaration",
        ):
            current = current.parent
        if current is None:
            return False
        body = current.child_by_field_name("body")
        if body is None:
            return False
        for member in body.named_children:
            if member.type == "public_field_definition":
                field_name = member.child_by_field_name("name")
                if field_name is None or syntax.text(field_name) != name:
                    continue
                annotation = member.child_by_field_name("type")
                if annotation is not None and self._is_client_annotation(info, annotation, member):
                    return True
                value = member.child_by_field_name("value")
                if value is not None and self.is_client(info, value):
                    return True
            elif member.type == "method_definition":
                method_name = member.child_by_field_name("name")
                if method_name is None or syntax.text(method_name) != "constructor":
                    continue
                parameters = member.child_by_field_name("parameters")
                for parameter in parameters.named_children if parameters else []:
                    if parameter.type not in _PARAMETERS:
                        continue
                    if not any(
                        child.type == "accessibility_modifier" or syntax.text(child) == "readonly"
                        for child in parameter.children
                    ):
                        continue
                    pattern = parameter.child_by_field_name("pattern")
                    if pattern is None or syntax.text(pattern) != name:
                        continue
                    annotation = parameter.child_by_field_name("type")
                    if annotation is not None and self._is_client_annotation(
                        info, annotation, parameter
                    ):
                        return True
        return False
