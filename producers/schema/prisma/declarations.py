"""Declaration-side facts of a Prisma schema: models, views, scalar fields, join tables.

A model or view gives one fact for its table and one per scalar field (column);
an implicit many-to-many relation gives its join table `_<RelationName>` and the
columns `A` and `B`. Relation fields, `@ignore` fields, `@@ignore` models,
composite types and enums give none. Names every candidate naming rule agrees
on are emitted; others become one dynamic fact without columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from tsograph.exchange.symbol_ids import model_id
from tsograph.producers.project import paths
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import read_config
from tsograph.producers.schema.facts import channel
from tsograph.producers.schema.facts import relation_use
from tsograph.producers.schema.prisma import naming
from tsograph.producers.schema.prisma.locate import PrismaProject
from tsograph.producers.schema.prisma.psl import Block
from tsograph.producers.schema.prisma.psl import Field
from tsograph.producers.schema.prisma.psl import SchemaFile
from tsograph.producers.schema.prisma.psl import read_schema
from tsograph.producers.schema.prisma.psl import string_list
from tsograph.producers.schema.prisma.psl import string_value
from tsograph.producers.schema.schema_scan import SchemaScan

SCALARS = frozenset(
    {"String", "Boolean", "Int", "BigInt", "Float", "Decimal", "DateTime", "Json", "Bytes"}
)
NON_RELATIONAL = frozenset({"mongodb"})
MAX_SCHEMA_BYTES = 4 * 1024 * 1024


@dataclass
class Model:
    name: str
    table: str | None  # the channel; None when the candidate rules disagree
    columns: dict[str, str]  # scalar field -> column
    ignored: bool


@dataclass
class PrismaSchema:
    project: PrismaProject
    models: dict[str, Model] = field(default_factory=dict)
    non_relational: bool = False
    provider: str | None = None
    generator_outputs: list[str] = field(default_factory=list)
    client_generators: int = 0
    typed_sql: bool = False

    def model_of_delegate(self, delegate: str) -> Model | None:
        """The model a client property names: uncapitalized, or the exact model name."""
        found = self.models.get(delegate)
        if found is not None:
            return found
        return next(
            (m for m in self.models.values() if naming.delegate_name(m.name) == delegate), None
        )


def _read_files(scan: SchemaScan, project: PrismaProject) -> list[SchemaFile]:
    files: list[SchemaFile] = []
    for path in project.schema_files:
        try:
            # Never through a link, at most 4 MiB (a larger schema is counted, not read).
            data = read_config(scan.root, path, MAX_SCHEMA_BYTES)
        except ConfigReadError as problem:
            if problem.reason == "too large":
                scan.note("unparsed-schema-lines:", "oversized-schema-files", name=path)
            else:
                scan.read_failures[problem.reason.replace(" ", "-")] += 1
            continue
        if data is None:
            continue
        scan.read.append(scan.root / path)
        schema = read_schema(path, data.decode("utf-8", "replace"))
        for number in schema.unparsed:
            scan.note("unparsed-schema-lines:", "lines", at=(path, number))
        files.append(schema)
    return files


def _mapped(block_or_field: Block | Field) -> str | None:
    attribute = block_or_field.attribute("map")
    return None if attribute is None else attribute.first_string()


def _schema_name(block: Block) -> str | None:
    attribute = block.attribute("schema")
    return None if attribute is None else attribute.first_string()


def _relation_name(item: Field) -> str | None:
    attribute = item.attribute("relation")
    if attribute is None:
        return None
    named = attribute.named("name")
    if named is not None:
        return string_value(named)
    first = attribute.args.strip()
    return attribute.first_string() if first.startswith('"') else None


def read_project(scan: SchemaScan, project: PrismaProject) -> PrismaSchema:
    schema = PrismaSchema(project)
    files = _read_files(scan, project)
    blocks = [(f.path, b) for f in files for b in f.blocks]
    for _, block in blocks:
        if block.kind == "datasource":
            provider = string_value(block.settings.get("provider", ""))
            schema.provider = provider
            if provider in NON_RELATIONAL:
                schema.non_relational = True
        elif block.kind == "generator":
            _generator(scan, schema, block)
    if schema.non_relational:
        scan.note("non-relational-stores:", "prisma-mongodb", name=project.schema_files[0])
        return schema
    kinds = {b.name: b.kind for _, b in blocks if b.kind in ("model", "view", "enum", "type")}
    rules = project.selection.rules
    unverified = 0
    for path, block in blocks:
        if block.kind not in ("model", "view"):
            continue
        unverified += _model(scan, schema, path, block, kinds, rules)
    unverified += _many_to_many(scan, schema, blocks, rules)
    if unverified:
        scan.note(
            "prisma-naming-unverified:",
            "names",
            unverified,
            name=",".join(project.selection.versions) or "version unknown",
        )
    return schema


def _generator(scan: SchemaScan, schema: PrismaSchema, block: Block) -> None:
    provider = string_value(block.settings.get("provider", "")) or ""
    features = string_list(block.settings.get("previewFeatures", "[]")) or []
    if "typedSql" in features:
        schema.typed_sql = True
    if provider in ("prisma-client-js", "prisma-client"):
        schema.client_generators += 1
    output = block.settings.get("output")
    if output is None:
        return
    value = string_value(output)
    if value is None:
        scan.note("unresolved-generator-outputs:", "outputs")
        return
    target = paths.join(schema.project.schema_root, value)
    if paths.is_outside(target):
        scan.note("unresolved-generator-outputs:", "outside-project")
        return
    schema.generator_outputs.append(target)


def _model(
    scan: SchemaScan,
    schema: PrismaSchema,
    path: str,
    block: Block,
    kinds: dict[str, str],
    rules: tuple[str, ...],
) -> int:
    db_schema = _schema_name(block)
    if block.attribute("ignore") is not None:
        scan.note("ignored-prisma-elements:", "models")
        schema.models[block.name] = Model(block.name, None, {}, True)
        return 0
    names = [naming.table_name(rule, block.name, _mapped(block)) for rule in rules]
    table = naming.agreed(list(names))
    usr = model_id(path, block.name)
    if table is None:
        scan.add(
            relation_use(
                "", path, block.line, block.column, qualified_name=block.name, usr=usr, dynamic=True
            )
        )
        schema.models[block.name] = Model(block.name, None, {}, False)
        return 1
    relation = channel(table, db_schema)
    scan.add(
        relation_use(relation, path, block.line, block.column, qualified_name=block.name, usr=usr)
    )
    model = Model(block.name, relation, {}, False)
    schema.models[block.name] = model
    for item in block.fields:
        base = item.type
        if base.startswith("Unsupported(") or base in SCALARS or kinds.get(base) == "enum":
            pass
        elif kinds.get(base) in ("model", "view", "type"):
            continue  # relation fields and composite types are not columns
        else:
            scan.note("unresolved-field-types:", "fields", name=f"{block.name}.{item.name}")
            continue
        if item.attribute("ignore") is not None:
            scan.note("ignored-prisma-elements:", "fields")
            continue
        column = _mapped(item) or item.name
        model.columns[item.name] = column
        scan.add(
            relation_use(
                relation,
                path,
                item.line,
                item.column,
                method=column,
                qualified_name=f"{block.name}.{item.name}",
                usr=model_id(path, f"{block.name}.{item.name}"),
            )
        )
    return 0


def _many_to_many(
    scan: SchemaScan, schema: PrismaSchema, blocks: list[tuple[str, Block]], rules: tuple[str, ...]
) -> int:
    """Implicit join tables: a relation whose two sides are both lists."""
    models = {b.name: (path, b) for path, b in blocks if b.kind == "model"}
    sides: dict[tuple[str, str], list[tuple[str, Block, Field]]] = {}
    for path, block in models.values():
        if block.attribute("ignore") is not None:
            continue
        for item in block.fields:
            if not item.is_list or item.type not in models or item.attribute("ignore") is not None:
                continue
            relation = _relation_name(item) or naming.default_relation_name(block.name, item.type)
            pair = tuple(sorted((block.name, item.type)))
            sides.setdefault((relation, pair[0] + "\0" + pair[1]), []).append((path, block, item))
    unverified = 0
    for (relation, _), found in sorted(sides.items()):
        if len(found) != 2:
            continue  # one list side: a one-to-many relation, its foreign key is a scalar field
        found.sort(key=lambda side: (side[1].name, side[2].line))
        path, model_a, first = found[0]
        exists = [naming.RULES[rule].implicit_many_to_many for rule in rules]
        qualified = f"{model_a.name}.{first.name}"
        usr = model_id(path, qualified)
        table = naming.join_table_name(relation, schema.provider)
        if not any(exists):
            continue
        if not all(exists) or table is None:
            # The naming rules in play disagree on whether the join table exists, or its
            # name is too long for one: a relation is used, under a name not written here.
            if not all(exists):
                unverified += 1
            else:
                scan.note(
                    "dynamic-relation-names:",
                    "identifiers-over-63-bytes",
                    at=(path, first.line),
                )
            scan.add(
                relation_use(
                    "",
                    path,
                    first.line,
                    first.column,
                    qualified_name=qualified,
                    usr=usr,
                    dynamic=True,
                )
            )
            continue
        join = channel(table, _schema_name(model_a))
        scan.add(
            relation_use(join, path, first.line, first.column, qualified_name=qualified, usr=usr)
        )
        for column in ("A", "B"):
            scan.add(
                relation_use(
                    join,
                    path,
                    first.line,
                    first.column,
                    method=column,
                    qualified_name=qualified,
                    usr=usr,
                )
            )
    return unverified
