"""values/python/strings.py against CPython's own `%` and `str.format` (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Field
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import percent_format
from tsograph.producers.values.python.strings import str_format
from tsograph.producers.values.python.strings import text


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["a", "b/", "{x}", "%s", "%%", "%d"]), max_size=6))
def test_percent_format_agrees_with_python(pieces: list[str]) -> None:
    template = "".join(pieces)
    count = template.replace("%%", "").count("%")
    args = tuple(range(count))
    try:
        expected: str | None = template % args
    except (TypeError, ValueError):
        expected = None
    found = percent_format(text(template), list[Field](args))
    assert (found.known if found is not None else None) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["a", "/", "{}", "{0}", "{{", "}}", "{n}"]), max_size=6))
def test_str_format_agrees_with_python(pieces: list[str]) -> None:
    template = "".join(pieces)
    try:
        expected: str | None = template.format("p", "q", "r", "s", "t", "u", n="N")
    except (IndexError, KeyError, ValueError):
        expected = None
    args: list[Field] = [text(letter) for letter in "pqrstu"]
    found = str_format(text(template), args, {"n": text("N")})
    if expected is not None:
        assert found is not None and found.known == expected
    else:
        assert found is None or found.known is None


def test_an_unknown_argument_is_an_unknown_part_and_the_rest_stays() -> None:
    found = percent_format(text("/api/%s/users"), [UNKNOWN_TEXT])
    assert found == Text(("/api/", None, "/users"))
    assert str_format(text("/{}/{x!r}"), [text("v1")], {"x": text("a")}) == Text(("/v1/", None))
