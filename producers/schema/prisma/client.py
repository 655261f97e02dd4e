"""Prisma Client usage as relation-use facts: delegate accesses, column keys, raw SQL.

`client.<delegate>` on a proven client (see client_provenance.py) is a fact for the
model's table at the delegate name; the top-level keys of `select`, `omit`,
`where`, `data`, `cursor`, `create`, `update` and `orderBy`, and the strings of
`distinct` and `by`, are column facts when they name a scalar field. A computed
or unknown delegate on a client is a dynamic fact; a delegate call on a receiver
that is not proven is counted under unresolved-client-receivers:. Mock setup
(`db.user.findUnique.mockResolvedValue(…)`, `jest.spyOn(db.user, "findMany")`,
see mocks.py) is never a query, whatever the receiver.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tsograph.producers.lang.syntax_read import object_entries
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_read import unwrap
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import mocks
from tsograph.producers.schema.prisma import raw_sql
from tsograph.producers.schema.prisma.client_provenance import ClientFile
from tsograph.producers.schema.prisma.client_provenance import ClientIndex
from tsograph.producers.schema.prisma.declarations import Model
from tsograph.producers.schema.prisma.declarations import PrismaSchema
from tsograph.producers.schema.schema_scan import SchemaScan
from tsograph.producers.values.budget import MAX_DEPTH

OPERATIONS = frozenset(
    {
        "findUnique",
        "findUniqueOrThrow",
        "findFirst",
        "findFirstOrThrow",
        "findMany",
        "create",
        "createMany",
        "createManyAndReturn",
        "update",
        "updateMany",
        "updateManyAndReturn",
        "upsert",
        "delete",
        "deleteMany",
        "count",
        "aggregate",
        "groupBy",
    }
)
OBJECT_KEYS = ("select", "omit", "where", "data", "cursor", "create", "update", "orderBy")
STRING_KEYS = ("distinct", "by")
# Prisma's logical filters: a WhereInput's AND, OR and NOT hold WhereInputs of the same model
# (@prisma/client 6.5.0 reserves the three as field names: generator-build/index.js).
_LOGICAL = frozenset({"AND", "OR", "NOT"})


def _schema_for(schemas: list[PrismaSchema], path: str) -> list[PrismaSchema]:
    """The schemas whose base folder holds the file (nearest first), else all of them."""
    holding = [s for s in schemas if not s.project.base or path.startswith(s.project.base + "/")]
    holding.sort(key=lambda s: -len(s.project.base))
    return holding or schemas


def _model(schemas: list[PrismaSchema], delegate: str) -> Model | None:
    for schema in schemas:
        found = schema.model_of_delegate(delegate)
        if found is not None:
            return found
    return None


def _delegates(schemas: list[PrismaSchema]) -> set[str]:
    names: set[str] = set()
    for schema in schemas:
        for model in schema.models.values():
            names.update((model.name, model.name[:1].lower() + model.name[1:]))
    return names


def collect(scan: SchemaScan, schemas: list[PrismaSchema]) -> None:
    if not schemas:
        return
    outputs = [out for schema in schemas for out in schema.generator_outputs]
    index = ClientIndex(scan, outputs)
    delegates = _delegates(schemas)
    # Only files that could hold a fact are parsed: raw SQL, a known delegate after a
    # dot, or a computed delegate followed by an operation (`prisma[name].findMany(`).
    gate = re.compile(
        rb"\$(?:queryRaw|executeRaw|transaction)|Prisma\s*\.\s*sql|\.\s*(?:"
        + b"|".join(re.escape(name.encode()) for name in sorted(delegates) or ["\0"])
        + rb")\b|\]\s*\??\.\s*(?:"
        + b"|".join(name.encode() for name in sorted(OPERATIONS))
        + rb")\s*\("
    )
    for path in scan.files.sources:
        data = scan.data(path)
        if data is None or gate.search(data) is None:
            continue
        info = index.file(path)
        if info is None:
            continue
        _scan_file(scan, index, info, _schema_for(schemas, path))


def _scan_file(
    scan: SchemaScan, index: ClientIndex, info: ClientFile, schemas: list[PrismaSchema]
) -> None:
    def is_client(node: Node) -> bool:
        try:
            return index.is_client(info, node)
        except RecursionError:
            # Nested deeper than the interpreter allows: this receiver is not proven.
            scan.note("provenance-truncated:", "nesting", name=info.path)
            return False

    for node in info.file.root.walk():
        if node.kind == "member":
            _member(scan, is_client, info, node, schemas)
        elif node.kind == "index":
            obj = node.part("object")
            if obj is not None and not mocks.in_mock_setup(node) and is_client(obj):
                _subscript(scan, info, node, schemas)
    raw_sql.collect_file(scan, info.file, info.path, info.prisma_namespaces, is_client)


def _member(
    scan: SchemaScan,
    is_client: Callable[[Node], bool],
    info: ClientFile,
    node: Node,
    schemas: list[PrismaSchema],
) -> None:
    prop = node.part("property")
    obj = node.part("object")
    if prop is None or obj is None or prop.value is None or prop.value.startswith("#"):
        return
    name = prop.value
    if name.startswith("$") or mocks.in_mock_setup(node):
        return
    operation, call = _operation(node)
    model = _model(schemas, name)
    if model is None and operation is None:
        return
    if not is_client(obj):
        if operation is not None and model is not None:
            scan.note("unresolved-client-receivers:", "calls", at=scan.place(info.file, prop.start))
        return
    if model is None:
        _dynamic_delegate(scan, info, prop.start, "unknown-delegates")
        return
    if model.ignored:
        return
    if model.table is None:
        scan.source_fact(info.file, prop.start, "", dynamic=True)
        return
    scan.source_fact(info.file, prop.start, model.table)
    if call is not None:
        _columns(scan, info, call, model)


def _dynamic_delegate(scan: SchemaScan, info: ClientFile, offset: int, reason: str) -> None:
    """A delegate whose model is not proven: a dynamic use, counted with its reason."""
    scan.note("dynamic-relation-names:", reason, at=scan.place(info.file, offset))
    scan.source_fact(info.file, offset, "", dynamic=True)


def _operation(member: Node) -> tuple[str | None, Node | None]:
    """`x.delegate.op(…)`: (op, the call) when the member is followed by a known operation."""
    parent = member.parent
    if parent is not None and parent.kind == "index" and parent.part("object") is member:
        key = parent.part("index")
        operation = None if key is None else string_value(key)
    elif parent is not None and parent.kind == "member" and parent.part("object") is member:
        prop = parent.part("property")
        operation = None if prop is None else prop.value
    else:
        return None, None
    call = parent.parent
    if (
        operation not in OPERATIONS
        or call is None
        or call.kind != "call"
        or call.part("callee") is not parent
    ):
        return None, None
    return operation, call


def _subscript(scan: SchemaScan, info: ClientFile, node: Node, schemas: list[PrismaSchema]) -> None:
    index_node = node.part("index")
    value = None if index_node is None else string_value(index_node)
    model = None if value is None else _model(schemas, value)
    if value is not None and value.startswith("$"):
        return
    if model is None or model.table is None:
        _dynamic_delegate(scan, info, node.start, "computed-delegates")
        return
    if model.ignored:
        return
    scan.source_fact(info.file, (index_node or node).start, model.table)
    _operation_call = _operation(node)[1]
    if _operation_call is not None:
        _columns(scan, info, _operation_call, model)


def _object_columns(
    scan: SchemaScan,
    info: ClientFile,
    model: Model,
    table: str,
    value: Node,
    *,
    logical: bool,
    depth: int = 0,
) -> None:
    """The model's columns an object (or array of objects) names by key. In a `where`
    (`logical`), AND, OR and NOT hold filters of the same model, an object or a list of
    them (Prisma's WhereInput); they are read too, to the shared depth budget."""
    objects = (
        [value]
        if value.kind == "object"
        else [unwrap(item) for item in value.items if value.kind == "array"]
    )
    for obj in objects:
        if obj.kind != "object":
            continue
        for field_name, key_node, item in object_entries(obj):
            column = model.columns.get(field_name)
            if column is not None:
                scan.source_fact(info.file, key_node.start, table, method=column)
            elif logical and field_name in _LOGICAL and item is not None and depth < MAX_DEPTH:
                _object_columns(
                    scan, info, model, table, unwrap(item), logical=True, depth=depth + 1
                )


def _columns(scan: SchemaScan, info: ClientFile, call: Node, model: Model) -> None:
    first = call.items[0] if call.items else None
    if first is None or unwrap(first).kind != "object" or model.table is None:
        return
    for key, _, value in object_entries(unwrap(first)):
        if value is None:
            continue
        value = unwrap(value)
        if key in OBJECT_KEYS:
            _object_columns(scan, info, model, model.table, value, logical=key == "where")
        elif key in STRING_KEYS:
            items = value.items if value.kind == "array" else (value,)
            for item in items:
                named = string_value(item)
                column = None if named is None else model.columns.get(named)
                if column is not None:
                    scan.source_fact(info.file, item.start, model.table, method=column)
