"""The ORM and driver phase of `tsograph schema`: one collector over the scan.

Skipped unless some source imports a supported package (packages.SUPPORTED) or some
source or `.d.ts` file mentions `D1Database`. Files importing packages that are not
interpreted are counted under `unsupported-db-packages:` / `non-relational-stores:`
either way. The ORMs are the rows of ORMS, each an OrmCollector; every phase runs
over all of them in that order: options first (naming rules), then declarations
(tables, entities, models), then uses, so uses can name columns the declarations
resolved. Their evaluator hooks are combined in the same order (the first ORM that
recognises a value wins).
"""

from __future__ import annotations

import re

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.resolve import DECLARATION
from tsograph.producers.project.resolve import SOURCE
from tsograph.producers.schema.orm import packages
from tsograph.producers.schema.orm.collector import OrmCollector
from tsograph.producers.schema.orm.drivers import Drivers
from tsograph.producers.schema.orm.drizzle import Drizzle
from tsograph.producers.schema.orm.knex import Knex
from tsograph.producers.schema.orm.orm_evaluator import Evaluator
from tsograph.producers.schema.orm.orm_evaluator import Hook
from tsograph.producers.schema.orm.orm_evaluator import OrmProject
from tsograph.producers.schema.orm.orm_run import OrmRun
from tsograph.producers.schema.orm.receivers import Val
from tsograph.producers.schema.orm.sequelize import Sequelize
from tsograph.producers.schema.orm.typeorm import TypeOrm
from tsograph.producers.schema.schema_scan import SchemaScan

# The ORMs and drivers read, in the order their phases and hooks run.
ORMS: tuple[type[OrmCollector], ...] = (Drizzle, TypeOrm, Sequelize, Knex, Drivers)

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


def _count_packages(scan: SchemaScan, path: str, file: SyntaxFile) -> bool:
    """Count unsupported and non-relational imports; True when a supported one is imported."""
    supported = False
    counted: set[str] = set()
    for item in file.facts.imports:
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
    orms = [make() for make in ORMS]
    hooks: dict[str, list[Hook]] = {}
    evaluator = Evaluator(project)
    for orm in orms:
        for name, hook in orm.hooks().items():
            hooks.setdefault(name, []).append(hook)
        evaluator.member_hooks.update(orm.member_hooks())
    evaluator.hooks = {name: first_of(*found) for name, found in hooks.items()}
    run = OrmRun(scan, evaluator, tuple(sorted(project.files)))
    evaluator.index_callers()
    for orm in orms:
        orm.read_options(run)
    for orm in orms:
        orm.declare(run)
    for orm in orms:
        orm.uses(run)
    if evaluator.cuts:
        scan.note("provenance-truncated:", "depth", len(evaluator.cuts))


def _project(scan: SchemaScan) -> OrmProject | None:
    """The syntax of the sources and of D1-declaring `.d.ts` files, with module resolution;
    None when the phase does not apply (nothing imports a supported package or names D1)."""
    active = False
    for path in scan.files.sources:
        data = scan.data(path)
        # Parsing is what costs: a file that names none of the packages in a string
        # cannot import one, so only files that do are parsed to find out.
        if data is None or not (D1_MARK in data or _MENTIONS.search(data)):
            continue
        file = scan.syntax(path)
        if file is not None:
            active = _count_packages(scan, path, file) or active or D1_MARK in data
    declarations: dict[str, SyntaxFile] = {}
    for path in scan.files.declaration_files:
        data = scan.data(path)
        file = scan.syntax(path) if data is not None and D1_MARK in data else None
        if file is not None:
            declarations[path] = file
            active = True
    if not active:
        return None
    # Receivers travel across modules that never import the package themselves.
    jobs = [(path, data) for path in scan.files.sources if (data := scan.data(path)) is not None]
    scan.model.syntax_files.preload(jobs)
    files: dict[str, SyntaxFile] = {}
    for path in scan.files.sources:
        file = scan.syntax(path)
        if file is not None:
            files[path] = file
    resolver = scan.resolver()

    def resolve(importer: str, specifier: str) -> str | None:
        found = resolver.resolve(importer, specifier)
        # `.d.ts` targets matter only when read for D1 bindings (OrmProject.file);
        # the model resolves over every walked file, only the read sources are followed.
        if found.kind == SOURCE:
            return found.path if found.path in files else None
        return found.path if found.kind == DECLARATION else None

    return OrmProject(files, declarations, resolve)


def first_of(*hooks: Hook) -> Hook:
    """One hook from several: the first that recognises the value wins."""
    if len(hooks) == 1:
        return hooks[0]

    def hook(evaluator: Evaluator, path: str, node: Node, value: Val) -> Val | None:
        for candidate in hooks:
            found = candidate(evaluator, path, node, value)
            if found is not None:
                return found
        return None

    return hook
