"""The services of a monorepo root: the workspace packages a per-service command reads.

A workspace root (npm/yarn `workspaces`, `pnpm-workspace.yaml`) is usually no
service itself: the apps under it are. `routes` and `schema` write one
document per service, so at such a root they first ask which packages are
services for them. A package is one when its own package.json declares what
the command reads (a server framework for `routes --role server`, a framework
or an HTTP client library for `--role client`, a framework or a database
package for `schema`) or, for the route commands, when it holds a Next.js
config file. A root whose own package.json declares such a package is a
service itself and is read as one project, as before workspaces were looked at.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tsograph.producers.project import paths
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.packages import PackageInfo
from tsograph.producers.project.packages import load_workspace
from tsograph.producers.routes.client.client_libraries import HEY_API_PACKAGE
from tsograph.producers.routes.next_config import CONFIG_FILES
from tsograph.producers.routes.node.detect import FRAMEWORK_PACKAGES
from tsograph.producers.schema.orm.packages import SUPPORTED

# What `routes --role server` reads: its Node backends, Koa's own package, and Next.js.
SERVER_PACKAGES = ("next", "koa", *FRAMEWORK_PACKAGES)
# The HTTP client libraries `routes --role client` reads besides the global fetch, and
# the SDK generator whose output it reads.
CLIENT_PACKAGES = ("axios", "ky", HEY_API_PACKAGE)
# The packages whose import turns the schema collectors on, and Prisma's.
DATABASE_PACKAGES = ("prisma", "@prisma/client", *SUPPORTED)

# Which declared packages make a package a service, per command.
SERVICE_PACKAGES = {
    "server": SERVER_PACKAGES,
    "client": (*SERVER_PACKAGES, *CLIENT_PACKAGES),
    "schema": (*SERVER_PACKAGES, *DATABASE_PACKAGES),
}


@dataclass(frozen=True)
class Service:
    folder: str  # relative to the root, POSIX
    name: str | None  # the package name, when its package.json gives one

    @property
    def file_stem(self) -> str:
        """The document's file name without extension: the package name with `@`
        dropped and `/` spelled `__` (`@acme/web` → `acme__web`), else the folder
        with `/` spelled `__`."""
        text = self.name.lstrip("@") if self.name else self.folder
        return text.replace("/", "__")


def _has_next_config(root: Path, folder: str) -> bool:
    for name in CONFIG_FILES:
        try:
            if read_config(root, paths.join(folder, name)) is not None:
                return True
        except ConfigReadError:
            return True  # present, even though it cannot be read
    return False


def _is_service(root: Path, package: PackageInfo, kind: str) -> bool:
    if any(name in package.dependencies for name in SERVICE_PACKAGES[kind]):
        return True
    return kind != "schema" and _has_next_config(root, package.directory)


def find_services(root: Path, kind: str) -> list[Service] | None:
    """The service packages under a workspace root, in folder order; None when the
    root is one project (no workspace packages, or the root is a service itself)."""
    workspace = load_workspace(root)
    top = workspace.by_directory.get("")
    members = [package for folder, package in workspace.by_directory.items() if folder]
    if not members or (top is not None and _is_service(root, top, kind)):
        return None
    return [
        Service(package.directory, package.name)
        for package in sorted(members, key=lambda package: package.directory)
        if package.readable and _is_service(root, package, kind)
    ]
