"""The Prisma collector: schemas, then client usage and raw SQL over the sources.

Order matters: schemas are read first because their generator output folders
are removed from the source set before any collector reads a source.
"""

from __future__ import annotations

from tsograph.producers.schema.prisma import client
from tsograph.producers.schema.prisma import declarations
from tsograph.producers.schema.prisma import locate
from tsograph.producers.schema.prisma import typed_sql
from tsograph.producers.schema.schema_scan import SchemaScan


def collect(scan: SchemaScan) -> None:
    projects = locate.locate(scan)
    schemas = [declarations.read_project(scan, project) for project in projects]
    outputs = [output for schema in schemas for output in schema.generator_outputs]
    scan.files = scan.files.without(outputs)
    scan.model.exclude(outputs)  # before any collector resolves a module
    if any(schema.project.selection.orm_8 for schema in schemas):
        scan.note("prisma-8-surface-unscanned:", "projects")
    for schema in schemas:
        if schema.typed_sql and not schema.non_relational:
            typed_sql.collect(scan, schema)
    client.collect(scan, [schema for schema in schemas if not schema.non_relational])
