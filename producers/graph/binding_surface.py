"""What an edit of a file can change for the files that import it.

An importer binds through a file's facts without their places (`surface`):
an edit that keeps the surface rebinds the file alone. An edit that only
adds names (new top-level declarations, exports or types, with everything
they hold: a function appended, an export const) leaves every lookup of the
other names as it was, so only the files that look up one of the new names
are bound again (`added_names`, `name_readers`); any other change reaches
every importer, transitively.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import Return
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.facts import Write

# Fields of facts that only place a record in its own file: an importer never reads them.
_POSITION_FIELDS = frozenset({"line", "column"})
# Imports that name one export: the others read the whole module (or nothing).
_NAMED_IMPORTS = frozenset({"named", "default"})
_NO_NAME = frozenset({"*", ""})

# Each specifier of a file (imports, re-exports) and the project source it resolves to.
Resolved = tuple[tuple[str, str | None], ...]


def surface(value: Any) -> Any:
    """A fact without its line and column fields: what other files' binding can read of it
    (ids, names, kinds, types, values). Equal surfaces bind every importer the same."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is tuple or kind is list:
        return tuple(map(surface, value))
    names = _SURFACE_FIELDS.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value):
            return value
        names = _SURFACE_FIELDS[kind] = tuple(
            item.name for item in dataclasses.fields(value) if item.name not in _POSITION_FIELDS
        )
    return (kind.__name__, tuple(surface(getattr(value, name)) for name in names))


# The fields `surface` keeps, per dataclass (asking `dataclasses.fields` for every record
# of a large file cost more than the comparison).
_SURFACE_FIELDS: dict[type, tuple[str, ...]] = {}
# Values that are their own surface: scalars, and the records that hold no place at any
# depth (chains, values, type references, writes, returns), compared by value.
_AS_IS: frozenset[type] = frozenset(
    {str, int, bool, float, type(None), Ref, Init, TypeRef, Write, Return}
)


def added_names(old: FileFacts, new: FileFacts, old_surface: Any) -> frozenset[str] | None:
    """The names an edit only added to a file, or None when it changed more.

    The new facts must be the old ones (surfaces equal, in order: references
    by index into the file's lists stay valid) once the declarations under
    names the file did not have are taken out with everything they hold
    (nested declarations, bindings, call sites, writes, returns) and so are
    the exports of the file's own code and the types under new names.
    Imports, re-exports (`export *` above all), module-level code and members
    added to existing declarations are changes of the old surface.
    `old_surface` is `surface(old)`, which the caller has already.
    """
    module = module_id(new.path)
    old_names = (
        {item.name for item in old.declarations if item.parent == module}
        | {item.name for item in old.exports}
        | {item.name for item in old.types}
        | {item.local for item in old.imports}
    )
    owned = {
        item.id
        for item in new.declarations
        if item.parent == module and item.name and item.name not in old_names
    }
    top = {item.name for item in new.declarations if item.id in owned}
    grown = True
    while grown:
        before = len(owned)
        owned.update(item.id for item in new.declarations if item.parent in owned)
        grown = len(owned) != before
    # Only an export of the file's own code adds just a name: a new `export *` changes the
    # lookup of every name the file does not declare, a re-export reads another module.
    exported = {
        item.name
        for item in new.exports
        if item.kind == "local" and item.name not in old_names | _NO_NAME
    }
    added = top | exported | {item.name for item in new.types if item.name not in old_names}
    if not added:
        return None
    kept = dataclasses.replace(
        new,
        declarations=tuple(item for item in new.declarations if item.id not in owned),
        bindings=tuple(item for item in new.bindings if item.owner not in owned),
        exports=tuple(
            item for item in new.exports if item.kind != "local" or item.name not in added
        ),
        calls=tuple(item for item in new.calls if item.owner not in owned),
        types=tuple(item for item in new.types if item.name not in added),
        writes=tuple(item for item in new.writes if item.owner not in owned),
        returns=tuple(item for item in new.returns if item.owner not in owned),
    )
    return frozenset(added) if surface(kept) == old_surface else None


def name_readers(
    additions: Mapping[str, frozenset[str]],
    facts: Mapping[str, FileFacts],
    resolved: Mapping[str, Resolved],
    importers: Mapping[str, Iterable[str]],
) -> tuple[set[str], set[str]]:
    """For files that only gained names: (the importers whose lookups may now differ, the
    ones among them whose own exports may differ too, for every importer after them).

    An import or re-export of one of the new names, or one that reads the whole
    module (namespace, require, dynamic import, `export * as`), binds differently.
    `export *` hands the new names on: the re-exporting file's lookups of those
    names change, and the same test runs for its importers.
    """
    readers: set[str] = set()
    seeds: set[str] = set()
    pending = [(path, names) for path, names in additions.items()]
    handed: set[tuple[str, frozenset[str]]] = set(pending)
    while pending:
        path, names = pending.pop()
        for importer in sorted(importers.get(path, ())):
            found = facts.get(importer)
            if found is None:
                continue
            specifiers = {spec for spec, target in resolved.get(importer, ()) if target == path}
            for item in found.imports:
                if item.specifier not in specifiers or item.kind == "side-effect":
                    continue
                if item.kind not in _NAMED_IMPORTS or item.imported in names | _NO_NAME:
                    seeds.add(importer)
            for export in found.exports:
                if export.specifier not in specifiers:
                    continue
                if export.kind == "star":
                    readers.add(importer)
                    if (importer, names) not in handed:
                        handed.add((importer, names))
                        pending.append((importer, names))
                elif export.kind != "reexport" or export.imported in names | _NO_NAME:
                    seeds.add(importer)
    return readers | seeds, seeds
