"""The limitation lines every language's graph writes about files it could not read whole."""

from __future__ import annotations

from collections.abc import Mapping

from tsograph.exchange.limitations import counted
from tsograph.producers.lang.facts import FileFacts


def file_gap_lines(
    facts: Mapping[str, FileFacts], parse_error_files: list[str], nested: str
) -> list[str]:
    """Files with syntax the parser could not read, and code nested too deeply for the
    front-end; `nested` says what was cut (`declaration(s) nested too deeply to be named`)."""
    lines: list[str] = []
    if parse_error_files:
        lines.append(
            counted(
                "parse-errors:",
                len(parse_error_files),
                "file(s) hold syntax the parser could not read; "
                "facts from the rest of each file are kept",
                names=parse_error_files,
            )
        )
    cuts = sum(item.nesting_cuts for item in facts.values())
    if cuts:
        lines.append(
            counted(
                "scan-truncated:",
                cuts,
                f"{nested}; their code belongs to the enclosing declaration",
                breakdown={"nesting": cuts},
            )
        )
    return lines
