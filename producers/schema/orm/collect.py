"""The ORM and driver phase of `tsograph schema`: one collector over the scan.

Skipped unless some source imports a supported package (packages.SUPPORTED) or some
source or `.d.ts` file mentions `D1Database`. Files importing packages that are not
interpreted are counted under `unsupported-db-packages:` / `non-relational-stores:`
either way. Order matters: declarations first (tables, entities, models), then uses,
so uses can name columns the declarations resolved.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.project.resolve import DECLARATION, SOURCE
from tsograph.producers.schema.orm import drivers, packages
from tsograph.producers.schema.orm.context import OrmRun
from tsograph.producers.schema.orm.drizzle import Drizzle
from tsograph.producers.schema.orm.knex import Knex
from tsograph.producers.schema.orm.sequelize import Sequelize
from tsograph.producers.schema.orm.typeorm import TypeOrm
from tsograph.producers.schema.orm.values import Evaluator, Hook, OrmProject, Val
from tsograph.producers.schema.scan import SchemaScan

D1_MARK = b"D1Database"
# A quoted specifier naming a package of interest (or a subpath of one).
_MENTIONS = re.compile(
    rb"[\"'`]("
    + b"|".join(
        re.escape(name.encode())
        for name in (*packages.SUPPORTED, *packages.UNSUPPORTED, *packages.NON_RELATIONAL)
    )
    + rb")[\"'`/]"
)


def _count_packages(scan: SchemaScan, path: str, parsed: ParsedFile) -> bool:
    """Count unsupported and non-relational imports; True when a supported one is imported."""
    supported = False
    counted: set[str] = set()
    for item in parsed.facts.imports:
        specifier = item.specifier
        if packages.package_of(specifier, packages.UNSUPPORTED):
            counted.add("unsupported-db-packages:")
        elif packages.package_of(specifier, packages.NON_RELATIONAL):
            counted.add("non-relational-stores:")
        elif packages.package_of(specifier, packages.SUPPORTED):
            supported = True
    for prefix in sorted(counted):
        scan.note(prefix, "files", name=path)
    return supported


def collect(scan: SchemaScan) -> None:
    project = _project(scan)
    if project is None:
        return
    drizzle = Drizzle()
    typeorm = TypeOrm()
    sequelize = Sequelize()
    evaluator = Evaluator(
        project,
        {
            "package-call": drizzle.package_call,
            "method": first_of(drizzle.method, sequelize.method),
            "call": drizzle.call,
            "class": first_of(typeorm.class_value, sequelize.class_value),
        },
    )
    evaluator.member_hooks.update({"sequelize": sequelize.member, "seq-models": sequelize.member})
    run = OrmRun(scan, evaluator, tuple(sorted(project.files)))
    evaluator.index_callers()
    drizzle.read_casing(run)
    typeorm.read_options(run)
    sequelize.read_options(run)
    drizzle.declare(run)
    typeorm.declare(run)
    sequelize.declare(run)
    drizzle.uses(run)
    typeorm.uses(run)
    sequelize.uses(run)
    Knex().uses(run)
    drivers.uses(run)
    if evaluator.cuts:
        scan.note("provenance-truncated:", "depth", len(evaluator.cuts))


def _project(scan: SchemaScan) -> OrmProject | None:
    """The parsed sources and D1-declaring `.d.ts` files, with module resolution; None
    when the phase does not apply (nothing imports a supported package or names D1)."""
    active = False
    for path in scan.files.sources:
        data = scan.data(path)
        # Parsing is what costs: a file that names none of the packages in a string
        # cannot import one, so only files that do are parsed to find out.
        if data is None or not (D1_MARK in data or _MENTIONS.search(data)):
            continue
        parsed = scan.parsed(path)
        if parsed is not None:
            active = _count_packages(scan, path, parsed) or active or D1_MARK in data
    declarations: dict[str, ParsedFile] = {}
    for path in scan.files.declaration_files:
        data = scan.data(path)
        parsed = scan.parsed(path) if data is not None and D1_MARK in data else None
        if parsed is not None:
            declarations[path] = parsed
            active = True
    if not active:
        return None
    # Receivers travel across modules that never import the package themselves.
    files: dict[str, ParsedFile] = {}
    for path in scan.files.sources:
        parsed = scan.parsed(path)
        if parsed is not None:
            files[path] = parsed
    resolver = scan.resolver()

    def resolve(importer: str, specifier: str) -> str | None:
        found = resolver.resolve(importer, specifier)
        # `.d.ts` targets matter only when read for D1 bindings (OrmProject.parsed);
        # the model resolves over every walked file, only the parsed sources are read.
        if found.kind == SOURCE:
            return found.path if found.path in files else None
        return found.path if found.kind == DECLARATION else None

    return OrmProject(files, declarations, resolve)


def first_of(*hooks: Hook) -> Hook:
    """One hook from several: the first that recognises the value wins."""

    def hook(evaluator: Evaluator, path: str, node: Node, value: Val) -> Val | None:
        for candidate in hooks:
            found = candidate(evaluator, path, node, value)
            if found is not None:
                return found
        return None

    return hook
