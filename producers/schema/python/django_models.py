"""Django models and their manager calls, read statically (no settings module is executed).

Naming, as Django 5.x `Options` decides it (checked on the fixtures by
oracle/python-schema/, which dumps `_meta.db_table` and the fields' columns):

* A model is a class whose bases reach `django.db.models.Model` (through
  project classes). `Meta.abstract = True`: no table, its fields are copied
  into subclasses. `Meta.proxy = True`: the table of its concrete parent.
  `Meta.managed = False` changes nothing in the names.
* app_label: `Meta.app_label`, else the `label` of an AppConfig subclass in
  the app's apps.py, else the last part of the app's package: the folder
  that holds models.py (or the models/ package). A folder without an
  AppConfig inside one with an AppConfig has no proven label (the settings'
  INSTALLED_APPS decide, and they are not read).
* db_table: `Meta.db_table`, else `<app_label>_<model name lowercased>`;
  Django shortens generated names longer than the backend allows
  (truncate_name): such names (over 30 characters when the project mentions
  the Oracle backend, over 63 otherwise) are dynamic.
* Columns: `db_column`, else the attname: the field name, `<name>_id` for
  ForeignKey and OneToOneField. The primary key `id` is added unless a field
  sets `primary_key=True`; a child of a concrete model gets
  `<parent>_ptr_id`. ManyToManyField has no column; without `through=` it
  makes `<db_table>_<field name>` (or its `db_table=`) with the columns
  `id`, `<model>_id` and `<target>_id` (`from_<model>_id`/`to_<model>_id`
  when the target is the model itself). Generic relations have no column, nor
  has django-taggit's TaggableManager (a many-to-many field) or a project subclass
  of it. Other field classes not from django are counted under
  `orm-naming-unverified:` and read as plain columns.

Manager calls: `Model.objects.<method>(...)` (and any manager attribute the
model declares) is a use of the model's table; keyword arguments name fields
(`email__iexact=`) and give column facts; `raw("SQL")` is read as SQL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.python_client.evaluator import Cls
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.routes.python_client.scopes import nodes
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema.python.handles import ClassKinds
from tsograph.producers.schema.python.handles import class_bases
from tsograph.producers.schema.python.models import DeclaredModel
from tsograph.producers.schema.python.models import ModelIndex
from tsograph.producers.schema.python.relation_scan import PySchemaScan
from tsograph.producers.values.python.arguments import Arguments

_MODEL = ("django", "db", "models", "Model")
# Django's abstract user models (django 5.2.19 contrib/auth): a subclass is a model, with
# fields of theirs that are not read (counted as an unknown base).
_AUTH_BASES = frozenset(
    {
        ("django", "contrib", "auth", "models", "AbstractBaseUser"),
        ("django", "contrib", "auth", "models", "AbstractUser"),
        ("django", "contrib", "auth", "models", "PermissionsMixin"),
        ("django", "contrib", "auth", "base_user", "AbstractBaseUser"),
    }
)
_RELATIONS = frozenset({"ForeignKey", "OneToOneField"})
_NO_COLUMN = frozenset({"GenericForeignKey", "GenericRelation", "ManyToManyField"})
# django-taggit 6.1.0 managers.py: `class TaggableManager(RelatedField)` with
# `many_to_many = True`; contribute_to_class hands it to `_meta.add_field`, which keeps a
# many-to-many field out of the table's columns (its rows are in the `through` model).
_TAGGABLE = ("taggit", "managers", "TaggableManager")
_MANAGERS = frozenset({"Manager"})
# The QuerySet methods whose keywords are field lookups or field values (Django 5.2.19,
# django/db/models/query.py); the others take aliases (annotate, alias, aggregate,
# values) or options. The get_or_create family's `defaults` and `create_defaults` are
# parameters, not fields.
_FIELD_KEYWORD_METHODS = frozenset(
    {
        "filter",
        "exclude",
        "get",
        "aget",
        "create",
        "acreate",
        "get_or_create",
        "aget_or_create",
        "update_or_create",
        "aupdate_or_create",
        "update",
        "aupdate",
    }
)
_DEFAULTS_METHODS = frozenset(
    {"get_or_create", "aget_or_create", "update_or_create", "aupdate_or_create"}
)
_NOT_FIELD_KEYWORDS = frozenset({"defaults", "create_defaults"})
_LABEL = re.compile(rb"^\s+label\s*=\s*['\"]([A-Za-z_][A-Za-z0-9_]*)['\"]", re.MULTILINE)


@dataclass
class DjangoModel(DeclaredModel):
    managers: set[str] = field(default_factory=lambda: {"objects"})


DjangoModels = ModelIndex[DjangoModel]


class Reader:
    def __init__(self, scan: PySchemaScan) -> None:
        self.scan = scan
        self.project = scan.project
        self.models = DjangoModels()
        self.kinds = ClassKinds(self.project, False, self._is_model)
        self.oracle = False
        self._meta: dict[int, dict[str, Value]] = {}

    def is_model(self, ctx: Context, cls: Node) -> bool:
        return self.kinds.of(ctx, cls)

    def _is_model(self, ctx: Context, cls: Node, bases: list[Value]) -> bool:
        found = False
        for value in bases:
            if isinstance(value, Lib) and (value.path == _MODEL or value.path in _AUTH_BASES):
                found = True
            elif isinstance(value, Cls):
                found = found or self.kinds.parent(value) is True
        return found

    def meta(self, ctx: Context, cls: Node) -> dict[str, Value]:
        """The literal options of the model's own `class Meta`."""
        key = id(cls)
        if key not in self._meta:
            options: dict[str, Value] = {}
            for statement in cls.items:
                if statement.kind != "class":
                    continue
                name = statement.part("name")
                if name is None or name.value != "Meta":
                    continue
                ev = Evaluator(self.project)
                for inner in statement.items:
                    assign = inner.part("value") if inner.kind == "statement" else None
                    if assign is None or assign.kind != "assign":
                        continue
                    left = assign.part("left")
                    right = assign.part("right")
                    if left is not None and left.kind == "identifier" and left.value:
                        if right is not None and right.kind == "boolean":
                            options[left.value] = 1 if right.value == "true" else 0
                        else:
                            options[left.value] = ev.value(ctx, right)
            self._meta[key] = options
        return self._meta[key]

    def app_label(self, ctx: Context, cls: Node) -> str | None:
        label = self.meta(ctx, cls).get("app_label")
        if isinstance(label, str):
            return label
        if "app_label" in self.meta(ctx, cls):
            return None
        parts = ctx.path.split("/")
        if parts[-1] in ("models.py", "models.pyi"):
            folder = parts[:-1]
        elif "models" in parts[:-1]:
            folder = parts[: len(parts) - 1 - parts[::-1].index("models", 1)]
        else:
            folder = parts[:-1]
        if not folder:
            return None
        data = self._app_config(folder)
        if data is not None:
            labels = set(_LABEL.findall(data))
            if len(labels) == 1:
                return str(labels.pop().decode())
            if labels:
                return None
        elif any(self._app_config(folder[:end]) is not None for end in range(1, len(folder))):
            # A package inside an app with an AppConfig: the model belongs to the installed
            # app whose name is the longest prefix of its module (django 5.2.19
            # Apps.get_containing_app_config), the enclosing app unless settings install
            # this package too; INSTALLED_APPS is not read.
            return None
        return folder[-1]

    def _app_config(self, folder: list[str]) -> bytes | None:
        """The text of the folder's apps.py when it declares an AppConfig."""
        apps = "/".join([*folder, "apps.py"])
        data = self.project.data(apps) if apps in self.project.paths else None
        return data if data is not None and b"AppConfig" in data else None


def collect_models(scan: PySchemaScan) -> DjangoModels:
    reader = Reader(scan)
    contexts = [ctx for ctx in scan.contexts() if b"django" in ctx.syntax.data]
    reader.oracle = any(b"django.db.backends.oracle" in ctx.syntax.data for ctx in contexts)
    classes: list[tuple[Context, Node]] = []
    for ctx in scan.contexts():
        if b"models" not in ctx.syntax.data and b"Model" not in ctx.syntax.data:
            continue
        for node in nodes(ctx.root):
            if node.kind != "class":
                continue
            if reader.is_model(ctx, node):
                classes.append((ctx, node))
            elif _declares_django_fields(reader, ctx, node):
                # Fields on a class whose bases are not proven to reach models.Model (a
                # model of another package, such as a CMS page): its table is not known.
                scan.note_at("unreadable-orm-declarations:", "unproven-model-base", ctx, node)
    done: set[int] = set()
    for ctx, node in classes:
        _model(reader, ctx, node, done)
    return reader.models


def _declares_django_fields(reader: Reader, ctx: Context, cls: Node) -> bool:
    return any(
        isinstance(callee, Lib) and callee.path[:3] == ("django", "db", "models")
        for _, _, _, callee in _field_calls(reader, ctx, cls)
    )


def _limit(reader: Reader, name: str) -> bool:
    return len(name) > (30 if reader.oracle else 63)


def _model(reader: Reader, ctx: Context, cls: Node, done: set[int]) -> DjangoModel | None:
    if id(cls) in done:
        return reader.models.by_class.get(id(cls))
    done.add(id(cls))
    scan = reader.scan
    name_node = cls.part("name")
    name = name_node.value if name_node is not None and name_node.value else ""
    meta = reader.meta(ctx, cls)
    parents: list[DjangoModel] = []
    for value in reader.kinds.bases(ctx, cls):
        if isinstance(value, Cls):
            parent_ctx = reader.project.context(value.path)
            if parent_ctx is not None and reader.is_model(parent_ctx, value.node):
                parent = _model(reader, parent_ctx, value.node, done)
                if parent is not None:
                    parents.append(parent)
    concrete = [parent for parent in parents if parent.table]
    model = DjangoModel(name, ctx, cls, "", False)
    if any(
        not isinstance(value, Cls) and not (isinstance(value, Lib) and value.path == _MODEL)
        for value in reader.kinds.bases(ctx, cls)
    ):
        # A base from another package (a mixin or abstract model, Django's own
        # AbstractBaseUser and PermissionsMixin too) may add fields.
        scan.note_at("orm-naming-unverified:", "unknown-base", ctx, cls)
    if meta.get("abstract") == 1:
        for parent in parents:
            model.columns.update(parent.columns)
        _fields(reader, ctx, cls, model, declare=False)
        reader.models.by_class[id(cls)] = model
        return model
    if meta.get("proxy") == 1:
        if len(concrete) != 1:
            scan.note_at("unreadable-orm-declarations:", "proxy", ctx, cls)
            return None
        model.table, model.dynamic = concrete[0].table, concrete[0].dynamic
        model.columns = dict(concrete[0].columns)
        reader.models.by_class[id(cls)] = model
        reader.models.names.add(name)
        _declare(scan, ctx, name_node or cls, model, name, None)
        return model
    table = meta.get("db_table")
    if "db_table" in meta and (not isinstance(table, str) or HOLE in table):
        scan.note_at("orm-naming-unverified:", "db-table", ctx, cls)
        return None
    if not isinstance(table, str):
        label = reader.app_label(ctx, cls)
        if label is None:
            scan.note_at("orm-naming-unverified:", "app-label", ctx, cls)
            return None
        table = f"{label}_{name.lower()}"
        model.dynamic = _limit(reader, table)
    model.table = fact_builder.channel(table)
    reader.models.by_class[id(cls)] = model
    reader.models.names.add(name)
    _declare(scan, ctx, name_node or cls, model, name, None)
    for parent in parents:
        if not parent.table:
            for attr, column in parent.columns.items():
                model.columns[attr] = column
                _declare(scan, ctx, name_node or cls, model, f"{name}.{attr}", column)
    if concrete:
        for parent in concrete:
            attr = f"{parent.name.lower()}_ptr"
            model.columns[attr] = f"{attr}_id"
            _declare(scan, ctx, name_node or cls, model, f"{name}.{attr}", f"{attr}_id")
    _fields(reader, ctx, cls, model, declare=True)
    if (
        not concrete
        and not _has_primary_key(reader, ctx, cls, parents)
        and "id" not in model.columns
    ):
        model.columns["id"] = "id"
        _declare(scan, ctx, name_node or cls, model, f"{name}.id", "id")
    return model


def _declare(
    scan: PySchemaScan,
    ctx: Context,
    at: Node,
    model: DjangoModel,
    qualified: str,
    column: str | None,
    channel: str | None = None,
    dynamic: bool | None = None,
) -> None:
    scan.declaration(
        ctx.syntax,
        at.start,
        channel or model.table,
        qualified,
        column,
        model_path=model.ctx.path,
        dynamic=model.dynamic if dynamic is None else dynamic,
    )


def _field_calls(reader: Reader, ctx: Context, cls: Node) -> list[tuple[str, Node, Node, Value]]:
    """(name, name node, call, callee value) of each `name = SomeField(...)` in the body."""
    found = []
    ev = Evaluator(reader.project)
    for statement in cls.items:
        assign = statement.part("value") if statement.kind == "statement" else None
        if assign is None or assign.kind != "assign" or assign.value != "=":
            continue
        left, right = assign.part("left"), assign.part("right")
        if left is None or left.kind != "identifier" or not left.value:
            continue
        if right is None or right.kind != "call":
            continue
        found.append((left.value, left, right, ev.value(ctx, right.part("callee"))))
    return found


def _class_name(reader: Reader, ctx: Context, callee: Value, call: Node) -> str:
    if isinstance(callee, Lib):
        return callee.path[-1]
    if isinstance(callee, Cls):
        name = callee.node.part("name")
        return name.value or "" if name is not None else ""
    node = call.part("callee")
    if node is not None and node.kind == "member":
        prop = node.part("property")
        return prop.value or "" if prop is not None else ""
    return node.value or "" if node is not None and node.kind == "identifier" else ""


def _fields(reader: Reader, ctx: Context, cls: Node, model: DjangoModel, *, declare: bool) -> None:
    scan = reader.scan
    ev = Evaluator(reader.project)
    for attr, left, call, callee in _field_calls(reader, ctx, cls):
        kind = _class_name(reader, ctx, callee, call)
        from_django = isinstance(callee, Lib) and callee.path[0] == "django"
        if kind in _MANAGERS or (isinstance(callee, Lib) and callee.path[-1] == "Manager"):
            model.managers.add(attr)
            continue
        if not kind.endswith(("Field", "ForeignKey", "GenericRelation")):
            if isinstance(callee, Lib) and from_django and callee.path[-1].endswith("Manager"):
                model.managers.add(attr)
            elif kind.endswith("Key"):
                # A relation field of another package (ParentalKey): its column is not known.
                scan.note_at("orm-naming-unverified:", "field-class", ctx, call)
            continue
        if _taggable(reader, callee, set()):
            continue  # netbox: `tags = NetBoxTaggableManagerField(through=…)`, no column
        if not from_django:
            scan.note_at("orm-naming-unverified:", "field-class", ctx, call)
        args = Arguments.of(call)
        if kind == "ManyToManyField":
            if declare:
                _many_to_many(reader, ctx, model, attr, left, call, args)
            continue
        if kind in _NO_COLUMN:
            continue
        db_column = args.keywords.get("db_column")
        if db_column is not None:
            value = ev.value(ctx, db_column)
            if not isinstance(value, str) or HOLE in value:
                scan.note_at("orm-naming-unverified:", "db-column", ctx, call)
                continue
            column = value
        else:
            column = f"{attr}_id" if kind in _RELATIONS else attr
        model.columns[attr] = column
        if declare:
            _declare(scan, ctx, left, model, f"{model.name}.{attr}", column)


def _taggable(reader: Reader, callee: Value, seen: set[int]) -> bool:
    """Whether a field class is taggit's TaggableManager or a project subclass of it."""
    if isinstance(callee, Lib):
        return callee.path == _TAGGABLE
    if not isinstance(callee, Cls) or id(callee.node) in seen:
        return False
    ctx = reader.project.context(callee.path)
    if ctx is None:
        return False
    seen.add(id(callee.node))
    return any(
        _taggable(reader, base, seen) for base in class_bases(reader.project, ctx, callee.node)
    )


def _has_primary_key(reader: Reader, ctx: Context, cls: Node, parents: list[DjangoModel]) -> bool:
    for _, _, call, _ in _field_calls(reader, ctx, cls):
        primary = Arguments.of(call).keywords.get("primary_key")
        if primary is not None and primary.kind == "boolean" and primary.value == "true":
            return True
    return any(_has_primary_key(reader, parent.ctx, parent.node, []) for parent in parents)


def _many_to_many(
    reader: Reader,
    ctx: Context,
    model: DjangoModel,
    attr: str,
    left: Node,
    call: Node,
    args: Arguments[Node],
) -> None:
    scan = reader.scan
    if "through" in args.keywords:
        return  # the through model is a model of its own
    ev = Evaluator(reader.project)
    target = args.get(0, "to")
    value = ev.value(ctx, target) if target is not None else None
    target_name: str | None = None
    if isinstance(value, str):
        target_name = model.name if value == "self" else value.rpartition(".")[2]
    elif isinstance(value, Cls):
        name = value.node.part("name")
        target_name = name.value if name is not None else None
    table_node = args.keywords.get("db_table")
    dynamic = model.dynamic
    if table_node is not None:
        table = ev.value(ctx, table_node)
        if not isinstance(table, str) or HOLE in table:
            scan.note_at("orm-naming-unverified:", "m2m-db-table", ctx, call)
            return
    else:
        table = f"{model.table}_{attr}"
        dynamic = dynamic or _limit(reader, table)
    channel = fact_builder.channel(table) if table_node is not None else table
    qualified = f"{model.name}.{attr}"
    _declare(scan, ctx, left, model, qualified, None, channel, dynamic)
    if target_name is None:
        scan.note_at("orm-naming-unverified:", "m2m-target", ctx, call)
        return
    source, other = model.name.lower(), target_name.lower()
    if source == other:
        source, other = f"from_{source}", f"to_{other}"
    for column in ("id", f"{source}_id", f"{other}_id"):
        _declare(scan, ctx, left, model, qualified, column, channel, dynamic)


def collect_queries(scan: PySchemaScan, models: DjangoModels) -> None:
    for ctx, node in models.naming_nodes(scan):
        if node.kind == "call":
            _manager_call(scan, models, ctx, node)


def _manager_call(scan: PySchemaScan, models: DjangoModels, ctx: Context, call: Node) -> None:
    """`Model.objects.<method>(...)`: a use of the table, columns from the keywords."""
    callee = call.part("callee")
    if callee is None or callee.kind != "member":
        return
    manager = callee.part("object")
    if manager is None or manager.kind != "member":
        return
    owner = manager.part("object")
    manager_name = manager.part("property")
    if owner is None or owner.kind != "identifier" or owner.value not in models.names:
        return
    model = models.of(Evaluator(scan.project).value(ctx, owner))
    if (
        model is None
        or not model.table
        or manager_name is None
        or manager_name.value not in model.managers
    ):
        return
    method = callee.part("property")
    args = Arguments.of(call)
    if method is not None and method.value == "raw":
        sql = args.get(0, "raw_query")
        text = Evaluator(scan.project).value(ctx, sql) if sql is not None else None
        scan.sql(ctx, call, text if isinstance(text, str) else None)
        return
    scan.source_fact(ctx.syntax, (method or call).start, model.table, dynamic=model.dynamic)
    name = None if method is None else method.value
    skipped = _NOT_FIELD_KEYWORDS if name in _DEFAULTS_METHODS else frozenset()
    named = [
        (column, value)
        for key, value in args.keywords.items()
        if key not in skipped
        for column in [model.columns.get(key.split("__", 1)[0])]
        if column is not None
    ]
    if named and name not in _FIELD_KEYWORD_METHODS:
        # A method of the project's own manager: what its keywords mean is its code's.
        scan.note_at("unresolved-orm-receivers:", "custom-manager-method", ctx, call)
        return
    for column, value in named:
        scan.source_fact(
            ctx.syntax,
            (value.parent or value).start,
            model.table,
            method=column,
            dynamic=model.dynamic,
        )
