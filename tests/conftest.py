"""Shared pytest hooks: the conformance summary line per vector file, and hypothesis settings."""

from __future__ import annotations

import compileall
from typing import Any

from hypothesis import HealthCheck
from hypothesis import settings

from tests.cli_helpers import REPO
from tests.conformance.vectors import RUN_COUNTS

# Wall-clock checks fail on a loaded machine without saying anything about the code:
# no example deadline, and slow input generation is not an error (timing is measured
# by benchmarks/, never by tests).
settings.register_profile("tsograph", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tsograph")


def pytest_configure(config: Any) -> None:
    """Bytecode for the package before any test starts the CLI in a subprocess.

    With PYTHONDONTWRITEBYTECODE set (as on the CI machines) no process writes its
    bytecode, so each of the suite's hundreds of CLI subprocesses would compile every
    module it imports again (about 0.2 s of CPU a run). The controller compiles once,
    before the workers start; a tree it cannot write is left as it is.
    """
    if hasattr(config, "workerinput"):
        return
    for folder in ("producers", "exchange", "schemas"):
        compileall.compile_dir(REPO / folder, quiet=2)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not RUN_COUNTS:
        return
    terminalreporter.write_sep("-", "conformance vectors run")
    for name, count in sorted(RUN_COUNTS.items()):
        terminalreporter.write_line(f"{name}: {count}")
    terminalreporter.write_line(f"total: {sum(RUN_COUNTS.values())}")
