"""The diagram of a trace: each route's handler, the paths it takes to the tables and services.

Input: the trace report (tsograph-trace v1, producers/check/trace.py) and the
reach traversal it was joined with (a language-traversal document's `roots`,
`reached` and `truncationReasons`). Nodes:

* one root per handler, with `METHOD /path` of every route it serves (a route
  with no handler id is a root of its own, named so);
* the reached symbols that use a table or call a service, and the symbols on
  their shortest path back to a handler (each reached symbol's `via`); the
  other reached symbols lead to nothing the trace reports and are only
  counted on the final node;
* one node per table (its columns under its name) and per service request.

Edges: `via` -> symbol for each drawn symbol, and symbol -> table or service
for each use. The traversal document holds no per-edge tier, so an edge is
styled by the evidence with which the route reaches its target: the reach
document's per-symbol lower bound (a handler's own uses are direct). That is
the tier trace reports for the tables and calls, never stronger than the
truth. With several routes, a symbol is drawn once, on its path from the
nearest handler: another handler that reaches it too is not linked to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from tsograph.producers.check.trace import reached_per_root
from tsograph.producers.diagrams.cut import cut
from tsograph.producers.diagrams.labels import short_name
from tsograph.producers.diagrams.model import Diagram
from tsograph.producers.diagrams.model import DiagramEdge
from tsograph.producers.diagrams.model import DiagramNode

# Keys of non-symbol nodes start with a character no symbol id holds (ids are
# printable), so a table named like a symbol is still its own node.
_TABLE, _CALL, _ROUTE = "\x00table:", "\x00call:", "\x00route:"


def _place(location: Mapping[str, Any] | None) -> str | None:
    return f"{location['path']}:{location['line']}" if location is not None else None


def trace_diagram(
    report: Mapping[str, Any], traversal: Mapping[str, Any], *, max_nodes: int
) -> Diagram:
    routes: Sequence[Mapping[str, Any]] = report["routes"]
    reached = {item["symbol"]["usr"]: item for item in traversal["reached"]}
    handlers = _handlers(routes)
    evidence = {key: "direct" for key in handlers}
    evidence.update((usr, item["evidence"]) for usr, item in reached.items() if usr not in handlers)

    users: dict[str, set[str]] = {}  # table or request key -> the symbols that use it
    targets: dict[str, DiagramNode] = {}
    for route in routes:
        for table in route["tables"]:
            key = _TABLE + table["channel"]
            columns = ("columns: " + ", ".join(table["columns"]),) if table["columns"] else ()
            targets.setdefault(
                key, DiagramNode(key, table["channel"], None, 0, table=True, details=columns)
            )
            users.setdefault(key, set()).update(table["symbols"])
        for call in route["calls"]:
            service = call.get("service", "")
            key = f"{_CALL}{service} {call['method']} {call['channel']}"
            where = (service,) if service else ()
            name = f"{call['method']} {call['channel']}"
            targets.setdefault(key, DiagramNode(key, name, None, 0, service=True, details=where))
            users.setdefault(key, set()).update(call["symbols"])

    on_paths = _on_paths({usr for used in users.values() for usr in used}, reached, handlers)
    symbols = [
        DiagramNode(
            key=usr,
            name=short_name(usr),
            place=_place(reached[usr]["symbol"].get("location")),
            depth=reached[usr]["depth"],
            entries=tuple(reached[usr]["symbol"].get("entries", ())),
        )
        for usr in sorted(on_paths, key=lambda usr: (reached[usr]["depth"], usr))
    ]
    depth = {node.key: node.depth for node in symbols} | dict.fromkeys(handlers, 0)
    ends = [
        DiagramNode(
            key=node.key,
            name=node.name,
            place=None,
            depth=1 + min(depth[usr] for usr in users[node.key] if usr in depth),
            table=node.table,
            service=node.service,
            details=node.details,
        )
        for node in sorted(targets.values(), key=lambda node: (not node.table, node.key))
        if any(usr in depth for usr in users[node.key])
    ]
    edges = [*_via_edges(on_paths, reached, evidence)]
    edges += [
        DiagramEdge(usr, key, evidence[usr])
        for key, used in sorted(users.items())
        for usr in sorted(used)
        if usr in depth
    ]
    off_paths = len(reached) - len(on_paths)
    return cut(
        [*handlers.values(), *symbols, *ends],
        edges,
        max_nodes,
        _incomplete(traversal, off_paths),
        not_given=off_paths,
    )


def _handlers(routes: Sequence[Mapping[str, Any]]) -> dict[str, DiagramNode]:
    """One root per handler id, in report order, with the routes it serves."""
    served: dict[str, list[str]] = {}
    first: dict[str, Mapping[str, Any]] = {}
    for number, route in enumerate(routes):
        key = route.get("usr", f"{_ROUTE}{number}")
        served.setdefault(key, []).append(f"{route['method']} {route['channel']}")
        first.setdefault(key, route)
    return {
        key: DiagramNode(
            key=key,
            name=short_name(key) if not key.startswith(_ROUTE) else "(no symbol id)",
            place=_place(first[key]["location"]),
            depth=0,
            root=True,
            routes=tuple(dict.fromkeys(served[key])),
        )
        for key in served
    }


def _on_paths(
    wanted: set[str], reached: Mapping[str, Mapping[str, Any]], handlers: Mapping[str, Any]
) -> set[str]:
    """The reached symbols among `wanted`, and every symbol on their `via` chains."""
    kept: set[str] = set()
    for usr in sorted(wanted):
        # A via is one level nearer a root, so each chain ends.
        while usr in reached and usr not in handlers and usr not in kept:
            kept.add(usr)
            usr = reached[usr]["via"]
    return kept


def _via_edges(
    drawn: set[str], reached: Mapping[str, Mapping[str, Any]], evidence: Mapping[str, str]
) -> Iterator[DiagramEdge]:
    for usr in sorted(drawn):
        yield DiagramEdge(reached[usr]["via"], usr, evidence[usr])


def _incomplete(traversal: Mapping[str, Any], off_paths: int) -> list[str]:
    reasons = []
    if off_paths:
        reasons.append(f"{off_paths} reached symbol(s) lead to no table or service")
    cut_by = sorted(set(traversal.get("truncationReasons", ())))
    if cut_by:
        reasons.append("the traversal was cut (" + ", ".join(cut_by) + ")")
    unlinked = sum(1 for root in reached_per_root(traversal).values() if root.unresolved)
    if unlinked:
        reasons.append(
            f"{unlinked} handler(s) make calls that could not be linked; they may touch more"
        )
    return reasons
