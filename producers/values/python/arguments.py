"""The arguments of a Python call, read once for every evaluator.

What an argument holds is the evaluator's own business, so `Arguments` keeps whatever
the reading function gives for each argument expression (the node itself, or a value
with its node); reading goes in source order, so an evaluator whose arguments have
effects (a route registered inside one) sees them in the order Python runs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Generic
from typing import TypeVar

from tsograph.producers.lang.syntax_tree import Node

T = TypeVar("T")


@dataclass
class Arguments(Generic[T]):
    positional: list[T] = field(default_factory=list)
    keywords: dict[str, T] = field(default_factory=dict)
    open: bool = False  # a `*args` or `**kwargs` spread: more arguments than written

    @staticmethod
    def read(
        call: Node,
        reading: Callable[[Node], T],
        spreading: Callable[[Node, str], Arguments[T] | None] | None = None,
    ) -> Arguments[T]:
        """The arguments of `call`, each argument expression read by `reading` (a spread's
        expression too, for its effects: what it holds is not known, unless `spreading`
        proves the arguments a `*x` or `**x` (its value) stands for)."""
        found: Arguments[T] = Arguments()
        for item in call.items:
            if item.kind == "keyword":
                value = item.part("value")
                if item.value and value is not None:
                    found.keywords[item.value] = reading(value)
            elif item.kind == "spread":
                inner = item.part("value")
                spliced = None
                if inner is not None and spreading is not None:
                    spliced = spreading(inner, item.value or "*")
                elif inner is not None:
                    reading(inner)
                if spliced is None:
                    found.open = True
                else:
                    found.positional.extend(spliced.positional)
                    found.keywords.update(spliced.keywords)
                    found.open = found.open or spliced.open
            else:
                found.positional.append(reading(item))
        return found

    @staticmethod
    def of(call: Node) -> Arguments[Node]:
        """The argument expressions of `call`."""
        return Arguments.read(call, _node)

    def get(self, index: int, keyword: str) -> T | None:
        """The argument for a parameter that is positional at `index` and named `keyword`
        (a negative index: keyword-only)."""
        if 0 <= index < len(self.positional):
            return self.positional[index]
        return self.keywords.get(keyword)

    def missing(self, index: int, keyword: str) -> bool:
        """True when the parameter is provably not given (no spread could hold it)."""
        return self.get(index, keyword) is None and not self.open


def _node(node: Node) -> Node:
    return node
