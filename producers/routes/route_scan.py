"""What every route scan hands back: facts, limitation lines with their scopes, files read."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class RouteScan:
    facts: list[dict[str, Any]] = field(default_factory=list)
    limitations: list[str] = field(default_factory=list)
    scopes: list[dict[str, Any]] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)
