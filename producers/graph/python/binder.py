"""Binding Python facts across files: names, imports, classes by C3, receivers by type.

The facts of each file already classify every name by Python's scopes
(producers/lang/python); this module follows what crosses files and objects:

* imports and module names (names.py), classes by C3 (classes.py) and
  decorators (decorators.py), each a layer of the binder (index.py says how);
* receivers: `self` is an instance of the enclosing class, `cls` the class; a
  parameter, local or field typed by an annotation naming a project class, a
  local assigned a constructor call, and a call whose callee declares its
  return type give instances. Everything else stays unknown with its reason.
"""

from __future__ import annotations

from tsograph.producers.graph.python.binding_values import DYNAMIC
from tsograph.producers.graph.python.binding_values import MISS
from tsograph.producers.graph.python.binding_values import OUTSIDE
from tsograph.producers.graph.python.binding_values import UNTYPED_RECEIVER
from tsograph.producers.graph.python.binding_values import Decl
from tsograph.producers.graph.python.binding_values import Instance
from tsograph.producers.graph.python.binding_values import Outside
from tsograph.producers.graph.python.binding_values import Unknown
from tsograph.producers.graph.python.binding_values import Value
from tsograph.producers.graph.python.decorators import Decorators
from tsograph.producers.graph.python.index import BUILTIN_NAMES
from tsograph.producers.graph.python.index import MAX_CHAIN
from tsograph.producers.graph.python.index import Opaque
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.facts import Write
from tsograph.producers.lang.python.extractor import ENTERED
from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.python.modules import Namespace

# Outside classes whose `__enter__` returns self, by the dotted names they are imported as;
# read in SQLAlchemy 2.1.9, SQLModel 0.0.50 and CPython 3.11's contextlib and socketserver.
ENTER_RETURNS_SELF = frozenset(
    {
        "sqlalchemy.orm.Session",
        "sqlalchemy.orm.session.Session",
        "sqlalchemy.Connection",
        "sqlalchemy.engine.Connection",
        "sqlalchemy.engine.base.Connection",
        "sqlmodel.Session",
        "sqlmodel.orm.session.Session",
        "contextlib.AbstractContextManager",
        "contextlib.ExitStack",
        "socketserver.BaseServer",
        "socketserver.TCPServer",
        "socketserver.UDPServer",
    }
)


class PythonBinder(Decorators):
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

    def declaration_value(self, declaration: Declaration, depth: int = 0) -> Value:
        """A module-level or class-level name: a function or class is itself; a variable is
        what its initializer proves."""
        if declaration.kind != "variable" and declaration.kind != "field":
            value = self.decorated(declaration)
            module = self.file_of[declaration.id]
            if declaration.parent != f"{module}#<module>":
                return value
            # A module's function or class that code assigns again (`module.f = g`, a test
            # runner's patch) holds the definition only if every assignment restores it.
            return self.rebound(value, self.rebinding(declaration, depth), depth)
        value = self._first_value(declaration, depth)
        return self.rebound(value, self.rebinding(declaration, depth), depth)

    def _first_value(self, declaration: Declaration, depth: int) -> Value:
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

    def rebinding(self, declaration: Declaration, depth: int) -> list[tuple[str, Write]]:
        """The assignments after a module or class name's first: `global x` and a second
        `x = …` in the module; `module.x = …` from anywhere for a module name; any `o.x = …`
        not on a module for a class field (an instance attribute hides the field)."""
        found = list(self.rebinding_writes.get(("", declaration.id), ()))
        module = self.file_of[declaration.id]
        if declaration.parent == f"{module}#<module>":
            return found + self._module_writes(module, declaration.name, depth)
        for path, write in self.attribute_writes.get(declaration.name, ()):
            if not isinstance(self._written_on(path, write, depth), Module):
                found.append((path, write))
        return found

    def _module_writes(self, module: str, name: str, depth: int) -> list[tuple[str, Write]]:
        """`module.name = …` anywhere in the project."""
        if depth >= MAX_CHAIN:
            return []
        return [
            (path, write)
            for path, write in self.attribute_writes.get(name, ())
            if self._written_on(path, write, depth) == Module(module)
        ]

    def _written_on(self, path: str, write: Write, depth: int) -> Value:
        target = write.target
        holder = Ref(target.head, target.name, target.target, target.index, target.members[:-1])
        return self.ref_value(path, holder, depth + 1)

    def rebound(self, value: Value, writes: list[tuple[str, Write]], depth: int) -> Value:
        """A name assigned again holds its first value only when every assignment stores that
        same value; otherwise which one a call finds depends on what ran last."""
        for path, write in writes:
            stored = write.value
            if (
                depth >= MAX_CHAIN
                or stored.ref is None
                or stored.kind not in ("alias", "call", "new")
                or self.ref_value(path, stored.ref, depth + 1) != value
            ):
                return Unknown(DYNAMIC)
        return value

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
                item = facts.imports[ref.index]
                value = self.import_value(path, item, depth)
                writes = [
                    *self.rebinding_writes.get((path, f"import {ref.index}"), ()),
                    *self._module_writes(path, item.local, depth),
                ]
                return self.rebound(value, writes, depth)
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
            writes = self.rebinding_writes.get((path, ref.index), [])
            if binding.path == ENTERED:
                if init is None or init.ref is None or init.kind not in ("alias", "call", "new"):
                    return Unknown(DYNAMIC)
                entered = self.entered(self.ref_value(path, init.ref, depth + 1), depth)
                return self.rebound(entered, writes, depth)
            if (
                binding.kind == "local"
                and init is not None
                and init.kind in ("alias", "call", "new")
                and init.ref is not None
                and depth < MAX_CHAIN
            ):
                return self.rebound(self.ref_value(path, init.ref, depth + 1), writes, depth)
            return Unknown(UNTYPED_RECEIVER if binding.kind == "param" else DYNAMIC)
        if ref.head == "global":
            return OUTSIDE if ref.name in BUILTIN_NAMES else Unknown(MISS)
        if ref.head == "result" and depth < MAX_CHAIN and 0 <= ref.index < len(facts.calls):
            return self.result_value(path, facts.calls[ref.index], depth + 1)
        return Unknown(DYNAMIC)

    def entered(self, manager: Value, depth: int) -> Value:
        """What `with manager as name` binds: `manager.__enter__()`'s result, known when the
        project's `__enter__` C3 finds returns `self` or declares its type. An outside
        manager gives an outside value."""
        if isinstance(manager, Outside):
            return OUTSIDE
        if not isinstance(manager, Instance):
            return Unknown(DYNAMIC)
        found = self.lookup(manager.class_id, "__enter__")
        if isinstance(found, Outside):
            # An outside base comes first: its `__enter__` is known for a few classes only.
            order = self.mro(manager.class_id)
            first = (
                None
                if isinstance(order, Unknown)
                else next((entry for entry in order if isinstance(entry, Opaque)), None)
            )
            return (
                manager
                if first is not None and first.qualified in ENTER_RETURNS_SELF
                else (Unknown(DYNAMIC))
            )
        if not isinstance(found, str):
            return Unknown(DYNAMIC)
        declaration = self.declarations[found]
        path = self.file_of[found]
        facts = self.facts[path]
        returned = [item.value for item in facts.returns if item.owner == found]
        if returned and all(
            value.kind == "alias"
            and value.ref is not None
            and value.ref.head == "this"
            and not value.ref.members
            for value in returned
        ):
            return manager
        if declaration.type and depth < MAX_CHAIN:
            return self.type_value(path, declaration.type)
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
        if declaration.type and not self.overloaded(declaration.id):
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
                return self.class_member(declaration.id, member, instance=False, depth=depth)
            return Unknown(DYNAMIC)
        if isinstance(value, Instance):
            found = self.class_member(
                value.class_id, member, instance=True, exact=value.exact, depth=depth
            )
            if isinstance(found, Unknown) and found.reason == MISS:
                return self.attribute_value(value.class_id, member, depth)
            return found
        if isinstance(value, Outside):
            return OUTSIDE
        return Unknown(UNTYPED_RECEIVER) if value.reason == UNTYPED_RECEIVER else value

    def class_member(
        self, class_id: str, member: str, *, instance: bool, exact: bool = True, depth: int = 0
    ) -> Value:
        """A class's member as a value; `depth`: the chain that reached it (a field's value
        may lead back to the same member through its rebinding writes)."""
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
                return self.declaration_value(declaration, depth + 1)
            return Unknown(DYNAMIC)
        if declaration.kind == "class":
            return Decl(declaration.id)
        if declaration.kind == "accessor":
            if declaration.type:
                return self.type_value(self.file_of[declaration.id], declaration.type)
            return Unknown(DYNAMIC)
        return self.decorated(declaration)
