"""Which symbols a target names: an id, `file:line`, `Class.method` or a bare name.

A name matches a declaration whose path is that name or ends with `.name`
(so `save` finds `Repo.save`, and `Repo.save` finds `Repo.save` and
`default.Repo.save`). `file:line` matches the declarations that start on
that line: the graph holds where a declaration starts, not where it ends, so
the innermost one around a line cannot be proven and is not guessed.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.held import declaration_name


@dataclass(frozen=True)
class Found:
    numbers: list[int]  # one: the target; several: candidates; none: unknown
    reason: str = ""  # why none matched


def unsafe_path(path: str) -> str | None:
    """Why a repository path given to a question is refused, or None when it is fine."""
    if path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
        return "an absolute path is refused; give the path relative to the repository"
    if ".." in path.replace("\\", "/").split("/"):
        return "a path with a '..' part is refused; give the path inside the repository"
    return None


def target_path(target: str) -> str | None:
    """The repository path a target names: the file of an id or of `file:line`."""
    if "#" in target:
        return target.partition("#")[0]
    path, colon, line = target.rpartition(":")
    if colon and line.isdigit() and path:
        return path
    return None


def find(held: HeldGraph, target: str, budget: Budget, file: str | None = None) -> Found:
    graph = held.graph
    if target in graph.index and graph.is_node(graph.index[target]):
        return Found([graph.index[target]])
    path, colon, line = target.rpartition(":")
    if colon and line.isdigit() and path and "#" not in target:
        return _at_line(held, path, int(line), budget)
    matches = []
    suffix = "." + target
    for number, node_id in enumerate(graph.ids):
        budget.tick()
        if not graph.is_node(number):
            continue
        name = declaration_name(node_id)
        if name != target and not name.endswith(suffix):
            continue
        if file is not None and node_id.partition("#")[0] != file:
            continue
        matches.append(number)
    if matches:
        return Found(_prefer_declarations(held, matches))
    where = f" in {file}" if file is not None else ""
    names = {declaration_name(node_id).rpartition(".")[2] for node_id in graph.ids}
    close = difflib.get_close_matches(target.rpartition(".")[2], sorted(names), 3, 0.7)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return Found([], f"no declaration named {target!r}{where} in the graph{hint}")


def _prefer_declarations(held: HeldGraph, numbers: list[int]) -> list[int]:
    """An export node stands for the declaration it exports: drop it when that is a match too."""
    kinds = held.graph.kinds
    own = [number for number in numbers if kinds[number] != "export"]
    return own or numbers


def _at_line(held: HeldGraph, path: str, line: int, budget: Budget) -> Found:
    graph = held.graph
    starts: list[tuple[int, int]] = []
    for number, node_id in enumerate(graph.ids):
        budget.tick()
        if node_id.partition("#")[0] != path or not graph.is_node(number):
            continue
        starts.append((held.location(number).get("line") or 0, number))
    if not starts:
        return Found([], f"the graph holds no declaration in {path}")
    exact = [number for start, number in starts if start == line]
    if exact:
        return Found(_prefer_declarations(held, sorted(exact)))
    before = [start for start, _ in starts if start < line]
    after = [start for start, _ in starts if start > line]
    nearest = ([max(before)] if before else []) + ([min(after)] if after else [])
    near = ", ".join(f"{path}:{start}" for start in nearest)
    return Found(
        [],
        f"no declaration starts at {path}:{line} (the graph knows where declarations start, "
        f"not where they end); nearest: {near}",
    )
