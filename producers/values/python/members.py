"""An attribute read before it is called, the way every Python reader keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BoundMember:
    """`owner.name` where the owner does not hold `name` as a value the reader proves (a
    client's request method, a router's registration method, a method a project class
    inherits from outside): what calling it does is the owner's business, so the call
    dispatches on what the owner is."""

    owner: Any
    name: str
