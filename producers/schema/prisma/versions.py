"""Which Prisma naming rules a package uses, from its lockfile or its declared range.

Lockfiles (pnpm-lock.yaml, package-lock.json, npm-shrinkwrap.json, yarn.lock,
bun.lock), nearest first from the package folder up to the project root, name
the installed versions; without one, an exact, `^` or `~` specifier in
package.json fixes the major. prisma / @prisma/client 2.x–7.x select the Prisma 7
rule; @prisma/orm-family-sql 8.0.0-rc.1…rc.11 and rc.12 select the 8.x rules;
anything else (unknown, rc.13+, 8.0.0) selects every candidate rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import orjson

from tsograph.producers.project import paths
from tsograph.producers.project.fsread import ConfigReadError, read_config
from tsograph.producers.schema.prisma import naming

CLIENT_PACKAGES = ("prisma", "@prisma/client")
ORM_8_PACKAGE = "@prisma/orm-family-sql"
WATCHED = (*CLIENT_PACKAGES, ORM_8_PACKAGE)
LOCKFILES = ("pnpm-lock.yaml", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "bun.lock")
MAX_LOCKFILE_BYTES = 64 * 1024 * 1024

_NAME = "(@prisma/client|@prisma/orm-family-sql|prisma)"
# pnpm (`/prisma@7.8.0:`, `prisma@7.8.0:`), bun (`"prisma@7.8.0"`), yarn berry (`prisma@npm:7.8.0`).
_AT_VERSION = re.compile(
    r"(?:^|[\s/\"'])" + _NAME + r"@(?:npm:)?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)"
)
# yarn v1: a header naming the package, then `version "7.8.0"`.
_YARN_ENTRY = re.compile(
    r"^\"?" + _NAME + r"@[^\n]*:\n(?:[ \t]+[^\n]*\n)*?[ \t]+version:?\s+\"?([0-9][^\"\s]*)", re.M
)
_SPECIFIER = re.compile(
    r"^\s*[\^~=v]?\s*(\d+)(?:\.(\d+|x|\*)(?:\.(\d+|x|\*)(-[0-9A-Za-z.-]+)?)?)?\s*$"
)
_RC = re.compile(r"^8\.0\.0-rc\.(\d+)$")


@dataclass(frozen=True)
class Selection:
    rules: tuple[str, ...]  # the candidate naming rules, in ALL_RULES order
    versions: tuple[str, ...]  # `package@version` evidence, sorted
    max_client_major: int | None  # the newest prisma/@prisma/client major, when known
    orm_8: bool  # @prisma/orm-family-sql is installed (its surface is not scanned)


def _lockfile_versions(name: str, data: bytes) -> dict[str, set[str]]:
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
                if package in WATCHED and isinstance(entry, dict):
                    version = entry.get("version")
                    if isinstance(version, str):
                        found.setdefault(package, set()).add(version)
        return found
    text = data.decode("utf-8", "replace")
    for match in _AT_VERSION.finditer(text):
        found.setdefault(match.group(1), set()).add(match.group(2))
    if name == "yarn.lock":
        for match in _YARN_ENTRY.finditer(text):
            found.setdefault(match.group(1), set()).add(match.group(2))
    return found


def _rules_of(package: str, version: str) -> tuple[str, ...] | None:
    """The rule a version selects; None when the version is not one the rules were checked for."""
    major = version.split(".", 1)[0]
    if package in CLIENT_PACKAGES:
        if major.isdigit() and 2 <= int(major) <= 7:
            return (naming.PRISMA_7,)
        if major.isdigit() and int(major) >= 8:
            return ()  # the 8.x prisma package is a different CLI; its naming is orm-family-sql's
        return None
    rc = _RC.match(version)
    if rc and 1 <= int(rc.group(1)) <= 11:
        return (naming.ORM_8_LOWER_FIRST,)
    if rc and int(rc.group(1)) == 12:
        return (naming.ORM_8_EXACT,)
    return None


def _major(version: str) -> int | None:
    head = version.split(".", 1)[0]
    return int(head) if head.isdigit() else None


def select(root: Path, package_dir: str, dependencies: dict[str, str]) -> Selection:
    installed: dict[str, set[str]] = {}
    for folder in paths.ancestors(package_dir):
        for lockfile in LOCKFILES:
            try:
                data = read_config(root, paths.join(folder, lockfile), MAX_LOCKFILE_BYTES)
            except ConfigReadError:
                continue
            if data is None:
                continue
            for package, versions in _lockfile_versions(lockfile, data).items():
                installed.setdefault(package, set()).update(versions)
        if installed:
            break
    if not installed:
        for package in WATCHED:
            match = _SPECIFIER.match(dependencies.get(package, ""))
            if (
                match
                and match.group(2) not in ("x", "*")
                and (package != ORM_8_PACKAGE or match.group(4))
            ):
                spec = dependencies[package].strip().lstrip("^~=v ").strip()
                installed.setdefault(package, set()).add(spec)
    rules: set[str] = set()
    unknown = not installed
    for package, versions in installed.items():
        for version in versions:
            selected = _rules_of(package, version)
            if selected is None:
                unknown = True
            else:
                rules.update(selected)
    if unknown or not rules:
        rules = set(naming.ALL_RULES)
    majors = [
        major
        for package in CLIENT_PACKAGES
        for version in installed.get(package, ())
        if (major := _major(version)) is not None
    ]
    return Selection(
        tuple(rule for rule in naming.ALL_RULES if rule in rules),
        tuple(sorted(f"{p}@{v}" for p, vs in installed.items() for v in vs)),
        max(majors) if majors else None,
        ORM_8_PACKAGE in installed or ORM_8_PACKAGE in dependencies,
    )
