"""What a name or expression can be proven to stand for, across files.

The binder turns every chain of names into one of these values. Only a
`Declared` value or an `Instance` of a project class can lead to an edge;
`External` values belong to packages, built-ins or globals, and `Unknown`
carries the reason no target is proven (counted under unresolved-calls:).
"""

from __future__ import annotations

from dataclasses import dataclass

# Why a call gets no edge. The names are the breakdown keys of unresolved-calls:.
PARAMETER = "parameter"  # the callee comes from a parameter whose type names no project class
INTERFACE = "interface"  # the receiver's declared type is an interface, type alias or abstract
UNTYPED = "untyped"  # nothing in the code says what the value is
COMPUTED = "computed"  # the callee or a member is computed (`obj[key]()`)
INDIRECT = "indirect"  # a call result, a non-function value, `.call`/`.bind`, …
UNRESOLVED_IMPORT = "unresolved-import"  # a project import that names no file or export


@dataclass(frozen=True, slots=True)
class Declared:
    """A project declaration (function, class, variable, member, …) by id."""

    id: str


@dataclass(frozen=True, slots=True)
class Module:
    """A whole project module, as a namespace import or `require` gives it."""

    path: str


@dataclass(frozen=True, slots=True)
class Instance:
    """An instance of a project class (by the class declaration's id)."""

    class_id: str


@dataclass(frozen=True, slots=True)
class Interface:
    """A value known only by a project interface or object type alias it is declared as."""

    path: str
    name: str


@dataclass(frozen=True, slots=True)
class External:
    """A value from outside the project; `missing` when its package is not installed."""

    package: str = ""
    missing: bool = False


@dataclass(frozen=True, slots=True)
class Unknown:
    reason: str


Value = Declared | Module | Instance | Interface | External | Unknown
