"""Binding: which declaration each name, chain and call site reaches, with proof.

The binder reads per-file facts only (never a syntax tree) and resolves across
modules: imports through the module resolver, export and re-export chains
(`export *` included, an ambiguous star export is not guessed), CommonJS
`module.exports` / `exports.x`, value aliases (`const h = g`), object-literal
members, namespace members, and members of project classes found through the
class chain for receivers whose value is proven: `this`, `super`, `new C()`,
and names whose declared type (annotation, parameter property, field type,
declared return type) is a project class.

Everything else gets an `Unknown` value with the reason, and nothing is
guessed. Lookups are memoised per (file, name) and guarded against cycles.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field

from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.graph.declared import DeclaredTypes
from tsograph.producers.graph.declared import is_this_type
from tsograph.producers.graph.declared import strip_wrappers
from tsograph.producers.graph.referents import COMPUTED
from tsograph.producers.graph.referents import INDIRECT
from tsograph.producers.graph.referents import INTERFACE
from tsograph.producers.graph.referents import PARAMETER
from tsograph.producers.graph.referents import UNRESOLVED_IMPORT
from tsograph.producers.graph.referents import UNTYPED
from tsograph.producers.graph.referents import Declared
from tsograph.producers.graph.referents import External
from tsograph.producers.graph.referents import Instance
from tsograph.producers.graph.referents import Interface
from tsograph.producers.graph.referents import Module
from tsograph.producers.graph.referents import Unknown
from tsograph.producers.graph.referents import Value
from tsograph.producers.lang.facts import FUNCTION_TYPE
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Import
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import TypeDeclaration
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.project.resolve import ASSET
from tsograph.producers.project.resolve import BUILTIN
from tsograph.producers.project.resolve import DECLARATION
from tsograph.producers.project.resolve import EXTERNAL
from tsograph.producers.project.resolve import MISSING
from tsograph.producers.project.resolve import SOURCE
from tsograph.producers.project.resolve import Resolver

# Declaration kinds whose body runs when they are called. An accessor runs when
# its property is read, so `obj.x()` calls what the getter returns, not the getter.
CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
MEMBER_KINDS = frozenset({"method", "accessor", "field"})
# Declared types that say nothing about the value.
OPAQUE_TYPES = frozenset({"any", "unknown", "object", "Object", "Function"})
MAX_DEPTH = 64
# What `export_declaration` answers for a name two `export *` give different bindings
# (ECMA-262 ResolveExport: "ambiguous", so the module does not export it). Compared with `is`.
AMBIGUOUS_STAR = Unknown(UNRESOLVED_IMPORT)


@dataclass
class FileIndex:
    facts: FileFacts
    module: str
    top_level: dict[str, str] = field(default_factory=dict)
    imports_by_local: dict[str, Import] = field(default_factory=dict)
    exports: dict[str, list[Export]] = field(default_factory=dict)
    stars: list[Export] = field(default_factory=list)
    equals: Export | None = None
    types: dict[str, str] = field(default_factory=dict)
    type_declarations: dict[str, TypeDeclaration] = field(default_factory=dict)


class Binder:
    def __init__(self, load: Callable[[str], FileFacts | None], resolver: Resolver) -> None:
        self._load = load
        self.resolver = resolver
        self._files: dict[str, FileIndex | None] = {}
        self.declarations: dict[str, Declaration] = {}
        self.children: dict[str, dict[str, list[Declaration]]] = {}
        self.file_of: dict[str, str] = {}
        # (importer, specifier) -> the module's value: resolution is asked once per pair.
        self._modules: dict[tuple[str, str], Value] = {}
        self._export_cache: dict[tuple[str, str], Value] = {}
        self._star_cache: dict[tuple[str, str], Value | None] = {}
        self._star_query: dict[tuple[str, str], Value | None] = {}
        self._bases: dict[str, str | None] = {}
        self._active: set[object] = set()
        self.missing_packages: set[str] = set()
        self.types = DeclaredTypes(self)

    # ---- files ---------------------------------------------------------------

    def file(self, path: str) -> FileIndex | None:
        if path in self._files:
            return self._files[path]
        facts = self._load(path)
        index = None if facts is None else self._index(facts)
        self._files[path] = index
        return index

    def indexed(self, paths: Iterable[str]) -> list[FileIndex]:
        """The index of each of `paths` that has facts, in order (each file read now)."""
        return [index for index in map(self.file, paths) if index is not None]

    def loaded(self) -> Iterable[FileIndex]:
        return (index for index in self._files.values() if index is not None)

    def _index(self, facts: FileFacts) -> FileIndex:
        module = module_id(facts.path)
        index = FileIndex(facts, module)
        for declaration in facts.declarations:
            # The first record of an id is the node; a later one with the same id is an
            # anonymous class's own copy of a shared member (see FileFacts).
            self.declarations.setdefault(declaration.id, declaration)
            self.file_of[declaration.id] = facts.path
            siblings = self.children.setdefault(declaration.parent, {})
            siblings.setdefault(declaration.name, []).append(declaration)
            if declaration.parent == module and declaration.kind != "export" and declaration.name:
                index.top_level.setdefault(declaration.name, declaration.id)
        for item in facts.imports:
            if item.local:
                index.imports_by_local.setdefault(item.local, item)
        for export in facts.exports:
            if export.kind == "star":
                index.stars.append(export)
            elif export.kind == "equals":
                index.equals = export
            else:
                index.exports.setdefault(export.name, []).append(export)
        for declared in facts.types:
            index.types.setdefault(declared.name, declared.kind)
            index.type_declarations.setdefault(declared.name, declared)
        return index

    # ---- imports and exports -------------------------------------------------

    def module_value(self, importer: str, specifier: str) -> Value:
        """The value of a whole module named by a specifier in `importer`."""
        key = (importer, specifier)
        cached = self._modules.get(key)
        if cached is None:
            cached = self._modules[key] = self._module_value(importer, specifier)
        return cached

    def _module_value(self, importer: str, specifier: str) -> Value:
        resolution = self.resolver.resolve(importer, specifier)
        if resolution.kind == SOURCE and resolution.path is not None:
            target = self.file(resolution.path)
            if target is None:
                return Unknown(UNRESOLVED_IMPORT)
            return Module(resolution.path)
        if resolution.kind == MISSING:
            self.missing_packages.add(resolution.package or specifier)
            return External(resolution.package or "", missing=True)
        if resolution.kind in (EXTERNAL, BUILTIN, DECLARATION, ASSET):
            return External(resolution.package or "")
        return Unknown(UNRESOLVED_IMPORT)

    def import_value(self, importer: str, item: Import) -> Value:
        whole = self.module_value(importer, item.specifier)
        if not isinstance(whole, Module):
            return whole
        if item.imported in ("*", ""):
            # A CommonJS module that replaced its exports is that value itself.
            equals = self._equals_value(whole.path)
            return equals if equals is not None else whole
        if item.imported == "default" and self.file(whole.path) is not None:
            value = self.export_value(whole.path, "default")
            if isinstance(value, Unknown):
                equals = self._equals_value(whole.path)
                if equals is not None:
                    return equals
            return value
        return self.export_value(whole.path, item.imported)

    def _equals_value(self, path: str) -> Value | None:
        index = self.file(path)
        if index is None or index.equals is None or index.equals.value is None:
            return None
        return self.ref_value(path, index.equals.value)

    def export_value(self, path: str, name: str) -> Value:
        key = (path, name)
        cached = self._export_cache.get(key)
        if cached is not None:
            return cached
        if key in self._active:
            return Unknown(UNRESOLVED_IMPORT)
        self._active.add(key)
        try:
            value = self._export_value(path, name)
        finally:
            self._active.discard(key)
        self._export_cache[key] = value
        return value

    def _export_value(self, path: str, name: str) -> Value:
        index = self.file(path)
        if index is None:
            return Unknown(UNRESOLVED_IMPORT)
        exports = index.exports.get(name, ())
        for export in exports:
            if export.type_only:
                continue
            if export.kind in ("local", "commonjs") and export.value is not None:
                return self.ref_value(path, export.value)
            if export.kind == "reexport":
                if export.imported == "*":
                    return self.module_value(path, export.specifier)
                source = Import("named", export.specifier, export.imported, "", 0, 0)
                return self.import_value(path, source)
        equals = self._equals_value(path)
        if equals is not None and name != "default":
            # `module.exports = { a, b }` exports a and b by member.
            member = self.member_value(path, equals, name)
            if not isinstance(member, Unknown):
                return member
        for export in exports:
            if export.kind == "reexport" and export.imported != "*":
                source = Import("named", export.specifier, export.imported, "", 0, 0)
                return self.import_value(path, source)
        if exports or name in index.types:
            # Only a type is exported under this name: calls through it are interface calls.
            return self._type_value(path, name)
        if name == "default":
            return Unknown(UNRESOLVED_IMPORT)
        found: list[Value] = []
        for star in index.stars:
            whole = self.module_value(path, star.specifier)
            if isinstance(whole, Module):
                value = self.export_value(whole.path, name)
                if not isinstance(value, Unknown) and value not in found:
                    found.append(value)
            elif isinstance(whole, External):
                found.append(whole)
        if len(found) == 1:
            return found[0]
        return Unknown(UNRESOLVED_IMPORT)

    def export_declaration(self, path: str, name: str, hops: int = 0) -> Value:
        """The declaration an exported name stands for, by name rather than by value.

        `export { inst as renamed }` names the variable `inst`, whatever `inst`
        holds; only an export of a member chain or an expression is followed
        to its value. A name only `export *` gives is followed by name too
        (`star_export`); where that cannot decide, the value is the answer.
        """
        index = self.file(path)
        if index is None or hops > MAX_DEPTH:
            return Unknown(UNRESOLVED_IMPORT)
        explicit = self._explicit_declaration(index, path, name, hops)
        if explicit is not None:
            return explicit
        if _star_candidate(index, name):
            starred = self.star_export(path, name, hops)
            if isinstance(starred, (Declared, External)) or starred is AMBIGUOUS_STAR:
                return starred
        return self.export_value(path, name)

    def _explicit_declaration(
        self, index: FileIndex, path: str, name: str, hops: int
    ) -> Value | None:
        for export in index.exports.get(name, ()):
            if export.type_only:
                continue
            ref = export.value
            if export.kind in ("local", "commonjs") and ref is not None and not ref.members:
                if ref.head == "decl" and ref.target in self.declarations:
                    return Declared(ref.target)
                if ref.head == "import" and 0 <= ref.index < len(index.facts.imports):
                    item = index.facts.imports[ref.index]
                    return self._imported_declaration(path, item, hops)
            if export.kind == "reexport" and export.imported != "*":
                source = Import("named", export.specifier, export.imported, "", 0, 0)
                return self._imported_declaration(path, source, hops)
        return None

    def star_export(self, path: str, name: str, hops: int = 0) -> Value | None:
        """What the `export *` of a file give a name, by name, and only when that is certain.

        ECMA-262 ResolveExport: explicit exports shadow stars (checked by the
        caller and at every level below), `default` never comes through a
        star, a cycle of stars adds nothing, and two stars reaching different
        bindings make the name ambiguous, so it is not exported at all
        (`AMBIGUOUS_STAR`, told apart by identity). A star into a package or
        into a module that does not resolve may give the name too: then the
        answer is Unknown, unless only packages give it (External). None when
        no star gives the name.
        """
        key = (path, name)
        if key in self._star_cache:
            return self._star_cache[key]
        if key in self._star_query:
            # Seen in this query: done, or in progress (a cycle of stars adds nothing).
            return self._star_query[key]
        outermost = not self._star_query
        self._star_query[key] = None
        index = self.file(path)
        found: list[Value] = []
        try:
            for star in index.stars if index is not None and hops <= MAX_DEPTH else ():
                if not star.type_only:
                    value = self._through_star(path, star.specifier, name, hops + 1)
                    if value is not None:
                        found.append(value)
        finally:
            if outermost:
                self._star_query.clear()
        result = _decide_star(found)
        if outermost:
            # Inner answers may lack what a cut cycle held back: only the whole query is kept.
            self._star_cache[key] = result
        else:
            self._star_query[key] = result
        return result

    def _through_star(self, path: str, specifier: str, name: str, hops: int) -> Value | None:
        """What one `export * from specifier` gives a name (None: not exported there)."""
        whole = self.module_value(path, specifier)
        if isinstance(whole, External):
            return whole
        target = self.file(whole.path) if isinstance(whole, Module) else None
        if not isinstance(whole, Module) or target is None:
            return Unknown(UNRESOLVED_IMPORT)  # an unresolved module may export it
        explicit = self._explicit_declaration(target, whole.path, name, hops)
        if explicit is not None:
            return explicit
        if not _star_candidate(target, name):
            # Exported (as a namespace, a member chain, a type) or `default`: not by name.
            return None if name == "default" else self.export_value(whole.path, name)
        return self.star_export(whole.path, name, hops)

    def _imported_declaration(self, importer: str, item: Import, hops: int) -> Value:
        whole = self.module_value(importer, item.specifier)
        if not isinstance(whole, Module) or item.imported in ("*", ""):
            return whole
        return self.export_declaration(whole.path, item.imported, hops + 1)

    # ---- names, chains and types ---------------------------------------------

    def name_value(self, path: str, name: str) -> Value:
        """What a module-level name of a file stands for (types included)."""
        index = self.file(path)
        if index is None:
            return Unknown(UNTYPED)
        if name in index.top_level:
            return self.declaration_value(index.top_level[name])
        if name in index.imports_by_local:
            return self.import_value(path, index.imports_by_local[name])
        if name in index.types:
            return self._type_value(path, name)
        return External()

    def _type_value(self, path: str, name: str) -> Value:
        index = self.file(path)
        if index is not None and index.types.get(name) in ("interface", "type"):
            return Interface(path, name)
        return Unknown(INTERFACE)

    def ref_value(self, path: str, ref: Ref, depth: int = 0) -> Value:
        value = self.head_value(path, ref, depth)
        for member in ref.members:
            value = self.member_value(path, value, member, depth)
        return value

    def head_value(self, path: str, ref: Ref, depth: int = 0) -> Value:
        if depth > MAX_DEPTH:
            return Unknown(INDIRECT)
        index = self.file(path)
        if index is None:
            return Unknown(UNTYPED)
        facts = index.facts
        head = ref.head
        if head == "decl":
            return self.declaration_value(ref.target, depth + 1)
        if head == "import":
            if 0 <= ref.index < len(facts.imports):
                return self.import_value(path, facts.imports[ref.index])
            return Unknown(UNRESOLVED_IMPORT)
        if head in ("param", "local"):
            if not 0 <= ref.index < len(facts.bindings):
                return Unknown(UNTYPED)
            binding = facts.bindings[ref.index]
            typed = self.type_value(path, binding.type) if binding.type else None
            if typed is not None and not isinstance(typed, Unknown):
                return typed
            if head == "param":
                contextual = None if typed else self.types.callback_parameter(path, binding)
                if isinstance(contextual, (Instance, Interface)):
                    return contextual
                # A default value is one of many possible arguments, never the proof.
                interface = typed is not None and typed.reason == INTERFACE
                return Unknown(INTERFACE if interface else PARAMETER)
            if typed is None and (binding.init is None or binding.init.kind == "nullish"):
                # `let x;` (or `= null`): typed by what is assigned to it later.
                return self.types.assigned_value(path, ("local", ref.index), depth)
            if binding.init is not None:
                return self.init_value(path, binding.init, "", depth + 1)
            return typed if typed is not None else Unknown(UNTYPED)
        if head == "this":
            return Instance(ref.target) if ref.target else Unknown(UNTYPED)
        if head == "static-this":
            return Declared(ref.target) if ref.target else Unknown(UNTYPED)
        if head == "super":
            base = self.base_class(ref.target) if ref.target else None
            return Instance(base) if base else Unknown(UNTYPED)
        if head == "global":
            return External()
        if head == "result":
            if 0 <= ref.index < len(facts.calls):
                return self.result_value(path, ref.index, depth + 1)
            return Unknown(INDIRECT)
        return Unknown(COMPUTED)

    def declared_types(self, path: str, ref: Ref) -> tuple[TypeRef, ...]:
        """The declared type of what a chain names, when written on a declaration.

        A parameter or local (`s: A | B`), a variable or field by name, or a
        field read through `this` or a proven instance; () otherwise.
        """
        index = self.file(path)
        if index is None:
            return ()
        if not ref.members:
            if ref.head in ("param", "local") and 0 <= ref.index < len(index.facts.bindings):
                return index.facts.bindings[ref.index].type
            if ref.head == "decl":
                declaration = self.declarations.get(ref.target)
                return () if declaration is None else declaration.type
            return ()
        owner = self.ref_value(
            path, Ref(ref.head, ref.name, ref.target, ref.index, ref.members[:-1])
        )
        if isinstance(owner, Instance):
            member = self.find_member(owner.class_id, ref.members[-1], static=False)
            if member is not None and member.kind == "field":
                return member.type
        return ()

    def declaration_value(self, declaration_id: str, depth: int = 0) -> Value:
        """What referring to a declaration by name yields."""
        declaration = self.declarations.get(declaration_id)
        if declaration is None or depth > MAX_DEPTH:
            return Unknown(UNTYPED)
        if declaration.kind not in ("variable", "field"):
            return Declared(declaration_id)
        init = declaration.init
        if init is not None and init.kind in ("function", "class", "object"):
            return Declared(declaration_id)
        path = self.file_of[declaration_id]
        if declaration.type:
            typed = self.type_value(path, declaration.type)
            if not isinstance(typed, Unknown) or init is None:
                return typed
        if init is not None and init.kind != "nullish":
            return self.init_value(path, init, declaration_id, depth + 1)
        if declaration.kind == "variable":
            return self.types.assigned_value(path, ("decl", declaration_id), depth)
        return Unknown(UNTYPED)

    def init_value(self, path: str, init: Init, owner: str, depth: int) -> Value:
        key = ("init", path, owner, id(init))
        if key in self._active or depth > MAX_DEPTH:
            return Unknown(INDIRECT)
        self._active.add(key)
        try:
            if init.kind in ("alias", "new", "call") and init.ref is not None:
                return self.ref_value(path, init.ref, depth)
            if init.kind in ("require", "import") and init.specifier:
                whole = self.module_value(path, init.specifier)
                if isinstance(whole, Module):
                    equals = self._equals_value(whole.path)
                    return equals if equals is not None else whole
                return whole
            if init.kind in ("function", "class", "object") and owner:
                return Declared(owner)
            if init.kind == "element" and init.ref is not None:
                return self.types.element_value(path, init.ref)
            return Unknown(UNTYPED)
        finally:
            self._active.discard(key)

    def result_value(self, path: str, site_index: int, depth: int) -> Value:
        """The value a call or `new` in this file returns, when its declaration says so."""
        key = ("result", path, site_index)
        if key in self._active or depth > MAX_DEPTH:
            return Unknown(INDIRECT)
        self._active.add(key)
        try:
            index = self.file(path)
            assert index is not None
            site = index.facts.calls[site_index]
            callee = self.ref_value(path, site.callee, depth)
            if site.kind == "new":
                if isinstance(callee, Declared) and self._is_class(callee.id):
                    return Instance(callee.id)
                return callee if isinstance(callee, External) else Unknown(INDIRECT)
            if isinstance(callee, Declared):
                declaration = self.declarations[callee.id]
                returns_this = is_this_type(declaration.type) or (
                    not declaration.type and self.types.returns_this(declaration)
                )
                if returns_this and declaration.kind == "method":
                    # Polymorphic `this`: the receiver the method was called on.
                    if not site.callee.members or declaration.static:
                        return Unknown(INDIRECT)
                    receiver = self.ref_value(path, _prefix(site.callee), depth)
                    return receiver if isinstance(receiver, Instance) else Unknown(INDIRECT)
                if declaration.type:
                    return self.type_value(self.file_of[callee.id], declaration.type)
                inferred = self.types.returned_instance(declaration, depth)
                return Unknown(INDIRECT) if inferred is None else inferred
            if callee == Unknown(INTERFACE) and site.callee.members and site.kind == "call":
                return self._interface_result(path, _prefix(site.callee), site.callee.members[-1])
            return callee if isinstance(callee, (External, Unknown)) else Unknown(INDIRECT)
        finally:
            self._active.discard(key)

    def _interface_result(self, path: str, receiver_ref: Ref, name: str) -> Value:
        """What a method declared in an interface returns, as its signatures declare."""
        receiver = self.ref_value(path, receiver_ref)
        found = self.interface_member(receiver, name) if isinstance(receiver, Interface) else None
        if found is None or found[1] != "method":
            return Unknown(INTERFACE)
        if is_this_type(found[2]):
            return receiver
        return self.type_value(found[0], found[2])

    def interface_member(
        self, interface: Interface, name: str
    ) -> tuple[str, str, tuple[TypeRef, ...]] | None:
        """(file, kind, declared type) of a member an interface or the interfaces it
        extends declare, the nearest first."""
        pending = [interface]
        seen = {interface}
        while pending and len(seen) <= MAX_DEPTH:
            current = pending.pop(0)
            index = self.file(current.path)
            declared = None if index is None else index.type_declarations.get(current.name)
            if declared is None:
                continue
            for member, kind, types in declared.member_types:
                if member == name:
                    return current.path, kind, types
            for ref in declared.extends:
                base = self.type_value(current.path, (ref,))
                if isinstance(base, Interface) and base not in seen:
                    seen.add(base)
                    pending.append(base)
        return None

    def type_value(self, path: str, types: tuple[TypeRef, ...]) -> Value:
        """The value a declared type proves: an instance of one project class, or why not."""
        if len(types) != 1:
            return Unknown(INTERFACE if types else UNTYPED)
        ref = types[0]
        ref = strip_wrappers(ref)
        if (
            not ref.chain
            or ref.chain == (FUNCTION_TYPE,)
            or (ref.chain == (ref.chain[0],) and ref.chain[0] in OPAQUE_TYPES)
        ):
            return Unknown(UNTYPED)
        value = self.name_value(path, ref.chain[0])
        for member in ref.chain[1:]:
            value = self.member_value(path, value, member)
        if isinstance(value, Declared) and self._is_class(value.id):
            return Instance(value.id)
        if isinstance(value, Interface):
            return self._aliased(value)
        if isinstance(value, (External, Unknown)):
            return value
        return Unknown(INTERFACE)

    def _aliased(self, interface: Interface) -> Value:
        """What `type A = B` stands for: B's value. A union alias stays an interface."""
        index = self.file(interface.path)
        declared = None if index is None else index.type_declarations.get(interface.name)
        if declared is None or len(declared.aliases) != 1 or interface in self._active:
            return interface
        self._active.add(interface)
        try:
            return self.type_value(interface.path, declared.aliases)
        finally:
            self._active.discard(interface)

    # ---- members and classes -------------------------------------------------

    def member_value(self, path: str, value: Value, name: str, depth: int = 0) -> Value:
        if isinstance(value, (External, Unknown)):
            return value
        if isinstance(value, Interface):
            # A property declared with a type is that type; which implementation answers a
            # method is interface dispatch's question.
            found = self.interface_member(value, name)
            if found is not None and found[1] == "property":
                typed = self.type_value(found[0], found[2])
                if isinstance(typed, (Instance, Interface, External)):
                    return typed
            return Unknown(INTERFACE)
        if isinstance(value, Module):
            return self.export_value(value.path, name)
        if isinstance(value, Instance):
            member = self.find_member(value.class_id, name, static=False)
            if member is not None:
                return self.declaration_value(member.id, depth + 1)
            # A member the project chain lacks may come from a base outside the project.
            return External() if self.has_unresolved_base(value.class_id) else Unknown(INDIRECT)
        declaration = self.declarations.get(value.id)
        if declaration is None:
            return Unknown(UNTYPED)
        if declaration.kind == "accessor":
            # A member of what the getter returns, as its declared type says.
            typed = self.type_value(self.file_of[value.id], declaration.type)
            return self.member_value(path, typed, name, depth + 1)
        if declaration.kind == "class":
            member = self.find_member(value.id, name, static=True)
            if member is not None:
                return self.declaration_value(member.id, depth + 1)
            return External() if self.has_unresolved_base(value.id) else Unknown(INDIRECT)
        children = self.children.get(value.id, {}).get(name)
        if children:
            return self.declaration_value(children[0].id, depth + 1)
        path_of_value = self.file_of[value.id]
        if self._equals_value(path_of_value) == value:
            # `module.exports = f; module.exports.x = …`: members of f are the file's exports.
            return self.export_value(path_of_value, name)
        return Unknown(INDIRECT)

    def member_of(self, value: Value, name: str) -> Declaration | None:
        """The member declaration a proven instance or class has under a name."""
        if isinstance(value, Instance):
            return self.find_member(value.class_id, name, static=False)
        if isinstance(value, Declared) and self._is_class(value.id):
            return self.find_member(value.id, name, static=True)
        return None

    def _is_class(self, declaration_id: str) -> bool:
        declaration = self.declarations.get(declaration_id)
        return declaration is not None and declaration.kind == "class"

    def base_class(self, class_id: str) -> str | None:
        if class_id in self._bases:
            return self._bases[class_id]
        self._bases[class_id] = None  # a cycle through extends ends here
        declaration = self.declarations.get(class_id)
        base: str | None = None
        if declaration is not None and declaration.extends is not None:
            value = self.ref_value(self.file_of[class_id], declaration.extends)
            if isinstance(value, Declared) and self._is_class(value.id):
                base = value.id
        self._bases[class_id] = base
        return base

    def class_chain(self, class_id: str) -> list[str]:
        chain = [class_id]
        while len(chain) <= MAX_DEPTH:
            base = self.base_class(chain[-1])
            if base is None or base in chain:
                break
            chain.append(base)
        return chain

    def has_unresolved_base(self, class_id: str) -> bool:
        """True when a class in the chain extends something that is not a project class."""
        for member in self.class_chain(class_id):
            declaration = self.declarations[member]
            if declaration.extends is not None and self.base_class(member) is None:
                return True
        return False

    def find_member(self, class_id: str, name: str, *, static: bool) -> Declaration | None:
        for owner in self.class_chain(class_id):
            for member in self.children.get(owner, {}).get(name, ()):
                # Other children of a class (a decorator argument's object members,
                # inline callbacks) are not members a receiver can reach.
                if member.static == static and member.kind in MEMBER_KINDS:
                    return member
        return None

    def constructor_of(self, class_id: str) -> Declaration | None:
        for member in self.children.get(class_id, {}).get("constructor", ()):
            if member.kind == "constructor":
                return member
        return None


def runs(declaration: Declaration) -> bool:
    """A member (of a class or an object literal) whose code runs when it is called."""
    if not declaration.has_body:
        return False
    if declaration.kind in ("field", "variable"):
        return declaration.init is not None and declaration.init.kind == "function"
    return declaration.kind in ("method", "function")


def holds_object(declaration: Declaration) -> bool:
    """A variable or field initialised with an object literal (its members are children)."""
    init = declaration.init
    return declaration.kind in ("variable", "field") and init is not None and init.kind == "object"


def _prefix(ref: Ref) -> Ref:
    """The receiver of a member chain (the chain without its last member)."""
    return Ref(ref.head, ref.name, ref.target, ref.index, ref.members[:-1])


def _star_candidate(index: FileIndex, name: str) -> bool:
    """Whether only a star can export the name (no value or type export of its own)."""
    return not index.exports.get(name) and name not in index.types and name != "default"


def _decide_star(found: list[Value]) -> Value | None:
    """One answer from what each star gives a name (see `Binder.star_export`)."""
    if any(value is AMBIGUOUS_STAR for value in found):
        return AMBIGUOUS_STAR  # ambiguous below is ambiguous here too
    bindings: list[Value] = []
    for value in found:
        if not isinstance(value, (External, Unknown)) and value not in bindings:
            bindings.append(value)
    if len(bindings) > 1:
        return AMBIGUOUS_STAR
    externals = [value for value in found if isinstance(value, External)]
    if any(isinstance(value, Unknown) for value in found) or (bindings and externals):
        return Unknown(UNRESOLVED_IMPORT)
    return bindings[0] if bindings else externals[0] if externals else None
