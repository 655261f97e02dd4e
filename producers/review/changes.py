"""What a change did to the graph's symbols: edited, added, removed and moved.

Both graphs are the same tool's graphs of the two versions, so a symbol keeps
its id when its file and declaration path stay. In a changed file, a symbol
is edited when a line the diff wrote (or replaced) falls in its own span and
in no narrower declaration's; module-level lines outside every declaration
touch the file's `<module>`. An id only the base holds is removed, one only
the work tree holds is added, and a removed and an added symbol whose bodies
have the same digest (the name left out) are one move: a rename, or the same
code in another file. A digest shared by several symbols on a side proves no
move and both stay removed and added.

Interfaces and type aliases are no graph nodes but the graph declares them
(`held.types`): a changed line inside one touches that type (kept apart in
`types`), not the file's `<module>`, and never the nodes around it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.held import short_name
from tsograph.producers.review.spans import Span
from tsograph.producers.review.spans import innermost
from tsograph.producers.review.spans import spans

MODULE = "<module>"


@dataclass
class Changes:
    edited: list[str] = field(default_factory=list)  # head ids
    added: list[str] = field(default_factory=list)  # head ids
    removed: list[str] = field(default_factory=list)  # base ids
    moved: list[tuple[str, str]] = field(default_factory=list)  # (base id, head id)
    files: dict[str, str] = field(default_factory=dict)  # root-relative path -> A/M/D/R<old>
    inexact: list[str] = field(default_factory=list)  # changed files read line by line only
    # Added or removed declarations inside another added or removed one (the callbacks of a
    # new function): counted, not listed, since the outer one says it.
    nested: dict[str, list[str]] = field(default_factory=dict)
    base_spans: dict[str, Span] = field(default_factory=dict)  # removed and moved, base side
    # Declared interfaces and type aliases: "edited" and "added" (head ids), "removed" (base).
    types: dict[str, list[str]] = field(default_factory=dict)

    def touched(self) -> list[str]:
        """Head ids whose code the change wrote: edited, added, and moved to."""
        return sorted({*self.edited, *self.added, *(new for _, new in self.moved)})


def ids_by_file(held: HeldGraph, files: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    graph = held.graph
    for number, node_id in enumerate(graph.ids):
        path = node_id.partition("#")[0]
        if path in files and graph.is_node(number):
            found.setdefault(path, []).append(node_id)
    return found


def types_by_file(held: HeldGraph, files: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for type_id, declared in held.types.items():
        if declared.site[0] in files:
            found.setdefault(declared.site[0], []).append(type_id)
    return found


def _type_where(held: HeldGraph, ids: list[str]) -> dict[str, tuple[int, int, str]]:
    return {
        type_id: (held.types[type_id].site[1], held.types[type_id].site[2], short_name(type_id))
        for type_id in ids
    }


def _where(held: HeldGraph, ids: list[str]) -> dict[str, tuple[int, int, str]]:
    where: dict[str, tuple[int, int, str]] = {}
    for node_id in ids:
        if node_id.endswith("#" + MODULE):
            continue
        location = held.location(held.graph.index[node_id])
        if location.get("line"):
            where[node_id] = (location["line"], location.get("column") or 1, short_name(node_id))
    return where


def _read(folder: Path, path: str) -> bytes | None:
    try:
        return (folder / path).read_bytes()
    except OSError:
        return None


def compare(
    base: HeldGraph,
    base_folder: Path,
    head: HeldGraph,
    head_folder: Path,
    files: Mapping[str, str],
    lines: Mapping[str, tuple[set[int], set[int]]],
) -> Changes:
    """`files` and `lines` are keyed by paths relative to the source root of both folders."""
    changes = Changes(files=dict(files))
    old_of = {
        path: (status[1:] if status.startswith("R") else path) for path, status in files.items()
    }
    base_ids = ids_by_file(base, set(old_of.values()))
    head_ids = ids_by_file(head, set(files))
    base_types = types_by_file(base, set(old_of.values()))
    head_types = types_by_file(head, set(files))
    type_spans: dict[str, Span] = {}  # head side
    base_type_spans: dict[str, Span] = {}
    types_edited: set[str] = set()
    head_all = set(head.graph.index)
    base_all = set(base.graph.index)
    head_spans: dict[str, Span] = {}
    base_spans: dict[str, Span] = {}
    edited: set[str] = set()
    for path, status in files.items():
        old = old_of[path]
        new_data = _read(head_folder, path) if status != "D" else None
        old_data = _read(base_folder, old) if status != "A" else None
        new_ids, old_ids = head_ids.get(path, []), base_ids.get(old, [])
        new_types, old_types = head_types.get(path, []), base_types.get(old, [])
        if new_data is not None:
            head_spans.update(spans(path, new_data, _where(head, new_ids)))
            type_spans.update(spans(path, new_data, _type_where(head, new_types)))
        if old_data is not None:
            base_spans.update(spans(old, old_data, _where(base, old_ids)))
            base_type_spans.update(spans(old, old_data, _type_where(base, old_types)))
        if status == "A" or status == "D" or new_data is None:
            continue
        before, after = lines.get(path, (set(), set()))
        if not before and not after and status == "M":
            # A change git did not show as lines (a mode change, a path it quoted): every
            # symbol of the file counts as edited, and the file is said to be read whole.
            edited.update(node for node in new_ids if node in base_all)
            types_edited.update(key for key in new_types if key in base.types)
            changes.inexact.append(path)
            continue
        mine = {key: head_spans[key] for key in new_ids if key in head_spans}
        theirs = {key: base_spans[key] for key in old_ids if key in base_spans}
        owners = innermost(mine, after) | {
            key for key in innermost(theirs, before) if key in head_all
        }
        if any(not span.exact for span in mine.values()):
            changes.inexact.append(path)
        my_types = {key: type_spans[key] for key in new_types if key in type_spans}
        their_types = {key: base_type_spans[key] for key in old_types if key in base_type_spans}
        types_edited.update(
            key
            for key in innermost(my_types, after) | innermost(their_types, before)
            if key in head.types and key in base.types
        )
        # Module code the change wrote, or deleted (read in the base file).
        outside = _outside(new_data, after, mine, my_types) | _outside(
            old_data or b"", before, theirs, their_types
        )
        module = f"{path}#{MODULE}"
        if outside and module in head_all:
            owners.add(module)
        edited.update(key for key in owners if key in base_all)
    added = sorted(key for path in files for key in head_ids.get(path, []) if key not in base_all)
    removed = sorted(
        {key for old in old_of.values() for key in base_ids.get(old, []) if key not in head_all}
    )
    changes.moved = _moves(removed, added, base_spans, head_spans)
    moved_old = {old for old, _ in changes.moved}
    moved_new = {new for _, new in changes.moved}
    changes.added = _outermost(
        [key for key in added if key not in moved_new], head_spans, changes.nested
    )
    changes.removed = _outermost(
        [key for key in removed if key not in moved_old], base_spans, changes.nested
    )
    changes.edited = sorted(edited - set(added))
    changes.base_spans = {
        key: base_spans[key] for key in (*changes.removed, *moved_old) if key in base_spans
    }
    changes.inexact = sorted(set(changes.inexact))
    changes.types = {
        "edited": sorted(types_edited),
        "added": sorted(
            key for path in files for key in head_types.get(path, []) if key not in base.types
        ),
        "removed": sorted(
            {
                key
                for old in old_of.values()
                for key in base_types.get(old, [])
                if key not in head.types
            }
        ),
    }
    return changes


def _outside(
    data: bytes, lines: set[int], nodes: dict[str, Span], types: dict[str, Span]
) -> set[int]:
    """The non-blank lines outside every declaration and declared type."""
    text_lines = data.split(b"\n")
    return {
        line
        for line in lines
        if 0 < line <= len(text_lines)
        and text_lines[line - 1].strip()
        and not innermost(nodes, {line})
        and not innermost(types, {line})
    }


def _outermost(
    keys: list[str], side: Mapping[str, Span], nested: dict[str, list[str]]
) -> list[str]:
    """The keys not inside another key's span in the same file; the others go to `nested`
    under the key that holds them."""
    kept = []
    for key in keys:
        span = side.get(key)
        path = key.partition("#")[0]
        holder = None
        if span is not None and span.exact:
            for other in keys:
                there = side.get(other)
                if (
                    other != key
                    and there is not None
                    and there.exact
                    and other.partition("#")[0] == path
                    and there.first <= span.first
                    and span.last <= there.last
                    and (there.last - there.first) > (span.last - span.first)
                ):
                    widest = side[holder] if holder is not None else None
                    if widest is None or (there.last - there.first) > (widest.last - widest.first):
                        holder = other
        if holder is None:
            kept.append(key)
        else:
            nested.setdefault(holder, []).append(key)
    return kept


def _moves(
    removed: list[str], added: list[str], base: Mapping[str, Span], head: Mapping[str, Span]
) -> list[tuple[str, str]]:
    def unique(keys: list[str], side: Mapping[str, Span]) -> dict[str, str]:
        seen: dict[str, list[str]] = {}
        for key in keys:
            span = side.get(key)
            if span is not None and span.digest is not None:
                seen.setdefault(span.digest, []).append(key)
        return {digest: found[0] for digest, found in seen.items() if len(found) == 1}

    gone, new = unique(removed, base), unique(added, head)
    return sorted((gone[digest], new[digest]) for digest in gone.keys() & new.keys())
