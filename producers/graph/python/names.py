"""Python names across modules: what an import, a module attribute or a star brings.

An import names a module (`PythonModules` resolves it) and a name in it: the
module's own top-level declaration, a name it imports (re-exports through
`__init__.py`), or a name one of its `from m import *` brings, where a module
with a literal `__all__` exports what it lists and one without exports its
names not starting with `_`. A name two stars bring differently is ambiguous.
`from pkg import sub` falls back to the submodule, as Python does.
"""

from __future__ import annotations

from tsograph.producers.graph.python.binding_values import AMBIGUOUS
from tsograph.producers.graph.python.binding_values import CHAIN_TOO_DEEP
from tsograph.producers.graph.python.binding_values import DYNAMIC
from tsograph.producers.graph.python.binding_values import MISS
from tsograph.producers.graph.python.binding_values import OUTSIDE
from tsograph.producers.graph.python.binding_values import Outside
from tsograph.producers.graph.python.binding_values import Unknown
from tsograph.producers.graph.python.binding_values import Value
from tsograph.producers.graph.python.index import MAX_CHAIN
from tsograph.producers.graph.python.index import BinderIndex
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import Import
from tsograph.producers.lang.facts import Ref
from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.python.modules import Namespace
from tsograph.producers.values.python.modules import star_brings
from tsograph.producers.values.python.modules import submodule_of


class ModuleNames(BinderIndex):
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
        found = submodule_of(self.modules, package, name)
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
        imported = [item for item in facts.imports if item.local == name and not item.scoped]
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
            if self.star_exports(source.path, name) and self.binds(source.path, name, depth + 1):
                starred.add(self.module_name(source.path, name, depth + 1))
        if len(starred) > 1:
            return Unknown(AMBIGUOUS)
        if starred:
            return starred.pop()
        return Unknown(MISS)

    def binds(self, path: str, name: str, depth: int = 0) -> bool:
        """Whether module `path` may bind `name` at module level: it defines or imports it,
        or a star it holds may bring it (a star from outside the project may bring any name;
        past the chain bound the answer stays yes)."""
        if name in self.top_level.get(path, {}) or depth > MAX_CHAIN:
            return True
        facts = self.facts.get(path)
        if facts is None:
            return False
        for item in facts.imports:
            if item.scoped:
                continue
            if item.kind != "star":
                if item.local == name:
                    return True
                continue
            source = self.module_value(path, item.specifier)
            if not isinstance(source, Module):
                if not isinstance(source, Namespace):
                    return True
                continue
            if self.star_exports(source.path, name) and self.binds(source.path, name, depth + 1):
                return True
        return False

    def star_exports(self, path: str, name: str) -> bool:
        """Whether `from path import *` binds `name`: `__all__` lists it, else a public name."""
        facts = self.facts.get(path)
        if facts is None:
            return False
        return star_brings(facts, name, "__all__" in self.top_level.get(path, {}))

    def declaration_named(self, path: str, ref: Ref) -> Declaration | None:
        """The module-level declaration a chain names (`D`, `module.D`, `D` imported from a
        module, re-exports followed), as a declaration rather than the value it holds."""
        facts = self.facts[path]
        if ref.members:
            holder = Ref(ref.head, ref.name, ref.target, ref.index, ref.members[:-1])
            found = self.ref_value(path, holder)
            return (
                self.top_declaration(found.path, ref.members[-1])
                if isinstance(found, Module)
                else None
            )
        if ref.head == "decl":
            declaration = self.declarations.get(ref.target)
            if declaration is None or declaration.parent != f"{path}#<module>":
                return None
            return self.top_declaration(path, declaration.name)
        if ref.head == "import" and 0 <= ref.index < len(facts.imports):
            return self._imported_declaration(path, facts.imports[ref.index], 0)
        return None

    def top_declaration(self, path: str, name: str, depth: int = 0) -> Declaration | None:
        """A module's top-level `name` as a declaration: its own, or one it imports by name."""
        facts = self.facts.get(path)
        if facts is None or depth > MAX_CHAIN:
            return None
        declared = self.top_level.get(path, {}).get(name)
        imported = [item for item in facts.imports if item.local == name and not item.scoped]
        if declared is not None:
            return None if imported else declared
        if len(imported) != 1:
            return None
        return self._imported_declaration(path, imported[0], depth + 1)

    def _imported_declaration(self, path: str, item: Import, depth: int) -> Declaration | None:
        if item.kind != "named":
            return None
        module = self.module_value(path, item.specifier)
        return (
            self.top_declaration(module.path, item.imported, depth)
            if isinstance(module, Module)
            else None
        )
