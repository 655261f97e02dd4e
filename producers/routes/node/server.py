"""The server side of `tsograph routes`: which scans a project gets, merged into one result.

Next.js is scanned when `next` is declared, a next.config.* exists, or no
Node backend framework is detected; Node backends when the root package.json
declares one. A project with both gets one mixed document: registration-order
when a first-match router is present, with `order` only on those facts.
React Router and Remix route modules are not scanned; `react_router` counts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes import nextjs
from tsograph.producers.routes import react_router
from tsograph.producers.routes.next_scan import Scan as NextScan
from tsograph.producers.routes.node.backend_scan import scan_backends
from tsograph.producers.routes.node.detect import FRAMEWORK_PACKAGES
from tsograph.producers.routes.node.detect import detect
from tsograph.producers.routes.route_scan import RouteScan


@dataclass
class ServerScan(RouteScan):
    dispatch: str = "specificity"


def scan_server(model: ProjectModel, service: str | None) -> ServerScan:
    # One model for the Next.js and the Node backend scans: one walk, one resolver.
    detection = detect(model)
    backends = any(name in detection.dependencies for name in (*FRAMEWORK_PACKAGES, "koa"))
    probe = NextScan()
    deps = nextjs.read_package(model, probe)
    result = ServerScan()
    if nextjs.is_nextjs(model.root, deps):
        found = nextjs.scan_project(model, service)
        result.facts.extend(found.facts)
        result.limitations.extend(found.limitations)
        result.scopes.extend(found.scopes)
        result.read.extend(found.read)
    if backends:
        node = scan_backends(model, detection, service)
        result.facts.extend(node.facts)
        result.limitations.extend(node.limitations)
        result.scopes.extend(node.scopes)
        result.read.extend(node.read)
        if node.first_match:
            result.dispatch = "registration-order"
    result.limitations.extend(filter(None, [react_router.limitation(model)]))
    configs = model.config_limitation()
    if configs is not None:
        result.limitations.append(configs)
    return result
