"""The Python route fixtures' documents against what the real frameworks answered.

The recordings under oracle/recordings/python-routes/ were written by
oracle/python-routes/record.py with the package versions each names; this
replays them offline: precision 1.0 and recall at least 0.95 per framework.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.routes.python_server.oracle_replay import score
from tests.routes.support import FIXTURES

RECORDINGS = Path(__file__).resolve().parents[3] / "oracle" / "recordings" / "python-routes"
CASES = sorted(path.stem for path in RECORDINGS.glob("*.json"))


@pytest.mark.parametrize("case", CASES)
def test_recorded_answers(case: str) -> None:
    recording = orjson.loads((RECORDINGS / f"{case}.json").read_bytes())
    assert recording["packages"], "the recording names its package versions"
    for fixture, rows in recording["fixtures"].items():
        document = orjson.loads((FIXTURES / "python" / fixture / "expected.json").read_bytes())
        result = score(document, rows)
        assert result.predicted and result.answered
        assert result.precision == 1.0, result.wrong
        assert result.recall >= 0.95, result.missed
