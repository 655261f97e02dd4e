"""Byte-for-byte comparison with golden files, regenerated only on purpose.

With TSOGRAPH_REGENERATE=1 the golden is rewritten and the test is skipped,
so a regenerating run never passes silently; otherwise the produced bytes
must equal the golden's and the golden must exist.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def assert_matches_golden(produced: bytes, golden: Path) -> None:
    if os.environ.get("TSOGRAPH_REGENERATE") == "1":
        golden.write_bytes(produced)
        pytest.skip(f"regenerated {golden.parent.name}/{golden.name}")
    assert golden.exists(), f"no golden {golden.name}; run with TSOGRAPH_REGENERATE=1"
    assert produced == golden.read_bytes(), f"{golden.parent.name}/{golden.name} differs"
