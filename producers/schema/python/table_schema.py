"""The schema a SQLAlchemy table is in: its own `schema=`, else the default schema of the
MetaData it belongs to, and whether a `schema_translate_map` may move it at run time.

Checked against SQLAlchemy 2.0.58 and Flask-SQLAlchemy 3.1.1 (scripts printing
`Model.__table__.fullname` and the SQL a translated engine sends):

* `Table.__init__` (sql/schema.py) takes `schema=`, else `metadata.schema`, so a table
  without its own schema is in its MetaData's default schema: `MetaData(schema=…)`,
  None for `MetaData()`. `MetaData`'s first positional parameter is `schema` in 2.0 but
  `bind` in 1.4, so a positional argument is not read.
* A mapped class's MetaData (orm/decl_base.py `_metadata_for_cls`) is
  `getattr(cls, "metadata")`, whichever class of its MRO binds it, else its registry's.
  A `DeclarativeBase` subclass (orm/decl_api.py `_setup_declarative_base`) binds the
  `metadata` of its own body, else its `registry`'s (`registry(metadata=…)`; both is an
  error), else a new `MetaData()`. `declarative_base(metadata=…)` and
  `registry(metadata=…)` (`.generate_base()`) take the one given, else a new one.
  SQLModel's `SQLModel.metadata` has no schema (SQLModel 0.0.50).
* Flask-SQLAlchemy 3.x: `SQLAlchemy(metadata=…)` is `db.Model`'s and `db.Table`'s
  MetaData, else a new one; a model with `__bind_key__` gets a new MetaData of its own
  (`_make_metadata`, no schema) in 3.x but the default one in 2.x, so with a schema on the
  default one its schema is not proven.
* `schema_translate_map` (an execution option of engines, connections and sessions)
  renders each table whose schema is a key of the map in the schema the map gives: a
  `None` key moves every table without a schema. Which connection runs which statement
  is not read, so a map anywhere in the project applies to every table; a map whose keys
  are not literal moves every table.
* `Table.schema` is a plain attribute: code that assigns `t.schema = …` (or replaces a
  `.metadata`) may move any table, so every table name is then dynamic.

Anything not read this way (a MetaData passed around, `**kwargs`, a subclass of
`SQLAlchemy` that builds its own MetaData) leaves the schema unproven: the table name is
dynamic.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.python_client.evaluator import Cls
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.routes.python_client.scopes import nodes
from tsograph.producers.schema.python.handles import BASE
from tsograph.producers.schema.python.handles import DB
from tsograph.producers.schema.python.handles import METADATA
from tsograph.producers.schema.python.handles import REGISTRY
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.python.class_bodies import body_assignment
from tsograph.producers.values.python.class_bodies import defines
from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.unknown import UNKNOWN


@dataclass(frozen=True)
class Schema:
    """A schema as far as the code proves it: `name` (None: no schema) when `proven`."""

    proven: bool
    name: str | None = None


NO_SCHEMA = Schema(True)
UNPROVEN = Schema(False)
_TRANSLATE = b"schema_translate_map"
# Flask-SQLAlchemy methods that decide a model's MetaData or table, when a subclass of
# `SQLAlchemy` defines them again.
_FLASK_OVERRIDES = ("__init__", "_make_metadata", "_make_declarative_base")


def literal_schema(value: Value) -> Schema:
    if isinstance(value, str) and HOLE not in value:
        return Schema(True, value)
    return UNPROVEN


def metadata_schema(project: PyProject, ev: Evaluator, ctx: Context, node: Node | None) -> Schema:
    """The default schema of the MetaData an expression gives (`Base.metadata`,
    `db.metadata`, a `MetaData(…)` call or a name bound to one)."""
    if node is None:
        return UNPROVEN
    if node.kind == "member":
        prop = node.part("property")
        owner = ev.value(ctx, node.part("object"))
        if prop is not None and prop.value == "metadata" and isinstance(owner, Cls):
            return class_schema(project, owner)
    value = ev.value(ctx, node)
    if isinstance(value, Lib) and value.path == ("sqlmodel", "SQLModel", "metadata"):
        return NO_SCHEMA
    if isinstance(value, Lib) and (value.path[1:] == (METADATA,) or value.path[-1] == "metadata"):
        return made_schema(project, value)
    return UNPROVEN


def made_schema(project: PyProject, value: Lib) -> Schema:
    """The default schema of the MetaData of a library object: a MetaData, a base made by
    `declarative_base`/`generate_base`, a registry, or Flask-SQLAlchemy's `db`."""
    if value.origin is None or len(value.path) < 2:
        return UNPROVEN
    ctx = project.context(value.origin[0])
    call = value.origin[1]
    if ctx is None:
        return UNPROVEN
    ev = Evaluator(project)
    args = Arguments.of(call)
    made = value.path[:2]
    if made == ("sqlalchemy", METADATA):
        if args.positional or args.open:
            return UNPROVEN
        given = args.keywords.get("schema")
        if given is None or given.kind == "null":
            return NO_SCHEMA
        return literal_schema(ev.value(ctx, given))
    if made in (("sqlalchemy", BASE), ("sqlalchemy", REGISTRY)):
        if args.positional or args.open:  # 1.4's declarative_base(bind, metadata, …)
            return UNPROVEN
    elif made == ("flask_sqlalchemy", DB):
        # 2.x: SQLAlchemy(app, use_native_unicode, session_options, metadata, …)
        if len(args.positional) > 1 or args.open or "model_class" in args.keywords:
            return UNPROVEN
        if _flask_subclass(project, ev, ctx, call):
            return UNPROVEN
    else:
        return UNPROVEN
    given = args.keywords.get("metadata")
    if given is None or given.kind == "null":
        return NO_SCHEMA
    return metadata_schema(project, ev, ctx, given)


def _flask_subclass(project: PyProject, ev: Evaluator, ctx: Context, call: Node) -> bool:
    """Whether the call makes a project subclass of `SQLAlchemy` that builds its MetaData
    or its model class itself."""
    made_by = ev.value(ctx, call.part("callee"))
    if not isinstance(made_by, Cls):
        return False
    return any(defines(made_by.node, name) for name in _FLASK_OVERRIDES)


def class_schema(project: PyProject, cls: Cls) -> Schema:
    """The default schema of `cls.metadata` for a declarative base class or a class
    derived from one: the first class of its ancestry that binds `metadata` (only when a
    single one does), else its declarative base's."""
    bound: list[tuple[Context, Node]] = []
    roots: list[Schema] = []
    ev = Evaluator(project)
    for current, bases in project.ancestry(ev, cls):
        ctx = project.context(current.path)
        if bases is None or ctx is None:
            return UNPROVEN
        if any(base.path in _DECLARATIVE_BASES for base in bases if isinstance(base, Lib)):
            roots.append(_declarative_base_schema(project, ev, ctx, current.node))
            bases.clear()  # the declarative base decides: its own bases are not read
            continue
        if defines(current.node, "metadata"):
            bound.append((ctx, current.node))
        roots.extend(_library_base_schema(project, base) for base in bases if isinstance(base, Lib))
    # Which of them comes first in the MRO is not worked out: proven only when all agree.
    found = set(roots)
    for ctx, node in bound:
        found.add(metadata_schema(project, ev, ctx, body_assignment(node, "metadata")))
    return found.pop() if len(found) == 1 and UNPROVEN not in found else UNPROVEN


_DECLARATIVE_BASES = frozenset(
    {("sqlalchemy", "orm", "DeclarativeBase"), ("sqlalchemy", "orm", "DeclarativeBaseNoMeta")}
)


def _declarative_base_schema(project: PyProject, ev: Evaluator, ctx: Context, cls: Node) -> Schema:
    """A `DeclarativeBase` subclass: its body's `metadata`, else its body's `registry`'s,
    else a new MetaData."""
    if defines(cls, "metadata"):
        return metadata_schema(project, ev, ctx, body_assignment(cls, "metadata"))
    if defines(cls, "registry"):
        given = body_assignment(cls, "registry")
        made = ev.value(ctx, given)
        if given is not None and given.kind == "call" and made is UNKNOWN:
            # `registry = registry(…)`: the call reads the module's `registry` (a class
            # body's own name is bound only once the right side is computed).
            callee = given.part("callee")
            if callee is not None and callee.kind == "identifier" and callee.value:
                found = ev.module_name(Module(ctx.path), callee.value)
                if found == Lib(("sqlalchemy", "orm", "registry")):
                    made = Lib(("sqlalchemy", REGISTRY), (ctx.path, given))
        if isinstance(made, Lib) and made.path == ("sqlalchemy", REGISTRY):
            return made_schema(project, made)
        return UNPROVEN
    return NO_SCHEMA


def _library_base_schema(project: PyProject, base: Lib) -> Schema:
    if base.path == ("sqlmodel", "SQLModel"):
        return NO_SCHEMA
    if base.path == ("sqlalchemy", BASE) or base.path == ("flask_sqlalchemy", DB, "Model"):
        return made_schema(project, base)
    return UNPROVEN


def bind_key_unproven(project: PyProject, cls: Cls, schema: Schema) -> bool:
    """A Flask-SQLAlchemy model with `__bind_key__` when the default MetaData has a schema
    (3.x gives the bind its own MetaData without one, 2.x the default one)."""
    return schema != NO_SCHEMA and _binds(project, cls, "__bind_key__")


def _binds(project: PyProject, cls: Cls, name: str) -> bool:
    """Whether a class of `cls`'s ancestry binds `name` (or one that cannot be read may)."""
    return any(
        bases is None or defines(current.node, name)
        for current, bases in project.ancestry(Evaluator(project), cls)
    )


@dataclass(frozen=True)
class Translation:
    """The schemas a `schema_translate_map` somewhere in the project may move (`every`: all)."""

    every: bool = False
    keys: frozenset[str | None] = frozenset()

    def moves(self, schema: Schema) -> bool:
        return self.every or schema.name in self.keys


def translations(contexts: list[Context]) -> Translation:
    """What the project's `schema_translate_map=` options may move. A map given other than
    as a keyword argument or a dict key with a dict display of literal keys (None or a
    string), or a mention of the option read no other way, moves every table."""
    every = False
    keys: set[str | None] = set()
    for ctx in contexts:
        mentions = ctx.syntax.data.count(_TRANSLATE)
        if not mentions:
            continue
        read = 0
        for node in nodes(ctx.root):
            given = _translate_option(node)
            if given is None:
                continue
            read += 1
            found = _literal_keys(given)
            if found is None:
                every = True
            else:
                keys |= found
        if read < mentions:
            every = True
    return Translation(every, frozenset(keys))


def _translate_option(node: Node) -> Node | None:
    if node.kind == "keyword" and node.value == "schema_translate_map":
        return node.part("value")
    if node.kind == "property":
        key = node.part("key")
        if key is not None and key.kind == "string" and key.value == "schema_translate_map":
            return node.part("value")
    return None


def _literal_keys(node: Node | None) -> set[str | None] | None:
    if node is None or node.kind != "object":
        return None
    keys: set[str | None] = set()
    for item in node.items:
        key = item.part("key") if item.kind == "property" else None
        if key is not None and key.kind == "null":
            keys.add(None)
        elif key is not None and key.kind == "string" and "bytes" not in key.flags:
            keys.add(key.value)
        else:
            return None
    return keys


def schema_assigned(contexts: list[Context]) -> bool:
    """Whether the project assigns a `.schema` or `.metadata` attribute of anything but
    `self` (`table.schema = …` on the tables of a MetaData, as Netflix/dispatch's
    database/manage.py does for its tenant tables, `SQLModel.metadata = MetaData(…)`):
    a table or MetaData changed after it is made, which may be any of them."""
    for ctx in contexts:
        if b".schema" not in ctx.syntax.data and b".metadata" not in ctx.syntax.data:
            continue
        for node in nodes(ctx.root):
            if node.kind != "assign":
                continue
            left = node.part("left")
            if left is None or left.kind != "member":
                continue
            prop = left.part("property")
            owner = left.part("object")
            if prop is None or prop.value not in ("schema", "metadata"):
                continue
            if owner is not None and owner.kind == "identifier" and owner.value == "self":
                continue
            return True
    return False


def core_table_schema(
    project: PyProject, ev: Evaluator, ctx: Context, callee: Lib, args: Arguments[Node]
) -> Schema:
    """The default schema of a Core table: `Table(name, metadata, …)`'s MetaData, or for
    Flask-SQLAlchemy's `db.Table(name, *columns)` the db's (a MetaData given second is
    used instead; `bind_key=` picks another one in 3.x)."""
    if callee.path[:2] != ("flask_sqlalchemy", DB):
        return metadata_schema(project, ev, ctx, args.get(1, "metadata"))
    second = args.positional[1] if len(args.positional) > 1 else None
    if second is not None and not _column_call(ev, ctx, second):
        return metadata_schema(project, ev, ctx, second)
    found = made_schema(project, callee)
    if "bind_key" in args.keywords or args.open:
        return found if found == NO_SCHEMA else UNPROVEN
    return found


def _column_call(ev: Evaluator, ctx: Context, node: Node) -> bool:
    if node.kind != "call":
        return False
    made_by = ev.value(ctx, node.part("callee"))
    return isinstance(made_by, Lib) and made_by.path[-1] == "Column"
