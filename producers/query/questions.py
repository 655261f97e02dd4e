"""The questions: each reads the held graph and gives its whole list, in answer order.

Paging, the token cut and the JSON shape are answer.py's; a question only
walks, within its time budget, and says what it could not see. Questions the
graph has no data for yet are listed in UNAVAILABLE with the reason, and
asking one is a refusal (exit 2), never an empty answer.
"""

from __future__ import annotations

import dataclasses
import os
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.query import relation_questions
from tsograph.producers.query.base_side import BaseSide
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.budget import BudgetSpent
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.held import causes
from tsograph.producers.query.held import declaration_name
from tsograph.producers.query.held import parse_edge_id
from tsograph.producers.query.held import short_name
from tsograph.producers.query.reach import reach_tiers
from tsograph.producers.query.reach import target_reached_by
from tsograph.producers.query.request import Refused
from tsograph.producers.query.request import Request
from tsograph.producers.query.request import Result
from tsograph.producers.query.request import floor_for_callers
from tsograph.producers.query.request import mode_of
from tsograph.producers.query.request import one_target
from tsograph.producers.query.request import tiered_target
from tsograph.producers.query.targets import find
from tsograph.producers.query.targets import target_path
from tsograph.producers.query.targets import unsafe_path

__all__ = ["QUESTIONS", "Refused", "Request", "Result", "ask"]

# The base side of a --base question, by the ref asked.
Bases = Callable[[str], BaseSide]

ANSWERED = (
    "status",
    "capabilities",
    "search",
    "symbol",
    "callers",
    "callees",
    "routes",
    "path",
    "impact",
    "outline",
    "packages",
    "cycles",
    "unknowns",
    "explain",
    "implementers",
    "references",
    "tests",
    "importers",
    "changes",
)
# Questions this graph cannot answer yet, with the reason (none at present).
UNAVAILABLE: dict[str, str] = {}
QUESTIONS = tuple(sorted((*ANSWERED, *UNAVAILABLE)))
NEEDS_TARGET = (
    "search",
    "symbol",
    "callers",
    "callees",
    "path",
    "impact",
    "outline",
    "explain",
    "implementers",
    "references",
    "tests",
    "importers",
)
MAX_DEPTH = {"callers": 3, "callees": 3, "path": 8, "impact": 8, "implementers": 8, "tests": 3}
DEFAULT_DEPTH = {"callers": 1, "callees": 1, "path": 8, "impact": 3, "implementers": 8, "tests": 3}
EDGE_KINDS = ("alias", "call", "callback", "contains", "initializer", "jsx", "new", "reference")
ROUTE_HOPS = 3
MAX_PACKAGE_JSON = 1 << 20


def ask(held: HeldGraph, request: Request, budget: Budget, bases: Bases | None = None) -> Result:
    """The answer to one question; `bases` reads the base of `--base REF` (changes, impact)."""
    question = request.question
    if question in UNAVAILABLE:
        raise Refused("unavailable", f"not answered by this graph: {UNAVAILABLE[question]}")
    if question not in ANSWERED:
        raise Refused(
            "bad-request", f"unknown question {question!r}; ask capabilities for the list"
        )
    if request.base is not None and question not in ("changes", "impact"):
        raise Refused("bad-request", f"--base applies to changes and impact, not {question}")
    if question == "changes" and request.base is None:
        raise Refused("bad-request", "changes needs --base REF: the commit to compare with")
    if question == "impact" and request.base is not None and request.target:
        raise Refused("bad-request", "impact --base starts from the change: give no target")
    if question in NEEDS_TARGET and not request.target and request.base is None:
        raise Refused("bad-request", f"{question} needs a target")
    for path in (
        request.file,
        request.target if question in ("outline", "importers") else None,
        *(
            target_path(text)
            for text in (request.target, request.to)
            if text and question != "explain"
        ),
    ):
        if path is not None:
            refusal = unsafe_path(path)
            if refusal:
                raise Refused("outside-repository", refusal)
    result = Result(question)
    try:
        if request.base is not None:
            from tsograph.producers.query import change_questions

            if bases is None:
                raise Refused("unavailable", "this caller reads no base version")
            side = bases(request.base)
            budget.restart()
            depth = request.depth or DEFAULT_DEPTH.get(question)
            asked = dataclasses.replace(request, depth=depth)
            change_questions.ANSWERS[question](held, side, asked, budget, result)
        else:
            _QUESTIONS[question](held, request, budget, result)
    except BudgetSpent:
        if result.unexpanded is None:
            result.unexpanded = []
        result.floor = True
        result.reasons.append("budget: the time budget ran out before the work was done")
    return result


def _status(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    result.items = [{"limitation": line} for line in held.limitations]
    result.extra["statistics"] = dict(held.statistics)


def _capabilities(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    result.items = [
        {"question": name, "available": name not in UNAVAILABLE, "reason": UNAVAILABLE.get(name)}
        for name in QUESTIONS
    ]


def _search(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    text = (request.target or "").lower()
    scored: list[tuple[int, str, int]] = []
    graph = held.graph
    for number, node_id in enumerate(graph.ids):
        budget.tick()
        if not graph.is_node(number):
            continue
        name = short_name(node_id).lower()
        if name == text:
            score = 0
        elif name.startswith(text):
            score = 1
        elif text in declaration_name(node_id).lower():
            score = 2
        elif text in node_id.lower():
            score = 3
        else:
            continue
        scored.append((score, node_id, number))
    scored.sort()
    labels = ("name", "name prefix", "declaration path", "file path")
    result.items = [{**held.symbol(number), "match": labels[score]} for score, _, number in scored]


def _symbol(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    found = find(held, request.target or "", budget, request.file)
    if not found.numbers:
        raise Refused("unknown-symbol", found.reason)
    graph = held.graph
    for number in found.numbers:
        item = held.symbol(number)
        item["callers"] = _by_tier(held, held.incoming[number])
        item["callees"] = _by_tier(held, held.outgoing[number])
        unresolved = graph.unresolved.get(number)
        item["unresolvedCalls"] = dict(sorted(unresolved.items())) if unresolved else {}
        result.items.append(item)


def _by_tier(held: HeldGraph, edges: list[int]) -> dict[str, int]:
    counts = dict.fromkeys(EVIDENCE_ORDER, 0)
    for edge in edges:
        counts[held.tier(edge)] += 1
    return counts


def _neighbours(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    """callers and callees: the edges in, or out, breadth first up to --depth."""
    start = tiered_target(held, request, budget, result)
    if start is None:
        return
    incoming = request.question == "callers"
    lists = held.incoming if incoming else held.outgoing
    far_end = held.graph.sources if incoming else held.graph.targets
    depth_limit = request.depth or DEFAULT_DEPTH[request.question]
    tiers = set(request.tiers)
    seen = {start}
    frontier = [start]
    following: list[int] = []
    position = 0
    items: list[tuple[int, int, str, int]] = []
    try:
        for depth in range(1, depth_limit + 1):
            following = []
            position = 0
            for number in frontier:
                for edge in lists[number]:
                    budget.tick()
                    if held.tier(edge) not in tiers:
                        continue
                    other = far_end[edge]
                    items.append((depth, held.graph.ranks[edge], held.graph.ids[other], edge))
                    if other not in seen:
                        seen.add(other)
                        following.append(other)
                position += 1
            frontier = following
            if not frontier:
                break
        else:
            result.depth_cut = any(
                held.tier(edge) in tiers for number in frontier for edge in lists[number]
            )
    except BudgetSpent:
        # The symbol being read when the time ran out, those after it, and what they found.
        stopped = frontier[position:] + following if frontier is not following else frontier
        result.unexpanded = sorted({held.graph.ids[number] for number in stopped})
        raise
    finally:
        items.sort(key=lambda item: item[:3])
        result.items = [held.edge_item(edge, depth) for depth, _, _, edge in items]
    if incoming:
        floor_for_callers(held, request.tiers, result)
    else:
        mode = mode_of(request.tiers)
        unresolved = sum(held.graph.unresolved.get(number, {}).get(mode, 0) for number in seen)
        if unresolved:
            result.floor = True
            result.reasons.append(
                f"unresolved-calls: {unresolved} call(s) of the walked symbols could not be "
                "linked to a project declaration"
            )


def _impact(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    found = target_reached_by(held, request, budget, result, DEFAULT_DEPTH["impact"])
    if found is None:
        return
    tiers = set(request.tiers)
    ids = held.graph.ids
    rows = sorted(
        (depth, EVIDENCE_ORDER.index(tier), ids[number], number, tier, via)
        for number, (depth, tier, via) in found.items()
        if tier in tiers
    )
    result.items = [
        {**held.symbol(number), "depth": depth, "tier": tier, "via": ids[via]}
        for depth, _, _, number, tier, via in rows
    ]
    floor_for_callers(held, request.tiers, result)


def _routes(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    labels = held.routes()
    graph = held.graph
    if request.target:
        start = tiered_target(held, request, budget, result)
        if start is None:
            return
        reach = reach_tiers(held, [start], budget, ROUTE_HOPS)
        reach[start] = (0, EVIDENCE_ORDER[0], start)
        floor_for_callers(held, request.tiers, result)
    else:
        reach = {number: (0, EVIDENCE_ORDER[0], number) for number in graph.entries}
    rows = []
    for number, (depth, tier, _) in reach.items():
        budget.tick()
        entries = graph.entries.get(number)
        if not entries or tier not in request.tiers:
            continue
        routes = labels.get(graph.ids[number], ())
        if request.text and not any(request.text in label for label in routes):
            continue
        rows.append((depth, graph.ids[number], number, tier, routes))
    rows.sort(key=lambda row: row[:2])
    # Depth and tier say how an entry reaches the target; a plain listing has neither.
    result.items = [
        {**held.symbol(number), "routes": list(routes)}
        | ({"depth": depth, "tier": tier} if request.target else {})
        for depth, _, number, tier, routes in rows
    ]


def _path(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    start = one_target(held, request.target or "", budget, result)
    if start is None:
        return
    if not request.to:
        raise Refused("bad-request", "path needs two targets: FROM and TO")
    end = one_target(held, request.to, budget, result)
    if end is None:
        return
    edges = request.edges or EDGE_KINDS
    unknown = [kind for kind in edges if kind not in EDGE_KINDS]
    if unknown:
        raise Refused(
            "unavailable",
            f"the graph holds no {', '.join(unknown)} edges; it holds {', '.join(EDGE_KINDS)}",
        )
    result.target = held.symbol(start)
    result.tiered = True
    result.extra["to"] = held.symbol(end)
    wanted, tiers = set(edges), set(request.tiers)
    depth_limit = request.depth or DEFAULT_DEPTH["path"]
    came: dict[int, int] = {start: -1}
    depth_of = {start: 0}
    queue = deque([start])
    while queue and end not in came:
        number = queue.popleft()
        if depth_of[number] == depth_limit:
            continue
        for edge in held.outgoing[number]:
            budget.tick()
            other = held.graph.targets[edge]
            if other in came or held.tier(edge) not in tiers:
                continue
            if not wanted.intersection(held.graph.edge_kinds[edge]):
                continue
            came[other] = edge
            depth_of[other] = depth_of[number] + 1
            queue.append(other)
    if end not in came:
        result.floor = True
        result.reasons.extend(held.gap_lines(mode_of(request.tiers)))
        return
    chain = []
    number = end
    while came[number] != -1:
        chain.append(came[number])
        number = held.graph.sources[came[number]]
    chain.reverse()
    result.items = [held.edge_item(edge, depth + 1) for depth, edge in enumerate(chain)]


def _outline(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    wanted = (request.target or "").strip("/")
    rows = []
    graph = held.graph
    for number, node_id in enumerate(graph.ids):
        budget.tick()
        path = node_id.partition("#")[0]
        if not graph.is_node(number) or not (
            path == wanted or wanted in ("", ".") or path.startswith(wanted + "/")
        ):
            continue
        location = held.location(number)
        rows.append((path, location.get("line") or 0, location.get("column") or 0, node_id, number))
    if not rows:
        raise Refused("unknown-file", f"the graph holds no declaration in {wanted}")
    rows.sort()
    result.items = [held.symbol(row[-1]) for row in rows]


def _package_of(root: Path, path: str, known: dict[str, str]) -> str:
    """The nearest folder above a file that holds a package.json ("" for the root)."""
    folder = os.path.dirname(path)
    walked = []
    while True:
        if folder in known:
            found = known[folder]
            break
        walked.append(folder)
        if folder == "" or (root / folder / "package.json").is_file():
            found = folder
            break
        folder = os.path.dirname(folder)
    for step in walked:
        known[step] = found
    return found


def _package_name(root: Path, folder: str) -> str | None:
    manifest = root / folder / "package.json"
    try:
        if manifest.is_symlink() or manifest.stat().st_size > MAX_PACKAGE_JSON:
            return None
        value = orjson.loads(manifest.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    name = value.get("name") if isinstance(value, dict) else None
    return name if isinstance(name, str) else None


def _packages_by_file(held: HeldGraph, budget: Budget) -> dict[str, str]:
    if held.root is None:
        raise Refused("unavailable", "this graph was not built from a folder; packages need one")
    known: dict[str, str] = {}
    by_file: dict[str, str] = {}
    for node_id in held.graph.ids:
        budget.tick()
        path = node_id.partition("#")[0]
        if path not in by_file:
            by_file[path] = _package_of(held.root, path, known)
    return by_file


def _packages(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    by_file = _packages_by_file(held, budget)
    root = held.root
    assert root is not None
    rows: dict[str, dict[str, Any]] = {}
    for folder in (by_file[path] for path in sorted(by_file)):
        row = rows.setdefault(
            folder,
            {
                "folder": folder or ".",
                "name": _package_name(root, folder),
                "files": 0,
                "symbols": 0,
                "edgesOut": 0,
                "uses": set(),
            },
        )
        row["files"] += 1
    graph = held.graph
    for number, node_id in enumerate(graph.ids):
        budget.tick()
        if graph.is_node(number):
            rows[by_file[node_id.partition("#")[0]]]["symbols"] += 1
    for source, target in zip(graph.sources, graph.targets, strict=True):
        budget.tick()
        here = by_file[graph.ids[source].partition("#")[0]]
        there = by_file[graph.ids[target].partition("#")[0]]
        if here != there:
            rows[here]["edgesOut"] += 1
            rows[here]["uses"].add(there or ".")
    result.items = [{**row, "uses": sorted(row["uses"])} for _, row in sorted(rows.items())]


def _cycles(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    """Rings of files (or packages) whose code uses each other, by any edge but contains."""
    if request.level not in ("files", "packages"):
        raise Refused("bad-request", "cycles --level takes files or packages")
    graph = held.graph
    if request.level == "packages":
        by_file = _packages_by_file(held, budget)
        unit_of = [by_file[node_id.partition("#")[0]] or "." for node_id in graph.ids]
    else:
        unit_of = [node_id.partition("#")[0] for node_id in graph.ids]
    tiers = set(request.tiers)
    successors: dict[str, set[str]] = {}
    for edge, (source, target) in enumerate(zip(graph.sources, graph.targets, strict=True)):
        budget.tick()
        here, there = unit_of[source], unit_of[target]
        if here != there and held.tier(edge) in tiers:
            successors.setdefault(here, set()).add(there)
            successors.setdefault(there, set())
    components = _strong_components(successors, budget)
    rings = sorted(sorted(members) for members in components if len(members) > 1)
    rings.sort(key=lambda members: (-len(members), members))
    result.items = [{"members": members, "size": len(members)} for members in rings]


def _strong_components(successors: dict[str, set[str]], budget: Budget) -> list[list[str]]:
    """Tarjan's algorithm without recursion."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(successors):
        if root in order:
            continue
        work = [(root, iter(sorted(successors[root])))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                budget.tick()
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(successors[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], order[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == order[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                found.append(members)
    return found


def _unknowns(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    graph = held.graph
    mode = mode_of(request.tiers)
    name = request.target
    rows = []
    for number, counts in graph.unresolved.items():
        budget.tick()
        node_id = graph.ids[number]
        if request.file is not None and node_id.partition("#")[0] != request.file:
            continue
        if name is not None and not (
            declaration_name(node_id) == name or declaration_name(node_id).endswith("." + name)
        ):
            continue
        if counts.get(mode):
            rows.append((node_id, number, counts))
    rows.sort()
    result.items = [
        {**held.symbol(number), "unresolvedCalls": dict(sorted(counts.items()))}
        for _, number, counts in rows
    ]
    result.reasons = held.gap_lines(mode)
    result.floor = bool(result.reasons)
    result.extra["causes"] = causes(result.reasons)


def _explain(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    parsed = parse_edge_id(request.target or "")
    if parsed is None:
        raise Refused("bad-request", "explain takes an edge id (e.…) as an answer prints it")
    source, target, tier = parsed
    graph = held.graph
    number = graph.index.get(source)
    if number is None:
        raise Refused("unknown-edge", "this build holds no such edge (its caller is not a symbol)")
    for edge in held.outgoing[number]:
        budget.tick()
        if graph.ids[graph.targets[edge]] == target and held.tier(edge) == tier:
            result.items = [held.edge_item(edge, 1)]
            result.tiered = True
            result.target = held.symbol(number)
            return
    raise Refused("unknown-edge", "this build holds no such edge; ask the question again")


_QUESTIONS = {
    "status": _status,
    "capabilities": _capabilities,
    "search": _search,
    "symbol": _symbol,
    "callers": _neighbours,
    "callees": _neighbours,
    "routes": _routes,
    "path": _path,
    "impact": _impact,
    "outline": _outline,
    "packages": _packages,
    "cycles": _cycles,
    "unknowns": _unknowns,
    "explain": _explain,
    "implementers": relation_questions.implementers,
    "references": relation_questions.references,
    "tests": relation_questions.tests,
    "importers": relation_questions.importers,
}
