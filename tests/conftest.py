"""Shared pytest hooks: the conformance summary line per vector file, and hypothesis settings."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings

from tests.conformance.vectors import RUN_COUNTS

# Wall-clock checks fail on a loaded machine without saying anything about the code:
# no example deadline, and slow input generation is not an error (timing is measured
# by benchmarks/, never by tests).
settings.register_profile("tsograph", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tsograph")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not RUN_COUNTS:
        return
    terminalreporter.write_sep("-", "conformance vectors run")
    for name, count in sorted(RUN_COUNTS.items()):
        terminalreporter.write_line(f"{name}: {count}")
    terminalreporter.write_line(f"total: {sum(RUN_COUNTS.values())}")
