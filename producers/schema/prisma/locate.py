"""Where the Prisma CLI finds a project's schema (checked against prisma@7.10.1 and
@prisma/config@7.8.0 / c12@3.3.4 from npm).

For each base folder (the project root, every folder with a Prisma config file,
every package depending on prisma or @prisma/client):

1. the first config file: `prisma7.config.{js,ts,mjs,cjs,mts,cts}` and
   `.config/prisma7.*` (looked up first since @prisma/config 7.10; absent in 7.8.0),
   then c12's search for `prisma.config`: `prisma.config`, `prisma.config.<ext>`,
   `prisma.config/index.<ext>`, then the same under `.config/prisma` and
   `.config/prisma.config`. c12 also finds `.json`/`.yaml`/`.toml`, which Prisma
   then rejects ("Unsupported Prisma config file extension"): unresolved-prisma-config:.
   Its `schema` is read only as a string literal (or a same-file const) in the
   default export; a folder means every `.prisma` file below it.
2. without a configured schema: `<base>/schema.prisma`, then `<base>/prisma/schema.prisma`
   (prisma@7.10.1 build/cli.js getSchema tries `join(baseDir, "schema.prisma")`, then
   `join(baseDir, "prisma", "schema.prisma")`).
3. package.json `prisma.schema` only when the installed Prisma is 6.x or older.
4. else the one path the package.json scripts pass as `--schema` to a `prisma` command
   (the CLI reads the flag before anything else; several different paths: none).

A base whose package.json cannot be read may depend on Prisma: its schema is
still looked for at the CLI's locations (the file is reported under
unreadable-module-configs:). prisma-schema-not-found: is reported for a base only
when no located schema applies to it: neither one of its own, nor one in a
workspace package it depends on by name, nor (for the workspace root, whose
dependencies are often the members' hoisted ones) one in a workspace member.
A link where a schema would be is never followed: schema-outside-project: (links).
A service run that depends on a workspace package using Prisma says so under
schema-outside-project: (workspace-packages), as for any database package
(schema/workspace_packages.py).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_read import object_property
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_read import top_level_consts
from tsograph.producers.lang.syntax_read import unwrap
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project import paths
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import is_dir
from tsograph.producers.project.fsread import lexists
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.packages import PackageInfo
from tsograph.producers.project.packages import read_package
from tsograph.producers.schema.prisma.versions import CLIENT_PACKAGES
from tsograph.producers.schema.prisma.versions import ORM_8_PACKAGE
from tsograph.producers.schema.prisma.versions import Selection
from tsograph.producers.schema.prisma.versions import select
from tsograph.producers.schema.schema_scan import SchemaScan
from tsograph.producers.values import modules

PRISMA_EXTENSIONS = (".js", ".ts", ".mjs", ".cjs", ".mts", ".cts")
# c12@3.3.4 SUPPORTED_EXTENSIONS; exsolve tries "" first, then each extension.
C12_EXTENSIONS = ("", *PRISMA_EXTENSIONS, ".json", ".jsonc", ".json5", ".yaml", ".yml", ".toml")
MAX_SCHEMA_FILES = 1000
MAX_SCHEMA_DEPTH = 16


def config_candidates() -> list[str]:
    found = [f"prisma7.config{ext}" for ext in PRISMA_EXTENSIONS]
    found += [f".config/prisma7{ext}" for ext in PRISMA_EXTENSIONS]
    for base in ("prisma.config", ".config/prisma", ".config/prisma.config"):
        for suffix in ("", "/index"):
            found += [f"{base}{suffix}{ext}" for ext in C12_EXTENSIONS if suffix == "" or ext]
    return found


CONFIG_CANDIDATES = tuple(config_candidates())
CONFIG_NAMES = frozenset(path for path in CONFIG_CANDIDATES if "/" not in path)


@dataclass
class PrismaProject:
    """One schema as the CLI would load it, with what naming and client usage need."""

    base: str  # the base folder ("" is the project root)
    schema_files: list[str]  # project-relative .prisma files
    schema_root: str  # the folder TypedSQL and generator outputs are relative to
    selection: Selection
    typed_sql_path: str | None = None  # from the config, project-relative
    config_problems: list[str] = field(default_factory=list)


def _package_depends(info: PackageInfo | None) -> bool:
    return info is not None and any(
        name in info.dependencies for name in (*CLIENT_PACKAGES, ORM_8_PACKAGE)
    )


def _default_export(root: Node) -> Node | None:
    consts = top_level_consts(root)
    for statement in root.items:
        if statement.kind == "export" and "default" in statement.flags:
            value = statement.part("value")
        else:
            value = modules.module_exports_value(statement)
        if value is None:
            continue
        return _config_object(value, consts)
    return None


def _config_object(value: Node, consts: dict[str, Node]) -> Node | None:
    for _ in range(8):
        value = unwrap(value)
        if value.kind == "object":
            return value
        if value.kind == "call":
            if not value.items:
                return None
            value = value.items[0]
        elif value.kind == "identifier" and value.value in consts:
            value = consts[value.value]
        else:
            return None
    return None


def _literal(value: Node, consts: dict[str, Node]) -> str | None:
    value = unwrap(value)
    if value.kind == "identifier" and value.value in consts:
        value = consts[value.value]
    return string_value(value)


def _read_config(scan: SchemaScan, path: str) -> tuple[str | None, str | None, bool]:
    """(schema, typedSql.path, readable): paths as written; readable False = unresolved."""
    if not path.endswith(PRISMA_EXTENSIONS):
        return None, None, False
    try:
        data = read_config(scan.root, path, 4 * 1024 * 1024)
    except ConfigReadError:
        return None, None, False
    if data is None:
        return None, None, False
    scan.read.append(scan.root / path)
    root = scan.model.syntax_files.get(path, data).root
    config = _default_export(root)
    if config is None:
        return None, None, False
    consts = top_level_consts(root)
    ok = True
    schema_node = object_property(config, "schema")
    schema = None if schema_node is None else _literal(schema_node, consts)
    if schema_node is not None and schema is None:
        ok = False
    typed: str | None = None
    typed_sql = object_property(config, "typedSql")
    if typed_sql is not None and unwrap(typed_sql).kind == "object":
        typed_node = object_property(unwrap(typed_sql), "path")
        typed = None if typed_node is None else _literal(typed_node, consts)
    return schema, typed, ok


def prisma_files_below(scan: SchemaScan, folder: str) -> list[str]:
    """Every `.prisma` file below a folder, links never followed (counted), bounded."""
    found: list[str] = []
    pending = [(folder, 0)]
    while pending:
        current, depth = pending.pop()
        entries = scan.probes.entries(current)
        if entries is None:
            scan.read_failures["unreadable-schema-folders"] += 1
            continue
        for name, kind in entries:
            relative = paths.join(current, name)
            if kind.startswith("link"):
                if name.endswith(".prisma") or kind == "link-dir":
                    scan.note("schema-outside-project:", "links")
                continue
            if kind == "dir":
                if name == "node_modules":
                    continue
                if depth + 1 < MAX_SCHEMA_DEPTH:
                    pending.append((relative, depth + 1))
                else:
                    scan.note("unparsed-schema-lines:", "schema-folders-too-deep", name=relative)
            elif name.endswith(".prisma"):
                if len(found) == MAX_SCHEMA_FILES:
                    scan.note("unparsed-schema-lines:", "schema-file-limit", name=folder)
                    return sorted(found)
                found.append(relative)
    return sorted(found)


def _bases(scan: SchemaScan) -> list[str]:
    bases = {""}
    for path in scan.files.sources:
        if path.rpartition("/")[2] in CONFIG_NAMES:
            bases.add(paths.parent(path))
    bases.update(scan.files.package_dirs)
    return sorted(bases)


def locate(scan: SchemaScan) -> list[PrismaProject]:
    found: dict[tuple[str, ...], PrismaProject] = {}
    missing: list[tuple[str, PackageInfo | None]] = []  # bases with no schema of their own
    names: dict[str, str] = {}  # base -> its package name
    for base in _bases(scan):
        notes: list[str] = []
        package = read_package(scan.root, base, notes)
        scan.config_notes(notes)
        if package is not None and package.name:
            names[base] = package.name
        unreadable = package is not None and not package.readable
        depends = _package_depends(package) or unreadable
        config = next(
            (
                paths.join(base, name)
                for name in CONFIG_CANDIDATES
                if scan.probes.kind(paths.join(base, name)) == "file"
            ),
            None,
        )
        if config is None and not depends:
            continue
        if package is not None and package.readable:
            scan.read.append(scan.root / paths.join(base, "package.json"))
        declared = package.dependencies if package else {}
        selection = select(scan.root, base, declared, scan.model.enclosing)
        schema: str | None = None
        typed: str | None = None
        config_dir = base
        ok = True
        if config is not None:
            schema, typed, ok = _read_config(scan, config)
            config_dir = paths.parent(config)
            if not ok:
                scan.note("unresolved-prisma-config:", "values", name=config)
        legacy = (package.fields.get("prisma") if package else None) or {}
        if schema is None and isinstance(legacy, dict) and isinstance(legacy.get("schema"), str):
            major = selection.max_client_major
            if major is not None and major <= 6:
                schema = legacy["schema"]
                config_dir = base
        if schema is None and package is not None:
            schema = _script_schema(package)
            config_dir = base
        files: list[str] = []
        schema_root = base
        if schema is not None:
            target = paths.join(config_dir, schema)
            if paths.is_outside(target):
                scan.note("schema-outside-project:", "paths")
                continue
            if is_dir(scan.root, target):
                files = prisma_files_below(scan, target)
                schema_root = target
            elif scan.probes.kind(target) == "file":
                files = [target]
                schema_root = paths.parent(target)
            elif lexists(scan.root, target):
                scan.note("schema-outside-project:", "links")
                continue
            else:
                scan.note("missing-prisma-schemas:", "paths", name=target)
                continue
        else:
            linked = False
            for candidate in ("schema.prisma", "prisma/schema.prisma"):
                target = paths.join(base, candidate)
                if scan.probes.kind(target) == "file":
                    files = [target]
                    schema_root = paths.parent(target)
                    break
                if scan.probes.kind(target) == "link":
                    scan.note("schema-outside-project:", "links")
                    linked = True
                    break
            if not files:
                # An unresolved config value or a link is already counted, and a package.json
                # that could not be read does not show that the folder uses Prisma.
                if ok and not linked and not unreadable:
                    missing.append((base, package))
                continue
        typed_path = None if typed is None else paths.join(config_dir, typed)
        key = tuple(files)
        if key not in found:
            found[key] = PrismaProject(base, files, schema_root, selection, typed_path)
    projects = list(found.values())
    if missing:
        workspace = scan.model.workspace
        scan.config_notes(workspace.notes)  # a broken workspace list hides members
        members = set(workspace.by_directory) - {""}
        for base, package in missing:
            if not _schema_applies(base, package, projects, names, members):
                scan.note("prisma-schema-not-found:", "projects", name=base or ".")
    return projects


# `prisma <command> … --schema <path>` (or `--schema=<path>`) in one command of a script:
# prisma@6.5.0 build/index.js resolves the argument against the working directory and
# reads it before package.json, a config file or the default locations.
_SCRIPT_SCHEMA = re.compile(
    r"\bprisma(?:@[\w.^~-]+)?\s[^&|;]*?--schema(?:=|\s+)([\"']?)([^\s\"'&|;]+)\1"
)


def _script_schema(package: PackageInfo) -> str | None:
    """The schema a package's scripts pass the Prisma CLI (postiz-app: `"prisma-generate":
    "pnpm dlx prisma@6.5.0 generate --schema ./libraries/…/schema.prisma"`), relative to
    the package folder, where npm and pnpm run scripts; None unless every such flag names
    the same path."""
    scripts = package.fields.get("scripts")
    if not isinstance(scripts, dict):
        return None
    named = {
        posixpath.normpath(match.group(2))
        for script in scripts.values()
        if isinstance(script, str)
        for match in _SCRIPT_SCHEMA.finditer(script)
    }
    return named.pop() if len(named) == 1 else None


def _schema_applies(
    base: str,
    package: PackageInfo | None,
    projects: list[PrismaProject],
    names: dict[str, str],
    members: set[str],
) -> bool:
    """Whether a located schema serves a base that has none of its own: a workspace package
    it depends on by name holds one, or it is the workspace root and a member holds one."""
    dependencies = package.dependencies if package is not None else {}
    for project in projects:
        if project.base == base:
            return True
        if names.get(project.base) in dependencies:
            return True
        if base == "" and project.base in members:
            return True
    return False
