"""Lockfiles: which version of a package is installed, read statically and bounded.

One reader for every producer: a lockfile is read through `read_lockfile`
(a link, a non-regular file or one over MAX_LOCKFILE_BYTES is a
ConfigReadError, never followed), and asked one of two questions:

    root_versions(name, data, wanted, importer)
                                            the version one importer (the lockfile's
                                            own folder ".", or a workspace package
                                            folder under it) resolves for each wanted
                                            package (the framework majors of
                                            `routes`), from the lockfiles of
                                            ROOT_LOCKFILES, first found
    installed_versions(name, data, watched) every installed version of the watched
                                            packages, at any depth (the Prisma naming
                                            rules of `schema`), from every lockfile of
                                            FOLDER_LOCKFILES in the nearest folder
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import orjson

from tsograph.producers.project import jsonc
from tsograph.producers.project import paths
from tsograph.producers.project.fsread import read_config

MAX_LOCKFILE_BYTES = 64 * 1024 * 1024
# The package managers' own lockfiles in the order the route detection prefers them.
ROOT_LOCKFILES = ("package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock")
FOLDER_LOCKFILES = (
    "pnpm-lock.yaml",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "bun.lock",
)


def read_lockfile(root: Path, relative: str) -> bytes | None:
    """A lockfile's bytes; None when absent. Raises ConfigReadError as read_config does."""
    return read_config(root, relative, MAX_LOCKFILE_BYTES)


@cache
def _patterns(watched: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    longest_first = sorted(watched, key=len, reverse=True)
    names = "(" + "|".join(re.escape(name) for name in longest_first) + ")"
    # pnpm (`/prisma@7.8.0:`, `prisma@7.8.0:`), bun (`"prisma@7.8.0"`),
    # yarn berry (`prisma@npm:7.8.0`).
    at_version = re.compile(
        r"(?:^|[\s/\"'])" + names + r"@(?:npm:)?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)"
    )
    # yarn v1: a header naming the package, then `version "7.8.0"`.
    yarn_entry = re.compile(
        r"^\"?" + names + r"@[^\n]*:\n(?:[ \t]+[^\n]*\n)*?[ \t]+version:?\s+\"?([0-9][^\"\s]*)",
        re.M,
    )
    return at_version, yarn_entry


def installed_versions(name: str, data: bytes, watched: tuple[str, ...]) -> dict[str, set[str]]:
    """Every installed version of each watched package, at any depth of the lockfile."""
    at_version, yarn_entry = _patterns(watched)
    found: dict[str, set[str]] = {}
    if name in ("package-lock.json", "npm-shrinkwrap.json"):
        try:
            raw = orjson.loads(data)
        except orjson.JSONDecodeError:
            return found
        packages = raw.get("packages") if isinstance(raw, dict) else None
        if isinstance(packages, dict):
            for key, entry in packages.items():
                package = key.rpartition("node_modules/")[2] if isinstance(key, str) else ""
                if package in watched and isinstance(entry, dict):
                    version = entry.get("version")
                    if isinstance(version, str):
                        found.setdefault(package, set()).add(version)
        return found
    text = data.decode("utf-8", "replace")
    for match in at_version.finditer(text):
        found.setdefault(match.group(1), set()).add(match.group(2))
    if name == "yarn.lock":
        for match in yarn_entry.finditer(text):
            found.setdefault(match.group(1), set()).add(match.group(2))
    return found


def root_versions(
    name: str, data: bytes, wanted: dict[str, str], importer: str = "."
) -> dict[str, str]:
    """The version an importer resolves for each wanted package (name → declared range).

    `importer` is the package folder relative to the lockfile's folder ("." for
    the lockfile's own package): a service run of a workspace package reads the
    workspace root's lockfile as a run at the root reads it for the root.
    """
    text = data.decode("utf-8", errors="replace")
    if name == "package-lock.json":
        return _npm_lock(text, wanted, importer)
    if name == "pnpm-lock.yaml":
        return _pnpm_lock(text, wanted, importer)
    if name == "yarn.lock":
        # yarn.lock entries are keyed by `package@range` whoever declares them.
        return _yarn_lock(text, wanted)
    # bun.lock keys a package's own copy `<workspace name>/<package>`; only the
    # root's hoisted entries are read, so a workspace package keeps its ranges.
    return _bun_lock(data, wanted) if importer == "." else {}


def _npm_lock(text: str, wanted: dict[str, str], importer: str) -> dict[str, str]:
    """`packages["<importer>/node_modules/<name>"]`, else the nearest copy above it up to
    the hoisted `node_modules/<name>` (Node's lookup from the importer's folder, which
    npm@7+ lockfiles v2/v3 spell out); the v1 `dependencies` map for the root only."""
    try:
        parsed = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {}
    found: dict[str, str] = {}
    packages = parsed.get("packages") if isinstance(parsed, dict) else None
    legacy = parsed.get("dependencies") if isinstance(parsed, dict) else None
    folders = paths.ancestors(paths.normalize(importer))
    for package in wanted:
        entry = None
        if isinstance(packages, dict):
            for folder in folders:
                entry = packages.get(paths.join(folder, f"node_modules/{package}"))
                if isinstance(entry, dict):
                    break
        if not isinstance(entry, dict) and isinstance(legacy, dict) and importer == ".":
            entry = legacy.get(package)
        if isinstance(entry, dict) and isinstance(entry.get("version"), str):
            found[package] = entry["version"]
    return found


_PNPM_SECTIONS = ("dependencies:", "devDependencies:", "optionalDependencies:")


def _pnpm_lock(text: str, wanted: dict[str, str], importer: str) -> dict[str, str]:
    """Versions of one importer (`importers: 'apps/api':`), or the top level of lockfile v5.

    Checked against pnpm@10.34.9 output (lockfileVersion '9.0'): an importer is a
    two-space key under `importers:` (`.` the root, `.: {}` when it declares
    nothing), each dependency a four-space section entry with `specifier:` and
    `version:` lines; a `catalog:` specifier carries the catalog's resolved
    version there, a `workspace:` one `version: link:…`, which is no version.
    """
    lines = text.splitlines()
    keys = {f"'{importer}':", f'"{importer}":', f"{importer}:"}
    found: dict[str, str] = {}
    section_indent: int | None = None
    in_importers = in_entry = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            in_importers = stripped == "importers:"
            # Lockfile v5 without workspaces lists the root's dependencies at the top.
            in_entry = importer == "." and stripped in _PNPM_SECTIONS
            section_indent = 2 if in_entry else None
            continue
        if in_importers and indent == 2:
            in_entry = stripped in keys
            section_indent = None
            continue
        if in_importers and in_entry and indent == 4:
            # v5's `specifiers:` holds the declared ranges, not versions.
            section_indent = 6 if stripped in _PNPM_SECTIONS else None
            continue
        if not in_entry or section_indent is None or indent != section_indent:
            continue
        key, _, rest = stripped.partition(":")
        key = key.strip("'\"")
        if key not in wanted:
            continue
        rest = rest.strip()
        if rest:
            found[key] = rest.strip("'\"")
            continue
        for follow in lines[index + 1 : index + 4]:
            follow = follow.strip()
            if follow.startswith("version:"):
                found[key] = follow.partition(":")[2].strip().strip("'\"")
                break
    return found


def _yarn_lock(text: str, wanted: dict[str, str]) -> dict[str, str]:
    """The entry whose header names `package@<declared range>` (classic and berry)."""
    found: dict[str, str] = {}
    header: list[str] = []
    for line in text.splitlines():
        if line and not line.startswith((" ", "#")):
            header = [part.strip().strip('"') for part in line.rstrip(":").split(",")]
            continue
        stripped = line.strip()
        if not stripped.startswith("version"):
            continue
        version = stripped[len("version") :].lstrip(": ").strip('"')
        for package, declared in wanted.items():
            if f"{package}@{declared}" in header or f"{package}@npm:{declared}" in header:
                found.setdefault(package, version)
    return found


def _bun_lock(data: bytes, wanted: dict[str, str]) -> dict[str, str]:
    try:
        parsed = jsonc.loads(data)
    except ValueError:
        return {}
    packages = parsed.get("packages") if isinstance(parsed, dict) else None
    found: dict[str, str] = {}
    for package in wanted:
        entry = packages.get(package) if isinstance(packages, dict) else None
        if isinstance(entry, list) and entry and isinstance(entry[0], str):
            found[package] = entry[0].rpartition("@")[2]
    return found
