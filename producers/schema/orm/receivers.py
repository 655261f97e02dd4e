"""What the ORM evaluator proves an expression is: a `Val` (kinds listed in orm_evaluator.py).

Its own module so the evaluator and the type reader (type_values.py) share it
without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class PkgRef:
    package: str  # the supported package entry (`drizzle-orm`)
    specifier: str  # as written (`drizzle-orm/pg-core`)
    name: str  # imported name, `default`, or `*` for the module object


@dataclass(frozen=True, slots=True)
class Val:
    kind: str
    ref: Any = None
