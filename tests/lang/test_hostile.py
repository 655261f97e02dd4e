"""Inputs that would break a naive front-end: deep nesting, odd bytes, huge chains.

Each must finish with facts (and counts), never a RecursionError or a crash.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.lang import invariants
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.suffixes import TYPESCRIPT_SUFFIXES
from tsograph.producers.lang.typescript import extract
from tsograph.producers.lang.typescript.extractor import MAX_NAMED_DEPTH

DEPTH = 3000


@pytest.mark.parametrize(
    "source",
    [
        "f(" * DEPTH + ")" * DEPTH + ";",
        "x = " + "[" * DEPTH + "]" * DEPTH + ";",
        "x = " + "(" * DEPTH + "a" + ")" * DEPTH + ".b();",
        "const o = " + "{ a: " * DEPTH + "1" + " }" * DEPTH + ";",
        "const { " + "a: { " * DEPTH + "b" + " }" * DEPTH + " } = source;",
        "let t: " + "A<" * DEPTH + "B" + ">" * DEPTH + ";",
        "let u: " + "(" * DEPTH + "A" + ")" * DEPTH + ";",
        "a" + ".b" * 20000 + "();",
        "if (x) {" * DEPTH + "g();" + "}" * DEPTH,
        "class A { m() { " * 200 + "h();" + " } }" * 200,
    ],
    ids=[
        "calls",
        "arrays",
        "parentheses",
        "objects",
        "patterns",
        "type-arguments",
        "parenthesized-types",
        "member-chain",
        "blocks",
        "classes",
    ],
)
def test_deep_nesting_finishes(source: str) -> None:
    facts = extract("deep.ts", source.encode())
    assert facts.declarations[0].kind == "module"


def test_nested_callbacks_are_named_up_to_the_bound() -> None:
    source = "f(() => " * 200 + "g()" + ")" * 200 + ";"
    facts = extract("deep.ts", source.encode())
    callbacks = [item for item in facts.declarations if item.callback]
    assert len(callbacks) == MAX_NAMED_DEPTH
    assert facts.nesting_cuts == 1
    deepest = callbacks[-1].id
    # Code below the bound belongs to the deepest named callback; nothing is dropped.
    (inner,) = [site for site in facts.calls if site.callee.name == "g"]
    assert inner.owner == deepest
    assert max(len(item.id) for item in facts.declarations) < 400


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x00\x00\x00",
        b"const a = 1;\x00const b = f();\n",
        b"const caf\xe9 = g();\n",  # not UTF-8: decoded with replacement
        b"\xef\xbb\xbf",
        b"}}}}))))]]]]",
        b"export type * from",
        b"x" * 100_000 + b"(" + b"y" * 100_000 + b")",
    ],
    ids=["empty", "nul", "nul-inside", "latin1", "bom-only", "closers", "truncated", "long-line"],
)
def test_odd_bytes_finish(data: bytes) -> None:
    facts = extract("odd.js", data)
    assert facts.path == "odd.js"
    assert facts.declarations[0].id == "odd.js#<module>"


def test_control_characters_in_names_are_escaped_in_ids() -> None:
    source = r"const h = { 'a\u0001b'() {} }; app.get('\u2028', () => 2);"
    ids = [item.id for item in extract("ctl.ts", source.encode()).declarations]
    assert ids == [
        "ctl.ts#<module>",
        "ctl.ts#h",
        "ctl.ts#h.a\\u0001b",
        'ctl.ts#<module>.app.get("\\u2028")',
    ]


def test_corrupted_fixtures_never_crash() -> None:
    """Seeded mutations of every fixture: cut, spliced and byte-flipped sources."""
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "lang" / "typescript"
    sources = sorted(path for path in fixtures.rglob("*") if path.suffix in TYPESCRIPT_SUFFIXES)
    generator = random.Random(20260927)
    for source in sources:
        data = source.read_bytes()
        for _ in range(25):
            cut = generator.randrange(len(data) + 1)
            other = generator.randrange(len(data) + 1)
            mutated = bytearray(data[:cut] + data[other:])
            for _ in range(3):
                if mutated:
                    mutated[generator.randrange(len(mutated))] = generator.choice(b"{}()[]<>`'\";=")
            facts = extract(source.name, bytes(mutated))
            invariants.check(facts)
            assert FileFacts.from_plain(facts.to_plain()) == facts
