"""TypeORM (1.1.1 and 0.3.31) uses: the calls that read or write an entity's table.

Repositories (`getRepository(E)`, `Repository<E>` annotations, classes extending
`Repository<E>`), ActiveRecord statics on entities extending BaseEntity, EntityManager
calls with an entity argument, with column facts from criteria, values and the
`where`/`select`/`order` options; QueryBuilder chains (`createQueryBuilder`): entity
arguments, joins on relations and `alias.property` references in their strings; and
`query(sql)` on data sources, managers and repositories. The entities come from
typeorm.py.
"""

from __future__ import annotations

import re
from typing import Protocol

from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema.orm import drivers
from tsograph.producers.schema.orm.declarations import CALLS
from tsograph.producers.schema.orm.declarations import call_arguments
from tsograph.producers.schema.orm.declarations import literal_string
from tsograph.producers.schema.orm.declarations import object_value
from tsograph.producers.schema.orm.orm_evaluator import Evaluator
from tsograph.producers.schema.orm.orm_run import UNRESOLVED
from tsograph.producers.schema.orm.orm_run import OrmRun
from tsograph.producers.schema.orm.orm_run import continued
from tsograph.producers.schema.orm.orm_run import method_of
from tsograph.producers.schema.orm.receivers import Val
from tsograph.producers.schema.orm.typeorm_entities import Entity

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


class EntityDeclarations(Protocol):
    """What the uses pass asks the declarations pass (typeorm.TypeOrm)."""

    def resolve(self, run: OrmRun, entity: Entity) -> None: ...

    def target(self, run: OrmRun, path: str, node: Node) -> Entity | None: ...


class TypeOrmQueries:
    """The uses pass, over the entities `declarations` found (and resolves on demand)."""

    def __init__(self, declarations: EntityDeclarations) -> None:
        self.declarations = declarations

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
                        run.note(UNRESOLVED, "typeorm", at=(path, call))
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
        self.declarations.resolve(run, entity)
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
        if channel is not None:
            run.use_written_keys(path, node, channel, entity.column)

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
                        self.declarations.resolve(run, target.ref)
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
                self.declarations.resolve(run, target.ref)
                if target.ref.channel is not None:
                    run.use(path, args[0], target.ref.channel)
        if entity is None:
            return
        self.declarations.resolve(run, entity)
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
                entity = self.declarations.target(run, owner.path, found[1])
        else:
            target = run.evaluator.value(path, first)
            if target is not None and target.kind == "typeorm-entity":
                entity = target.ref
                self.declarations.resolve(run, entity)
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
