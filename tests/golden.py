"""Byte-for-byte comparison with golden files, regenerated only on purpose.

With TSOGRAPH_REGENERATE=1 the golden is rewritten and the test is skipped,
so a regenerating run never passes silently; otherwise the produced bytes
must equal the golden's and the golden must exist. The other helpers serve the
fixture folders of golden cases (`<case>/<inputs>`, optional `<case>/args`,
`<case>/expected.json`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import orjson
import pytest

from tsograph.exchange.validation import validate


def assert_matches_golden(produced: bytes, golden: Path) -> None:
    if os.environ.get("TSOGRAPH_REGENERATE") == "1":
        golden.write_bytes(produced)
        pytest.skip(f"regenerated {golden.parent.name}/{golden.name}")
    assert golden.exists(), f"no golden {golden.name}; run with TSOGRAPH_REGENERATE=1"
    assert produced == golden.read_bytes(), f"{golden.parent.name}/{golden.name} differs"


def assert_golden_document(produced: bytes, golden: Path) -> None:
    """A produced bridge-facts document is valid and equals its golden byte for byte."""
    validate(orjson.loads(produced))
    assert_matches_golden(produced, golden)


def golden_cases(fixtures: Path, inputs: str) -> list[str]:
    """The names of the case folders under `fixtures` that hold an `inputs` folder, sorted."""
    return sorted(case.name for case in fixtures.iterdir() if (case / inputs).is_dir())


def case_arguments(case: Path) -> list[str]:
    """Extra command line words of a case: its optional `args` file, where `{case}` stands
    for the case folder."""
    args_file = case / "args"
    if not args_file.exists():
        return []
    return args_file.read_text(encoding="utf-8").replace("{case}", str(case)).split()


def limitation_prefixes(goldens: Iterable[Path]) -> set[str]:
    """The limitation prefixes the golden documents show."""
    return {
        line.partition(" ")[0]
        for golden in goldens
        for line in orjson.loads(golden.read_bytes())["limitations"]
    }
