"""The TypeORM entities the declarations pass finds: a class, its table and its columns.

Shared by the declarations (typeorm.py) and the uses pass (typeorm_queries.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import facts as fact_builder


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
