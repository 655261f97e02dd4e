"""Lockfiles: which version of a package is installed, read statically and bounded.

One reader for every producer: a lockfile is read through `read_lockfile`
(a link, a non-regular file or one over MAX_LOCKFILE_BYTES is a
ConfigReadError, never followed), and asked one of two questions:

    root_versions(name, data, wanted)       the version the root importer resolves
                                            for each wanted package (the framework
                                            majors of `routes`), from the lockfiles
                                            of ROOT_LOCKFILES, first found
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


def root_versions(name: str, data: bytes, wanted: dict[str, str]) -> dict[str, str]:
    """The version the root importer resolves for each wanted package (name → declared range)."""
    text = data.decode("utf-8", errors="replace")
    if name == "package-lock.json":
        return _npm_lock(text, wanted)
    if name == "pnpm-lock.yaml":
        return _pnpm_lock(text, wanted)
    if name == "yarn.lock":
        return _yarn_lock(text, wanted)
    return _bun_lock(data, wanted)


def _npm_lock(text: str, wanted: dict[str, str]) -> dict[str, str]:
    try:
        parsed = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {}
    found: dict[str, str] = {}
    packages = parsed.get("packages") if isinstance(parsed, dict) else None
    legacy = parsed.get("dependencies") if isinstance(parsed, dict) else None
    for package in wanted:
        entry = packages.get(f"node_modules/{package}") if isinstance(packages, dict) else None
        if not isinstance(entry, dict) and isinstance(legacy, dict):
            entry = legacy.get(package)
        if isinstance(entry, dict) and isinstance(entry.get("version"), str):
            found[package] = entry["version"]
    return found


def _pnpm_lock(text: str, wanted: dict[str, str]) -> dict[str, str]:
    """Versions of the root importer (`importers: '.':`), or the top level of lockfile v5."""
    lines = text.splitlines()
    found: dict[str, str] = {}
    section_indent: int | None = None
    in_root = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            in_root = stripped in ("dependencies:", "devDependencies:", "optionalDependencies:")
            section_indent = 2 if in_root else None
            if stripped == "importers:":
                section_indent = None
            continue
        if indent == 2 and stripped in ("'.':", '".":', ".:"):
            section_indent = 6
            in_root = True
            continue
        if indent == 2 and section_indent == 6:
            in_root = False
        if not in_root or section_indent is None or indent != section_indent:
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
