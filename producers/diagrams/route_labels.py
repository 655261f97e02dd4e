"""`METHOD /path` of the route handlers a diagram draws.

The graph marks a route handler only with its kind (`route-handler`); the
method and path come from the same route-decl facts that marked it
(entries.route_decls, what `tsograph routes --role server` declares). They are
read only for a diagram that draws a handler and only with `--project`: a
saved snapshot does not hold them, and the node then says `entry:
route-handler` without a path.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    from tsograph.producers.routes.node.server import ServerScan


def _server_scan(project: Path) -> ServerScan:
    # What entries.route_decls reads: production sources, every service; the scan of the
    # folder's last graph build when this process made one (a refreshed build's labels
    # are its own), so a review's labels, unhandled routes and gaps share one read.
    # Imported here: the route scanners load only for a diagram that draws handlers,
    # not for every `reach` and `impact` (whose command imports this module).
    from tsograph.producers.graph.entries import server_scan

    return server_scan(project)


def _facts(project: Path) -> list[dict[str, Any]]:
    return _server_scan(project).facts


def route_gaps(project: Path) -> list[str]:
    """The routes scan's limitation lines (registrations it could not model, by file)."""
    return list(_server_scan(project).limitations)


def _label(fact: dict[str, Any]) -> str:
    # A base-anchored path hangs under a prefix the routes producer could not fix.
    path = fact["channel"] if fact["pathAnchor"] == "root" else "…" + fact["channel"]
    suffix = " (partly computed)" if fact["dynamic"] else ""
    return f"{fact['method']} {path}{suffix}"


def route_labels(project: Path, project_rel: str) -> dict[str, tuple[str, ...]]:
    """Per graph id (relative to the source root): its routes, sorted."""
    found: dict[str, set[str]] = {}
    for fact in _facts(project):
        usr = fact["symbol"].get("usr")
        if not usr:
            continue
        key = f"{project_rel}/{usr}" if project_rel else usr
        found.setdefault(key, set()).add(_label(fact))
    return {key: tuple(sorted(labels)) for key, labels in found.items()}


def unhandled_routes(project: Path, project_rel: str) -> list[tuple[str, str]]:
    """(label, file relative to the source root) of each route declared with no handler
    the graph holds (an inline or computed handler the routes producer names no id for)."""
    found = set()
    for fact in _facts(project):
        if fact["symbol"].get("usr"):
            continue
        path = fact["location"]["path"]
        found.add((_label(fact), f"{project_rel}/{path}" if project_rel else path))
    return sorted(found)
