"""The relations of a JavaScript/TypeScript graph beside its calls, for implementers,
references and importers.

* extends: a class to the project class its `extends` binds to; an interface
  to each project interface (or class) it extends.
* implements: a class to each project interface (or class) its `implements`
  clause names.
* overrides: a method, accessor or function-valued field to the member of the
  same name a base class further up the chain declares (static with static).
* imports: a module to each project module an import or a re-export of it
  names (type-only ones too: the file depends on it either way).
* type: a declaration to each project class or interface its declared type
  names (a parameter's, a local's, a field's, a variable's or a return type),
  the parts of a union and the arguments of a generic each counted; the
  front-end also records the type of a cast (`x as T`, `<T>x`, `x satisfies
  T`) and the class of `x instanceof C` as nameless locals of that type where
  they are written, so they count here the same way.

Each rests on the same binding rules as calls (`Binder.type_value`,
`base_class`, `module_value`), so a name that binds to nothing in the project
gives no relation. Interfaces and type aliases are no graph nodes: they are
listed as `types`, so a relation's end can be found by name.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Container
from collections.abc import Iterable
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tsograph.exchange.symbol_ids import module_id
from tsograph.exchange.symbol_ids import symbol_id
from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.model import Relation
from tsograph.producers.graph.model import Site
from tsograph.producers.graph.model import TypeDeclaration
from tsograph.producers.graph.referents import Instance
from tsograph.producers.graph.referents import Interface
from tsograph.producers.graph.referents import Module
from tsograph.producers.graph.referents import Value
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import TypeRef

if TYPE_CHECKING:
    from tsograph.producers.graph.file_memo import FileMemo
    from tsograph.producers.graph.file_memo import FileRelations

OVERRIDING_KINDS = ("method", "accessor", "field")


def type_id(interface: Interface) -> str:
    return symbol_id(interface.path, (interface.name,))


def _end(value: Value) -> str | None:
    if isinstance(value, Instance):
        return value.class_id
    if isinstance(value, Interface):
        return type_id(value)
    return None


def type_relations(
    owner: str, types: Iterable[TypeRef], site: Site, end_of: Callable[[TypeRef], str | None]
) -> Iterator[Relation]:
    """`type` relations from code to the project types its annotation names (`end_of`: the
    type a name is, in the language's binder; None when it is not one of ours)."""
    for ref in named_types(types):
        end = end_of(ref)
        if end is not None:
            yield Relation("type", owner, end, site)


def named_types(types: Iterable[TypeRef]) -> Iterable[TypeRef]:
    """Every named type of a declared type: the type and its generic arguments, at any depth."""
    pending = list(types)
    while pending:
        ref = pending.pop()
        if ref.chain:
            yield ref
        pending.extend(ref.args)


def js_relations(
    binder: Binder,
    facts: dict[str, FileFacts],
    nodes: Iterable[str],
    memo: FileMemo | None = None,
) -> tuple[list[Relation], list[TypeDeclaration]]:
    known = set(nodes)
    found: set[Relation] = set()
    types: list[TypeDeclaration] = []
    for path in sorted(facts):
        results = None if memo is None else memo.of(path)
        kept = None if results is None else results.relations
        if kept is None:
            kept = file_relations(binder, path, known)
            if results is not None:
                results.relations = kept
        found.update(kept[0])
        types.extend(kept[1])
    # Sorted by the fields in order, as the dataclass orders them, without its slow __lt__.
    return sorted(found, key=_relation_order), sorted(types)


def _relation_order(relation: Relation) -> tuple[str, str, str, Site, str]:
    return (relation.kind, relation.source, relation.target, relation.site, relation.evidence)


def file_relations(binder: Binder, path: str, known: Container[str]) -> FileRelations:
    """The relations of one file and the types it declares. Each end is bound from the
    file's import closure, and `known` is only asked about the file's own ids (so the
    result can be kept for a file whose closure did not change)."""
    found: set[Relation] = set()
    types: list[TypeDeclaration] = []
    listed: set[str] = set()
    index = binder.file(path)
    if index is None:
        return (), ()
    file_facts = index.facts

    def end_of(ref: TypeRef) -> str | None:
        return _end(binder.type_value(path, (ref,)))

    for declared in file_facts.types:
        site: Site = (path, declared.line, declared.column)
        own = symbol_id(path, (declared.name,))
        # An interface merged with a class of its name is that class's node; a
        # merged interface declared twice is one type, at its first place.
        if own not in known and own not in listed:
            listed.add(own)
            types.append(TypeDeclaration(own, declared.kind, site))
        for ref in declared.extends:
            end = _end(binder.type_value(path, (ref,)))
            if end is not None and end != own:
                found.add(Relation("extends", own, end, site))
    for declaration in file_facts.declarations:
        if declaration.is_anonymous_class or declaration.id not in known:
            continue
        site = (path, declaration.line, declaration.column)
        if declaration.kind == "class":
            _class_relations(binder, path, declaration, site, found)
        elif declaration.kind in OVERRIDING_KINDS:
            _override(binder, declaration, site, found)
        found.update(type_relations(declaration.id, declaration.type, site, end_of))
    for binding in file_facts.bindings:
        if binding.owner in known:
            binding_site = (path, binding.line, binding.column)
            found.update(type_relations(binding.owner, binding.type, binding_site, end_of))
    here = module_id(path)
    imported: dict[tuple[str, int], int] = {}
    for specifier, line, column in (
        *((item.specifier, item.line, item.column) for item in file_facts.imports),
        *((item.specifier, item.line, item.column) for item in file_facts.exports),
    ):
        if not specifier:
            continue
        value = binder.module_value(path, specifier)
        if isinstance(value, Module) and value.path != path:
            key = (module_id(value.path), line)
            imported[key] = min(imported.get(key, column), column)
    # One relation per statement: the names of `import { a, b }` share its line.
    for (there, line), column in imported.items():
        found.add(Relation("imports", here, there, (path, line, column)))
    return tuple(found), tuple(types)


def _class_relations(
    binder: Binder, path: str, declaration: Declaration, site: Site, found: set[Relation]
) -> None:
    base = binder.base_class(declaration.id)
    if base is not None:
        found.add(Relation("extends", declaration.id, base, site))
    for ref in declaration.implements:
        end = _end(binder.type_value(path, (ref,)))
        if end is not None:
            found.add(Relation("implements", declaration.id, end, site))


def _override(binder: Binder, member: Declaration, site: Site, found: set[Relation]) -> None:
    """The nearest member of the same name up the class chain that `member` overrides."""
    owner = binder.declarations.get(member.parent)
    if owner is None or owner.kind != "class" or member.kind == "constructor":
        return
    for base in binder.class_chain(owner.id)[1:]:
        for other in binder.children.get(base, {}).get(member.name, ()):
            if other.static == member.static and other.kind in OVERRIDING_KINDS:
                found.add(Relation("overrides", member.id, other.id, site))
                return
