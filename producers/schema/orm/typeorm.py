"""TypeORM (1.1.1 and 0.3.31): entity declarations and the calls that use them.

An entity is a class decorated with `@Entity` (or `@ViewEntity`) imported from typeorm.
Its table is the decorator's name or DefaultNamingStrategy.tableName(class), behind
the data source's `entityPrefix`, in the decorator's `schema`. Columns (`@Column` and
the primary/date/version column decorators) are the `name` option or the property;
embedded columns (`@Column(() => Embedded, { prefix })`) get the strategy's prefix;
`@ManyToOne`/`@OneToOne` owners get join columns and `@ManyToMany` with `@JoinTable` a
junction table, both as the default strategy builds them (typeorm_naming.py). With a
custom `namingStrategy` in any data source only explicit names are kept; options that
cannot be read statically are assumed default and noted under orm-naming-unverified:;
an entity, column or relation name that is not a constant is left out and noted under
unreadable-orm-declarations:. `@Entity("")` is an empty table in 1.x (skipped) and a
derived one in 0.3, chosen by the typeorm version in package.json.

Uses: repositories (`getRepository(E)`, `Repository<E>` annotations), ActiveRecord
statics on entities extending BaseEntity, EntityManager calls with an entity argument,
QueryBuilder entities and `alias.property` references, and `query(sql)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tsograph.producers.lang.syntax_read import top_level, unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.packages import read_package
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema.orm import drivers, typeorm_naming
from tsograph.producers.schema.orm.collector import OrmCollector
from tsograph.producers.schema.orm.context import (
    UNREADABLE,
    UNRESOLVED,
    UNVERIFIED,
    OrmRun,
    continued,
    method_of,
)
from tsograph.producers.schema.orm.declarations import (
    CALLS,
    Binding,
    call_arguments,
    callee_of,
    is_object_property,
    key_name,
    literal_string,
    object_value,
    string_option,
    written_entries,
)
from tsograph.producers.schema.orm.orm_evaluator import Evaluator, Hook, Val

COLUMN_DECORATORS = frozenset(
    {
        "Column",
        "PrimaryColumn",
        "PrimaryGeneratedColumn",
        "CreateDateColumn",
        "UpdateDateColumn",
        "DeleteDateColumn",
        "VersionColumn",
        "ObjectIdColumn",
    }
)
PRIMARY_DECORATORS = frozenset({"PrimaryColumn", "PrimaryGeneratedColumn", "ObjectIdColumn"})
# Repository / BaseEntity / EntityManager methods that read or write the entity's table.
ENTITY_METHODS = frozenset(
    [
        "find",
        "findBy",
        "findOne",
        "findOneBy",
        "findOneOrFail",
        "findOneByOrFail",
        "findAndCount",
        "findAndCountBy",
        "count",
        "countBy",
        "exist",
        "exists",
        "existsBy",
        "save",
        "insert",
        "update",
        "upsert",
        "delete",
        "remove",
        "softDelete",
        "softRemove",
        "restore",
        "recover",
        "increment",
        "decrement",
        "sum",
        "average",
        "minimum",
        "maximum",
        "create",
        "merge",
        "preload",
        "clear",
        "createQueryBuilder",
        "findByIds",
    ]
)
# Methods whose first object argument holds column keys directly (criteria or values).
KEYED = frozenset(
    [
        "findBy",
        "findOneBy",
        "findOneByOrFail",
        "countBy",
        "existsBy",
        "findAndCountBy",
        "insert",
        "update",
        "upsert",
        "delete",
        "softDelete",
        "restore",
        "save",
        "create",
        "increment",
        "decrement",
    ]
)
# Options of find/findOne/count whose keys are columns.
OPTION_KEYS = ("where", "select", "order")
QB_RECEIVERS = frozenset({"typeorm-ds", "typeorm-manager", "typeorm-repo", "typeorm-entity"})
QB_ENTITY_METHODS = frozenset({"from", "into", "update", "delete", "insert"})
QB_JOINS = frozenset(
    {
        "leftJoin",
        "leftJoinAndSelect",
        "innerJoin",
        "innerJoinAndSelect",
        "leftJoinAndMapOne",
        "leftJoinAndMapMany",
        "innerJoinAndMapOne",
        "innerJoinAndMapMany",
    }
)
QB_COLUMN_METHODS = frozenset(
    [
        "select",
        "addSelect",
        "where",
        "andWhere",
        "orWhere",
        "having",
        "andHaving",
        "orHaving",
        "orderBy",
        "addOrderBy",
        "groupBy",
        "addGroupBy",
    ]
)
_ALIAS_PROPERTY = re.compile(r"(?<![\w.$:])([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)")


@dataclass
class EntityColumn:
    path: str  # property path (`name.first` for embedded)
    node: Node  # the property name
    name: str | None  # database name; None when a custom strategy hides it


@dataclass(eq=False)
class Entity:
    path: str
    class_node: Node
    name_node: Node
    class_name: str
    given_name: str | None
    schema: str | None
    active_record: bool
    columns: list[EntityColumn] = field(default_factory=list)
    relations: dict[str, tuple[str, Node, Node]] = field(default_factory=dict)
    table: str | None = None  # with prefix; None when unverified
    bare_table: str | None = None  # without prefix
    readable: bool = True  # False when the decorator's name or schema is not a constant

    @property
    def channel(self) -> str | None:
        return None if self.table is None else fact_builder.channel(self.table, self.schema)

    def column(self, prop: str) -> str | None:
        for column in self.columns:
            if column.path == prop:
                return column.name
        return None


@dataclass
class _Options:
    prefix: str | None = ""  # None when entityPrefix is not known
    custom: bool = False
    version03: bool = False


class TypeOrm(OrmCollector):
    def __init__(self) -> None:
        self.entities: dict[tuple[str, int], Entity] = {}
        self.options = _Options()
        self._embedded: dict[tuple[str, int], list[tuple[str, Node, str | None, bool]]] = {}

    # ---- evaluator hook ---------------------------------------------------------------

    def hooks(self) -> dict[str, Hook]:
        return {"class": self.class_value}

    def class_value(self, ev: Evaluator, path: str, node: Node, _: Val) -> Val | None:
        key = (path, node.start)
        if key in self.entities:
            return Val("typeorm-entity", self.entities[key])
        for decorator in node.decorators:
            name, args = _decorator_call(ev, path, decorator)
            if name not in ("Entity", "ViewEntity"):
                continue
            return Val("typeorm-entity", self._entity(ev, path, node, args))
        return None

    def _entity(self, ev: Evaluator, path: str, node: Node, args: list[Node]) -> Entity:
        data = ev.data(path)
        given: str | None = None
        schema: str | None = None
        readable = True
        for arg in args:
            arg = unwrap_value(arg)
            written = ev.constant(path, arg)
            if written is not None:
                given = written
            elif arg.kind == "object":
                name_node = object_value(arg, "name")
                schema_node = object_value(arg, "schema")
                if name_node is not None:
                    given = ev.constant(path, name_node)
                    readable = readable and given is not None
                if schema_node is not None:
                    schema = ev.constant(path, schema_node)
                    readable = readable and schema is not None
            else:
                readable = False
        name_node = node.part("name") or node
        heritage = [
            part
            for part in (
                node.part("base"),
                node.part("base_type_arguments"),
                node.part("implements"),
            )
            if part is not None
        ]
        active = (
            bool(heritage)
            and b"BaseEntity"
            in data[min(part.start for part in heritage) : max(part.end for part in heritage)]
        )
        entity = Entity(path, node, name_node, ev.text(path, name_node), given, schema, active)
        entity.readable = readable
        self.entities[(path, node.start)] = entity
        return entity

    # ---- declarations -------------------------------------------------------------------

    def read_options(self, run: OrmRun) -> None:
        """entityPrefix and namingStrategy of the data sources.

        Options reach TypeORM in many ways (`new DataSource({...})`, Nest's
        `TypeOrmModule.forRoot*`, config files), so every `entityPrefix` and
        `namingStrategy` key in a file that mentions typeorm counts, and a data source
        whose options cannot be read makes the names unverified. The typeorm version
        (1.x or 0.3) comes from the project's package.json files.
        """
        prefixes: set[str | None] = set()  # None: a prefix that is not a constant
        unreadable = False
        for path in run.paths:
            data = run.evaluator.data(path)
            if b"typeorm" not in data and b"DataSource" not in data:
                continue
            for node in run.nodes(path):
                if node.kind == "new":
                    unreadable = self._data_source(run, path, node) or unreadable
            for pair in _pairs(run.file(path).root):
                name = key_name(pair.part("key"))
                if name == "namingStrategy":
                    self.options.custom = True
                elif name == "entityPrefix":
                    prefixes.add(run.evaluator.constant(path, pair.part("value")))
        if len(prefixes) > 1 or None in prefixes:
            # The prefix applies to every table, explicit names too: no table name is sure.
            self.options.prefix = None
            run.note(UNVERIFIED, "typeorm-entity-prefix")
        elif prefixes:
            self.options.prefix = next(iter(prefixes))
        if unreadable:  # options nobody can read: assumed default, and said so
            run.note(UNVERIFIED, "typeorm-data-source-options")
        self.options.version03 = _version03(run)

    def _data_source(self, run: OrmRun, path: str, node: Node) -> bool:
        """True when a `new DataSource(options)` has options that cannot be read."""
        target = run.evaluator.value(path, node.part("callee"))
        if target is None or target.kind != "pkg" or target.ref.name != "DataSource":
            return False
        args = call_arguments(node)
        options = run.evaluator.value(path, args[0]) if args else None
        if options is None or options.kind != "object":
            return True
        options_path, obj = options.ref
        if options_path != path and object_value(obj, "namingStrategy") is not None:
            self.options.custom = True  # keys in another file: read them there too
        return any(item.kind == "spread" for item in obj.items)

    def declare(self, run: OrmRun) -> None:
        ev = run.evaluator
        for path in run.paths:
            data = ev.data(path)
            if b"typeorm" not in data:
                continue
            for node in top_level(run.file(path).root, ("class",)):
                value = ev.binding_value(path, Binding(node))
                if value is not None and value.kind == "typeorm-entity":
                    self._resolve(run, value.ref)
        for entity in sorted(self.entities.values(), key=lambda e: (e.path, e.class_node.start)):
            self._emit(run, entity)

    def _resolve(self, run: OrmRun, entity: Entity) -> None:
        if entity.columns or entity.relations:
            return
        custom = self.options.custom
        if not entity.readable:
            entity.table = entity.bare_table = None
            self._members(run, entity.path, entity.class_node, entity, [], "", None)
            return
        if entity.given_name is not None and (entity.given_name or not self.options.version03):
            bare: str | None = entity.given_name
        else:
            bare = None if custom else typeorm_naming.table_name(entity.class_name, None)
        entity.bare_table = bare
        prefix = self.options.prefix
        entity.table = None if bare is None or prefix is None else prefix + bare
        self._members(run, entity.path, entity.class_node, entity, [], "", None)

    def _members(
        self,
        run: OrmRun,
        path: str,
        cls: Node,
        entity: Entity,
        prefixes: list[str],
        owner: str,
        anchor: Node | None,
    ) -> None:
        """Columns and relations of a class; `anchor` is the entity's embedding property,
        where columns of embedded classes (declared in other files) are located."""
        ev = run.evaluator
        for member in cls.items:
            if member.kind != "field":
                continue
            key = member.part("name")
            prop = key_name(key)
            if prop is None or key is None:
                continue
            for decorator in member.decorators:
                name, args = _decorator_call(ev, path, decorator)
                if name in COLUMN_DECORATORS:
                    self._column(run, path, entity, anchor or key, prop, args, prefixes, owner)
                elif name in ("ManyToOne", "OneToOne", "ManyToMany") and args and anchor is None:
                    entity.relations[owner + prop] = (name, args[0], member)

    def _column(
        self,
        run: OrmRun,
        path: str,
        entity: Entity,
        key: Node,
        prop: str,
        args: list[Node],
        prefixes: list[str],
        owner: str,
    ) -> None:
        ev = run.evaluator
        first = unwrap_value(args[0]) if args else None
        if first is not None and first.kind == "function" and first.value == "arrow":
            target = ev.value(path, first.part("body"))
            if target is None or target.kind != "class":
                return
            # EmbeddedMetadata.buildPartialPrefix: absent or true -> the property,
            # "" or false -> none, a string -> itself.
            prefix: str | None = prop
            for arg in args[1:]:
                option = object_value(unwrap_value(arg), "prefix")
                if option is None or ev.text(path, option) == "true":
                    continue
                prefix = None if ev.text(path, option) == "false" else literal_string(option)
                if prefix is None and ev.text(path, option) != "false":
                    run.note(UNVERIFIED, "typeorm-embedded-prefix")
                    return
            nested = prefixes + ([prefix] if prefix else [])
            class_path, class_node = target.ref
            self._members(run, class_path, class_node, entity, nested, f"{owner}{prop}.", key)
            return
        explicit: str | None = None
        for arg in args:
            arg = unwrap_value(arg)
            if arg.kind == "object":
                option = object_value(arg, "name")
                if option is not None:
                    explicit = ev.constant(path, option)
                    if explicit is None:
                        run.note(UNREADABLE, "typeorm-column-names", name=path)
                        return
        if self.options.custom and explicit is None:
            name: str | None = None
        else:
            name = typeorm_naming.column_name(prop, explicit, prefixes)
        entity.columns.append(EntityColumn(owner + prop, key, name))

    def _primary(self, run: OrmRun, entity: Entity) -> list[EntityColumn]:
        """Primary columns: the properties decorated with a primary column decorator."""
        found: list[EntityColumn] = []
        ev = run.evaluator
        for member in entity.class_node.items:
            key = member.part("name") if member.kind == "field" else None
            prop = key_name(key)
            if prop is None:
                continue
            for decorator in member.decorators:
                name, args = _decorator_call(ev, entity.path, decorator)
                primary = name in PRIMARY_DECORATORS or (
                    name == "Column" and any(_primary_option(ev, entity.path, arg) for arg in args)
                )
                if primary:
                    found.extend(column for column in entity.columns if column.path == prop)
        return found

    def _emit(self, run: OrmRun, entity: Entity) -> None:
        channel = entity.channel
        if not entity.readable or entity.table == "":
            # TypeORM 1.x keeps `@Entity("")` as an empty table name: no relation to name.
            run.note(UNREADABLE, "typeorm-entity-names", name=entity.path)
            return
        if channel is None:
            run.note(
                UNVERIFIED, "typeorm-naming-strategy", name=f"{entity.path}#{entity.class_name}"
            )
            return
        run.declare(entity.path, entity.name_node, channel, entity.class_name)
        for column in entity.columns:
            if column.name is None:
                run.note(UNVERIFIED, "typeorm-naming-strategy")
                continue
            run.declare(
                entity.path, column.node, channel, f"{entity.class_name}.{column.path}", column.name
            )
        for prop, (kind, target_node, member) in sorted(entity.relations.items()):
            self._relation(run, entity, prop, kind, target_node, member)

    def _target(self, run: OrmRun, path: str, node: Node) -> Entity | None:
        node = unwrap_value(node)
        if node.kind == "function" and node.value == "arrow":
            node = node.part("body") or node
        value = run.evaluator.value(path, node)
        if value is None or value.kind != "typeorm-entity":
            return None
        self._resolve(run, value.ref)
        return value.ref  # type: ignore[no-any-return]

    def _relation(
        self, run: OrmRun, entity: Entity, prop: str, kind: str, target_node: Node, member: Node
    ) -> None:
        ev = run.evaluator
        target = self._target(run, entity.path, target_node)
        key = member.part("name") or member
        qualified = f"{entity.class_name}.{prop}"
        join_column: tuple[str, list[Node]] | None = None
        join_table: list[Node] | None = None
        for decorator in member.decorators:
            name, args = _decorator_call(ev, entity.path, decorator)
            if name == "JoinColumn":
                join_column = (name, args)
            elif name == "JoinTable":
                join_table = args
        if target is None:
            if join_column is not None or join_table is not None:
                run.note(UNREADABLE, "typeorm-relation-targets", name=entity.path)
            return
        written = [_first_object(join_column[1]) if join_column else None]
        written.append(None if join_table is None else _first_object(join_table))
        for nested_key in ("joinColumn", "inverseJoinColumn"):
            nested = None if written[1] is None else object_value(written[1], nested_key)
            written.append(None if nested is None else unwrap_value(nested))
        if any(_unreadable_names(options) for options in written):
            run.note(UNREADABLE, "typeorm-relation-names", name=entity.path)
            return
        channel = entity.channel
        if kind in ("ManyToOne", "OneToOne") and channel is not None:
            if kind == "OneToOne" and join_column is None:
                return  # the inverse side owns no column
            options = _first_object(join_column[1]) if join_column else None
            explicit = string_option(options, "name")
            referenced = string_option(options, "referencedColumnName")
            if explicit is not None:
                run.declare(entity.path, key, channel, qualified, explicit)
            elif self.options.custom:
                run.note(UNVERIFIED, "typeorm-naming-strategy")
            else:
                names = [referenced] if referenced else [c.path for c in self._primary(run, target)]
                for referenced_prop in names:
                    column = typeorm_naming.join_column_name(prop, referenced_prop)
                    run.declare(entity.path, key, channel, qualified, column)
            return
        if kind != "ManyToMany" or join_table is None:
            return
        options = _first_object(join_table)
        given = string_option(options, "name")
        prefix = self.options.prefix
        if prefix is None or (
            given is None
            and (self.options.custom or entity.bare_table is None or target.bare_table is None)
        ):
            run.note(UNVERIFIED, "typeorm-naming-strategy")
            return
        table = prefix + (
            given
            if given is not None
            else typeorm_naming.join_table_name(
                entity.bare_table or "", target.bare_table or "", prop
            )
        )
        junction = fact_builder.channel(table, string_option(options, "schema") or entity.schema)
        run.declare(entity.path, key, junction, qualified)
        for side, owner, option in (
            (entity, entity, "joinColumn"),
            (target, target, "inverseJoinColumn"),
        ):
            nested = None if options is None else object_value(options, option)
            nested = None if nested is None else unwrap_value(nested)
            explicit = string_option(
                nested if nested is not None and nested.kind == "object" else None, "name"
            )
            if explicit is not None:
                run.declare(entity.path, key, junction, qualified, explicit)
                continue
            for primary in self._primary(run, owner):
                if primary.name is None or side.bare_table is None:
                    continue
                run.declare(
                    entity.path,
                    key,
                    junction,
                    qualified,
                    typeorm_naming.join_table_column_name(
                        side.bare_table, primary.path, primary.name
                    ),
                )

    # ---- uses --------------------------------------------------------------------------------

    def uses(self, run: OrmRun) -> None:
        ev = run.evaluator
        for path in run.paths:
            for call, method, prop, receiver in run.method_calls(path):
                if (
                    method not in ENTITY_METHODS
                    and method not in ("query", "getRepository")
                    and method not in QB_COLUMN_METHODS
                    and method not in QB_ENTITY_METHODS
                    and method not in QB_JOINS
                ):
                    continue
                value = ev.value(path, receiver)
                args = call_arguments(call)
                if method == "getRepository" and (value is None or value.kind not in QB_RECEIVERS):
                    if _is_entity(ev, path, args):  # an entity handed to an untraced source
                        run.note(UNRESOLVED, "typeorm", name=path)
                    continue
                if value is None:
                    continue
                kind = value.kind
                if (
                    method == "query"
                    and kind in ("typeorm-ds", "typeorm-manager", "typeorm-repo")
                    and args
                ):
                    drivers.statement(run, path, args[0])
                elif kind == "typeorm-repo" and method in ENTITY_METHODS:
                    self._entity_call(run, path, method, prop, value.ref, args)
                elif (
                    kind == "typeorm-entity"
                    and value.ref.active_record
                    and method in ENTITY_METHODS
                ):
                    self._entity_call(run, path, method, prop, value, args)
                elif kind == "typeorm-manager" and method in ENTITY_METHODS and args:
                    target = ev.value(path, args[0])
                    if target is not None and target.kind == "typeorm-entity":
                        self._entity_call(run, path, method, args[0], target, args[1:])
            self._query_builders(run, path)

    def _entity_call(
        self, run: OrmRun, path: str, method: str, at: Node, value: Val | None, args: list[Node]
    ) -> None:
        if value is None or value.kind != "typeorm-entity":
            return
        entity: Entity = value.ref
        self._resolve(run, entity)
        channel = entity.channel
        if channel is None:
            return
        run.use(path, at, channel)
        if not args:
            return
        first = unwrap_value(args[0])
        if method in KEYED:
            self._keys(run, path, first, entity)
            if method in ("update", "upsert") and len(args) > 1:
                self._keys(run, path, unwrap_value(args[1]), entity)
        elif first.kind == "object":
            for option in OPTION_KEYS:
                nested = object_value(first, option)
                if nested is not None:
                    self._keys(run, path, unwrap_value(nested), entity)

    def _keys(self, run: OrmRun, path: str, node: Node, entity: Entity) -> None:
        channel = entity.channel
        if channel is None:
            return
        if node.kind == "array":
            for item in node.items:
                item = unwrap_value(item)
                written = literal_string(item)
                if written is not None:
                    column = entity.column(written)
                    if column is not None:
                        run.use(path, item, channel, column)
                elif item.kind == "object":
                    self._keys(run, path, item, entity)
            return
        if node.kind != "object":
            return
        for name, key, _ in written_entries(node):
            column = None if name is None else entity.column(name)
            if column is not None:
                run.use(path, key, channel, column)

    def _query_builders(self, run: OrmRun, path: str) -> None:
        """`createQueryBuilder` chains: entity arguments, joins on relations, alias.prop."""
        ev = run.evaluator
        for call in run.calls(path):
            if continued(call):
                continue
            links = _links(call)
            starts = [
                index for index, (method, _) in enumerate(links) if method == "createQueryBuilder"
            ]
            if not starts:
                continue
            start = links[starts[-1]][1]
            shape = method_of(start)
            receiver = None if shape is None else ev.value(path, shape[2])
            if receiver is None or receiver.kind not in QB_RECEIVERS:
                continue
            aliases: dict[str, Entity] = {}
            self._qb_start(run, path, receiver, call_arguments(start), aliases)
            for method, link in links[starts[-1] + 1 :]:
                args = call_arguments(link)
                if method in QB_ENTITY_METHODS and args:
                    target = ev.value(path, args[0])
                    if target is not None and target.kind == "typeorm-entity":
                        self._resolve(run, target.ref)
                        if target.ref.channel is not None:
                            run.use(path, args[0], target.ref.channel)
                        alias = literal_string(args[1]) if len(args) > 1 else None
                        if alias:
                            aliases[alias] = target.ref
                elif method in QB_JOINS and len(args) > 1:
                    self._qb_join(run, path, args, aliases)
                if method in QB_COLUMN_METHODS or method in QB_JOINS:
                    for arg in args:
                        self._alias_columns(run, path, unwrap_value(arg), aliases)

    def _qb_start(
        self, run: OrmRun, path: str, receiver: Val, args: list[Node], aliases: dict[str, Entity]
    ) -> None:
        """The entity and alias a builder starts from: a repository's or an ActiveRecord
        entity's own (its table fact comes from the method call), or `(Entity, alias)`
        on a data source or manager."""
        entity: Entity | None = None
        alias_node: Node | None = None
        if receiver.kind == "typeorm-repo":
            inner = receiver.ref
            if inner is not None and inner.kind == "typeorm-entity":
                entity, alias_node = inner.ref, args[0] if args else None
        elif receiver.kind == "typeorm-entity":
            entity, alias_node = receiver.ref, args[0] if args else None
        elif args:
            target = run.evaluator.value(path, args[0])
            if target is not None and target.kind == "typeorm-entity":
                entity, alias_node = target.ref, args[1] if len(args) > 1 else None
                self._resolve(run, target.ref)
                if target.ref.channel is not None:
                    run.use(path, args[0], target.ref.channel)
        if entity is None:
            return
        self._resolve(run, entity)
        alias = literal_string(alias_node)
        if alias:
            aliases[alias] = entity

    def _qb_join(
        self, run: OrmRun, path: str, args: list[Node], aliases: dict[str, Entity]
    ) -> None:
        first = unwrap_value(args[0])
        alias = literal_string(args[1])
        written = literal_string(first)
        entity: Entity | None = None
        if written is not None and "." in written:
            owner_alias, _, relation = written.partition(".")
            owner = aliases.get(owner_alias)
            found = None if owner is None else owner.relations.get(relation)
            if owner is not None and found is not None:
                entity = self._target(run, owner.path, found[1])
        else:
            target = run.evaluator.value(path, first)
            if target is not None and target.kind == "typeorm-entity":
                entity = target.ref
                self._resolve(run, entity)
        if entity is None:
            return
        if entity.channel is not None:
            run.use(path, first, entity.channel)
        if alias:
            aliases[alias] = entity

    def _alias_columns(
        self, run: OrmRun, path: str, node: Node, aliases: dict[str, Entity]
    ) -> None:
        if node.kind == "array":
            for item in node.items:
                self._alias_columns(run, path, unwrap_value(item), aliases)
            return
        written = literal_string(node)
        if written is None:
            return
        for match in _ALIAS_PROPERTY.finditer(written):
            entity = aliases.get(match.group(1))
            column = None if entity is None else entity.column(match.group(2))
            if entity is not None and column is not None and entity.channel is not None:
                run.use(path, node, entity.channel, column)
        run.scan.claim(path, node.start)


def _links(call: Node) -> list[tuple[str, Node]]:
    """The method calls of a chain, innermost first."""
    links: list[tuple[str, Node]] = []
    node: Node | None = call
    while node is not None and node.kind in CALLS:
        shape = method_of(node)
        if shape is None:
            break
        links.append((shape[0], node))
        node = unwrap_value(shape[2])
    links.reverse()
    return links


def _is_entity(ev: Evaluator, path: str, args: list[Node]) -> bool:
    value = ev.value(path, args[0]) if args else None
    return value is not None and value.kind == "typeorm-entity"


def _pairs(root: Node) -> list[Node]:
    return [node for node in root.walk() if is_object_property(node)]


def _version03(run: OrmRun) -> bool:
    """True when a package.json asks for typeorm 0.x (names differ on empty strings)."""
    notes: list[str] = []
    for folder in run.scan.files.package_dirs:
        package = read_package(run.scan.root, folder, notes)
        spec = None if package is None else package.dependencies.get("typeorm")
        if spec is not None and spec.lstrip("^~=v ").startswith("0."):
            return True
    return False


def _decorator_call(ev: Evaluator, path: str, decorator: Node) -> tuple[str | None, list[Node]]:
    """(typeorm export name, arguments) of a decorator imported from typeorm."""
    expression = decorator.part("value")
    if expression is None:
        return None, []
    callee = callee_of(expression) if expression.kind in CALLS else expression
    value = ev.value(path, callee)
    if value is None or value.kind != "pkg" or value.ref.package != "typeorm":
        return None, []
    return value.ref.name, call_arguments(expression)


NAME_OPTIONS = ("name", "referencedColumnName", "schema")


def _unreadable_names(options: Node | None) -> bool:
    """True when an options object names something with a value that is not a literal."""
    if options is None or options.kind != "object":
        return False
    return any(
        value is not None and literal_string(value) is None
        for value in (object_value(options, key) for key in NAME_OPTIONS)
    )


def _first_object(args: list[Node]) -> Node | None:
    for arg in args:
        arg = unwrap_value(arg)
        if arg.kind == "object":
            return arg
    return None


def _primary_option(ev: Evaluator, path: str, arg: Node) -> bool:
    value = object_value(unwrap_value(arg), "primary")
    return value is not None and ev.text(path, value) == "true"
