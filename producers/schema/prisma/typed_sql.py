"""TypedSQL: the top-level `.sql` files of `typedSql.path` (config) or `<schema root>/sql`.

Read when a generator enables the `typedSql` preview feature (prisma@7.10.1 cli:
`typedSql` path from the config, else `sql` next to the schema). Each relation
the file names is one fact located at its keyword, with the `<path>#typedsql:<name>`
usr and `<path>#<name>` as qualifiedName (`name` = the file name without `.sql`, as
the generated function is named).
"""

from __future__ import annotations

from tsograph.exchange.locations import LineIndex
from tsograph.exchange.symbol_ids import symbol_id
from tsograph.exchange.symbol_ids import typedsql_id
from tsograph.producers.project import paths
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import is_dir
from tsograph.producers.project.fsread import read_config
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.facts import relation_use
from tsograph.producers.schema.prisma.declarations import PrismaSchema
from tsograph.producers.schema.schema_scan import SchemaScan

MAX_SQL_BYTES = 4 * 1024 * 1024


def collect(scan: SchemaScan, schema: PrismaSchema) -> None:
    folder = schema.project.typed_sql_path or paths.join(schema.project.schema_root, "sql")
    if paths.is_outside(folder) or not is_dir(scan.root, folder):
        scan.note("unresolved-typed-sql:", "folders")
        return
    entries = scan.probes.entries(folder)
    if entries is None:
        scan.note("unresolved-typed-sql:", "folders")
        return
    names = [name for name, _ in entries if name.endswith(".sql")]
    for name in names:
        path = paths.join(folder, name)
        try:
            data = read_config(scan.root, path, MAX_SQL_BYTES)
        except ConfigReadError:
            scan.note("unresolved-typed-sql:", "files")
            continue
        if data is None:
            continue
        scan.read.append(scan.root / path)
        text = data.decode("utf-8", "replace")
        found = sql_relations.extract(text)
        lines = LineIndex(data, count_bom=True, js_breaks=False)
        stem = name[: -len(".sql")]
        usr = typedsql_id(path, stem)
        qualified = symbol_id(path, (stem,))  # `<path>#<name>`, as the spec names TypedSQL facts
        for relation in found.relations:
            line, column = lines.position(len(text[: relation.keyword].encode("utf-8")))
            scan.add(
                relation_use(relation.name, path, line, column, qualified_name=qualified, usr=usr)
            )
        if found.unresolved:
            scan.note("dynamic-relation-names:", "sql-operands", found.unresolved)
