"""Bound targets of calls through values the whole program fills: parameters of closed
functions and module-level dict literals called by item.

Both rest on the whole program being in the scan (a caller outside it could
pass or store another function), so what they give is bound, never direct:

* a parameter called in a function that is only ever called or applied as a
  decorator (never used as a value) holds what every application passes
  there (a decorator's argument is the function below it, after the
  decorators in between);
* `table[key](…)`, where `table` is a module-level dict literal that is never
  bound again, never used as a value (passed, returned, aliased, stored) and
  read through no method but `get`, `keys`, `values`, `items`, `copy`: the
  functions its literal holds under that key (every key when the key is no
  string literal), plus what every `table[k] = v` of the project stores (a
  function, or a parameter as above). One value that is no project function
  leaves the call without an edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.graph.python.binding_values import DYNAMIC
from tsograph.producers.graph.python.binding_values import Decl
from tsograph.producers.graph.python.binding_values import Unknown
from tsograph.producers.graph.python.binding_values import Value
from tsograph.producers.graph.python.targets import SiteTargets
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import Write

# dict methods that read the dict without storing or handing it out.
READING_METHODS = frozenset({"get", "keys", "values", "items", "copy", "__getitem__"})
# A table: the functions its literal holds by key, and those its item writes store.
Table = tuple[dict[str, tuple[str, ...]], tuple[str, ...]]


@dataclass
class ClosedFlows(SiteTargets):
    # Function id → the sites (as written) that call it or apply it as a decorator.
    applications: dict[str, list[tuple[str, CallSite]]] = field(default_factory=dict)
    # Functions and classes used as values: what they are given is not known.
    escaped: set[str] = field(default_factory=set)
    _tables: dict[str, Table | None] = field(default_factory=dict)

    def parameter_targets(self, path: str, callee: Ref) -> tuple[str, ...]:
        """A call of a parameter (`function(*args)` in a decorator's wrapper): what every
        application of the function that declares it passes there, when the function is
        closed (only called or applied as a decorator, never used as a value) and every
        value passed is a project function or class. Bound: it rests on the whole program."""
        facts = self.binder.facts[path]
        if callee.head != "param" or callee.members or not 0 <= callee.index < len(facts.bindings):
            return ()
        binding = facts.bindings[callee.index]
        function = binding.owner
        if binding.kind != "param" or binding.position < 0 or function in self.escaped:
            return ()
        applications = self.applications.get(function, [])
        found: list[str] = []
        for caller_path, application in applications:
            value = self._argument(caller_path, application, binding.position)
            if not isinstance(value, Decl):
                return ()
            targets = self._value(value)
            if not targets.direct:
                return ()
            found.extend(targets.direct)
        return tuple(dict.fromkeys(found))

    def _argument(self, path: str, site: CallSite, position: int) -> Value:
        """The value a call or a decorator application passes at `position`."""
        if site.kind == "decorator":
            # A decorator gets what the decorators below it made of the function.
            below = [
                other
                for other in self.binder.decorator_sites.get(site.owner, [])
                if (other.line, other.column) > (site.line, site.column)
            ]
            declaration = self.binder.declarations.get(site.owner)
            if position != 0 or declaration is None:
                return Unknown(DYNAMIC)
            return self.binder.decorated_by(declaration, below)
        if site.spread or position >= len(site.args):
            return Unknown(DYNAMIC)
        argument = site.args[position]
        if argument.kind != "alias" or argument.ref is None:
            return Unknown(DYNAMIC)
        return self.binder.ref_value(path, argument.ref)

    def item_targets(self, path: str, site: CallSite) -> tuple[str, ...]:
        """`table[key](…)` on a closed module-level dict literal (see the module's text)."""
        if site.item is None:
            return ()
        declaration = self.binder.declaration_named(path, site.callee)
        if declaration is None:
            return ()
        if declaration.id not in self._tables:
            self._tables[declaration.id] = self._table(declaration)
        table = self._tables[declaration.id]
        if table is None:
            return ()
        entries, written = table
        if site.item:
            held = entries.get(site.item[0], ())
        else:
            held = tuple(target for each in entries.values() for target in each)
        return tuple(dict.fromkeys((*held, *written)))

    def _table(self, declaration: Declaration) -> Table | None:
        binder = self.binder
        init = declaration.init
        path = binder.file_of[declaration.id]
        if (
            declaration.kind != "variable"
            or declaration.parent != f"{path}#<module>"
            or init is None
            or init.kind != "object"
            or binder.rebinding(declaration, 0)
            or not self._closed(declaration)
        ):
            return None
        entries: dict[str, tuple[str, ...]] = {}
        for key, value in init.members:
            found = self._stored(path, value) if key != "..." else ()
            if not found:
                return None
            entries[key] = found
        written: list[str] = []
        for write_path, write in self._item_writes(declaration):
            found = self._stored(write_path, write.value)
            if not found:
                return None
            written.extend(found)
        return entries, tuple(written)

    def _stored(self, path: str, value: Init) -> tuple[str, ...]:
        """The project functions a stored value is: a name of one, or a closed parameter."""
        ref = value.ref
        if value.kind != "alias" or ref is None:
            return ()
        if ref.head == "param":
            return self.parameter_targets(path, ref)
        return self._value(self.binder.ref_value(path, ref)).direct

    def _names(self, path: str, ref: Ref, declaration: Declaration) -> int:
        """How many leading names of the chain `ref` name the declaration (0 when none); an
        imported head may name it under another name (`from m import table as t`)."""
        names = (ref.name, *ref.members)
        for end, name in enumerate(names, 1):
            if name != declaration.name and (end > 1 or ref.head != "import"):
                continue
            prefix = Ref(ref.head, ref.name, ref.target, ref.index, ref.members[: end - 1])
            found = self.binder.declaration_named(path, prefix)
            if found is not None and found.id == declaration.id:
                return end
        return 0

    def _closed(self, declaration: Declaration) -> bool:
        """Whether no code of the project hands the dict out or calls a method that may
        change it (item calls and item reads are no uses)."""
        for path, facts in self.binder.facts.items():
            for site in facts.calls:
                names = self._names(path, site.callee, declaration)
                if not names:
                    continue
                rest = site.callee.members[names - 1 :]
                if site.computed and not rest:
                    continue  # table[k](…), table[k].m(…)
                if not rest:
                    if site.kind in ("callback", "reference"):
                        return False
                    continue
                if rest[0] not in READING_METHODS:
                    return False
        return True

    def _item_writes(self, declaration: Declaration) -> list[tuple[str, Write]]:
        found = []
        for path, facts in self.binder.facts.items():
            for write in facts.writes:
                if write.computed and self._names(path, write.target, declaration) == len(
                    (write.target.name, *write.target.members)
                ):
                    found.append((path, write))
        return found
