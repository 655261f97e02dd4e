"""A service run that depends on a workspace package holding database code says so.

A service run (`--workspace`, `--out-dir`) reads the service's own folder. A
workspace package it depends on is read only as far as the module resolver
goes, not as part of the project: when that package makes the database client
(linkwarden's @linkwarden/prisma, openstatus's @openstatus/db with Drizzle),
every call the service makes through it is unproven and would vanish without
a word. The run names each such package under `schema-outside-project:`
(reason `workspace-packages`); a run at the root (`--workspace .`) reads them.
"""

from __future__ import annotations

from tsograph.producers.schema.orm.packages import SUPPORTED
from tsograph.producers.schema.prisma.versions import WATCHED
from tsograph.producers.schema.schema_scan import SchemaScan

# Prisma's packages and those of the ORMs and SQL drivers `schema` reads.
_DATABASE = frozenset((*WATCHED, *SUPPORTED))


def collect(scan: SchemaScan) -> None:
    enclosing = scan.model.enclosing
    if enclosing is None:
        return
    workspace = enclosing.workspace
    for name in sorted(scan.model.root_package.dependencies):
        member = workspace.by_name.get(name)
        if (
            member is not None
            and member.directory != enclosing.folder
            and not _DATABASE.isdisjoint(member.dependencies)
        ):
            scan.note("schema-outside-project:", "workspace-packages", name=name)
