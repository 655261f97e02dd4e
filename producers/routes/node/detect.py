"""Which Node backend frameworks a project uses, and which major version of each is proven.

The frameworks come from the root package.json dependencies. The major
version is read from the lockfile that the package manager would install
from (package-lock.json, pnpm-lock.yaml, yarn.lock, bun.lock, first found in
that order; for a service run without its own, the workspace root's, at the
package's importer, so `catalog:` ranges resolve there too), else from a
declared range that admits a single major (`^N`, `~N`, `N.x` or an exact
version prove major N). An unproven major leaves the
newest rules in use, and the scan says so with `route-framework-version-unknown:`;
a proven major outside `VERIFIED_MAJORS` gets none of the rules (another major's
rules would be a guess) and the scan names it under `route-coverage:`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.lockfiles import ROOT_LOCKFILES
from tsograph.producers.project.lockfiles import read_lockfile
from tsograph.producers.project.lockfiles import root_versions
from tsograph.producers.project.model import ProjectModel

# Package name → the framework it stands for; @koa/router is the router that makes Koa routes.
FRAMEWORK_PACKAGES = ("hono", "express", "fastify", "@koa/router", "@nestjs/core")
# The package whose major decides the path syntax of NestJS routes (Nest on Express).
NEST_PLATFORMS = ("@nestjs/platform-express", "@nestjs/platform-fastify")
# The majors each rule table models, checked against the versions in the package comments.
VERIFIED_MAJORS = {
    "hono": (4,),
    "express": (4, 5),
    "fastify": (4, 5),
    "@koa/router": (12, 13, 14, 15),
    # NestJS 7 to 9: the nest7-app, nest8-app and nest9-app fixtures' oracle recordings
    # (@nestjs/core 7.6.18, 8.4.7 and 9.4.3 on Express 4).
    "@nestjs/core": (7, 8, 9, 10, 11, 12),
    "@nestjs/platform-express": (7, 8, 9, 10, 11, 12),
    "@nestjs/platform-fastify": (10, 11, 12),
}
# Packages that declare HTTP routes in a way the interpreter does not model (decorator
# controllers, other routers): their routes are missing, which the scan must say.
UNMODELED_SERVER_PACKAGES = (
    "inversify-express-utils",
    "routing-controllers",
    "koa-router",  # the unscoped predecessor of @koa/router
    "koa-swagger-decorator",
    "@hapi/hapi",
    "restify",
)

# Exact, caret, tilde and x-ranges admit one major; `>=4`, `*` and unions do not.
_SINGLE_MAJOR = re.compile(r"^\s*[\^~=]?\s*v?(\d+)(?:\.(?:\d+|x|\*)){0,2}(?:-[0-9A-Za-z.-]+)?\s*$")
_VERSION = re.compile(r"^v?(\d+)\.\d+\.\d+")


@dataclass(frozen=True, slots=True)
class Framework:
    package: str
    declared: str
    major: int | None  # None: not proven by the lockfile or the range
    source: str  # the lockfile name, "range", or "" when unproven


@dataclass
class Detection:
    frameworks: dict[str, Framework]
    dependencies: dict[str, str]
    package_problem: str | None = None  # why package.json could not be read
    lockfile_problem: str | None = None

    def major(self, package: str) -> int | None:
        found = self.frameworks.get(package)
        return None if found is None else found.major

    def unmodeled(self) -> list[str]:
        """Declared packages whose routes the scan cannot see."""
        return [name for name in UNMODELED_SERVER_PACKAGES if name in self.dependencies]

    def unproven(self) -> list[str]:
        """Framework packages whose major neither the lockfile nor the declared range proves."""
        return [name for name, found in sorted(self.frameworks.items()) if found.major is None]

    def unmodeled_majors(self) -> list[tuple[str, int]]:
        """Framework packages on a proven major no rule table models: (package, major)."""
        return [
            (name, found.major)
            for name, found in sorted(self.frameworks.items())
            if found.major is not None and found.major not in VERIFIED_MAJORS.get(name, ())
        ]


def detect(
    model: ProjectModel, packages: tuple[str, ...] = (*FRAMEWORK_PACKAGES, *NEST_PLATFORMS)
) -> Detection:
    """Majors of the framework `packages` the root package.json (the model's one reader)
    declares, from the lockfile or the range."""
    root = model.root
    declared_in = model.root_package
    deps, problem = declared_in.dependencies, declared_in.problem
    wanted = [name for name in packages if name in deps]
    locked: dict[str, str] = {}
    lock_name = ""
    lock_problem = None
    importer = "."
    data: bytes | None = None
    for name in ROOT_LOCKFILES:
        try:
            data = read_lockfile(root, name)
        except ConfigReadError as error:
            lock_problem = f"{name} could not be read ({error.reason})"
            break
        if data is not None:
            lock_name = name
            break
    if data is None and lock_problem is None and model.enclosing is not None:
        # A service run: the workspace root's lockfile, keyed by the package's folder.
        lock_name, importer, data, lock_problem = model.enclosing.lockfile()
    if data is not None:
        locked = root_versions(lock_name, data, {pkg: deps[pkg] for pkg in wanted}, importer)
    frameworks: dict[str, Framework] = {}
    for package in wanted:
        declared = deps[package]
        version = locked.get(package)
        if version is not None:
            match = _VERSION.match(version)
            major = int(match.group(1)) if match else None
            frameworks[package] = Framework(package, declared, major, lock_name if match else "")
            continue
        frameworks[package] = _from_range(package, declared)
    return Detection(frameworks, deps, problem, lock_problem)


def _from_range(package: str, declared: str) -> Framework:
    match = _SINGLE_MAJOR.match(declared)
    if match:
        return Framework(package, declared, int(match.group(1)), "range")
    return Framework(package, declared, None, "")
