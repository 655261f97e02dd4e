"""Loading conformance vectors and counting how many each runner executed.

Vector files live in the top-level `conformance/` folder as JSON objects with
a `description` and a list of `cases`. Runners parametrize over `cases(name)`
and call `ran(name)` once per executed case; the session summary prints the
counts, so a runner that silently skips its vectors shows up as a low number.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson

CONFORMANCE_DIR = Path(__file__).resolve().parents[2] / "conformance"

RUN_COUNTS: Counter[str] = Counter()


def cases(name: str, section: str = "cases") -> list[dict[str, Any]]:
    document = orjson.loads((CONFORMANCE_DIR / name).read_bytes())
    selected = document[section]
    assert isinstance(selected, list) and selected, f"{name} has no {section}"
    return selected


def case_id(case: dict[str, Any]) -> str:
    return str(case["name"])


def ran(name: str) -> None:
    RUN_COUNTS[name] += 1
