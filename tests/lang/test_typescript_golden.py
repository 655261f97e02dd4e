"""Golden facts for the TypeScript/JavaScript front-end.

Every source under fixtures/lang/typescript/<case>/ is extracted with its
path relative to that folder, and the rendered facts are compared exactly
with the `.facts` file next to it. Regenerate on purpose only:
TSOGRAPH_REGENERATE_GOLDENS=1 pytest tests/lang.
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from tests.lang import invariants
from tests.lang.render import render
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.suffixes import TYPESCRIPT_SUFFIXES
from tsograph.producers.lang.typescript import extract

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lang" / "typescript"
SOURCES = sorted(
    path.relative_to(FIXTURES).as_posix()
    for path in FIXTURES.rglob("*")
    if path.is_file() and path.suffix in TYPESCRIPT_SUFFIXES
)


def test_every_case_has_sources() -> None:
    cases = {source.split("/")[0] for source in SOURCES}
    assert cases == {path.name for path in FIXTURES.iterdir() if path.is_dir()}
    assert len(SOURCES) >= 15


@pytest.mark.parametrize("source", SOURCES)
def test_golden_facts(source: str) -> None:
    facts = extract(source, (FIXTURES / source).read_bytes())
    invariants.check(facts)
    golden = FIXTURES / f"{source}.facts"
    text = render(facts)
    if os.environ.get("TSOGRAPH_REGENERATE_GOLDENS") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("source", SOURCES)
def test_plain_round_trip_through_json(source: str) -> None:
    facts = extract(source, (FIXTURES / source).read_bytes())
    plain = orjson.loads(orjson.dumps(facts.to_plain()))
    assert FileFacts.from_plain(plain) == facts


@pytest.mark.parametrize("source", SOURCES)
def test_json_is_that_of_the_plain_lists(source: str) -> None:
    # The facts cache stores `to_json()`; warm runs read it back with `from_plain`.
    facts = extract(source, (FIXTURES / source).read_bytes())
    assert facts.to_json() == orjson.dumps(facts.to_plain())


@pytest.mark.parametrize("source", SOURCES)
def test_extraction_is_pure(source: str) -> None:
    data = (FIXTURES / source).read_bytes()
    first = extract(source, data)
    for other in SOURCES:  # whatever ran before must not leak into the facts
        extract(other, (FIXTURES / other).read_bytes())
    assert extract(source, data) == first
