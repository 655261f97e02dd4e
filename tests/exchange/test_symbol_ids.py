"""Properties of symbol ids, callback segments and the UTF-16 cut."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import example
from hypothesis import given
from hypothesis import strategies as st

from tsograph.exchange.symbol_ids import ELLIPSIS
from tsograph.exchange.symbol_ids import MAX_KEY_UNITS
from tsograph.exchange.symbol_ids import ArrayKey
from tsograph.exchange.symbol_ids import CallbackNamer
from tsograph.exchange.symbol_ids import Callee
from tsograph.exchange.symbol_ids import Key
from tsograph.exchange.symbol_ids import NameChainKey
from tsograph.exchange.symbol_ids import StringKey
from tsograph.exchange.symbol_ids import TemplateKey
from tsograph.exchange.symbol_ids import callback_segment
from tsograph.exchange.symbol_ids import cut_utf16
from tsograph.exchange.symbol_ids import escape_text
from tsograph.exchange.symbol_ids import model_id
from tsograph.exchange.symbol_ids import module_id
from tsograph.exchange.symbol_ids import render_key
from tsograph.exchange.symbol_ids import symbol_id
from tsograph.exchange.symbol_ids import typedsql_id

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "schemas" / "bridge-facts-v1.json").read_text("utf-8")
)
SYMBOL_TEXT = re.compile(SCHEMA["$defs"]["symbolText"]["pattern"])
# What the consumer forbids in symbol names, spelled out independently of the schema.
FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

# Arbitrary code points including controls and lone surrogates, with the
# troublesome ones made frequent.
_SPECIAL = st.sampled_from(
    [
        *("\x00", "\t", "\n", "\x1f", "\x7f", "\x80", "\x85", "\x9f", "\u2028", "\u2029"),
        *("\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00", "\U0001f600", '"', "\\"),
    ]
)
_CHAR = st.one_of(st.characters(exclude_categories=()), _SPECIAL)
texts = st.lists(_CHAR, max_size=90).map("".join)
maybe_names = st.one_of(st.none(), texts)

keys: st.SearchStrategy[Key] = st.recursive(
    st.one_of(
        texts.map(StringKey),
        texts.map(NameChainKey),
        st.builds(
            lambda pieces, subs: TemplateKey(tuple(pieces), tuple(subs)),
            st.lists(texts, min_size=1, max_size=3),
            st.lists(maybe_names, max_size=2),
        ),
    ),
    lambda items: st.lists(items, max_size=3).map(lambda xs: ArrayKey(tuple(xs))),
    max_leaves=5,
)
callees = st.builds(
    Callee,
    maybe_names,
    st.lists(st.tuples(st.sampled_from(["prop", "elem"]), texts), max_size=3).map(tuple),
)


def utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def is_high(unit: int) -> bool:
    return 0xD800 <= unit <= 0xDBFF


def is_low(unit: int) -> bool:
    return 0xDC00 <= unit <= 0xDFFF


def assert_clean(identifier: str) -> None:
    assert FORBIDDEN.search(identifier) is None, ascii(identifier)
    # Lone surrogates are escaped too, so the id is well-formed UTF-8.
    identifier.encode("utf-8")
    if identifier:
        assert SYMBOL_TEXT.fullmatch(identifier), ascii(identifier)


@given(texts, st.lists(texts, max_size=3))
@example("src/\u2028.ts", ["a\x85", "\ud800"])
def test_symbol_ids_never_hold_control_characters(path: str, names: list[str]) -> None:
    assert_clean(symbol_id(path, names))
    assert_clean(module_id(path))
    for name in names:
        assert_clean(model_id(path, name))
        assert_clean(typedsql_id(path, name))


@given(callees, st.lists(keys, max_size=4), st.booleans())
def test_callback_segments_never_hold_control_characters(
    callee: Callee, key_list: list[Key], is_new: bool
) -> None:
    segment = callback_segment(callee, key_list, is_new=is_new)
    assert_clean(segment)
    assert segment.startswith("new ") is is_new


@given(texts)
def test_escape_text_only_rewrites_what_is_forbidden(text: str) -> None:
    escaped = escape_text(text)
    assert_clean(escaped)
    # Escaping adds nothing to text that holds nothing forbidden.
    if FORBIDDEN.search(text) is None and not re.search("[\ud800-\udfff]", text):
        assert escaped == text


@given(texts)
@example("\ud800\udc00")
def test_string_keys_are_json_of_the_cut_value(value: str) -> None:
    # The extra escapes are JSON escapes, so the key still reads back as JSON.
    assert json.loads(render_key(StringKey(value))) == cut_utf16(value)


def _expected_cut_units(units: list[int], limit: int) -> int:
    """How many leading units a cut keeps: the limit, one less to spare a pair."""
    if is_high(units[limit - 1]) and is_low(units[limit]):
        return limit - 1
    return limit


@given(texts, st.integers(1, MAX_KEY_UNITS + 8))
@example("a" * 63 + "\U0001f600", MAX_KEY_UNITS)
@example("a" * 63 + "\ud83d\ude00", MAX_KEY_UNITS)
@example("\U0001f600" * 40, MAX_KEY_UNITS)
def test_cut_never_splits_a_pair_or_exceeds_the_limit(text: str, limit: int) -> None:
    units = utf16_units(text)
    result = cut_utf16(text, limit)
    if len(units) <= limit:
        assert utf16_units(result) == units
        return
    assert result.endswith(ELLIPSIS)
    kept = utf16_units(result[: -len(ELLIPSIS)])
    assert len(kept) <= limit
    assert kept == units[: len(kept)]
    assert not (kept and is_high(kept[-1]) and is_low(units[len(kept)]))
    assert len(kept) == _expected_cut_units(units, limit)


@given(texts)
def test_cut_defaults_to_64_units(text: str) -> None:
    assert cut_utf16(text) == cut_utf16(text, MAX_KEY_UNITS)


@given(st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from(["f()", "g()"])), max_size=12))
def test_namer_numbers_each_scope_and_segment_on_its_own(calls: list[tuple[str, str]]) -> None:
    namer = CallbackNamer()
    seen: dict[tuple[str, str], int] = {}
    for scope, segment in calls:
        seen[(scope, segment)] = seen.get((scope, segment), 0) + 1
        count = seen[(scope, segment)]
        suffix = "" if count == 1 else f"~{count}"
        assert namer.name(scope, segment) == f"{scope}.{segment}{suffix}"
