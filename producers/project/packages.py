"""package.json files, workspaces and package entry points.

Read statically and bounded: a package.json that is a symbolic link, too large
or not a JSON object is reported, never followed or guessed at. Workspaces come
from the root package.json (`workspaces` as a list or `{packages: [...]}`) and
from `pnpm-workspace.yaml`; their globs are expanded over real folders only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import orjson
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from tsograph.producers.project import paths
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.fsread import subfolders

DEPENDENCY_FIELDS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
# Fields that make a package's exports reachable by code outside the scan.
ENTRY_FIELDS = ("main", "module", "exports", "bin", "types", "typings", "browser")
SKIPPED_FOLDERS = frozenset({"node_modules", "dist", "build", "out", "coverage"})
MAX_WORKSPACE_DEPTH = 8
MAX_WORKSPACE_PACKAGES = 2000


@dataclass
class PackageInfo:
    directory: str
    name: str | None = None
    dependencies: dict[str, str] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)
    workspaces: tuple[str, ...] = ()
    readable: bool = True
    problem: str | None = None  # why it could not be read, as the route limitations word it

    @property
    def private(self) -> bool:
        """`"private": true`: the package cannot be published, only its workspace imports it.

        npm refuses to publish a package whose `private` is truthy
        (libnpmpublish@12.0.1, lib/publish.js); only the JSON value true is
        taken here.
        """
        return self.readable and self.fields.get("private") is True

    @property
    def has_entry_fields(self) -> bool:
        return not self.readable or any(key in self.fields for key in ENTRY_FIELDS)

    @property
    def opens_exports(self) -> bool:
        """True when code outside the scan may import the package's exports.

        A package that declares an entry (main, module, exports, …) can be
        installed and imported, unless it is private; an unreadable
        package.json may declare anything.
        """
        return self.has_entry_fields and not self.private


def read_package(root: Path, directory: str, notes: list[str]) -> PackageInfo | None:
    """The package.json of a folder, or None when there is none."""
    path = paths.join(directory, "package.json")
    try:
        data = read_config(root, path)
    except ConfigReadError as error:
        notes.append(f"{path} not read ({error.reason})")
        return PackageInfo(
            directory, readable=False, problem=f"{path} could not be read ({error.reason})"
        )
    if data is None:
        return None
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError:
        notes.append(f"{path} not read (not a JSON object)")
        return PackageInfo(directory, readable=False, problem=f"{path} is not valid JSON")
    if not isinstance(raw, dict):
        notes.append(f"{path} not read (not a JSON object)")
        return PackageInfo(directory, readable=False, problem=f"{path} is not a JSON object")
    dependencies: dict[str, str] = {}
    for key in DEPENDENCY_FIELDS:
        section = raw.get(key)
        if isinstance(section, dict):
            for name, version in section.items():
                if isinstance(name, str):
                    dependencies.setdefault(name, version if isinstance(version, str) else "")
    workspaces = raw.get("workspaces")
    if isinstance(workspaces, dict):
        workspaces = workspaces.get("packages")
    patterns = (
        tuple(p for p in workspaces if isinstance(p, str)) if isinstance(workspaces, list) else ()
    )
    name = raw.get("name") if isinstance(raw.get("name"), str) else None
    return PackageInfo(directory, name, dependencies, raw, patterns)


@dataclass(frozen=True)
class RootPackage:
    """The root package.json as the framework detections read it."""

    dependencies: dict[str, str]  # name → declared range; empty when absent or unreadable
    present: bool  # a package.json exists (readable or not)
    problem: str | None  # why it could not be read


def root_package(root: Path) -> RootPackage:
    """The root package.json through the one package.json reader (`read_package`)."""
    info = read_package(root, "", [])
    if info is None:
        return RootPackage({}, False, None)
    return RootPackage(info.dependencies, True, info.problem)


def pnpm_workspace_patterns(root: Path, directory: str, notes: list[str]) -> tuple[str, ...]:
    path = paths.join(directory, "pnpm-workspace.yaml")
    try:
        data = read_config(root, path)
    except ConfigReadError as error:
        notes.append(f"{path} not read ({error.reason})")
        return ()
    if data is None:
        return ()
    try:
        value = YAML(typ="safe", pure=False).load(data)
    except (YAMLError, ValueError, RecursionError):
        notes.append(f"{path} not read (not YAML)")
        return ()
    packages = value.get("packages") if isinstance(value, dict) else None
    if not isinstance(packages, list):
        return ()
    return tuple(p for p in packages if isinstance(p, str))


def _folder_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(paths.glob_regex(pattern))


def _real_subfolders(root: Path, directory: str) -> list[str]:
    return [
        paths.join(directory, name)
        for name in subfolders(root, directory)
        if not name.startswith(".") and name not in SKIPPED_FOLDERS
    ]


def expand_workspaces(root: Path, base: str, patterns: Iterable[str]) -> list[str]:
    """Folders under `base` matched by workspace globs (`!` patterns exclude)."""
    include = [_folder_regex(paths.join(base, p)) for p in patterns if not p.startswith("!")]
    exclude = [_folder_regex(paths.join(base, p[1:])) for p in patterns if p.startswith("!")]
    if not include:
        return []
    matched: list[str] = []
    pending = [(base, 0)]
    while pending and len(matched) < MAX_WORKSPACE_PACKAGES:
        folder, depth = pending.pop()
        for child in _real_subfolders(root, folder):
            if any(rx.fullmatch(child) for rx in include) and not any(
                rx.fullmatch(child) for rx in exclude
            ):
                matched.append(child)
            if depth + 1 < MAX_WORKSPACE_DEPTH:
                pending.append((child, depth + 1))
    return sorted(matched)


@dataclass
class Workspace:
    """The packages of a source root, by folder and by name."""

    by_directory: dict[str, PackageInfo] = field(default_factory=dict)
    by_name: dict[str, PackageInfo] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # pnpm when pnpm-workspace.yaml lists the packages; npm and yarn link alike.
    manager: str = "npm"

    def owner(self, path: str) -> PackageInfo | None:
        """The package whose folder most closely holds a file."""
        for folder in paths.ancestors(paths.parent(path)):
            if folder in self.by_directory:
                return self.by_directory[folder]
        return None

    def declared(self, path: str, name: str) -> str | None:
        """The range the package that holds a file declares for dependency `name`, else the
        range the workspace root declares (None when neither declares it)."""
        owner = self.owner(path)
        root = self.by_directory.get("")
        for package in (owner, root):
            if package is not None:
                declared = package.dependencies.get(name)
                if declared is not None:
                    return declared
        return None

    def linked(self, folder: str, name: str) -> PackageInfo | None:
        """The workspace package `<folder>/node_modules/<name>` links to once installed.

        npm@11 (and yarn classic) link every workspace package into the root
        `node_modules`, declared or not; pnpm@9 links one only into the
        `node_modules` of a package that declares it with the `workspace:`
        protocol (other ranges come from the registry since pnpm 9 turned
        link-workspace-packages off). Both checked by installing offline.
        """
        package = self.by_name.get(name)
        if package is None or package.directory == folder:
            return None
        if self.manager != "pnpm":
            return package if folder == "" and self.by_name else None
        holder = self.by_directory.get(folder)
        if holder is None:
            return None
        declared = holder.dependencies.get(name)
        return package if declared is not None and declared.startswith("workspace:") else None


def load_workspace(root: Path) -> Workspace:
    workspace = Workspace()
    top = read_package(root, "", workspace.notes)
    patterns: tuple[str, ...] = top.workspaces if top else ()
    pnpm = pnpm_workspace_patterns(root, "", workspace.notes)
    if pnpm:
        workspace.manager = "pnpm"
    patterns += pnpm
    if top is not None:
        workspace.by_directory[""] = top
    for folder in expand_workspaces(root, "", patterns):
        info = read_package(root, folder, workspace.notes)
        if info is None:
            continue
        workspace.by_directory[folder] = info
        if info.name and info.name not in workspace.by_name:
            workspace.by_name[info.name] = info
    return workspace


def package_name_of(specifier: str) -> tuple[str, str]:
    """(package name, subpath) of a bare specifier: `@a/b/c` -> (`@a/b`, `./c`)."""
    parts = specifier.split("/")
    count = 2 if specifier.startswith("@") and len(parts) > 1 else 1
    name = "/".join(parts[:count])
    rest = "/".join(parts[count:])
    return name, "./" + rest if rest else "."


def resolve_exports(exports: Any, subpath: str, conditions: Iterable[str]) -> list[str]:
    """Targets of a package `exports` field for a subpath, in the order Node tries them.

    Condition objects are read in their key order and the first key in
    `conditions` (or `default`) wins, as Node and TypeScript do; pattern keys
    with one `*` substitute the matched text.
    """
    accepted = set(conditions) | {"default"}
    if isinstance(exports, (str, list)) or (
        isinstance(exports, dict) and exports and not any(k.startswith(".") for k in exports)
    ):
        exports = {".": exports}
    if not isinstance(exports, dict):
        return []
    if subpath in exports:
        return _targets(exports[subpath], accepted, None)
    best: tuple[str, str] | None = None
    for key in exports:
        if not isinstance(key, str) or key.count("*") != 1:
            continue
        prefix, suffix = key.split("*")
        matches = subpath.startswith(prefix) and subpath.endswith(suffix)
        longer = best is None or len(prefix) > len(best[0].split("*")[0])
        if matches and longer and len(subpath) >= len(key) - 1:
            best = (key, subpath[len(prefix) : len(subpath) - len(suffix)])
    if best is None:
        return []
    return _targets(exports[best[0]], accepted, best[1])


def _targets(value: Any, accepted: set[str], star: str | None) -> list[str]:
    if isinstance(value, str):
        return [value.replace("*", star) if star is not None else value]
    if isinstance(value, list):
        found: list[str] = []
        for item in value:
            found += _targets(item, accepted, star)
        return found
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in accepted:
                chosen = _targets(inner, accepted, star)
                if chosen:
                    return chosen
    return []
