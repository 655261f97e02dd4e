"""Golden facts and outlines for the Python front-end.

Every `.py` under fixtures/lang/python/<case>/ is read with its path relative
to the case folder and its rendered facts are compared exactly with the
`.facts` file next to it; fixtures/lang/syntax/constructs.py is compared with
its outline. Regenerate on purpose only: TSOGRAPH_REGENERATE=1 pytest tests/lang.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.golden import assert_matches_golden
from tests.lang import invariants
from tests.lang.render import render
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.python import SUFFIXES
from tsograph.producers.lang.python import extract
from tsograph.producers.lang.python import read_syntax
from tsograph.producers.lang.syntax_tree import FLAG_WORDS
from tsograph.producers.lang.syntax_tree import KINDS
from tsograph.producers.lang.syntax_tree import decode
from tsograph.producers.lang.syntax_tree import describe
from tsograph.producers.lang.syntax_tree import encode

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "lang" / "python"
CONSTRUCTS = REPO / "fixtures" / "lang" / "syntax" / "constructs.py"
SOURCES = sorted(
    path.relative_to(FIXTURES).as_posix()
    for path in FIXTURES.rglob("*")
    if path.is_file() and path.suffix in SUFFIXES
)


def _relative(source: str) -> str:
    return source.split("/", 1)[1]


def test_every_case_has_sources() -> None:
    cases = {source.split("/")[0] for source in SOURCES}
    assert cases == {path.name for path in FIXTURES.iterdir() if path.is_dir()}
    assert len(SOURCES) >= 5


@pytest.mark.parametrize("source", SOURCES)
def test_golden_facts(source: str) -> None:
    facts = extract(_relative(source), (FIXTURES / source).read_bytes())
    invariants.check(facts)
    assert_matches_golden(render(facts).encode(), FIXTURES / f"{source}.facts")


def test_outline_golden() -> None:
    root = read_syntax("constructs.py", CONSTRUCTS.read_bytes()).root
    assert_matches_golden(describe(root).encode(), CONSTRUCTS.with_suffix(".py.outline"))


@pytest.mark.parametrize("source", [*SOURCES, "../syntax/constructs.py"])
def test_vocabulary_and_cache_round_trip(source: str) -> None:
    syntax = read_syntax(_relative(source), (FIXTURES / source).read_bytes())
    nodes = list(syntax.root.walk())
    kinds = {node.kind for node in nodes}
    assert kinds <= set(KINDS), kinds - set(KINDS)
    assert "other" not in kinds
    assert ("error" in kinds) == (syntax.facts.parse_errors > 0)
    assert {flag for node in nodes for flag in node.flags} <= FLAG_WORDS
    again = decode(orjson.loads(orjson.dumps(encode(syntax.root))))
    assert describe(again) == describe(syntax.root)
    plain = orjson.loads(orjson.dumps(syntax.facts.to_plain()))
    assert FileFacts.from_plain(plain) == syntax.facts


@pytest.mark.parametrize("source", SOURCES)
def test_extraction_is_pure(source: str) -> None:
    data = (FIXTURES / source).read_bytes()
    first = extract(_relative(source), data)
    for other in SOURCES:  # whatever ran before must not leak into the facts
        extract(_relative(other), (FIXTURES / other).read_bytes())
    assert extract(_relative(source), data) == first


def test_owner_spans_name_the_code_of_each_declaration() -> None:
    source = "app/models.py"
    data = (FIXTURES / "declarations" / source).read_bytes()
    syntax = read_syntax(source, data)
    # A decorator belongs to what it decorates; default values to their function.
    assert syntax.owner_at(data.index(b"@dataclass(frozen")) == "app/models.py#User"
    assert syntax.owner_at(data.index(b"print(entry)")) == "app/models.py#User.Role.grant.audit"
    assert syntax.owner_at(data.index(b"make_user()\n")) == "app/models.py#<module>"
    assert syntax.facts.main_guards == (87,)
