"""SQLAlchemy 1.4/2.x declarative models, Flask-SQLAlchemy and SQLModel tables, and their queries.

Naming, as SQLAlchemy 2.0.x declarative decides it (checked on the fixtures by
oracle/python-schema/, which dumps `MetaData.tables`):

* A class is mapped when a base in its bases is a declarative base:
  `declarative_base()` (sqlalchemy.orm / sqlalchemy.ext.declarative),
  `registry().generate_base()`, a subclass of `DeclarativeBase` /
  `DeclarativeBaseNoMeta`, Flask-SQLAlchemy's `db.Model`, or SQLModel's
  `SQLModel` with `table=True`; or a base that is itself mapped. A class with
  `__abstract__ = True` has no table; its columns go to its subclasses, as
  do the columns of plain mixin classes.
* Table: `__tablename__` (a proven string); `__table__ = Table(...)`;
  without either, a mapped parent's table (single-table inheritance);
  SQLModel: the class name lowercased (sqlmodel's `__tablename__`
  declared_attr); Flask-SQLAlchemy 3.x: the class name in snake case
  (`camel_to_snake_case`) when no mapped parent exists. A `declared_attr`
  `__tablename__` of a mixin or of the declarative base is evaluated on the
  class name where declared_tablename.py reads its body; one it does not read,
  or a `__tablename__` that is not a proven string, is counted under
  `orm-naming-unverified:`.
* Schema: `__table_args__` as a dict, or a tuple ending in a dict, with
  `"schema"`; else the default schema of the MetaData the model's own base uses
  (table_schema.py), not proven when it is not read. A `schema_translate_map`
  anywhere in the project, or an assignment to a `.schema`, makes the names of
  the tables it may move dynamic.
* Column: `Column(...)`/`mapped_column(...)` (also `db.Column`); the name is
  the first positional argument when it is a string, else `name=`, else the
  attribute key (`key=` renames the attribute, not the column). A bare
  `attr: Mapped[...]` annotation is a column named `attr`. SQLModel: every
  annotated field that is not a `Relationship(...)` or `ClassVar`, named by
  the attribute (or `sa_column=Column("name")`).
* `Table("name", metadata, Column("c"), ..., schema=...)`: association tables
  and other Core tables (without `schema=`, the default schema of `metadata`).

Queries: `select/insert/update/delete(Model)` (sqlalchemy, sqlmodel), `.query(Model)`,
`.get(Model, …)`, `.select_from/.join/.outerjoin(Model)`, `.add/.delete/.merge(instance)` of a
model instance (`Model(…)`, SQLModel's `Model.model_validate(…)`, a parameter annotated with the
model and never rebound), Flask-SQLAlchemy
`Model.query`, and `Model.attr` for a column attribute (a column fact), also in the model's
own methods (not in its class body: configuration), and `cls.query`/`cls.attr` in a
classmethod of a model no project model subclasses.
"""

from __future__ import annotations

import re

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.python_client.class_fields import decorator_name
from tsograph.producers.routes.python_client.class_fields import method_of
from tsograph.producers.routes.python_client.evaluator import Cls
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.evaluator import Mapping
from tsograph.producers.routes.python_client.evaluator import Obj
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.routes.python_client.scopes import nodes
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema.python.declared_tablename import declared_tablename
from tsograph.producers.schema.python.handles import BASE
from tsograph.producers.schema.python.handles import DB
from tsograph.producers.schema.python.handles import ClassKinds
from tsograph.producers.schema.python.handles import class_bases
from tsograph.producers.schema.python.models import DeclaredModel
from tsograph.producers.schema.python.models import ModelIndex
from tsograph.producers.schema.python.relation_scan import PySchemaScan
from tsograph.producers.schema.python.table_schema import UNPROVEN
from tsograph.producers.schema.python.table_schema import Schema
from tsograph.producers.schema.python.table_schema import Translation
from tsograph.producers.schema.python.table_schema import bind_key_unproven
from tsograph.producers.schema.python.table_schema import class_schema
from tsograph.producers.schema.python.table_schema import core_table_schema
from tsograph.producers.schema.python.table_schema import schema_assigned
from tsograph.producers.schema.python.table_schema import translations
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.python.class_bodies import body_assignment
from tsograph.producers.values.python.class_bodies import defines
from tsograph.producers.values.python.literals import Seq
from tsograph.producers.values.unknown import UNKNOWN

_BASE_CLASSES = frozenset(
    {
        ("sqlalchemy", "orm", "DeclarativeBase"),
        ("sqlalchemy", "orm", "DeclarativeBaseNoMeta"),
    }
)
_COLUMN = frozenset({"Column", "mapped_column"})
_QUERY_BUILDERS = frozenset({"select", "insert", "update", "delete"})
_SESSION_CLASS_ARGS = frozenset({"query", "get", "get_one", "select_from", "join", "outerjoin"})
_SESSION_INSTANCE_ARGS = frozenset({"add", "delete", "merge", "add_all"})
_FIRST_CAP = re.compile(r"(.)([A-Z][a-z]+)")
_ALL_CAP = re.compile(r"([a-z0-9])([A-Z])")


Models = ModelIndex[DeclaredModel]


def _is_sqla(path: tuple[str, ...]) -> bool:
    return path[0] in ("sqlalchemy", "sqlmodel") or (len(path) > 1 and path[1] == DB)


def _sqla_call(ev: Evaluator, ctx: Context, node: Node | None, name: str) -> Arguments[Node] | None:
    """The arguments of a call of SQLAlchemy's (or Flask-SQLAlchemy's `db.`) `name`."""
    if node is None or node.kind != "call":
        return None
    callee = ev.value(ctx, node.part("callee"))
    if not isinstance(callee, Lib) or callee.path[-1] != name or not _is_sqla(callee.path):
        return None
    return Arguments.of(node)


def snake_case(name: str) -> str:
    """Flask-SQLAlchemy 3.1 model.py camel_to_snake_case."""
    name = re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name)
    return name.lower().lstrip("_")


class Classifier:
    def __init__(self, scan: PySchemaScan) -> None:
        self.scan = scan
        self.project = scan.project
        self.kinds = ClassKinds(self.project, "plain", self._kind)  # a cycle stays plain
        self.models = Models()
        self.translation = Translation()
        self.schema_assigned = False

    def kind(self, ctx: Context, cls: Node) -> str:
        """base | model | abstract | plain (a mixin or any other class) | sqlmodel-plain."""
        return self.kinds.of(ctx, cls)

    def _kind(self, ctx: Context, cls: Node, bases: list[Value]) -> str:
        found = "plain"
        for value in bases:
            if isinstance(value, Lib):
                if value.path in _BASE_CLASSES:
                    found = "base"
                elif value.path in (("sqlalchemy", BASE), ("flask_sqlalchemy", DB, "Model")):
                    found = "model"
                elif value.path == ("sqlmodel", "SQLModel"):
                    found = "sqlmodel" if _table_keyword(cls) else "sqlmodel-base"
            elif isinstance(value, Cls):
                parent = self.kinds.parent(value)
                if parent is None:
                    continue
                if parent in ("base", "model", "abstract"):
                    found = "model" if found == "plain" else found
                if parent in ("sqlmodel", "sqlmodel-base") and _table_keyword(cls):
                    found = "sqlmodel"
                elif parent in ("sqlmodel", "sqlmodel-base") and found == "plain":
                    found = "sqlmodel-base"
            if found in ("base", "sqlmodel"):
                break
        if found == "model":
            flag = body_assignment(cls, "__abstract__")
            if flag is not None and flag.kind == "boolean" and flag.value == "true":
                found = "abstract"
        return found


def _table_keyword(cls: Node) -> bool:
    bases = cls.part("bases")
    for item in bases.items if bases is not None else ():
        if item.kind == "keyword" and item.value == "table":
            value = item.part("value")
            return value is not None and value.kind == "boolean" and value.value == "true"
    return False


def collect_models(scan: PySchemaScan) -> Models:
    classifier = Classifier(scan)
    contexts = _model_files(scan)
    classifier.translation = translations(scan.contexts())
    classifier.schema_assigned = schema_assigned(contexts)
    pending: list[tuple[Context, Node]] = []
    for ctx in contexts:
        for node in nodes(ctx.root):
            if node.kind == "class" and classifier.kind(ctx, node) in ("model", "sqlmodel"):
                pending.append((ctx, node))
    # Parents before children: a single-table child needs its parent's table.
    pending.sort(key=lambda item: _depth(classifier, item[0], item[1]))
    for ctx, node in pending:
        _model(classifier, ctx, node)
    for ctx in contexts:
        _tables(classifier, ctx)
    return classifier.models


def _model_files(scan: PySchemaScan) -> list[Context]:
    """The files that mention SQLAlchemy or SQLModel, and those that import them, directly
    or not: models may subclass a base another module re-exports (`Model = db.Model` in
    flask-realworld's conduit/database.py) and never name the library themselves."""
    every = scan.contexts()
    chosen = {ctx.path for ctx in every if _mentions(ctx, (b"sqlalchemy", b"sqlmodel"))}
    importers: dict[str, set[str]] = {}
    for ctx in every:
        if ctx.path in chosen:
            continue
        for item in ctx.syntax.facts.imports:
            found = scan.project.modules.resolve(ctx.path, item.specifier)
            if found.kind == "module" and found.path:
                importers.setdefault(found.path, set()).add(ctx.path)
    work = sorted(chosen)
    while work:
        for importer in sorted(importers.get(work.pop(), ())):
            if importer not in chosen:
                chosen.add(importer)
                work.append(importer)
    return [ctx for ctx in every if ctx.path in chosen]


def _mentions(ctx: Context, words: tuple[bytes, ...]) -> bool:
    return any(word in ctx.syntax.data for word in words)


def _depth(classifier: Classifier, ctx: Context, cls: Node, seen: int = 0) -> int:
    if seen > 32:
        return seen
    best = 0
    for value in classifier.kinds.bases(ctx, cls):
        if isinstance(value, Cls):
            parent_ctx = classifier.project.context(value.path)
            if parent_ctx is not None:
                best = max(best, 1 + _depth(classifier, parent_ctx, value.node, seen + 1))
    return best


def _model(classifier: Classifier, ctx: Context, cls: Node) -> None:
    scan = classifier.scan
    name_node = cls.part("name")
    name = name_node.value if name_node is not None and name_node.value else ""
    kind = classifier.kind(ctx, cls)
    ev = Evaluator(classifier.project)
    mapped_parent = _mapped_parent(classifier, ctx, cls)
    table: str | None = None
    schema: Schema | None = None
    if defines(cls, "__tablename__"):
        found = body_assignment(cls, "__tablename__")
        value = ev.value(ctx, found) if found is not None and found.kind != "assign" else UNKNOWN
        if not isinstance(value, str) or HOLE in value:
            scan.note_at("orm-naming-unverified:", "tablename", ctx, cls)
            return
        table = value
    elif body_assignment(cls, "__table__") is not None:
        found = body_assignment(cls, "__table__")
        table_call = _table_call(classifier.project, ev, ctx, found)
        if table_call is None:
            scan.note_at("unreadable-orm-declarations:", "table", ctx, cls)
            return
        table, schema = table_call[0], table_call[1]
    elif _inherited_tablename(classifier, ctx, cls):
        table = _declared_tablename(classifier, ctx, cls, name, mapped_parent)
        if table is None:
            scan.note_at("orm-naming-unverified:", "declared-tablename", ctx, cls)
            return
    elif mapped_parent is not None:
        model = DeclaredModel(name, ctx, cls, mapped_parent.table, mapped_parent.dynamic)
        classifier.models.by_class[id(cls)] = model
        classifier.models.names.add(name)
        scan.declaration(ctx.syntax, (name_node or cls).start, model.table, name)
        _columns(classifier, ctx, cls, model, own_only=True)
        model.columns = {**mapped_parent.columns, **model.columns}
        return
    elif kind == "sqlmodel":
        table = name.lower()
    elif _flask_model(classifier, ctx, cls):
        table = snake_case(name)
    else:
        scan.note_at("unreadable-orm-declarations:", "no-tablename", ctx, cls)
        return
    if schema is None:
        given, readable = _table_args_schema(ev, ctx, cls)
        if readable and not defines(cls, "__table_args__"):
            given, readable = _inherited_table_args(classifier, ctx, cls, mapped_parent)
        if not readable:
            scan.note_at("orm-naming-unverified:", "table-args", ctx, cls)
            schema = UNPROVEN
        elif given is not None:
            schema = Schema(True, given)
        else:
            schema = _default_schema(classifier, ctx, cls)
    dynamic = _unproven(classifier, ctx, cls, schema)
    model = DeclaredModel(name, ctx, cls, fact_builder.channel(table, schema.name), dynamic)
    classifier.models.by_class[id(cls)] = model
    classifier.models.names.add(name)
    scan.declaration(ctx.syntax, (name_node or cls).start, model.table, name, dynamic=model.dynamic)
    _columns(classifier, ctx, cls, model, own_only=False)


def _default_schema(classifier: Classifier, ctx: Context, cls: Node) -> Schema:
    """The default schema of the MetaData the model's table is in (table_schema.py)."""
    model = Cls(ctx.path, cls)
    found = class_schema(classifier.project, model)
    if _flask_model(classifier, ctx, cls) and bind_key_unproven(classifier.project, model, found):
        return UNPROVEN
    if not found.proven:
        classifier.scan.note_at("orm-naming-unverified:", "metadata-schema", ctx, cls)
    return found


def _unproven(classifier: Classifier, ctx: Context, at: Node, schema: Schema) -> bool:
    """Whether a table in `schema` has a name the code does not prove: its schema is not
    read, or a `schema_translate_map` or an assignment to a `.schema` may move it at run
    time."""
    if not schema.proven:
        return True
    if classifier.schema_assigned:
        classifier.scan.note_at("orm-naming-unverified:", "schema-assigned", ctx, at)
        return True
    if classifier.translation.moves(schema):
        classifier.scan.note_at("orm-naming-unverified:", "schema-translate-map", ctx, at)
        return True
    return False


def _mapped_parent(classifier: Classifier, ctx: Context, cls: Node) -> DeclaredModel | None:
    for value in classifier.kinds.bases(ctx, cls):
        found = classifier.models.of(value)
        if found is not None:
            return found
    return None


def _flask_model(classifier: Classifier, ctx: Context, cls: Node) -> bool:
    for value in classifier.kinds.bases(ctx, cls):
        if isinstance(value, Lib) and value.path == ("flask_sqlalchemy", DB, "Model"):
            return True
        if isinstance(value, Cls):
            parent_ctx = classifier.project.context(value.path)
            if parent_ctx is not None and _flask_model(classifier, parent_ctx, value.node):
                return True
    return False


def _inherited_tablename(classifier: Classifier, ctx: Context, cls: Node) -> bool:
    """A non-mapped base (mixin, abstract class) that defines `__tablename__`."""
    for value in classifier.kinds.bases(ctx, cls):
        if isinstance(value, Cls) and classifier.models.of(value) is None:
            parent_ctx = classifier.project.context(value.path)
            if parent_ctx is None:
                continue
            if defines(value.node, "__tablename__") or _inherited_tablename(
                classifier, parent_ctx, value.node
            ):
                return True
    return False


def _declared_tablename(
    classifier: Classifier,
    ctx: Context,
    cls: Node,
    name: str,
    mapped_parent: DeclaredModel | None,
) -> str | None:
    """The name a `declared_attr` `__tablename__` of a mixin or of the declarative base
    gives the model (declared_tablename.py): only where one class of its ancestry defines
    `__tablename__`, as a function, and every other base is a project class, `object` or
    a SQLAlchemy declarative base (a library class might define it too). Not for a
    subclass of a mapped model (the directive then decides the inheritance) or a
    Flask-SQLAlchemy model (its own naming takes part)."""
    if mapped_parent is not None or _flask_model(classifier, ctx, cls):
        return None
    definers: dict[int, tuple[Context, Node]] = {}
    seen: set[int] = set()
    work = [(ctx, cls)]
    while work:
        current_ctx, current = work.pop()
        if id(current) in seen:
            continue  # a mixin reached twice (a diamond)
        if len(seen) > 32:
            return None
        seen.add(id(current))
        if current is not cls and defines(current, "__tablename__"):
            definers[id(current)] = (current_ctx, current)
        written = current.part("bases")
        for item in written.items if written is not None else ():
            if item.kind == "keyword":
                continue
            base = Evaluator(classifier.project).value(current_ctx, item)
            if isinstance(base, Cls):
                base_ctx = classifier.project.context(base.path)
                if base_ctx is None:
                    return None
                work.append((base_ctx, base.node))
            elif not _plain_root(classifier.project, current_ctx, item, base):
                return None
    if len(definers) != 1:
        return None
    home, definer = next(iter(definers.values()))
    functions = [
        item
        for item in definer.items
        if item.kind == "function"
        and (part := item.part("name")) is not None
        and part.value == "__tablename__"
    ]
    if len(functions) != 1 or body_assignment(definer, "__tablename__") is not None:
        return None
    return declared_tablename(classifier.project, home, functions[0], name)


def _plain_root(project: PyProject, ctx: Context, item: Node, base: Value) -> bool:
    """A base that defines no `__tablename__`: the builtin `object` or a declarative base
    of SQLAlchemy's made without `cls=` (`declarative_base(cls=X)` and
    `generate_base(cls=X)` derive from X, which may define one)."""
    if isinstance(base, Lib) and base.path == ("sqlalchemy", BASE):
        origin = base.origin
        made_in = project.context(origin[0]) if origin is not None else None
        if origin is None or made_in is None:
            return False
        made_by = Evaluator(project).value(made_in, origin[1].part("callee"))
        args = Arguments.of(origin[1])
        return (
            isinstance(made_by, Lib)
            and made_by.path[-1] == "declarative_base"
            and not args.open
            and "cls" not in args.keywords
        )
    if isinstance(base, Lib):
        return base.path in _BASE_CLASSES
    return (
        item.kind == "identifier"
        and item.value == "object"
        and ctx.scopes.lookup(item, "object") is None
        and not ctx.scopes.written_globally("object")
    )


def _inherited_table_args(
    classifier: Classifier, ctx: Context, cls: Node, mapped_parent: DeclaredModel | None
) -> tuple[str | None, bool]:
    """(schema, readable) from a `__table_args__` the model inherits. SQLAlchemy 2.0.58
    (decl_base._scan_attributes) takes one of a mixin, an abstract class or the
    declarative base (`class A(InSchema, Base)` is `mix.a`), not a plain one of a mapped
    parent: read only where a single class of the ancestry defines it and the model has
    no mapped parent (whose own mixins take part too)."""
    definers: dict[int, tuple[Context, Node]] = {}
    seen: set[int] = set()
    work = [(ctx, cls)]
    while work:
        current_ctx, current = work.pop()
        if id(current) in seen or len(seen) > 32:
            continue
        seen.add(id(current))
        if current is not cls and defines(current, "__table_args__"):
            definers[id(current)] = (current_ctx, current)
        for base in classifier.kinds.bases(current_ctx, current):
            base_ctx = classifier.project.context(base.path) if isinstance(base, Cls) else None
            if isinstance(base, Cls) and base_ctx is not None:
                work.append((base_ctx, base.node))
    ev = Evaluator(classifier.project)
    found = [
        _table_args_schema(ev, home, definer)
        if body_assignment(definer, "__table_args__") is not None
        else (None, False)  # a declared_attr
        for home, definer in definers.values()
    ]
    if all(item == (None, True) for item in found):
        return None, True  # none of them names a schema (constraints only)
    if mapped_parent is not None or len(found) > 1:
        return None, False
    return found[0]


def _table_args_schema(ev: Evaluator, ctx: Context, cls: Node) -> tuple[str | None, bool]:
    """(schema, readable) from `__table_args__`: a dict, or a tuple whose last item may be
    one (the others are constraints)."""
    if not defines(cls, "__table_args__"):
        return None, True
    found = body_assignment(cls, "__table_args__")
    if found is not None and found.kind == "array" and found.items:
        found = found.items[-1]
        if found.kind == "call":
            return None, True  # a constraint or an index
    if found is None or found.kind != "object":
        return None, False
    value = ev.value(ctx, found)
    if not isinstance(value, Mapping):
        return None, False
    schema = dict(value.items).get("schema")
    if schema is None:
        return None, True
    if isinstance(schema, str) and HOLE not in schema:
        return schema, True
    return None, False


def _table_call(
    project: PyProject, ev: Evaluator, ctx: Context, node: Node | None
) -> tuple[str, Schema, Node] | None:
    """(name, schema, call) of a `Table("name", metadata, …, schema=…)` call: its own
    schema, else its MetaData's default one."""
    args = _sqla_call(ev, ctx, node, "Table")
    if node is None or args is None:
        return None
    name = ev.value(ctx, args.get(0, "name"))
    if not isinstance(name, str) or HOLE in name:
        return None
    schema_node = args.keywords.get("schema")
    if schema_node is None:
        callee = ev.value(ctx, node.part("callee"))
        if args.open or not isinstance(callee, Lib):
            return name, UNPROVEN, node
        return name, core_table_schema(project, ev, ctx, callee, args), node
    schema = ev.value(ctx, schema_node)
    if not isinstance(schema, str) or HOLE in schema:
        return None
    return name, Schema(True, schema), node


def _columns(
    classifier: Classifier, ctx: Context, cls: Node, model: DeclaredModel, *, own_only: bool
) -> None:
    """The columns of a model: its own, then those of mixins and abstract parents."""
    _own_columns(classifier, ctx, cls, model, ctx)
    if own_only:
        return
    seen: set[int] = {id(cls)}
    stack = [value for value in classifier.kinds.bases(ctx, cls) if isinstance(value, Cls)]
    while stack:
        value = stack.pop(0)
        if id(value.node) in seen or classifier.models.of(value) is not None:
            continue
        seen.add(id(value.node))
        parent_ctx = classifier.project.context(value.path)
        if parent_ctx is None:
            continue
        _own_columns(classifier, parent_ctx, value.node, model, ctx)
        stack.extend(
            v for v in classifier.kinds.bases(parent_ctx, value.node) if isinstance(v, Cls)
        )


def _own_columns(
    classifier: Classifier, ctx: Context, cls: Node, model: DeclaredModel, model_ctx: Context
) -> None:
    ev = Evaluator(classifier.project)
    sqlmodel = classifier.kind(model_ctx, model.node) == "sqlmodel"
    for statement in cls.items:
        assign = statement.part("value") if statement.kind == "statement" else None
        if assign is None or assign.kind != "assign" or assign.value != "=":
            continue
        left = assign.part("left")
        if left is None or left.kind != "identifier" or not left.value:
            continue
        attr = left.value
        if attr.startswith("__") or attr in model.columns:
            continue
        right = assign.part("right")
        annotation = assign.part("type")
        column = _column_name(ev, ctx, attr, right, annotation, sqlmodel)
        if column is None:
            if right is not None and right.kind == "call":
                made_by = ev.value(ctx, right.part("callee"))
                if not isinstance(made_by, (Lib, Cls)):
                    # `author_id = reference_col("users")`, `id = primary_key("X")`: a
                    # helper that may return a Column, not followed.
                    classifier.scan.note_at(
                        "unreadable-orm-declarations:", "column-call", ctx, right
                    )
            continue
        model.columns[attr] = column
        qualified = f"{model.name}.{attr}"
        classifier.scan.declaration(
            ctx.syntax,
            left.start,
            model.table,
            qualified,
            column,
            model_path=model_ctx.path,
            dynamic=model.dynamic,
        )


def _column_name(
    ev: Evaluator,
    ctx: Context,
    attr: str,
    right: Node | None,
    annotation: Node | None,
    sqlmodel: bool,
) -> str | None:
    annotated = ctx.syntax.text(annotation) if annotation is not None else ""
    if right is None:
        if re.match(r"^(?:\w+\.)?Mapped\[", annotated):
            return attr
        if sqlmodel and annotated and not annotated.startswith("ClassVar"):
            return attr
        return None
    if right.kind == "call":
        callee = ev.value(ctx, right.part("callee"))
        if isinstance(callee, Lib) and _is_sqla(callee.path):
            last = callee.path[-1]
            args = Arguments.of(right)
            if last in _COLUMN:
                first = ev.value(ctx, args.positional[0]) if args.positional else None
                if isinstance(first, str):
                    return first
                named = args.keywords.get("name")
                if named is not None:
                    value = ev.value(ctx, named)
                    return value if isinstance(value, str) else None
                return attr
            if sqlmodel and last == "Field":
                column = args.keywords.get("sa_column")
                if column is not None:
                    return _column_name(ev, ctx, attr, column, None, False)
                return attr
            return None
    if sqlmodel and annotated and not annotated.startswith("ClassVar"):
        return attr  # a field with a plain default value
    return None


def _tables(classifier: Classifier, ctx: Context) -> None:
    """Core `Table(...)` declarations (association tables and the like)."""
    ev = Evaluator(classifier.project)
    for node in nodes(ctx.root):
        if node.kind != "call":
            continue
        found = _table_call(classifier.project, ev, ctx, node)
        if found is None:
            continue
        parent = node.parent
        if parent is not None and parent.kind == "assign":
            left = parent.part("left")
            if left is not None and left.value == "__table__":
                continue  # declared with its class
        name, schema, _ = found
        qualified = name
        if parent is not None and parent.kind == "assign":
            left = parent.part("left")
            if left is not None and left.kind == "identifier" and left.value:
                qualified = left.value
        if not schema.proven:
            classifier.scan.note_at("orm-naming-unverified:", "metadata-schema", ctx, node)
        dynamic = _unproven(classifier, ctx, node, schema)
        channel = fact_builder.channel(name, schema.name)
        classifier.scan.declaration(ctx.syntax, node.start, channel, qualified, dynamic=dynamic)
        for item in Arguments.of(node).positional[1:]:  # db.Table takes no metadata
            column = _core_column(ev, ctx, item)
            if column is not None:
                classifier.scan.declaration(
                    ctx.syntax,
                    item.start,
                    channel,
                    f"{qualified}.{column}",
                    column,
                    dynamic=dynamic,
                )


def _core_column(ev: Evaluator, ctx: Context, item: Node) -> str | None:
    args = _sqla_call(ev, ctx, item, "Column")
    if args is None:
        return None
    first = ev.value(ctx, args.get(0, "name"))
    return first if isinstance(first, str) and HOLE not in first else None


def collect_queries(scan: PySchemaScan, models: Models) -> None:
    extended = _extended_models(scan, models)
    for ctx, node in models.naming_nodes(scan):
        if node.kind == "call":
            _query_call(scan, models, ctx, node)
        elif node.kind == "member":
            _column_read(scan, models, ctx, node, extended)


def _extended_models(scan: PySchemaScan, models: Models) -> set[int]:
    """The model classes a project model subclasses (their `cls` may be that subclass)."""
    found: set[int] = set()
    for model in models.by_class.values():
        for base in class_bases(scan.project, model.ctx, model.node):
            if isinstance(base, Cls):
                found.add(id(base.node))
    return found


def _classmethod_model(models: Models, owner: Node, extended: set[int]) -> DeclaredModel | None:
    """`cls` in a classmethod of a model: the model, when no project model subclasses it
    (a subclass's `cls.query` may read another table: concrete inheritance). The method
    must be the nearest function around the read and never rebind the name."""
    method, cls = method_of(owner)
    nearest = next((node for node in owner.ancestors() if node.kind == "function"), None)
    if method is None or cls is None or nearest is not method or id(cls) in extended:
        return None
    if not any(decorator_name(item) == "classmethod" for item in method.decorators):
        return None
    params = method.part("parameters")
    first = params.items[0].part("pattern") if params is not None and params.items else None
    if first is None or first.kind != "identifier" or first.value != owner.value:
        return None
    for node in nodes(method):
        if node.kind == "assign":
            left = node.part("left")
            if left is not None and left.kind == "identifier" and left.value == owner.value:
                return None
    return models.by_class.get(id(cls))


def _query_call(scan: PySchemaScan, models: Models, ctx: Context, call: Node) -> None:
    callee_node = call.part("callee")
    if callee_node is None:
        return
    ev = Evaluator(scan.project)
    args = Arguments.of(call)
    if callee_node.kind == "member":
        prop = callee_node.part("property")
        method = prop.value if prop is not None else ""
        if method in _SESSION_CLASS_ARGS and args.positional:
            model = models.of(ev.value(ctx, args.positional[0]))
            if model is not None:
                scan.source_fact(ctx.syntax, call.start, model.table, dynamic=model.dynamic)
            return
        if method in _SESSION_INSTANCE_ARGS and args.positional:
            found = ev.value(ctx, args.positional[0])
            items = found.items if isinstance(found, Seq) else (found,)
            for made in items:
                model = models.of(made.cls) if isinstance(made, Obj) else None
                if model is None and made is UNKNOWN:
                    model = _annotated_parameter(ev, ctx, models, args.positional[0])
                if model is not None:
                    scan.source_fact(ctx.syntax, call.start, model.table, dynamic=model.dynamic)
            return
    callee = ev.value(ctx, callee_node)
    if isinstance(callee, Lib) and callee.path[-1] in _QUERY_BUILDERS and _is_sqla(callee.path):
        for argument in args.positional:
            model = models.of(ev.value(ctx, argument))
            if model is not None:
                scan.source_fact(ctx.syntax, call.start, model.table, dynamic=model.dynamic)


def _annotated_parameter(
    ev: Evaluator, ctx: Context, models: Models, argument: Node
) -> DeclaredModel | None:
    """A parameter the function never rebinds, annotated with a model (`user: User`,
    `User | None`, an `Annotated[User, …]` alias): the instance it declares."""
    if argument.kind != "identifier" or not argument.value:
        return None
    found = ctx.scopes.lookup(argument, argument.value)
    if found is None or len(found[1]) != 1 or found[1][0].kind != "param":
        return None
    annotation = found[1][0].node.part("type")
    if annotation is not None and annotation.kind == "annotation":
        annotation = annotation.part("value")
    if annotation is not None and annotation.kind == "binary" and annotation.value == "|":
        sides = [annotation.part("left"), annotation.part("right")]
        others = [side for side in sides if side is not None and side.kind != "null"]
        annotation = others[0] if len(others) == 1 else None
    return models.of(ev.value(ctx, annotation)) if annotation is not None else None


def _column_read(
    scan: PySchemaScan, models: Models, ctx: Context, member: Node, extended: set[int]
) -> None:
    owner = member.part("object")
    prop = member.part("property")
    if owner is None or prop is None or owner.kind != "identifier":
        return
    if owner.value in models.names:
        model = models.of(Evaluator(scan.project).value(ctx, owner))
    else:
        model = _classmethod_model(models, owner, extended)
    if model is None or _in_class_body(member, model.node):
        return
    if prop.value == "query":
        scan.source_fact(
            ctx.syntax, member.start, model.table, dynamic=model.dynamic
        )  # Flask-SQLAlchemy
        return
    column = model.columns.get(prop.value or "")
    if column is not None:
        scan.source_fact(ctx.syntax, prop.start, model.table, method=column, dynamic=model.dynamic)


def _in_class_body(node: Node, cls: Node) -> bool:
    """Whether `node` is read by the class body itself (a lambda there included: mapper
    configuration), not by one of its methods, which run later like any other code."""
    for ancestor in node.ancestors():
        if ancestor is cls:
            return True
        if ancestor.kind == "function" and ancestor.value != "lambda":
            return False
    return False
