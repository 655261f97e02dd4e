"""`routes --role server` for Node backends: detect, interpret, emit.

The result has the same shape as the Next.js scan (facts, limitation lines,
scopes, files read), so the command can merge both into one document.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tsograph.exchange.limitations import counted
from tsograph.producers import progress
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.routes.node.detect import NEST_PLATFORMS
from tsograph.producers.routes.node.detect import Detection
from tsograph.producers.routes.node.emit import Emitter
from tsograph.producers.routes.node.emit import Versions
from tsograph.producers.routes.node.emit import limitation_lines
from tsograph.producers.routes.node.interpreter import Interpreter
from tsograph.producers.routes.node.nest_controllers import controllers
from tsograph.producers.routes.node.runtime_values import NestSetup
from tsograph.producers.routes.node.runtime_values import RouterValue
from tsograph.producers.routes.node.runtime_values import Served
from tsograph.producers.routes.route_scan import RouteScan


@dataclass
class NodeScan(RouteScan):
    first_match: bool = False


def scan_backends(model: ProjectModel, detection: Detection, service: str | None) -> NodeScan:
    progress.phase("parsing sources", len(model.paths))
    interp = Interpreter(model)
    if "fastify" in detection.frameworks:
        interp.plugin_framework = "fastify"
    interp.run_all()
    platform = detection.major("@nestjs/platform-express")
    versions = Versions(
        detection.major("express"),
        detection.major("@koa/router"),
        # @nestjs/platform-express 11+ depends on Express 5 (12.5.1 brings 5.3.0).
        None if platform is None else (4 if platform <= 10 else 5),
        detection.major("fastify"),
    )
    tests = {path for path in model.paths if is_test_source(path)}
    unmodeled = detection.unmodeled_majors()
    skipped = frozenset(
        framework for package, _ in unmodeled for framework in ROUTER_FRAMEWORKS.get(package, ())
    )
    emitter = Emitter(versions, service, tests, skipped)
    for router in interp.routers:
        if router.nest is not None:
            if router.nest.preview:
                continue
            if any(package in NEST_PACKAGES for package, _ in unmodeled):
                emitter.out.skipped += 1  # the application: none of its routes are read
                continue
            _nest(interp, emitter, router.nest, detection)
            for entry in router.entries:
                if isinstance(entry, Served) and entry.kind != "open":
                    emitter.package_served(router, entry)
                else:
                    # A project function or router given to the application's `use`.
                    interp.note("nest-application-middleware", entry.place)
        elif not router.mounted:
            # An app nothing mounts receives requests at the root, unless code the
            # interpreter cannot see mounts it somewhere.
            emitter.group(router, anchored=router.kind == "app" and not router.mounted_unknown)
        elif router.mounted_unknown:
            emitter.group(router, anchored=False)
    emitter.finish()
    out = emitter.out
    lines, scopes = limitation_lines(out)
    coverage: Counter[str] = Counter(interp.coverage)
    coverage.update(out.coverage)
    sources = model.sources
    if sources.symlinks:
        coverage["symbolic-link-not-followed"] += sources.symlinks
    if sources.oversized:
        coverage["oversized-file"] += sources.oversized
    for reason, count in {**sources.unreadable, **model.unreadable}.items():
        coverage[f"unreadable-{reason}"] += count
    for reason, count in sources.truncated.items():
        coverage[f"scan-cap-{reason}"] += count
    if model.syntax_errors:
        coverage["syntax-errors"] += len(model.syntax_errors)
    if "@nestjs/core" in detection.frameworks and not any(r.nest for r in interp.routers):
        coverage["nestjs-application-not-found"] += 1
    if interp.out_of_budget:
        coverage["interpreter-step-budget"] += 1
    other_frameworks = detection.unmodeled()
    if other_frameworks:
        coverage["unmodeled-server-framework"] += len(other_frameworks)
    if coverage:
        lines.append(
            counted(
                "route-coverage:",
                sum(coverage.values()),
                "registration(s) or file(s) could not be fully modeled",
                breakdown=coverage,
                names=model.syntax_errors | set(other_frameworks),
                places=interp.coverage_places,
            )
        )
    if unmodeled:
        lines.append(
            counted(
                "route-coverage:",
                out.skipped,
                "registration(s) or application(s) of framework major version(s) no rule "
                "table models are not emitted",
                names=[f"{package}@{major}" for package, major in unmodeled],
            )
        )
    lines.extend(_version_lines(detection))
    return NodeScan(out.facts, lines, scopes, list(model.read), out.first_match)


# Which routers each framework package's rules decide (Koa apps themselves are Koa's).
ROUTER_FRAMEWORKS = {
    "express": ("express",),
    "hono": ("hono",),
    "fastify": ("fastify",),
    "@koa/router": ("koa",),
}
NEST_PACKAGES = ("@nestjs/core", *NEST_PLATFORMS)


def _nest(interp: Interpreter, emitter: Emitter, nest: NestSetup, detection: Detection) -> None:
    on_fastify = "@nestjs/platform-fastify" in detection.frameworks and (
        "@nestjs/platform-express" not in detection.frameworks
    )
    framework = "nest-express"
    if on_fastify:
        framework = "nest-fastify"
    elif nest.specificity:
        framework = "nest-sorted"  # routeResolutionStrategy: "specificity"
    home = RouterValue(framework, "app", "", "")
    # Nest on Express registers on the app's own router: Express defaults apply.
    home.strict = on_fastify
    home.case_sensitive = on_fastify
    for controller in controllers(interp, nest):
        emitter.controller(controller.name, controller.routes, home, nest.global_prefix is not None)


def _version_lines(detection: Detection) -> list[str]:
    lines = []
    if detection.package_problem is not None:
        lines.append(counted("route-framework-version-unknown:", 1, detection.package_problem))
    if detection.lockfile_problem is not None:
        lines.append(
            counted(
                "route-framework-version-unknown:",
                1,
                f"{detection.lockfile_problem}; majors taken from the declared ranges",
            )
        )
    unproven = detection.unproven()
    if unproven:
        lines.append(
            counted(
                "route-framework-version-unknown:",
                len(unproven),
                "framework major version(s) not proven by the lockfile or the declared range; "
                "the newest verified rules are used",
                names=unproven,
            )
        )
    return lines
