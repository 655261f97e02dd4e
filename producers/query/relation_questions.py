"""The questions the graph's relations answer: implementers, references, tests, importers.

They read the relations a build keeps beside its call edges (extends,
implements, overrides, imports, uses as a type) and the edges' call sites.
A relation is proven by the same binding as a call; each item says its tier,
and each answer says what the graph cannot see as a floor with its reasons.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.graph.model import Relation
from tsograph.producers.project.test_sources import is_python_test_name
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.held import declaration_name
from tsograph.producers.query.held import relation_site
from tsograph.producers.query.held import short_name
from tsograph.producers.query.reach import target_reached_by
from tsograph.producers.query.request import Refused
from tsograph.producers.query.request import Request
from tsograph.producers.query.request import Result
from tsograph.producers.query.request import floor_for_callers
from tsograph.producers.query.request import one_target
from tsograph.producers.query.targets import find

INHERITS = ("extends", "implements")
VALUE_USES = frozenset({"reference", "callback"})
STRUCTURAL = (
    "unsupported-rule: a TypeScript interface is answered by any object of its shape; "
    "one that does not declare implements is not listed"
)
PROTOCOLS = (
    "unsupported-rule: a class that matches a typing.Protocol by its members without "
    "naming it as a base is not listed"
)


def _tier(relation: Relation) -> str:
    return relation.evidence


def target_id(held: HeldGraph, request: Request, budget: Budget, result: Result) -> str | None:
    """The id a target names: a node, or an interface or type alias the build declares."""
    text = request.target or ""
    found = find(held, text, budget, request.file)
    if found.numbers:
        number = one_target(held, text, budget, result, request.file)
        return None if number is None else held.graph.ids[number]
    if text in held.types:
        return text
    named = sorted(
        type_id
        for type_id in held.types
        if (declaration_name(type_id) == text or declaration_name(type_id).endswith("." + text))
        and (request.file is None or type_id.partition("#")[0] == request.file)
    )
    if len(named) > 1:
        result.candidates = [held.type_symbol(type_id) for type_id in named]
        return None
    if named:
        return named[0]
    raise Refused("unknown-symbol", found.reason)


def implementers(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    """What extends or implements a class or interface, or overrides a method, transitively.

    `Interface.member` (an interface is no node) lists the member of that name
    in each class that implements the interface, its own or inherited.
    """
    text = request.target or ""
    member = None
    if not find(held, text, budget, request.file).numbers and "." in text:
        owner, _, name = text.rpartition(".")
        if owner in held.types or any(declaration_name(type_id) == owner for type_id in held.types):
            request = Request(request.question, target=owner, file=request.file)
            member = name
    start = target_id(held, request, budget, result)
    if start is None:
        return
    result.target = held.any_symbol(start)
    result.tiered = True
    depth_limit = request.depth or 8
    kinds = ("overrides",) if _is_member(held, start) else INHERITS
    rows: list[tuple[int, str, dict[str, Any]]] = []
    depth_of = {start: 0}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        depth = depth_of[current]
        if depth == depth_limit:
            result.depth_cut = result.depth_cut or any(
                relation.kind in kinds for relation in held.relations_in.get(current, ())
            )
            continue
        for relation in held.relations_in.get(current, ()):
            budget.tick()
            if relation.kind not in kinds or relation.source in depth_of:
                continue
            depth_of[relation.source] = depth + 1
            queue.append(relation.source)
            item = {
                **held.any_symbol(relation.source),
                "relation": relation.kind,
                "depth": depth + 1,
                "via": current,
                "tier": _tier(relation),
                "site": relation_site(relation),
            }
            rows.append((depth + 1, relation.source, item))
    rows.sort(key=lambda row: row[:2])
    if member is not None:
        result.extra["member"] = member
        result.items = []
        for _, class_id, item in rows:
            found = _member(held, class_id, member, budget)
            if found is not None:
                result.items.append({**held.symbol(found), **_keep(item), "class": class_id})
    else:
        result.items = [item for _, _, item in rows]
    if held.platform == "python":
        # Any class may be a typing.Protocol, which a class can match without naming it.
        if not _is_member(held, start):
            result.reasons.append(PROTOCOLS)
    elif start in held.types:
        result.reasons.append(STRUCTURAL)
    result.reasons.extend(line for line in held.gap_lines("direct") if "dynamic-base" in line)
    result.floor = bool(result.reasons)


def _keep(item: dict[str, Any]) -> dict[str, Any]:
    return {key: item[key] for key in ("relation", "depth", "via", "tier", "site")}


def _is_member(held: HeldGraph, symbol_id: str) -> bool:
    number = held.graph.index.get(symbol_id)
    if number is None or not held.graph.is_node(number):
        return False
    return held.graph.kinds[number] in ("method", "accessor", "field", "constructor") or any(
        relation.kind == "overrides" for relation in held.relations_out.get(symbol_id, ())
    )


def _member(held: HeldGraph, class_id: str, name: str, budget: Budget) -> int | None:
    """The member `name` of a class: its own, else the nearest base's (by extends)."""
    current: str | None = class_id
    seen: set[str] = set()
    while current is not None and current not in seen:
        budget.tick()
        seen.add(current)
        number = held.graph.index.get(current + "." + name)
        if number is not None and held.graph.is_node(number):
            return number
        current = next(
            (
                relation.target
                for relation in held.relations_out.get(current, ())
                if relation.kind == "extends"
            ),
            None,
        )
    return None


def references(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    """Where a symbol is used as a value (named, not called) or named as a type."""
    start = target_id(held, request, budget, result)
    if start is None:
        return
    result.target = held.any_symbol(start)
    result.tiered = True
    tiers = set(request.tiers)
    rows: list[tuple[Any, ...]] = []
    number = held.graph.index.get(start)
    if number is not None:
        for edge in held.incoming[number]:
            budget.tick()
            if not VALUE_USES.intersection(held.graph.edge_kinds[edge]):
                continue
            if held.tier(edge) not in tiers:
                continue
            item = held.edge_item(edge, 1)
            # Only the places where it is named, not called: a call of the same pair
            # shares the edge.
            item["sites"] = [site for site in item["sites"] if site["kind"] in VALUE_USES]
            item["site"] = item["sites"][0] if item["sites"] else None
            item["use"] = "value"
            rows.append(("value", item["from"], item["site"] and item["site"]["line"], item))
    for relation in held.relations_in.get(start, ()):
        budget.tick()
        if relation.kind != "type" or relation.evidence not in tiers:
            continue
        item = {
            "use": "type",
            "from": relation.source,
            "fromName": declaration_name(relation.source),
            "to": start,
            "tier": _tier(relation),
            "site": relation_site(relation),
        }
        rows.append(("type", relation.source, relation.site[1], item))
    rows.sort(key=lambda row: (row[0], row[1], row[2] or 0))
    result.items = [row[-1] for row in rows]
    floor_for_callers(held, request.tiers, result)


def is_test_file(path: str, platform: str) -> bool:
    """A test source: the project's rule for JavaScript; for Python a file a test runner
    collects (pytest's names, a Django app's tests.py)."""
    if platform != "python":
        return is_test_source(path)
    return is_python_test_name(path.rpartition("/")[2])


def _is_test(held: HeldGraph, number: int, path: str) -> bool:
    """A declaration a test runner runs: in JavaScript anything in a test source (tests are
    mostly inline callbacks of it/test); in Python a test function or method in a file a
    runner collects, as pytest and unittest collect them."""
    if not is_test_file(path, held.platform):
        return False
    if held.platform != "python":
        return True
    return held.graph.kinds[number] in ("function", "method") and short_name(
        held.graph.ids[number]
    ).startswith("test")


def tests(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    """The test functions that call the target, up to `depth` hops away (default 3)."""
    found = target_reached_by(held, request, budget, result, 3)
    if found is None:
        return
    tiers = set(request.tiers)
    graph = held.graph
    rows = []
    for number, (depth, tier, via) in found.items():
        budget.tick()
        path = graph.ids[number].partition("#")[0]
        if tier in tiers and graph.is_node(number) and _is_test(held, number, path):
            rows.append((depth, graph.ids[number], number, tier, via))
    rows.sort(key=lambda row: row[:2])
    result.items = [
        {**held.symbol(number), "depth": depth, "tier": tier, "via": graph.ids[via]}
        for depth, _, number, tier, via in rows
    ]
    floor_for_callers(held, request.tiers, result)


def importers(held: HeldGraph, request: Request, budget: Budget, result: Result) -> None:
    """The modules whose import or re-export statements name a file."""
    path = (request.target or "").strip("/")
    module = module_id(path)
    number = held.graph.index.get(module)
    if number is None or not held.graph.is_node(number):
        raise Refused("unknown-file", f"the graph holds no module {path}")
    result.target = held.symbol(number)
    result.tiered = True
    rows = []
    for relation in held.relations_in.get(module, ()):
        budget.tick()
        if relation.kind != "imports" or relation.evidence not in request.tiers:
            continue
        item = {
            "file": relation.source.partition("#")[0],
            "from": relation.source,
            "to": module,
            "tier": _tier(relation),
            "site": relation_site(relation),
        }
        rows.append((relation.site, item))
    rows.sort(key=lambda row: row[0])
    result.items = [item for _, item in rows]
    result.reasons = [
        line
        for line in held.gap_lines("direct")
        if line.startswith(("parse-errors:", "unreadable-sources:", "oversized-sources:"))
        or "unresolved-import" in line
    ]
    result.floor = bool(result.reasons)
