"""TypeORM (1.1.1 and 0.3.31): entity declarations (the uses are in typeorm_queries.py).

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

"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.lang.syntax_read import top_level
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.packages import read_package
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema.orm import typeorm_naming
from tsograph.producers.schema.orm.collector import OrmCollector
from tsograph.producers.schema.orm.declarations import CALLS
from tsograph.producers.schema.orm.declarations import Binding
from tsograph.producers.schema.orm.declarations import call_arguments
from tsograph.producers.schema.orm.declarations import callee_of
from tsograph.producers.schema.orm.declarations import key_name
from tsograph.producers.schema.orm.declarations import literal_string
from tsograph.producers.schema.orm.declarations import object_properties
from tsograph.producers.schema.orm.declarations import object_value
from tsograph.producers.schema.orm.declarations import string_option
from tsograph.producers.schema.orm.orm_evaluator import Evaluator
from tsograph.producers.schema.orm.orm_evaluator import Hook
from tsograph.producers.schema.orm.orm_run import UNREADABLE
from tsograph.producers.schema.orm.orm_run import UNVERIFIED
from tsograph.producers.schema.orm.orm_run import OrmRun
from tsograph.producers.schema.orm.receivers import Val
from tsograph.producers.schema.orm.typeorm_entities import Entity
from tsograph.producers.schema.orm.typeorm_entities import EntityColumn
from tsograph.producers.schema.orm.typeorm_queries import TypeOrmQueries

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

    def uses(self, run: OrmRun) -> None:
        TypeOrmQueries(self).uses(run)

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
            for pair in object_properties(run.file(path).root):
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
                    self.resolve(run, value.ref)
        for entity in sorted(self.entities.values(), key=lambda e: (e.path, e.class_node.start)):
            self._emit(run, entity)

    def resolve(self, run: OrmRun, entity: Entity) -> None:
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

    def target(self, run: OrmRun, path: str, node: Node) -> Entity | None:
        node = unwrap_value(node)
        if node.kind == "function" and node.value == "arrow":
            node = node.part("body") or node
        value = run.evaluator.value(path, node)
        if value is None or value.kind != "typeorm-entity":
            return None
        self.resolve(run, value.ref)
        return value.ref  # type: ignore[no-any-return]

    def _relation(
        self, run: OrmRun, entity: Entity, prop: str, kind: str, target_node: Node, member: Node
    ) -> None:
        ev = run.evaluator
        target = self.target(run, entity.path, target_node)
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
