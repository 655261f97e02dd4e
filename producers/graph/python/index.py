"""The indexes Python binding reads: declarations by id and file, class members, module
names, attribute writes; and the chain bound every lookup keeps.

The binder is built in layers, each a class that adds one job to the one below:
`BinderIndex` (here), `ModuleNames` (names.py: imports and module names),
`ClassOrders` (classes.py: C3 orders and implementations), `Decorators`
(decorators.py) and `PythonBinder` (binder.py: what a name or expression holds).
The lower layers call the value lookups the binder defines; they are declared here.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property

from tsograph.producers.graph.python.binding_values import Unknown
from tsograph.producers.graph.python.binding_values import Value
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import Write
from tsograph.producers.project.python_modules import PyResolution
from tsograph.producers.project.python_modules import PythonModules

BUILTIN_NAMES = frozenset(dir(builtins))
MAX_CHAIN = 8  # re-exports and aliases followed, as code-graph.txt's export-chain bound


@dataclass(frozen=True)
class Opaque:
    """A base outside the project in a linearisation (it may define any name)."""

    key: str
    # The dotted name it is imported as (`sqlalchemy.orm.Session`), "" when not read.
    qualified: str = field(default="", compare=False)


MroEntry = str | Opaque


@dataclass
class BinderIndex:
    facts: dict[str, FileFacts]
    modules: PythonModules
    _mro: dict[str, tuple[MroEntry, ...] | Unknown] = field(default_factory=dict)
    # Declarations whose decorators are being read (decorators.py), against cycles.
    _decorating: set[str] = field(default_factory=set)

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
    def attribute_writes(self) -> dict[str, list[tuple[str, Write]]]:
        """Attribute name → every write `x.name = value` of the project, with its file."""
        found: dict[str, list[tuple[str, Write]]] = {}
        for path, facts in self.facts.items():
            for write in facts.writes:
                if write.target.members and not write.computed:
                    found.setdefault(write.target.members[-1], []).append((path, write))
        return found

    @cached_property
    def rebinding_writes(self) -> dict[tuple[str, str | int], list[tuple[str, Write]]]:
        """What a plain name is assigned after its first binding (`x = b` again, `global x`,
        `nonlocal x`, `for x in …`), keyed ("", declaration id) for a module or class name and
        (file, binding index) for a parameter or local."""
        found: dict[tuple[str, str | int], list[tuple[str, Write]]] = {}
        for path, facts in self.facts.items():
            for write in facts.writes:
                target = write.target
                if target.members or write.computed:
                    continue
                if target.head == "decl":
                    found.setdefault(("", target.target), []).append((path, write))
                elif target.head in ("param", "local"):
                    found.setdefault((path, target.index), []).append((path, write))
                elif target.head == "import":
                    found.setdefault((path, f"import {target.index}"), []).append((path, write))
        return found

    def resolution(self, path: str, specifier: str) -> PyResolution:
        return self.modules.resolve(path, specifier)

    # ---- value lookups, defined by PythonBinder (binder.py) -----------------------------

    def declaration_value(self, declaration: Declaration, depth: int = 0) -> Value:
        raise NotImplementedError

    def ref_value(self, path: str, ref: Ref, depth: int = 0) -> Value:
        raise NotImplementedError

    def member_value(self, value: Value, member: str, depth: int = 0) -> Value:
        raise NotImplementedError

    def scope_name(self, path: str, name: str) -> Value:
        raise NotImplementedError
