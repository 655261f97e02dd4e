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

from tsograph.producers.graph.entries import route_decls


def route_labels(project: Path, project_rel: str) -> dict[str, tuple[str, ...]]:
    """Per graph id (relative to the source root): its routes, sorted."""
    found: dict[str, set[str]] = {}
    for fact in route_decls(project):
        usr = fact["symbol"].get("usr")
        if not usr:
            continue
        key = f"{project_rel}/{usr}" if project_rel else usr
        # A base-anchored path hangs under a prefix the routes producer could not fix.
        path = fact["channel"] if fact["pathAnchor"] == "root" else "…" + fact["channel"]
        suffix = " (partly computed)" if fact["dynamic"] else ""
        found.setdefault(key, set()).add(f"{fact['method']} {path}{suffix}")
    return {key: tuple(sorted(labels)) for key, labels in found.items()}
