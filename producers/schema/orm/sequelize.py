"""Sequelize 6 (6.37.8): model declarations and the calls that use them.

Models come from `sequelize.define(name, attributes, options)` on a proven instance and
from `class X extends Model` with `X.init(attributes, options)`. Naming follows
sequelize/lib/model.js `init` and `refreshAttributes`: the table is `tableName`, else
the model name when `freezeTableName`, else `underscoredIf(pluralize(modelName))`
(inflection.py); an attribute's column is its `field`, else `underscoredIf(attribute)`;
`id` is added when no attribute is a primary key, `createdAt`/`updatedAt` (renamed
or disabled by their options) when `timestamps`, `deletedAt` when also `paranoid`.
Options merge over the instance's `define` options (`new Sequelize(…, { define })`),
which must agree across instances (orm-naming-unverified: otherwise).

Associations (associations/*.js) add foreign keys: belongsTo on the source
`camelize(as ?? singular(target) + "_" + targetPk)`, hasMany on the target
`camelize(singular(source) + "_" + sourcePk)`, hasOne `camelize(singularize(as ??
source) + "_" + sourcePk)`, and belongsToMany with a string `through` a join table of
that name with both keys and, unless disabled, timestamps; fields follow the owner's
`underscored`.

Uses: model methods with the table at the method name and column facts from `where`,
`attributes`, `order` and value keys; `include` names models; `sequelize.query(sql)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_read import top_level
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema.orm import drivers
from tsograph.producers.schema.orm import inflection
from tsograph.producers.schema.orm.collector import OrmCollector
from tsograph.producers.schema.orm.declarations import CALLS
from tsograph.producers.schema.orm.declarations import Binding
from tsograph.producers.schema.orm.declarations import call_arguments
from tsograph.producers.schema.orm.declarations import callee_of
from tsograph.producers.schema.orm.declarations import has_spread
from tsograph.producers.schema.orm.declarations import key_name
from tsograph.producers.schema.orm.declarations import literal_string
from tsograph.producers.schema.orm.declarations import object_value
from tsograph.producers.schema.orm.declarations import source_text
from tsograph.producers.schema.orm.declarations import string_option
from tsograph.producers.schema.orm.orm_evaluator import Evaluator
from tsograph.producers.schema.orm.orm_evaluator import Hook
from tsograph.producers.schema.orm.orm_run import UNREADABLE
from tsograph.producers.schema.orm.orm_run import UNRESOLVED
from tsograph.producers.schema.orm.orm_run import UNVERIFIED
from tsograph.producers.schema.orm.orm_run import OrmRun
from tsograph.producers.schema.orm.orm_run import method_of
from tsograph.producers.schema.orm.receivers import Val

MODEL_METHODS = frozenset(
    [
        "findAll",
        "findOne",
        "findByPk",
        "findAndCountAll",
        "findOrCreate",
        "findOrBuild",
        "findCreateFind",
        "count",
        "create",
        "bulkCreate",
        "update",
        "destroy",
        "upsert",
        "increment",
        "decrement",
        "max",
        "min",
        "sum",
        "restore",
        "truncate",
        "aggregate",
        "build",
    ]
)
VALUE_METHODS = frozenset({"create", "bulkCreate", "update", "upsert", "build", "findOrCreate"})
OPTION_COLUMN_KEYS = ("where", "attributes", "order", "group", "defaults")
BOOLEAN_OPTIONS = ("underscored", "freezeTableName", "timestamps", "paranoid")
TIMESTAMPS = ("createdAt", "updatedAt", "deletedAt")


@dataclass
class Attribute:
    name: str
    field: str
    node: Node
    written_in: str | None = None  # the file of `node` when not the model's (associations)


@dataclass(eq=False)
class Model:
    path: str
    name: str
    name_node: Node
    table: str | None
    schema: str | None
    underscored: bool
    attributes: dict[str, Attribute] = field(default_factory=dict)
    primary: str = "id"

    @property
    def singular(self) -> str:
        return inflection.singularize(self.name)

    @property
    def channel(self) -> str | None:
        return None if self.table is None else fact_builder.channel(self.table, self.schema)

    def field_of(self, name: str) -> str | None:
        """The column of the attribute `name`, None when the model declares no such one."""
        attribute = self.attributes.get(name)
        return None if attribute is None else attribute.field


@dataclass
class _Options:
    flags: dict[str, bool] = field(default_factory=dict)
    renamed: dict[str, str | bool] = field(default_factory=dict)
    schema: str | None = None
    known: bool = True


class Sequelize(OrmCollector):
    def __init__(self) -> None:
        self.models: dict[tuple[str, int], Model] = {}
        self.by_name: dict[str, Model] = {}
        self.defaults = _Options()
        self.unreadable: list[str] = []

    # ---- evaluator hooks ---------------------------------------------------------------

    def hooks(self) -> dict[str, Hook]:
        return {"method": self.method, "class": self.class_value}

    def member_hooks(self) -> dict[str, Callable[[Val, str], Val | None]]:
        return {"sequelize": self.member, "seq-models": self.member}

    def method(self, ev: Evaluator, path: str, node: Node, info: Val) -> Val | None:
        receiver, name = info.ref
        if receiver.kind == "sequelize" and name == "define":
            model = self._define(ev, path, node)
            return None if model is None else Val("seq-model", model)
        if receiver.kind == "sequelize" and name in ("model",):
            args = call_arguments(node)
            written = literal_string(args[0]) if args else None
            model = None if written is None else self.by_name.get(written)
            return None if model is None else Val("seq-model", model)
        return None

    def member(self, obj: Val, name: str) -> Val | None:
        """`sequelize.models` and `sequelize.models.<Name>`: models by their model name."""
        if obj.kind == "sequelize" and name == "models":
            return Val("seq-models")
        if obj.kind == "seq-models" and name in self.by_name:
            return Val("seq-model", self.by_name[name])
        return None

    def class_value(self, ev: Evaluator, path: str, node: Node, _: Val) -> Val | None:
        key = (path, node.start)
        if key in self.models:
            return Val("seq-model", self.models[key])
        base = node.part("base")
        target = None if base is None else ev.value(path, base)
        if target is None or target.kind != "pkg" or target.ref.package != "sequelize":
            return None
        if target.ref.name != "Model":
            return None
        name_node = node.part("name")
        if name_node is None:
            return None
        init = self._init_call(ev, path, ev.text(path, name_node))
        if init is None:
            return None
        args = call_arguments(init)
        model = self._model(ev, path, node, ev.text(path, name_node), name_node, args)
        return None if model is None else Val("seq-model", model)

    def _init_call(self, ev: Evaluator, path: str, name: str) -> Node | None:
        """The `Name.init(attributes, options)` call anywhere in the class's file (module
        level or a static initialiser); `this.init(...)` is not read."""
        file = ev.project.file(path)
        if file is None:
            return None
        stack = [file.root]
        while stack:
            node = stack.pop()
            if node.kind in CALLS:
                callee = callee_of(node)
                if callee is not None and file.text(callee).replace(" ", "") == f"{name}.init":
                    return node
            stack.extend(node.children())
        return None

    def _define(self, ev: Evaluator, path: str, node: Node) -> Model | None:
        args = call_arguments(node)
        name = ev.constant(path, args[0]) if args else None
        if name is None:
            self.unreadable.append(path)
            return None
        return self._model(ev, path, node, name, args[0], args[1:])

    def _model(
        self,
        ev: Evaluator,
        path: str,
        node: Node,
        default_name: str,
        name_node: Node,
        args: list[Node],
    ) -> Model | None:
        key = (path, node.start)
        if key in self.models:
            return self.models[key]
        attributes = ev.value(path, args[0]) if args else None
        options = ev.value(path, args[1]) if len(args) > 1 else None
        flags = dict(self.defaults.flags)
        renamed: dict[str, str | bool] = dict(self.defaults.renamed)
        table_name: str | None = None
        schema = self.defaults.schema
        name = default_name
        known = self.defaults.known
        if len(args) > 1 and (options is None or options.kind != "object"):
            known = False  # options that cannot be read may rename anything
        if options is not None and options.kind == "object":
            options_path, options_node = options.ref
            known = known and not has_spread(options_node)
            for item in options_node.items:
                if item.kind != "property":
                    continue
                value_node = item.part("value")
                option = key_name(item.part("key"))
                if option is None or value_node is None:
                    continue
                written = ev.text(options_path, value_node)
                literal = ev.constant(options_path, value_node)
                if option in BOOLEAN_OPTIONS:
                    if written not in ("true", "false"):
                        known = False
                    flags[option] = written == "true"
                elif option in TIMESTAMPS:
                    if literal is None and written not in ("true", "false"):
                        known = False
                    renamed[option] = literal if literal is not None else written != "false"
                elif option == "tableName":
                    table_name = literal
                    known = known and literal is not None
                elif option == "modelName":
                    if literal is None:
                        known = False
                    name = literal or name
                elif option == "schema":
                    schema = literal
                    known = known and literal is not None
        underscored = flags.get("underscored", False)
        if not known or table_name is not None:
            table = table_name
        elif flags.get("freezeTableName", False):
            table = name
        else:
            table = _underscored_if(inflection.pluralize(name), underscored)
        model = Model(path, name, name_node, table, schema, underscored)
        self.models[key] = model
        self.by_name.setdefault(name, model)
        if attributes is not None and attributes.kind == "object":
            self._attributes(ev, attributes.ref[0], attributes.ref[1], model, known)
        elif args:
            self.unreadable.append(path)  # attributes that cannot be read: no columns
        if known and model.primary == "id" and "id" not in model.attributes:
            model.attributes["id"] = Attribute("id", "id", name_node)
        if flags.get("timestamps", True) and known:
            stamps = ["createdAt", "updatedAt"] + (["deletedAt"] if flags.get("paranoid") else [])
            for stamp in stamps:
                setting = renamed.get(stamp, True)
                if setting is False:
                    continue
                attribute = setting if isinstance(setting, str) else stamp
                model.attributes[attribute] = Attribute(
                    attribute, _underscored_if(attribute, underscored), name_node
                )
        return model

    def _attributes(self, ev: Evaluator, path: str, node: Node, model: Model, known: bool) -> None:
        data = ev.data(path)
        if has_spread(node):
            self.unreadable.append(path)  # spread attributes are not read
        for item in node.items:
            if item.kind != "property":
                continue
            key_node = item.part("key")
            value = item.part("value")
            name = None if key_node is None else key_name(key_node)
            if name is None or key_node is None or value is None:
                continue
            value = unwrap_value(value)
            explicit: str | None = None
            if value.kind == "object":
                field_node = object_value(value, "field")
                type_node = object_value(value, "type")
                primary = object_value(value, "primaryKey")
                if type_node is not None and source_text(data, type_node).endswith("VIRTUAL"):
                    continue
                if field_node is not None:
                    explicit = literal_string(field_node)
                if primary is not None and source_text(data, primary) == "true":
                    model.primary = name
            elif source_text(data, value).endswith("VIRTUAL"):
                continue
            if explicit is None and not known:
                continue
            column = explicit if explicit is not None else _underscored_if(name, model.underscored)
            written_in = path if path != model.path else None
            model.attributes[name] = Attribute(name, column, key_node, written_in)

    # ---- declarations -------------------------------------------------------------------

    def read_options(self, run: OrmRun) -> None:
        """The `define` options of every `new Sequelize(...)`: they must agree."""
        seen: set[tuple[tuple[str, object], ...]] = set()
        for path in run.paths:
            data = run.evaluator.data(path)
            if b"Sequelize" not in data:
                continue
            for node in run.nodes(path):
                if node.kind != "new":
                    continue
                target = run.evaluator.value(path, node.part("callee"))
                if target is None or target.kind != "pkg" or target.ref.package != "sequelize":
                    continue
                seen.add(self._define_options(run.evaluator, path, call_arguments(node)))
        if len(seen) > 1 or any(("?", True) in options for options in seen):
            self.defaults.known = False
            run.note(UNVERIFIED, "sequelize-define-options")
        elif seen:
            options = dict(next(iter(seen)))
            for key, value in options.items():
                if key in BOOLEAN_OPTIONS and isinstance(value, bool):
                    self.defaults.flags[key] = value
                elif key in TIMESTAMPS and isinstance(value, (str, bool)):
                    self.defaults.renamed[key] = value
            schema = options.get("schema", options.get("instance-schema"))
            self.defaults.schema = schema if isinstance(schema, str) else None

    def _define_options(
        self, ev: Evaluator, path: str, args: list[Node]
    ) -> tuple[tuple[str, object], ...]:
        """The naming keys of `define` in the options (the last argument); ("?", True)
        when the options cannot be read."""
        unknown: tuple[tuple[str, object], ...] = (("?", True),)
        if not args:
            return ()
        options = ev.value(path, args[-1])
        if options is not None and options.kind in ("string", "text"):
            return ()  # `new Sequelize(uri)` or (database, user, password): no options
        if options is None or options.kind != "object":
            return unknown
        options_path, options_node = options.ref
        data = ev.data(options_path)
        if has_spread(options_node):
            return unknown
        found: list[tuple[str, object]] = []
        # model.js init: a model's schema falls back to define.schema, then options.schema.
        schema = object_value(options_node, "schema")
        if schema is not None:
            written_schema = ev.constant(options_path, schema)
            if written_schema is None:
                return unknown
            found.append(("instance-schema", written_schema))
        define = object_value(options_node, "define")
        if define is None:
            return tuple(found)
        define = unwrap_value(define)
        if define.kind != "object" or has_spread(define):
            return unknown
        for item in define.items:
            key = item.part("key") if item.kind == "property" else None
            value = item.part("value") if item.kind == "property" else None
            name = None if key is None else key_name(key)
            if name is None or value is None:
                continue
            written = source_text(data, value)
            if name in (*BOOLEAN_OPTIONS, *TIMESTAMPS, "schema"):
                literal = literal_string(value)
                if written in ("true", "false"):
                    found.append((name, written == "true"))
                elif literal is not None:
                    found.append((name, literal))
                else:
                    return unknown
        return tuple(sorted(found, key=lambda pair: pair[0]))

    def declare(self, run: OrmRun) -> None:
        ev = run.evaluator
        for path in run.paths:
            data = ev.data(path)
            for call in run.calls(path):
                shape = method_of(call)
                if shape is not None and shape[0] == "define":
                    ev.value(path, call)
            for node in top_level(run.file(path).root, ("class",)):
                if node.value != "declaration" or "abstract" in node.flags:
                    continue
                ev.binding_value(path, Binding(node))  # `class X extends Model` + X.init
        for path in run.paths:
            data = ev.data(path)
            for call in run.calls(path):
                self._association(run, path, data, call)
        for path in sorted(set(self.unreadable)):
            run.note(UNREADABLE, "sequelize-models", name=path)
        for model in sorted(self.models.values(), key=lambda m: (m.path, m.name_node.start)):
            self._emit(run, model)

    def _association(self, run: OrmRun, path: str, data: bytes, call: Node) -> None:
        shape = method_of(call)
        if shape is None or shape[0] not in ("belongsTo", "hasMany", "hasOne", "belongsToMany"):
            return
        kind, _, receiver = shape
        ev = run.evaluator
        args = call_arguments(call)
        source = ev.value(path, receiver)
        target = ev.value(path, args[0]) if args else None
        if (
            source is None
            or target is None
            or source.kind != "seq-model"
            or target.kind != "seq-model"
        ):
            return
        a: Model = source.ref
        b: Model = target.ref
        options = unwrap_value(args[1]) if len(args) > 1 else None
        options = options if options is not None and options.kind == "object" else None
        alias = string_option(options, "as")
        foreign, foreign_field = _key_option(data, options, "foreignKey")
        if kind == "belongsTo":
            key = foreign or inflection.camelize(f"{alias or b.singular}_{b.primary}")
            self._add_key(a, key, foreign_field, args[0], path)
        elif kind == "hasMany":
            key = foreign or inflection.camelize(f"{a.singular}_{a.primary}")
            self._add_key(b, key, foreign_field, args[0], path)
        elif kind == "hasOne":
            key = foreign or inflection.camelize(
                f"{inflection.singularize(alias or a.name)}_{a.primary}"
            )
            self._add_key(b, key, foreign_field, args[0], path)
        else:
            self._through(run, path, data, a, b, options, alias, foreign, foreign_field, args[0])

    def _add_key(
        self, model: Model, key: str, explicit: str | None, at: Node, written_in: str
    ) -> None:
        if key in model.attributes:
            return
        column = explicit or _underscored_if(key, model.underscored)
        model.attributes[key] = Attribute(key, column, at, written_in)

    def _through(
        self,
        run: OrmRun,
        path: str,
        data: bytes,
        a: Model,
        b: Model,
        options: Node | None,
        alias: str | None,
        foreign: str | None,
        foreign_field: str | None,
        at: Node,
    ) -> None:
        through_node = None if options is None else object_value(options, "through")
        through = None if through_node is None else literal_string(through_node)
        if through is None or through_node is None:
            return  # a through model is declared on its own
        other, other_field = _key_option(data, options, "otherKey")
        self_association = a is b
        key = foreign or inflection.camelize(f"{a.singular}_{a.primary}")
        # belongs-to-many.js: a self-association names the other key after its alias.
        other_name = inflection.singularize(alias) if self_association and alias else b.singular
        other_key = other or inflection.camelize(f"{other_name}_{b.primary}")
        channel = fact_builder.channel(through, a.schema)
        qualified = f"{a.name}.{alias or b.name}"
        columns = [foreign_field or _underscored_if(key, a.underscored)]
        columns.append(other_field or _underscored_if(other_key, a.underscored))
        timestamps = object_value(options, "timestamps") if options is not None else None
        stamps_on = self.defaults.flags.get("timestamps", True)
        if timestamps is not None:
            stamps_on = source_text(data, timestamps) != "false"
        if stamps_on:
            for stamp in ("createdAt", "updatedAt"):
                setting = self.defaults.renamed.get(stamp, True)
                if setting is not False:
                    name = setting if isinstance(setting, str) else stamp
                    columns.append(_underscored_if(name, a.underscored))
        for method in [None, *columns]:
            # The through table is a model of `a`'s file, written here.
            run.declare(a.path, through_node, channel, qualified, method, written_in=path)

    def _emit(self, run: OrmRun, model: Model) -> None:
        channel = model.channel
        if channel is None:
            run.note(UNVERIFIED, "sequelize-options", name=f"{model.path}#{model.name}")
            return
        run.declare(model.path, model.name_node, channel, model.name)
        for attribute in model.attributes.values():
            run.declare(
                model.path,
                attribute.node,
                channel,
                f"{model.name}.{attribute.name}",
                attribute.field,
                written_in=attribute.written_in,
            )

    # ---- uses ------------------------------------------------------------------------------

    def uses(self, run: OrmRun) -> None:
        ev = run.evaluator
        for path in run.paths:
            data = ev.data(path)
            for call, method, prop, receiver in run.method_calls(path):
                if method == "query":
                    value = ev.value(path, receiver)
                    args = call_arguments(call)
                    if value is not None and value.kind == "sequelize" and args:
                        drivers.statement(run, path, args[0])
                    continue
                if method not in MODEL_METHODS:
                    continue
                value = ev.value(path, receiver)
                if value is None:
                    if b"sequelize" in data and method in (
                        "findAll",
                        "findByPk",
                        "findAndCountAll",
                    ):
                        run.note(UNRESOLVED, "sequelize", at=(path, call))
                    continue
                if value.kind != "seq-model":
                    continue
                model: Model = value.ref
                if model.channel is None:
                    continue
                run.use(path, prop, model.channel)
                args = call_arguments(call)
                self._arguments(run, path, method, model, args)

    def _arguments(
        self, run: OrmRun, path: str, method: str, model: Model, args: list[Node]
    ) -> None:
        data = run.evaluator.data(path)
        values: list[Node] = []
        options: list[Node] = []
        if method in VALUE_METHODS and args:
            values.append(unwrap_value(args[0]))
            options.extend(unwrap_value(arg) for arg in args[1:])
        else:
            options.extend(unwrap_value(arg) for arg in args)
        for value in values:
            self._keys(run, path, value, model)
        for option in options:
            if option.kind != "object":
                continue
            self._options(run, path, data, option, model, 0)

    def _options(
        self, run: OrmRun, path: str, data: bytes, option: Node, model: Model, depth: int
    ) -> None:
        if depth > 6:
            return
        for key in OPTION_COLUMN_KEYS:
            nested = object_value(option, key)
            if nested is not None:
                self._keys(run, path, unwrap_value(nested), model)
        include = object_value(option, "include")
        if include is None:
            return
        include = unwrap_value(include)
        items = list(include.items) if include.kind == "array" else [include]
        for item in items:
            item = unwrap_value(item)
            model_node = object_value(item, "model") if item.kind == "object" else item
            target = None if model_node is None else run.evaluator.value(path, model_node)
            if target is None or target.kind != "seq-model" or model_node is None:
                continue
            included: Model = target.ref
            if included.channel is not None:
                run.use(path, model_node, included.channel)
                if item.kind == "object":
                    self._options(run, path, data, item, included, depth + 1)

    def _keys(self, run: OrmRun, path: str, node: Node, model: Model) -> None:
        channel = model.channel
        if channel is not None:
            run.use_written_keys(
                path,
                node,
                channel,
                model.field_of,
                nested_arrays=True,
                wrappers=("include", "exclude"),
            )


def _underscored_if(text_value: str, underscored: bool) -> str:
    return inflection.underscore(text_value) if underscored else text_value


def _key_option(data: bytes, obj: Node | None, key: str) -> tuple[str | None, str | None]:
    """A foreign key option: `'name'` or `{ name, field }`."""
    value = object_value(obj, key)
    if value is None:
        return None, None
    value = unwrap_value(value)
    written = literal_string(value)
    if written is not None:
        return written, None
    return string_option(value, "name"), string_option(value, "field")
