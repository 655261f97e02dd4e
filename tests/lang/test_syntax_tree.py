"""The neutral syntax form: goldens, the vocabulary, string values and the cached encoding."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.golden import assert_matches_golden
from tsograph.producers.lang.suffixes import GRAMMAR_BY_SUFFIX
from tsograph.producers.lang.syntax_tree import KINDS
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.syntax_tree import decode
from tsograph.producers.lang.syntax_tree import describe
from tsograph.producers.lang.syntax_tree import encode
from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.lang.typescript.strings import decode_js_string

REPO = Path(__file__).resolve().parents[2]
SYNTAX = REPO / "fixtures" / "lang" / "syntax"


def _root(name: str, source: str) -> Node:
    return read_syntax(name, source.encode()).root


def _first(root: Node, kind: str) -> Node:
    return next(node for node in root.walk() if node.kind == kind)


@pytest.mark.parametrize("name", ["constructs.ts", "elements.jsx"])
def test_outline_golden(name: str) -> None:
    source = SYNTAX / name
    root = read_syntax(name, source.read_bytes()).root
    assert_matches_golden(describe(root).encode(), SYNTAX / f"{name}.outline")


def _fixture_sources() -> list[Path]:
    return sorted(
        path
        for path in (REPO / "fixtures").rglob("*")
        if path.suffix in GRAMMAR_BY_SUFFIX and path.is_file()
    )


def test_every_fixture_source_uses_the_vocabulary_and_survives_the_cache() -> None:
    sources = _fixture_sources()
    assert len(sources) > 200
    for path in sources:
        relative = path.relative_to(REPO).as_posix()
        root = read_syntax(relative, path.read_bytes()).root
        kinds = {node.kind for node in root.walk()}
        assert kinds <= set(KINDS), (relative, kinds - set(KINDS))
        # No grammar construct of the fixtures is left without a neutral form.
        assert "other" not in kinds, relative
        again = decode(orjson.loads(orjson.dumps(encode(root))))
        assert describe(again) == describe(root), relative
        for node in again.walk():
            for child in (*node.decorators, *node.parts.values(), *node.items):
                assert child.parent is node


def test_strings_decode_by_javascript_rules() -> None:
    # The drifted copy decoded "\u{41}b" as "\ufffd{41}b"; JavaScript says "Ab".
    root = _root("a.ts", 'f("\\u{41}b", \'\\x41\\u0042\', "a\\\nb", "\\uD83D\\uDE00", "\\q");')
    call = _first(root, "call")
    assert [item.value for item in call.items] == ["Ab", "AB", "ab", "\U0001f600", "q"]


def test_template_text_is_cooked_and_split_at_substitutions() -> None:
    template = _first(_root("a.ts", "f(`a\\n${b}\\u{43}${c}`);"), "template")
    assert [(item.kind, item.value) for item in template.items] == [
        ("template_text", "a\n"),
        ("substitution", None),
        ("template_text", "C"),
        ("substitution", None),
    ]


def test_wrappers_are_one_cast_kind_and_parentheses_vanish() -> None:
    root = _root("a.ts", "const v = ((<T>(x!)) satisfies U) as const;")
    outer = _first(root, "declarator").part("value")
    assert outer is not None
    chain = []
    node: Node | None = outer
    while node is not None and node.kind == "cast":
        chain.append(node.value)
        node = node.part("value")
    assert chain == ["as const", "satisfies", "<>", "!"]
    assert node is not None and node.kind == "identifier" and node.value == "x"


def test_every_function_form_is_one_kind() -> None:
    source = (
        "function a() {} function* b() {} const c = function () {}; const d = () => 1;"
        "const e = function* () {}; class K { m() {} } declare function s(): void;"
        "const o = { p() {} };"
    )
    forms = [node.value for node in _root("a.ts", source).walk() if node.kind == "function"]
    assert forms == [
        "declaration",
        "declaration",
        "expression",
        "arrow",
        "expression",
        "method",
        "signature",
        "method",
    ]


def test_jsx_attribute_strings_keep_their_text() -> None:
    # JSX attribute strings have no JavaScript escapes: `\n` stays two characters.
    attribute = _first(_root("a.tsx", 'const v = <A b="x\\ny" />;'), "jsx_attribute")
    value = attribute.part("value")
    assert value is not None and value.value == "x\\ny"


def test_deep_nesting_neither_recurses_nor_breaks_the_cache() -> None:
    depth = 3000
    source = "const v = " + "[" * depth + "1" + "]" * depth + ";\n"
    source += "const w = " + " + ".join(["a"] * 20000) + ";\n"
    root = _root("deep.js", source)
    assert sum(1 for node in root.walk() if node.kind == "array") == depth
    rows = orjson.loads(orjson.dumps(encode(root)))
    # Compared as rows: an indented outline of a 20,000-deep tree would be quadratic.
    assert encode(decode(rows)) == rows


_PIECES = ["a", "é", "😀", "\\n", "\\t", "\\\\", '\\"', "\\x41", "\\u0042", "\\u{1F600}"]
_PIECES += ["\\uD800", "\\uDC00", "\\u{10FFFF}", "\\0", "\\q", "'"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_string_values_match_the_decoder_and_survive_json(pieces: list[str]) -> None:
    body = "".join(pieces)
    root = _root("a.ts", f'f("{body}");')
    value = _first(root, "call").items[0]
    assert value.kind == "string"
    assert value.value == decode_js_string(body)
    again = decode(orjson.loads(orjson.dumps(encode(root))))
    assert _first(again, "call").items[0].value == value.value


def test_reading_helpers_answer_over_the_neutral_form() -> None:
    from tsograph.producers.lang import syntax_read

    root = _root(
        "a.ts",
        'export const cfg = { a: 1, "b-c": `x`, d, m() {}, [k]: 2, ...s } as const;\n'
        "const other = this.x.y;\nfunction f() { return () => g(`p${q}`); }\n",
    )
    consts = syntax_read.top_level_consts(root)
    assert sorted(consts) == ["cfg", "other"]
    obj = syntax_read.unwrap(consts["cfg"])
    assert [key for key, _, _ in syntax_read.object_entries(obj)] == ["a", "b-c", "d", "m"]
    b_c = syntax_read.object_property(obj, "b-c")
    assert b_c is not None and syntax_read.string_value(b_c) == "x"
    assert syntax_read.chain(consts["other"]) == ("this", "x", "y")
    template = _first(root, "template")
    assert syntax_read.string_value(template) == "x"
    inner = [node for node in root.walk() if node.kind == "template"][-1]
    assert syntax_read.template_text(inner, lambda node: "{" + str(node and node.value) + "}") == (
        "p{q}"
    )
    enclosing = syntax_read.enclosing_function(inner)
    assert enclosing is not None and enclosing.value == "arrow"
    assert [node.value for node in syntax_read.top_level(root, ("function",))] == ["declaration"]


def test_nodes_of_lists_kinds_in_source_order_outer_first() -> None:
    from tsograph.producers.lang import syntax_read

    root = _root("a.ts", "f(x)(y);\n@d class C { m() { return g`t${h(1)}`; } }\nk(a.b = 1);\n")
    found = syntax_read.find_all(root, ("call", "tagged", "assign"))
    expected = [node for node in root.walk() if node.kind in ("call", "tagged", "assign")]
    assert found == expected
    assert [(node.kind, node.start, node.end) for node in found] == [
        ("call", 0, 7),  # f(x)(y) before f(x)
        ("call", 0, 4),
        ("tagged", 35, 46),
        ("call", 40, 44),
        ("call", 52, 62),
        ("assign", 54, 61),
    ]


def test_find_all_gives_the_nodes_walk_gives_in_the_same_order() -> None:
    from tsograph.producers.lang import syntax_read

    root = _root(
        "a.ts",
        "@d(x.y) class A { @e() f = g.h(i.j(k)); m() { return n`t${o.p}`; } }\n"
        "const q = new R(s.t, (u) => u.v.w());\n",
    )
    kinds = frozenset({"call", "tagged", "new", "member"})
    found = syntax_read.find_all(root, kinds)
    assert found == [node for node in root.walk() if node.kind in kinds]
    assert len(found) > 8 and len({node.kind for node in found}) == 4
