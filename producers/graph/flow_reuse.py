"""When an incremental run may keep the previous build's value flow whole.

Bound value flow is whole-program: any file's writes, returns and call
arguments can reach any receiver. It is kept only when the edit provably
changes no fact it reads:

* one file was edited, and its facts are the old ones but for places (line,
  column), or the old ones plus declarations under new names
  (binding_surface.added_names: references by index into the file's lists
  stay valid, so every query the previous build answered about the file asks
  about the same things);
* the other files bound again mention none of the new names (incremental.py):
  they are bound again because they read the whole module or hand its names
  on, and every lookup they make is of a name they mention, so it finds what
  it found before; every file not bound again binds as before;
* what each of these files adds to the flow indexes (`bound.contribution`: writes by
  name, declaration and binding, returns, call sites by target, value uses,
  open declarations, loaded modules) is the old contribution but for places,
  plus entries under the new declarations only, which no earlier query can
  have read; a new class extending another changes class families, so it is
  not kept;
* the program's openness (libraries, entry points) and the test side are the
  same (BoundDispatch.resume).

The kept flows are frozen: they answer only what they hold. A call the edit
adds that asks something new raises FlowMiss, and the build indexes the
program and asks again, as a full build does. The result is the full build's
(tests/graph/test_incremental_properties.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tsograph.producers.graph.binding_surface import surface
from tsograph.producers.graph.bound import BoundDispatch
from tsograph.producers.graph.bound import Entry
from tsograph.producers.graph.bound import FlowState
from tsograph.producers.graph.bound import contribution
from tsograph.producers.graph.build import SitesRun
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Ref

# Index slots keyed by a declaration id: an entry under a new declaration is new to
# every query. Writes by member name, computed writes and loaded modules never are.
_BY_DECLARATION = frozenset({"site", "use", "decl", "return", "open"})


@dataclass(frozen=True)
class KeptFile:
    """A file an incremental run binds again, as the previous build had it."""

    path: str
    facts: FileFacts
    sites: SitesRun | None
    written: frozenset[str] | None
    exported: frozenset[str] | None
    escapes: dict[Ref, str | None]


@dataclass(frozen=True)
class FlowReuse:
    """The files an incremental run binds again (the edited one first), and the previous
    build's flow."""

    files: tuple[KeptFile, ...]
    state: FlowState
    # The declarations the edit added (none when only places moved).
    fresh: frozenset[str]


class _NotKept(Exception):
    """The previous build did not keep a result the comparison needs."""


def resume_flow(reuse: FlowReuse, bound: BoundDispatch, runs: Mapping[str, SitesRun]) -> bool:
    """Take over the previous build's flows when the edit changes no value-flow fact."""
    binder = bound.binder
    for declaration_id in reuse.fresh:
        declaration = binder.declarations.get(declaration_id)
        is_class = declaration is not None and declaration.kind == "class"
        if is_class and len(binder.class_chain(declaration_id)) > 1:
            return False
    for kept in reuse.files:
        index = binder.file(kept.path)
        if index is None or kept.path not in runs:
            return False
        facts = index.facts
        if facts.dynamic_loads != kept.facts.dynamic_loads:
            return False
        try:
            old = _old_contribution(kept, bound.program.opens(kept.path))
        except _NotKept:
            return False
        new = _by_key(bound.contribution(kept.path, facts, runs[kept.path].indexed))
        for key, items in old.items():
            if surface(items) != surface(new.get(key)):
                return False
        for key in new.keys() - old.keys():
            if not _fresh(key, reuse.fresh, facts):
                return False
    return bound.resume(reuse.state)


def mentions(value: Any, names: frozenset[str]) -> bool:
    """True when one of `names` is a string anywhere in a surface (binding_surface)."""
    pending = [value]
    while pending:
        current = pending.pop()
        if isinstance(current, str):
            if current in names:
                return True
        elif isinstance(current, tuple):
            pending.extend(current)
        elif hasattr(current, "__dataclass_fields__"):
            pending.extend(getattr(current, name) for name in current.__dataclass_fields__)
    return False


def _old_contribution(kept: KeptFile, opens: bool) -> dict[tuple[str, object], list[object]]:
    if kept.sites is None or kept.written is None:
        raise _NotKept
    if opens and kept.exported is None:
        raise _NotKept
    escapes = kept.escapes

    def holder(ref: Ref) -> str | None:
        if ref not in escapes:
            raise _NotKept
        return escapes[ref]

    return _by_key(
        contribution(
            kept.path,
            kept.facts,
            kept.sites.indexed,
            kept.written,
            (kept.exported or frozenset()) if opens else frozenset(),
            holder,
        )
    )


def _by_key(entries: list[Entry]) -> dict[tuple[str, object], list[object]]:
    found: dict[tuple[str, object], list[object]] = {}
    for slot, key, item in entries:
        found.setdefault((slot, key), []).append(item)
    return found


def _fresh(key: tuple[str, object], fresh: frozenset[str], facts: FileFacts) -> bool:
    """True when no query of the previous build can have read the index entry."""
    slot, name = key
    if slot in _BY_DECLARATION:
        return name in fresh
    if slot == "binding" and isinstance(name, tuple):
        position = name[1]
        return 0 <= position < len(facts.bindings) and facts.bindings[position].owner in fresh
    return False
