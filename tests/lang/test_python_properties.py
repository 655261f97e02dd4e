"""Properties of the Python front-end over generated and hostile input.

Strings are checked against CPython's own reading of the same literal
(`ast.literal_eval`, which evaluates literals only); generated programs must
give facts whose ids are unique and whose refs point at records that exist;
hostile files (deep nesting, huge lines, NUL bytes, random bytes) give facts
and a parse-error count, never a crash.
"""

from __future__ import annotations

import ast
import warnings

import orjson
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.lang import invariants
from tsograph.producers.lang.python import extract
from tsograph.producers.lang.python import read_syntax
from tsograph.producers.lang.python.extractor import MAX_NAMED_DEPTH
from tsograph.producers.lang.python.recorder import MAX_READ_CHAIN
from tsograph.producers.lang.syntax_tree import decode
from tsograph.producers.lang.syntax_tree import describe
from tsograph.producers.lang.syntax_tree import encode

# ---- strings against CPython -------------------------------------------------------------

_PIECES = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="\\'\r\n"), max_size=6),
    st.sampled_from(
        [
            "\\n",
            "\\t",
            "\\\\",
            "\\'",
            '\\"',
            "\\x41",
            "\\xff",
            "\\101",
            "\\777",
            "\\0",
            "\\u00e9",
            "\\U0001F600",
            "\\N{BULLET}",
            "\\N{NO SUCH NAME}",
            "\\q",
            "\\u12",
            "\\\n",
            "{{",
            "}}",
        ]
    ),
)


def _literal_value(source: str) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.literal_eval(source)


@settings(max_examples=300)
@given(pieces=st.lists(_PIECES, max_size=8), prefix=st.sampled_from(["", "r", "b", "rb", "u"]))
def test_string_values_are_decoded_as_cpython_decodes_them(pieces: list[str], prefix: str) -> None:
    body = "".join(pieces)
    source = f"{prefix}'{body}'"
    try:
        expected = _literal_value(source)
    except (SyntaxError, ValueError):
        return  # not a literal Python accepts (a bytes literal with non-ASCII text, \N{bad})
    root = read_syntax("s.py", f"x = {source}\n".encode(errors="surrogatepass")).root
    value = next(node for node in root.walk() if node.kind == "string")
    if isinstance(expected, bytes):
        assert value.value == expected.decode("latin-1") and "bytes" in value.flags
    else:
        assert value.value == expected


def test_f_string_text_is_decoded_with_braces_and_escapes() -> None:
    root = read_syntax("s.py", b"x = f'a\\n{{b}}{c!r}\\x41'\n").root
    template = next(node for node in root.walk() if node.kind == "template")
    assert [(item.kind, item.value) for item in template.items] == [
        ("template_text", "a\n{b}"),
        ("substitution", None),
        ("template_text", "A"),
    ]


# ---- generated programs --------------------------------------------------------------------

_NAMES = st.sampled_from(["a", "b", "f", "C", "run", "__init__", "self"])


@st.composite
def _statement(draw: st.DrawFn, depth: int = 0) -> list[str]:
    name = draw(_NAMES)
    other = draw(_NAMES)
    choices = ["assign", "call", "lambda-arg", "lambda-assign", "import", "return", "comprehension"]
    if depth < 4:
        choices += ["def", "class", "if"]
    kind = draw(st.sampled_from(choices))
    if kind == "assign":
        return [f"{name} = {other}"]
    if kind == "call":
        return [f"{name}.{other}({other}, key={name})"]
    if kind == "lambda-arg":
        return [f"{name}({other!r}, lambda {other}: {name}({other}))"]
    if kind == "lambda-assign":
        return [f"{name} = lambda: {other}()"]
    if kind == "import":
        return [f"from .{other} import {name}"]
    if kind == "return":
        return [f"{name}({other} for {other} in {name})"]
    if kind == "comprehension":
        return [f"{name} = [{other}.x() for {other} in {name}]"]
    body = draw(st.lists(_statement(depth + 1), min_size=1, max_size=3))
    inner = ["    " + line for lines in body for line in lines]
    if kind == "def":
        return [f"def {name}({other}, *rest, **kw):", *inner]
    if kind == "class":
        return [f"class {name}({other}):", *inner]
    return [f"if {name}:", *inner]


@settings(max_examples=50, deadline=None)
@given(statements=st.lists(_statement(), min_size=1, max_size=8))
def test_generated_programs_give_consistent_facts(statements: list[list[str]]) -> None:
    source = "\n".join(line for lines in statements for line in lines) + "\n"
    syntax = read_syntax("pkg/mod.py", source.encode())
    facts = syntax.facts
    invariants.check(facts)  # ids unique, parents, owners and refs exist
    ids = [item.id for item in facts.declarations]
    assert len(ids) == len(set(ids))
    assert all(item.id.startswith("pkg/mod.py#") for item in facts.declarations)
    assert {owner for _, _, owner in syntax.spans} <= set(ids)
    again = decode(orjson.loads(orjson.dumps(encode(syntax.root))))
    assert describe(again) == describe(syntax.root)
    assert read_syntax("pkg/mod.py", source.encode()).facts == facts


# ---- hostile input --------------------------------------------------------------------------

DEPTH = 3000


@pytest.mark.parametrize(
    "source",
    [
        "f(" * DEPTH + ")" * DEPTH,
        "x = " + "[" * DEPTH + "]" * DEPTH,
        "x = " + "(" * DEPTH + "a" + ")" * DEPTH + ".b()",
        "x = " + "{'a': " * DEPTH + "1" + "}" * DEPTH,
        "x: " + "A[" * DEPTH + "B" + "]" * DEPTH,
        "x: '" + "A[" * DEPTH + "B" + "]" * DEPTH + "'",
        "a" + ".b" * 20000 + "()",
        "f(" + "[" * DEPTH + "]" * DEPTH + ", lambda: 1)",
        "match x:\n    case " + "[" * 500 + "y" + "]" * 500 + ":\n        pass",
        "x = " + "lambda: " * DEPTH + "1",
        "".join(" " * i + f"def f{i}():\n" for i in range(100)) + " " * 100 + "g()\n",
    ],
    ids=[
        "calls",
        "lists",
        "parentheses",
        "dicts",
        "annotations",
        "string-annotation",
        "member-chain",
        "callback-keys",
        "patterns",
        "lambdas",
        "defs",
    ],
)
def test_deep_nesting_finishes(source: str) -> None:
    facts = extract("deep.py", source.encode())
    invariants.check(facts)
    assert facts.declarations[0].kind == "module"


def test_nested_definitions_are_named_up_to_the_bound() -> None:
    source = "".join(" " * i + f"def f{i}():\n" for i in range(60)) + " " * 60 + "g()\n"
    facts = extract("deep.py", source.encode())
    functions = [item for item in facts.declarations if item.kind == "function"]
    assert len(functions) == MAX_NAMED_DEPTH - 1
    assert facts.nesting_cuts == 1
    # The call below the bound belongs to the deepest named function; nothing is dropped.
    (call,) = facts.calls
    assert call.owner == functions[-1].id


def test_attribute_reads_longer_than_the_bound_are_counted_as_cuts() -> None:
    length = MAX_READ_CHAIN + 5
    source = "def f(a):\n    a" + ".b" * length + "()\n"
    facts = extract("deep.py", source.encode())
    reads = sorted(len(site.callee.members) for site in facts.calls if site.kind == "read")
    # `a.b`, `a.b.b`, ... are reads (a property may answer each); the call reads none itself.
    assert reads == list(range(1, MAX_READ_CHAIN + 1))
    assert facts.nesting_cuts == length - 1 - MAX_READ_CHAIN
    (call,) = [site for site in facts.calls if site.kind == "call"]
    assert len(call.callee.members) == length


@pytest.mark.parametrize(
    "data",
    [
        b"def f():\n    return 1\n" + b"x = '" + b"a" * 2_000_000 + b"'\n",
        b"def f():\n    g(\x00)\n\x00\x00class C:\n    pass\n",
        b"def f(:\n" * 500,
        b"\xff\xfe\x00def \xc3(x):\n  return x\n",
        b"\xef\xbb\xbfdef f():\n    pass\n",
        b"x = 1\r\ny = f()\rz = g()\n",
    ],
    ids=["huge-line", "nul-bytes", "repeated-errors", "invalid-utf8", "bom", "line-breaks"],
)
def test_odd_bytes_give_facts_and_a_parse_error_count(data: bytes) -> None:
    facts = extract("odd.py", data)
    invariants.check(facts)
    assert facts.parse_errors >= 0


def test_nul_bytes_are_counted_as_parse_errors_and_the_rest_is_kept() -> None:
    facts = extract("odd.py", b"def f():\n    g(\x00)\n\nclass C:\n    def m(self):\n        h()\n")
    assert facts.parse_errors > 0
    assert "odd.py#C.m" in {item.id for item in facts.declarations}


def test_a_carriage_return_alone_breaks_a_line() -> None:
    facts = extract("odd.py", b"x = 1\ry = f()\n")
    (call,) = facts.calls
    assert (call.line, call.column) == (2, 5)


@settings(max_examples=100)
@given(data=st.binary(max_size=400))
def test_random_bytes_never_crash(data: bytes) -> None:
    facts = extract("random.py", data)
    invariants.check(facts)
