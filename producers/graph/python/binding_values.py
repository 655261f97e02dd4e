"""What a Python name or expression may hold, as far as binding proves it.

`Module` and `Namespace` (values/python's, shared with the routes and schema
readers) are imported modules; `Decl` a project declaration (function,
class, method, variable); `Instance` an object of a project class:
`exact` when a constructor call made it, so no subclass can answer instead
(an annotation or `self` proves only that it is at least that class), and
`flow` when only the project's writes to an attribute prove it. `Outside` is
a value from a declared dependency, the standard library or the builtins;
`Unknown` anything else: the readers' one unknown value, with the reason a
call through it gets no edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.python.modules import Namespace
from tsograph.producers.values.unknown import Unknown as UnprovenValue

# Reasons a call gets no edge (unresolved-calls: breakdown keys), from code-graph.txt.
UNTYPED_RECEIVER = "untyped-receiver"
DYNAMIC = "dynamic"
MISS = "miss"
AMBIGUOUS = "ambiguous"
DYNAMIC_BASE = "dynamic-base"
CHAIN_TOO_DEEP = "export-chain-too-deep"


@dataclass(frozen=True)
class Decl:
    id: str


@dataclass(frozen=True)
class Instance:
    class_id: str
    exact: bool
    # Proven by following writes (`self.repo = Repo()`): the whole program's writes are the
    # only ones, so what it gives is bound, never direct.
    flow: bool = False


@dataclass(frozen=True)
class Outside:
    pass


@dataclass(frozen=True)
class Unknown(UnprovenValue):
    """The one unknown value of the readers (values/unknown.py), with the reason a call
    through it gets no edge."""

    reason: str


Value = Module | Namespace | Decl | Instance | Outside | Unknown
OUTSIDE = Outside()
