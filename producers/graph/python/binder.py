"""Binding Python facts across files: names, imports, classes by C3, receivers by type.

The facts of each file already classify every name by Python's scopes
(producers/lang/python); this module follows what crosses files and objects:

* an import names a module (`PythonModules` resolves it) and a name in it:
  the module's own top-level declaration, a name it imports (re-exports through
  `__init__.py`), or a name one of its `from m import *` brings, where a module
  with a literal `__all__` exports what it lists and one without exports its
  names not starting with `_`. A name two stars bring differently is
  ambiguous. `from pkg import sub` falls back to the submodule, as Python does.
* a class's bases are linearised by C3 (an order C3 cannot build is ambiguous);
  a base outside the project is an opaque entry of that order, and a base the
  graph cannot read (a call, a subscript) makes the class's order unknown
  (`dynamic-base`). `object`, `typing.Generic`, `typing.Protocol` and `abc.ABC`
  add nothing to look up.
* receivers: `self` is an instance of the enclosing class, `cls` the class; a
  parameter, local or field typed by an annotation naming a project class, a
  local assigned a constructor call, and a call whose callee declares its
  return type give instances. Everything else stays unknown with its reason.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from tsograph.producers.graph.python.values import (
    AMBIGUOUS,
    CHAIN_TOO_DEEP,
    DYNAMIC,
    DYNAMIC_BASE,
    MISS,
    OUTSIDE,
    UNTYPED_RECEIVER,
    Decl,
    Instance,
    Module,
    Namespace,
    Outside,
    Unknown,
    Value,
)
from tsograph.producers.lang.facts import (
    CallSite,
    Declaration,
    FileFacts,
    Import,
    Ref,
    TypeRef,
    Write,
)
from tsograph.producers.project.python_modules import PyResolution, PythonModules

BUILTIN_NAMES = frozenset(dir(builtins))
# Bases that add no attribute a project call could mean (typing's markers, abc.ABC, object).
NEUTRAL_BASES = frozenset(
    {("object",), ("typing", "Generic"), ("typing", "Protocol"), ("abc", "ABC")}
)
# Decorators that hand the function back (or a C-level wrapper that calls it), by the name
# they are called by; checked against CPython 3.11's builtins, abc, functools and typing.
TRANSPARENT = frozenset(
    {
        "staticmethod",
        "classmethod",
        "property",
        "cached_property",
        "abstractmethod",
        "cache",
        "final",
        "override",
        "overload",
    }
)
TRANSPARENT_FACTORIES = frozenset({"lru_cache", "wraps"})
# `@name.setter` and the like: a property's other accessors.
ACCESSOR_DECORATORS = frozenset({"setter", "getter", "deleter"})
MAX_CHAIN = 8  # re-exports and aliases followed, as code-graph.txt's export-chain bound
Lookup = Callable[[str], FileFacts | None]


@dataclass(frozen=True)
class Opaque:
    """A base outside the project in a linearisation (it may define any name)."""

    key: str


MroEntry = str | Opaque


@dataclass
class PythonBinder:
    facts: dict[str, FileFacts]
    modules: PythonModules
    _mro: dict[str, tuple[MroEntry, ...] | Unknown] = field(default_factory=dict)

    # ---- indexes --------------------------------------------------------------------

    @cached_property
    def declarations(self) -> dict[str, Declaration]:
        found: dict[str, Declaration] = {}
        for facts in self.facts.values():
            for declaration in facts.declarations:
                found.setdefault(declaration.id, declaration)
        return found

    @cached_property
    def file_of(self) -> dict[str, str]:
        return {
            declaration.id: path
            for path, facts in self.facts.items()
            for declaration in facts.declarations
        }

    @cached_property
    def members(self) -> dict[str, dict[str, Declaration]]:
        """Class id → member name → the member declared in the class body."""
        found: dict[str, dict[str, Declaration]] = {}
        for declaration in self.declarations.values():
            parent = self.declarations.get(declaration.parent)
            if parent is not None and parent.kind == "class":
                found.setdefault(parent.id, {}).setdefault(declaration.name, declaration)
        return found

    @cached_property
    def top_level(self) -> dict[str, dict[str, Declaration]]:
        """File → name → module-level declaration."""
        found: dict[str, dict[str, Declaration]] = {}
        for path, facts in self.facts.items():
            module = f"{path}#<module>"
            names = found.setdefault(path, {})
            for declaration in facts.declarations:
                if declaration.parent == module:
                    names.setdefault(declaration.name, declaration)
        return found

    @cached_property
    def subclasses(self) -> dict[str, set[str]]:
        """Class id → every project class whose order holds it (itself left out)."""
        found: dict[str, set[str]] = {}
        for declaration in self.declarations.values():
            if declaration.kind != "class":
                continue
            order = self.mro(declaration.id)
            if isinstance(order, Unknown):
                continue
            for entry in order[1:]:
                if isinstance(entry, str):
                    found.setdefault(entry, set()).add(declaration.id)
        return found

    @cached_property
    def attribute_writes(self) -> dict[str, list[tuple[str, Write]]]:
        """Attribute name → every write `x.name = value` of the project, with its file."""
        found: dict[str, list[tuple[str, Write]]] = {}
        for path, facts in self.facts.items():
            for write in facts.writes:
                if write.target.members and not write.computed:
                    found.setdefault(write.target.members[-1], []).append((path, write))
        return found

    def attribute_value(self, class_id: str, member: str, depth: int) -> Value:
        """An instance attribute no class body declares: what every write of that name in the
        project stores, when they all store instances of one project class (bound at most)."""
        writes = self.attribute_writes.get(member, [])
        own = [
            write
            for _, write in writes
            if write.target.head == "this" and len(write.target.members) == 1
        ]
        if not own or depth >= MAX_CHAIN:
            return Unknown(DYNAMIC)
        classes = set()
        exact = True
        outside = 0
        for path, write in writes:
            value = write.value
            if value.ref is None or value.kind not in ("alias", "call", "new"):
                return Unknown(DYNAMIC)
            found = self.ref_value(path, value.ref, depth + 1)
            if isinstance(found, Outside):
                outside += 1  # a value of a dependency, the standard library or a builtin
                continue
            if not isinstance(found, Instance):
                return Unknown(DYNAMIC)
            classes.add(found.class_id)
            exact = exact and found.exact
        if outside:
            # Every write stores an outside value: what is called on it is outside code.
            return OUTSIDE if not classes else Unknown(DYNAMIC)
        if len(classes) != 1:
            return Unknown(DYNAMIC)
        return Instance(classes.pop(), exact=exact, flow=True)

    def resolution(self, path: str, specifier: str) -> PyResolution:
        return self.modules.resolve(path, specifier)

    # ---- modules and names ----------------------------------------------------------

    def module_value(self, path: str, specifier: str) -> Value:
        found = self.resolution(path, specifier)
        if found.kind == "module":
            return Module(found.path)
        if found.kind == "namespace":
            return Namespace(found.folders)
        if found.kind == "external":
            return OUTSIDE
        return Unknown(AMBIGUOUS if found.kind == "ambiguous" else MISS)

    def import_value(self, path: str, item: Import, depth: int = 0) -> Value:
        if item.kind == "namespace":
            return self.module_value(path, item.specifier)
        if item.kind != "named":
            return Unknown(DYNAMIC)
        whole = self.module_value(path, item.specifier)
        if isinstance(whole, Module):
            found = self.module_name(whole.path, item.imported, depth + 1)
            if not (isinstance(found, Unknown) and found.reason == MISS):
                return found
        if isinstance(whole, Module | Namespace):
            return self._submodule(whole, item.imported)
        return whole

    def _submodule(self, package: Module | Namespace, name: str) -> Value:
        if isinstance(package, Module):
            if not package.path.endswith(
                ("/__init__.py", "/__init__.pyi")
            ) and package.path not in (
                "__init__.py",
                "__init__.pyi",
            ):
                return Unknown(MISS)
            folders: tuple[str, ...] = (package.path.rpartition("/")[0],)
        else:
            folders = package.folders
        found = self.modules.submodule(folders, name)
        if found is None:
            return Unknown(MISS)
        if found.kind == "ambiguous":
            return Unknown(AMBIGUOUS)
        if found.kind == "namespace":
            return Namespace(found.folders)
        return Module(found.path)

    def module_name(self, path: str, name: str, depth: int = 0) -> Value:
        """What `name` is in module `path`, as `from path import name` reads it."""
        if depth > MAX_CHAIN:
            return Unknown(CHAIN_TOO_DEEP)
        facts = self.facts.get(path)
        if facts is None:
            return Unknown(MISS)
        declared = self.top_level.get(path, {}).get(name)
        imported = [item for item in facts.imports if item.local == name]
        if declared is not None and imported:
            return Unknown(AMBIGUOUS)  # bound twice at module level: which one holds is not known
        if declared is not None:
            return self.declaration_value(declared, depth)
        if len(imported) > 1:
            return Unknown(AMBIGUOUS)
        if imported:
            return self.import_value(path, imported[0], depth + 1)
        starred: set[Value] = set()
        for item in facts.imports:
            if item.kind != "star":
                continue
            source = self.module_value(path, item.specifier)
            if not isinstance(source, Module):
                if not isinstance(source, Namespace):
                    starred.add(Unknown(DYNAMIC) if isinstance(source, Outside) else source)
                continue
            if self.star_exports(source.path, name):
                starred.add(self.module_name(source.path, name, depth + 1))
        if len(starred) > 1:
            return Unknown(AMBIGUOUS)
        if starred:
            return starred.pop()
        return Unknown(MISS)

    def star_exports(self, path: str, name: str) -> bool:
        """Whether `from path import *` binds `name`: `__all__` lists it, else a public name."""
        facts = self.facts.get(path)
        if facts is None:
            return False
        listed = [export.name for export in facts.exports]
        if "__all__" in self.top_level.get(path, {}):
            return name in listed
        return not name.startswith("_")

    def declaration_value(self, declaration: Declaration, depth: int = 0) -> Value:
        """A module-level or class-level name: a function or class is itself; a variable is
        what its initializer proves."""
        if declaration.kind != "variable" and declaration.kind != "field":
            return self.decorated(declaration)
        init = declaration.init
        path = self.file_of[declaration.id]
        if declaration.type:
            typed = self.type_value(path, declaration.type)
            if not isinstance(typed, Unknown):
                return typed
        if init is None:
            return Unknown(DYNAMIC)
        if init.kind == "function":
            return Decl(declaration.id)
        if init.kind == "alias" and init.ref is not None and depth < MAX_CHAIN:
            return self.ref_value(path, init.ref, depth + 1)
        if init.kind in ("call", "new") and init.ref is not None and depth < MAX_CHAIN:
            return self.ref_value(path, init.ref, depth + 1)
        return Unknown(DYNAMIC)

    # ---- chains ---------------------------------------------------------------------

    def ref_value(self, path: str, ref: Ref, depth: int = 0) -> Value:
        value = self.head_value(path, ref, depth)
        for member in ref.members:
            value = self.member_value(value, member, depth)
        return value

    def head_value(self, path: str, ref: Ref, depth: int = 0) -> Value:
        facts = self.facts[path]
        if ref.head == "decl":
            declaration = self.declarations.get(ref.target)
            return (
                Unknown(MISS) if declaration is None else self.declaration_value(declaration, depth)
            )
        if ref.head == "import":
            if 0 <= ref.index < len(facts.imports):
                return self.import_value(path, facts.imports[ref.index], depth)
            return Unknown(MISS)
        if ref.head == "this":
            return Instance(ref.target, exact=False) if ref.target else Unknown(DYNAMIC)
        if ref.head == "static-this":
            return Decl(ref.target) if ref.target else Unknown(DYNAMIC)
        if ref.head in ("param", "local"):
            if not 0 <= ref.index < len(facts.bindings):
                return Unknown(DYNAMIC)
            binding = facts.bindings[ref.index]
            if binding.type:
                return self.type_value(path, binding.type)
            init = binding.init
            if (
                binding.kind == "local"
                and init is not None
                and init.kind in ("alias", "call", "new")
                and init.ref is not None
                and depth < MAX_CHAIN
            ):
                return self.ref_value(path, init.ref, depth + 1)
            return Unknown(UNTYPED_RECEIVER if binding.kind == "param" else DYNAMIC)
        if ref.head == "global":
            return OUTSIDE if ref.name in BUILTIN_NAMES else Unknown(MISS)
        if ref.head == "result" and depth < MAX_CHAIN and 0 <= ref.index < len(facts.calls):
            return self.result_value(path, facts.calls[ref.index], depth + 1)
        return Unknown(DYNAMIC)

    def result_value(self, path: str, site: CallSite, depth: int) -> Value:
        """What a call returns: an instance of a project class it constructs, the declared
        return type of the function it names, or for `functools.partial(f, ...)` what calling
        it calls: `f` when it is a function or class the graph names (through a module or a
        class, never an instance whose subclass may answer)."""
        callee = site.callee
        target = self.ref_value(path, callee, depth)
        if isinstance(target, Outside):
            if self.imported_from(path, callee, "functools", "partial") and site.args:
                return self._partial_target(path, site)
            return OUTSIDE
        if not isinstance(target, Decl):
            return Unknown(DYNAMIC)
        declaration = self.declarations[target.id]
        if declaration.kind == "class":
            return Instance(declaration.id, exact=True)
        if declaration.type:
            return self.type_value(self.file_of[declaration.id], declaration.type)
        return Unknown(DYNAMIC)

    def _partial_target(self, path: str, site: CallSite) -> Value:
        argument = site.args[0]
        if argument.kind != "alias" or argument.ref is None:
            return Unknown(DYNAMIC)
        ref = argument.ref
        if ref.members:
            holder = self.ref_value(
                path, Ref(ref.head, ref.name, ref.target, ref.index, ref.members[:-1])
            )
            if not isinstance(holder, Module | Namespace):
                return Unknown(DYNAMIC)
        found = self.ref_value(path, ref)
        return found if isinstance(found, Decl) else Unknown(DYNAMIC)

    def imported_from(self, path: str, ref: Ref, module: str, name: str) -> bool:
        """Whether `ref` names `module.name` through an import of the file (`from functools
        import partial` or `import functools` then `functools.partial`)."""
        facts = self.facts[path]
        if ref.head != "import" or not 0 <= ref.index < len(facts.imports):
            return False
        item = facts.imports[ref.index]
        if item.kind == "named":
            return (item.specifier, item.imported, ref.members) == (module, name, ())
        return item.kind == "namespace" and (item.specifier, ref.members) == (module, (name,))

    def type_value(self, path: str, types: tuple[TypeRef, ...]) -> Value:
        """A declared type that names one project class is an instance of it (or a subclass)."""
        if len(types) != 1 or not types[0].chain:
            return Unknown(UNTYPED_RECEIVER)
        chain = types[0].chain
        value = self.scope_name(path, chain[0])
        for member in chain[1:]:
            value = self.member_value(value, member)
        if isinstance(value, Decl) and self.declarations[value.id].kind == "class":
            return Instance(value.id, exact=False)
        if isinstance(value, Outside):
            return OUTSIDE
        return Unknown(UNTYPED_RECEIVER)

    def scope_name(self, path: str, name: str) -> Value:
        """A module-level name of `path` as an annotation names it."""
        found = self.module_name(path, name)
        if isinstance(found, Unknown) and found.reason == MISS and name in BUILTIN_NAMES:
            return OUTSIDE
        return found

    def member_value(self, value: Value, member: str, depth: int = 0) -> Value:
        if isinstance(value, Module):
            found = self.module_name(value.path, member, depth + 1)
            if isinstance(found, Unknown) and found.reason == MISS:
                return self._submodule(value, member)
            return found
        if isinstance(value, Namespace):
            return self._submodule(value, member)
        if isinstance(value, Decl):
            declaration = self.declarations[value.id]
            if declaration.kind == "class":
                return self.class_member(declaration.id, member, instance=False)
            return Unknown(DYNAMIC)
        if isinstance(value, Instance):
            found = self.class_member(value.class_id, member, instance=True, exact=value.exact)
            if isinstance(found, Unknown) and found.reason == MISS:
                return self.attribute_value(value.class_id, member, depth)
            return found
        if isinstance(value, Outside):
            return OUTSIDE
        return Unknown(UNTYPED_RECEIVER) if value.reason == UNTYPED_RECEIVER else value

    def class_member(
        self, class_id: str, member: str, *, instance: bool, exact: bool = True
    ) -> Value:
        found = self.lookup(class_id, member)
        if found is None:
            return Unknown(MISS)
        if isinstance(found, Unknown | Outside):
            return found
        declaration = self.declarations[found]
        if declaration.kind in ("field", "variable"):
            if declaration.type or (
                declaration.init is not None and declaration.init.kind != "other"
            ):
                return self.declaration_value(declaration)
            return Unknown(DYNAMIC)
        if declaration.kind == "class":
            return Decl(declaration.id)
        if declaration.kind == "accessor":
            if declaration.type:
                return self.type_value(self.file_of[declaration.id], declaration.type)
            return Unknown(DYNAMIC)
        return self.decorated(declaration)

    # ---- decorators -----------------------------------------------------------------

    @cached_property
    def decorator_sites(self) -> dict[str, list[CallSite]]:
        """Declaration id → the calls written above its `def` or `class` line: its decorators
        (a plain name as a `decorator` site, a decorator factory as a `call`)."""
        found: dict[str, list[CallSite]] = {}
        for facts in self.facts.values():
            for site in facts.calls:
                owner = self.declarations.get(site.owner)
                if (
                    owner is not None
                    and owner.kind in ("function", "method", "constructor", "accessor", "class")
                    and site.line < owner.line
                    and site.kind in ("decorator", "call")
                ):
                    found.setdefault(owner.id, []).append(site)
        return found

    def decorated(self, declaration: Declaration) -> Value:
        """What the name of a decorated function holds. Decorators apply from the bottom up
        and the name keeps what the topmost one returns, so they are read from the top: a
        decorator that hands its argument back (a builtin or functools one known to, or a
        project function returning its parameter) is passed over; the first other one decides:
        a project decorator that always returns the same nested function gives that wrapper,
        anything else leaves the name unknown."""
        sites = self.decorator_sites.get(declaration.id, [])
        if declaration.kind == "class" or not sites:
            return Decl(declaration.id)
        path = self.file_of[declaration.id]
        for site in sites:
            names = (site.callee.name, *site.callee.members)
            if site.callee.members and names[-1] in ACCESSOR_DECORATORS:
                continue
            value = self.ref_value(path, site.callee)
            if isinstance(value, Outside):
                known = TRANSPARENT if site.kind == "decorator" else TRANSPARENT_FACTORIES
                if names[-1] in known:
                    continue
                return Unknown(DYNAMIC)
            if site.kind != "decorator" or not isinstance(value, Decl):
                return Unknown(DYNAMIC)
            returned = self._decorator_result(value.id)
            if returned is None:
                return Unknown(DYNAMIC)
            if returned:
                return Decl(returned)
        return Decl(declaration.id)

    def is_abstract(self, declaration_id: str) -> bool:
        """Marked `@abstractmethod` (abc's): it never answers a call on an instance."""
        declaration = self.declarations[declaration_id]
        path = self.file_of[declaration_id]
        for site in self.decorator_sites.get(declaration_id, []):
            names = (site.callee.name, *site.callee.members)
            if names[-1] == "abstractmethod" and isinstance(
                self.ref_value(path, site.callee), Outside
            ):
                return declaration.kind != "class"
        return False

    def _decorator_result(self, function_id: str) -> str | None:
        """ "" when the project decorator returns its first parameter, the id of the nested
        function it returns when it always returns that one, None otherwise."""
        path = self.file_of.get(function_id)
        if path is None:
            return None
        facts = self.facts[path]
        results = set()
        for item in facts.returns:
            if item.owner != function_id:
                continue
            ref = item.value.ref
            if item.value.kind != "alias" or ref is None or ref.members:
                return None
            if ref.head == "param" and 0 <= ref.index < len(facts.bindings):
                binding = facts.bindings[ref.index]
                results.add("" if binding.position == 0 and binding.owner == function_id else None)
            elif ref.head == "decl" and self.declarations.get(ref.target) is not None:
                nested = self.declarations[ref.target]
                results.add(nested.id if nested.parent == function_id else None)
            else:
                return None
        if len(results) != 1:
            return None
        return results.pop()

    # ---- classes --------------------------------------------------------------------

    def lookup(self, class_id: str, member: str) -> str | Unknown | Outside | None:
        """The declaration `member` names first in the class's C3 order; None when no class
        of the order defines it (an instance attribute, or none at all)."""
        order = self.mro(class_id)
        if isinstance(order, Unknown):
            return order
        for entry in order:
            if isinstance(entry, Opaque):
                # A base outside the project may define it: no edge, it is not ours to name.
                return OUTSIDE
            found = self.members.get(entry, {}).get(member)
            if found is not None:
                return found.id
        return None

    def bases(self, class_id: str) -> list[MroEntry] | Unknown:
        """The class's bases as project class ids or opaque outside entries."""
        declaration = self.declarations[class_id]
        path = self.file_of[class_id]
        written: list[Ref | TypeRef] = []
        if declaration.implements:
            written.extend(declaration.implements)
        elif declaration.extends is not None:
            written.append(declaration.extends)
        found: list[MroEntry] = []
        for base in written:
            if isinstance(base, TypeRef):
                if not base.chain:
                    return Unknown(DYNAMIC_BASE)
                chain = base.chain
                if base.args:
                    # `Generic[T]`, `Protocol[T]` of typing add nothing; `Base[int]` is unread.
                    if self._neutral(path, chain):
                        continue
                    return Unknown(DYNAMIC_BASE)
                value = self.scope_name(path, chain[0])
                for member in chain[1:]:
                    value = self.member_value(value, member)
            else:
                if base.head in ("result", "other"):
                    return Unknown(DYNAMIC_BASE)
                value = self.ref_value(path, base)
                chain = (base.name, *base.members)
            if isinstance(value, Decl) and self.declarations[value.id].kind == "class":
                found.append(value.id)
            elif isinstance(value, Outside):
                if self._neutral(path, chain):
                    continue
                found.append(Opaque(".".join(chain)))
            elif isinstance(value, Unknown):
                return value
            else:
                return Unknown(DYNAMIC_BASE)  # a module, a function or an object as a base
        return found

    def _neutral(self, path: str, chain: tuple[str, ...]) -> bool:
        facts = self.facts[path]
        if chain == ("object",):
            return True
        head = chain[0]
        for item in facts.imports:
            if item.local != head:
                continue
            if item.kind == "namespace":
                return (item.specifier, *chain[1:]) in NEUTRAL_BASES
            if item.kind == "named" and len(chain) == 1:
                return (item.specifier, item.imported) in NEUTRAL_BASES
        return False

    def mro(self, class_id: str) -> tuple[MroEntry, ...] | Unknown:
        """C3 linearisation; Unknown when a base is unreadable or C3 has no order."""
        if class_id in self._mro:
            return self._mro[class_id]
        self._mro[class_id] = Unknown(AMBIGUOUS)  # a cycle of bases has no order
        bases = self.bases(class_id)
        result: tuple[MroEntry, ...] | Unknown
        if isinstance(bases, Unknown):
            result = bases
        else:
            sequences: list[list[MroEntry]] = []
            failed: Unknown | None = None
            for base in bases:
                if isinstance(base, Opaque):
                    sequences.append([base])
                    continue
                order = self.mro(base)
                if isinstance(order, Unknown):
                    failed = order
                    break
                sequences.append(list(order))
            if failed is not None:
                result = failed
            else:
                merged = _c3([*sequences, list(bases)])
                result = Unknown(AMBIGUOUS) if merged is None else (class_id, *merged)
        self._mro[class_id] = result
        return result

    def constructor(self, class_id: str) -> str | Unknown | Outside:
        """The `__init__` C3 finds for a class; the class itself when the project defines none."""
        found = self.lookup(class_id, "__init__")
        return class_id if found is None else found

    def allocator(self, class_id: str, constructor: str) -> tuple[str, ...]:
        """What calling the class runs: the `__new__` C3 finds in the project (before any
        outside base), then the `__init__` (or the class when the project defines none)."""
        found = self.lookup(class_id, "__new__")
        if isinstance(found, str) and self.declarations[found].has_body:
            return (found, constructor) if constructor != class_id else (found,)
        return (constructor,)

    def implementations(self, class_id: str, member: str) -> list[str]:
        """What each class an instance of `class_id` may be finds for `member` by its own
        C3 lookup (so an inherited one counts), sorted: the class and its project
        subclasses, a Protocol left out (it is never instantiated itself)."""
        found = set()
        for holder in (class_id, *self.subclasses.get(class_id, ())):
            if self.is_protocol(holder):
                continue
            answer = self.lookup(holder, member)
            if isinstance(answer, str):
                found.add(answer)
        return sorted(found)

    @cached_property
    def protocols(self) -> frozenset[str]:
        """Classes that name `typing.Protocol` among their bases."""
        found = set()
        for declaration in self.declarations.values():
            if declaration.kind != "class":
                continue
            path = self.file_of[declaration.id]
            for base in declaration.implements:
                chain = base.chain if isinstance(base, TypeRef) else ()
                if chain and chain[-1] == "Protocol" and self._neutral(path, chain):
                    found.add(declaration.id)
        return frozenset(found)

    def is_protocol(self, class_id: str) -> bool:
        return class_id in self.protocols

    def structural(self, protocol_id: str, member: str) -> list[str]:
        """For a Protocol: what `member` is in each project class that is no subclass of it
        and whose members cover the Protocol's methods by name (signatures not compared)."""
        wanted = {
            name
            for name, declaration in self.members.get(protocol_id, {}).items()
            if declaration.kind in ("method", "accessor") and not name.startswith("__")
        }
        if member not in wanted:
            return []
        related = {protocol_id, *self.subclasses.get(protocol_id, ())}
        found = set()
        for class_id in self.classes_with(member):
            if class_id in related or self.is_protocol(class_id):
                continue
            if all(isinstance(self.lookup(class_id, name), str) for name in wanted):
                answer = self.lookup(class_id, member)
                if isinstance(answer, str):
                    found.add(answer)
        return sorted(found)

    def classes_with(self, member: str) -> list[str]:
        """Project classes whose C3 order holds a class that declares `member`."""
        holders = [class_id for class_id, names in self.members.items() if member in names]
        found = set(holders)
        for holder in holders:
            found.update(self.subclasses.get(holder, ()))
        return sorted(found)


def _c3(sequences: list[list[MroEntry]]) -> list[MroEntry] | None:
    """Merge step of C3; None when no consistent order exists."""
    pending = [list(sequence) for sequence in sequences if sequence]
    result: list[MroEntry] = []
    while pending:
        for sequence in pending:
            head = sequence[0]
            if not any(head in other[1:] for other in pending):
                break
        else:
            return None
        result.append(head)
        pending = [[item for item in sequence if item != head] for sequence in pending]
        pending = [sequence for sequence in pending if sequence]
    return result
