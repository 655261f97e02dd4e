"""What every route scan hands back: facts, limitation lines with their scopes, files read."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from tsograph.exchange.scopes import validate_scope


@dataclass
class RouteScan:
    facts: list[dict[str, Any]] = field(default_factory=list)
    limitations: list[str] = field(default_factory=list)
    scopes: list[dict[str, Any]] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)


@dataclass
class Limitations:
    """Limitation lines and the scopes that bound them, added one line at a time."""

    lines: list[str] = field(default_factory=list)
    scopes: list[dict[str, Any]] = field(default_factory=list)

    def add(self, line: str, scope: dict[str, Any] | None = None) -> None:
        """The line, and its scope when one bounds it and the document accepts it (else
        the line stands unscoped, which claims less)."""
        self.lines.append(line)
        if scope is not None:
            entry = {"limitation": line, **scope}
            if validate_scope(entry, [line]) is None:
                self.scopes.append(entry)
