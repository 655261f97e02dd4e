"""Shared pytest hooks: the conformance summary line per vector file."""

from __future__ import annotations

from typing import Any

from tests.conformance.vectors import RUN_COUNTS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not RUN_COUNTS:
        return
    terminalreporter.write_sep("-", "conformance vectors run")
    for name, count in sorted(RUN_COUNTS.items()):
        terminalreporter.write_line(f"{name}: {count}")
    terminalreporter.write_line(f"total: {sum(RUN_COUNTS.values())}")
