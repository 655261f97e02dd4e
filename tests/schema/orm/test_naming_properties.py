"""Properties of the naming ports that hold for any identifier."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tsograph.producers.schema.orm import drizzle
from tsograph.producers.schema.orm import inflection
from tsograph.producers.schema.orm import typeorm_naming

IDENTIFIERS = st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,24}\Z")


@given(IDENTIFIERS)
def test_snake_case_is_idempotent_and_lowercase(name: str) -> None:
    once = typeorm_naming.snake_case(name)
    assert typeorm_naming.snake_case(once) == once
    assert once == once.lower()
    converted = drizzle.to_snake_case(name)
    assert drizzle.to_snake_case(converted) == converted
    assert all(char.islower() or char.isdigit() or char == "_" for char in converted)


@given(st.sampled_from(sorted(inflection.UNCOUNTABLE)), st.booleans())
def test_uncountable_words_never_change(word: str, capital: bool) -> None:
    written = word.capitalize() if capital else word
    assert inflection.pluralize(written) == written
    assert inflection.singularize(written) == written


@given(IDENTIFIERS)
def test_underscore_never_leaves_a_capital(name: str) -> None:
    assert inflection.underscore(name) == inflection.underscore(name).lower()
