"""No source module over 800 lines: a longer one is split along its jobs (issue 15)."""

from __future__ import annotations

from tests.cli_helpers import REPO

MAX_LINES = 800


def test_no_module_is_longer_than_800_lines() -> None:
    long = {
        path.relative_to(REPO).as_posix(): count
        for folder in ("producers", "exchange", "schemas")
        for path in sorted((REPO / folder).rglob("*.py"))
        if (count := len(path.read_text("utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
