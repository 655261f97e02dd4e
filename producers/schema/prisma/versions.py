"""Which Prisma naming rules a package uses, from its lockfile or its declared range.

Lockfiles (pnpm-lock.yaml, package-lock.json, npm-shrinkwrap.json, yarn.lock,
bun.lock), nearest first from the package folder up to the project root (for
a service run, on up to its workspace root: project/enclosing.py), name
the installed versions; without one, an exact, `^` or `~` specifier in
package.json fixes the major. prisma / @prisma/client 2.x–7.x select the Prisma 7
rule; @prisma/orm-family-sql 8.0.0-rc.1…rc.11 and rc.12 select the 8.x rules;
anything else (unknown, rc.13+, 8.0.0) selects every candidate rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tsograph.producers.project import paths
from tsograph.producers.project.enclosing import Enclosing
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.lockfiles import FOLDER_LOCKFILES
from tsograph.producers.project.lockfiles import installed_versions
from tsograph.producers.project.lockfiles import read_lockfile
from tsograph.producers.schema.prisma import naming

CLIENT_PACKAGES = ("prisma", "@prisma/client")
ORM_8_PACKAGE = "@prisma/orm-family-sql"
WATCHED = (*CLIENT_PACKAGES, ORM_8_PACKAGE)

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


def _installed(root: Path, folders: list[str]) -> dict[str, set[str]]:
    """The watched versions of the lockfiles in the first of the folders that has any."""
    installed: dict[str, set[str]] = {}
    for folder in folders:
        for lockfile in FOLDER_LOCKFILES:
            try:
                data = read_lockfile(root, paths.join(folder, lockfile))
            except ConfigReadError:
                continue
            if data is None:
                continue
            for package, versions in installed_versions(lockfile, data, WATCHED).items():
                installed.setdefault(package, set()).update(versions)
        if installed:
            break
    return installed


def select(
    root: Path,
    package_dir: str,
    dependencies: dict[str, str],
    enclosing: Enclosing | None = None,
) -> Selection:
    installed = _installed(root, paths.ancestors(package_dir))
    if not installed and enclosing is not None:
        # A service run: on up from the run's root to its workspace root, as a run there.
        with enclosing.reading():
            installed = _installed(enclosing.root, paths.ancestors(paths.parent(enclosing.folder)))
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
