"""The relations of a Python graph beside its calls, for implementers, references and importers.

* extends: a class to each project class among its bases (PythonBinder.bases,
  so a base made by a call or a subscript gives none);
* overrides: a method (or any class-body name) to the member its C3 order
  finds first after the class, when a project class defines it; an order that
  cannot be established, or an outside base coming first, gives none;
* imports: a module to each project module an import statement names;
* type: a declaration to each project class an annotation names (a
  parameter's, a local's, an attribute's or a return type, generic arguments
  included), and the function holding `isinstance(x, C)` to C when the second
  argument is a name (a tuple of classes is read as the value uses it is).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable

from tsograph.producers.graph.model import Relation
from tsograph.producers.graph.model import Site
from tsograph.producers.graph.python.binder import PythonBinder
from tsograph.producers.graph.python.binding_values import Decl
from tsograph.producers.graph.python.binding_values import Instance
from tsograph.producers.graph.python.binding_values import Value
from tsograph.producers.graph.relations import type_relations
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.values.python.modules import Module


def _class(binder: PythonBinder, value: Value) -> str | None:
    if isinstance(value, Instance):
        return value.class_id
    if isinstance(value, Decl) and binder.declarations[value.id].kind == "class":
        return value.id
    return None


def _type_end(binder: PythonBinder, path: str) -> Callable[[TypeRef], str | None]:
    """The project class a type name in `path` names."""
    return lambda ref: _class(binder, binder.type_value(path, (ref,)))


def python_relations(binder: PythonBinder, nodes: Iterable[str]) -> list[Relation]:
    known = set(nodes)
    found: set[Relation] = set()
    for path in sorted(binder.facts):
        facts = binder.facts[path]
        end_of = _type_end(binder, path)
        for declaration in facts.declarations:
            if declaration.id not in known:
                continue
            site: Site = (path, declaration.line, declaration.column)
            if declaration.kind == "class":
                bases = binder.bases(declaration.id)
                for base in bases if isinstance(bases, list) else ():
                    if isinstance(base, str):
                        found.add(Relation("extends", declaration.id, base, site))
            owner = binder.declarations.get(declaration.parent)
            if owner is not None and owner.kind == "class":
                # None, or not ours to name when a base outside the project may define it.
                overridden = binder.lookup(owner.id, declaration.name, inherited=True)
                if isinstance(overridden, str):
                    found.add(Relation("overrides", declaration.id, overridden, site))
            found.update(type_relations(declaration.id, declaration.type, site, end_of))
        for binding in facts.bindings:
            if binding.owner in known:
                binding_site = (path, binding.line, binding.column)
                found.update(type_relations(binding.owner, binding.type, binding_site, end_of))
        for site_fact in facts.calls:
            callee = site_fact.callee
            if (
                site_fact.kind != "call"
                or callee.head != "global"
                or callee.name != "isinstance"
                or callee.members
                or len(site_fact.args) != 2
                or site_fact.owner not in known
            ):
                continue
            argument = site_fact.args[1]
            if argument.kind != "alias" or argument.ref is None:
                continue
            end = _class(binder, binder.ref_value(path, argument.ref))
            if end is not None:
                found.add(
                    Relation("type", site_fact.owner, end, (path, site_fact.line, site_fact.column))
                )
        here = f"{path}#<module>"
        imported: dict[tuple[str, int], int] = {}
        for item in facts.imports:
            value = binder.module_value(path, item.specifier)
            if isinstance(value, Module) and value.path != path:
                key = (f"{value.path}#<module>", item.line)
                imported[key] = min(imported.get(key, item.column), item.column)
        # One relation per statement: the names of `from m import a, b` share its line.
        for (there, line), column in imported.items():
            found.add(Relation("imports", here, there, (path, line, column)))
    return sorted(found)
