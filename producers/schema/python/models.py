"""The model classes a Python schema run has read (SQLAlchemy/SQLModel and Django), by class."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Generic
from typing import TypeVar

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_client.evaluator import Cls
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.routes.python_client.scopes import nodes
from tsograph.producers.schema.python.relation_scan import PySchemaScan


@dataclass
class DeclaredModel:
    """A model class: its table's channel (Django: "" for an abstract model), whether the
    table name is proven, and its columns by attribute or field name."""

    name: str
    ctx: Context
    node: Node
    table: str
    dynamic: bool
    columns: dict[str, str] = field(default_factory=dict)


ModelT = TypeVar("ModelT", bound=DeclaredModel)


@dataclass
class ModelIndex(Generic[ModelT]):
    by_class: dict[int, ModelT] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)  # the class names, to skip other names early

    def of(self, value: Value) -> ModelT | None:
        """The model a value names when it is a model class the project declares."""
        if isinstance(value, Cls):
            return self.by_class.get(id(value.node))
        return None

    def naming_nodes(self, scan: PySchemaScan) -> Iterator[tuple[Context, Node]]:
        """Every node of the files whose text holds one of the model names, with its file:
        the only files whose code can query the models (none when the run read none)."""
        if not self.names:
            return
        encoded = [name.encode() for name in self.names]
        for ctx in scan.contexts():
            if any(name in ctx.syntax.data for name in encoded):
                for node in nodes(ctx.root):
                    yield ctx, node
