"""The recorded answers of the real frameworks (oracle/node-routes) against the golden facts.

Precision: of the probes the facts predict a handler for, the share the real
framework answered with that handler. Recall: of the probes a declared
handler answered, the share the facts predicted. Both per fixture, as the
issue's closing table asks.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.routes.node.oracle_replay import owner
from tests.routes.node.oracle_replay import predict
from tests.routes.node.oracle_replay import score
from tests.routes.support import FIXTURES

ORACLE = Path(__file__).resolve().parents[3] / "oracle" / "node-routes" / "recordings"
RECORDED = sorted(path.stem for path in ORACLE.glob("*.json"))


def _load(name: str) -> tuple[Path, dict, dict]:  # type: ignore[type-arg]
    case = FIXTURES / "node" / name
    document = orjson.loads((case / "expected.json").read_bytes())
    recording = orjson.loads((ORACLE / f"{name}.json").read_bytes())
    return case / "project", document, recording


@pytest.mark.parametrize("name", RECORDED)
def test_precision_and_recall(name: str) -> None:
    project, document, recording = _load(name)
    result = score(project, document, recording)
    assert result.predicted and result.answered, "the recording should exercise handlers"
    assert result.correct == result.predicted, f"precision {result.correct}/{result.predicted}"
    assert result.recalled >= 0.95 * result.answered, f"recall {result.recalled}/{result.answered}"


def test_every_node_fixture_was_recorded() -> None:
    fixtures = sorted(case.name for case in (FIXTURES / "node").iterdir() if case.is_dir())
    assert fixtures == RECORDED


def test_recorded_functions_are_located_in_the_fixture_sources() -> None:
    project, document, recording = _load("express4-app")
    places = [place for probe in recording["probes"] for place in probe["invoked"]]
    assert places
    handlers = {fact["symbol"]["usr"] for fact in document["facts"] if "usr" in fact["symbol"]}
    assert handlers & {owner(project, place) for place in places}


def test_prediction_follows_registration_order() -> None:
    _, document, _ = _load("express4-app")
    # GET /gate: the first handler can pass the request on (no order), the second is ordered.
    predicted = predict(document, "src/app.js#app", "GET", "/gate")
    assert predicted.certain == {'src/app.js#<module>.app.get("/gate")~2'}
    assert predicted.possible == {
        'src/app.js#<module>.app.get("/gate")',
        'src/app.js#<module>.app.get("/gate")~2',
    }


def test_conditional_routes_are_not_predicted() -> None:
    _, document, _ = _load("express4-app")
    # app.get('/debug') runs only when DEBUG_ROUTES is set; the oracle ran without it.
    assert not predict(document, "src/app.js#app", "GET", "/debug").certain
