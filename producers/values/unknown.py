"""The one value an evaluator cannot prove."""

from __future__ import annotations


class Unknown:
    """A value nothing proves; evaluators never guess past it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = Unknown()
