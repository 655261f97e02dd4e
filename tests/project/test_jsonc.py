from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tsograph.producers.project.jsonc import JsoncError
from tsograph.producers.project.jsonc import loads
from tsograph.producers.project.jsonc import strip_jsonc


def test_comments_and_trailing_commas_are_removed() -> None:
    text = (
        b'{\n // line\n "a": [1, 2,], /* block\n */ "b": "// not a comment",'
        b' "c": {"d": "/*x*/",},\n}'
    )
    assert loads(text) == {"a": [1, 2], "b": "// not a comment", "c": {"d": "/*x*/"}}


def test_escaped_quotes_inside_strings_do_not_end_them() -> None:
    assert loads(b'{"a": "x\\" // y", "b": 1,}') == {"a": 'x" // y', "b": 1}


def test_bom_is_accepted_and_garbage_rejected() -> None:
    assert loads(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}
    with pytest.raises(JsoncError):
        loads(b"{a: 1}")
    with pytest.raises(JsoncError):
        loads(b"\xff\xfe")


@given(st.dictionaries(st.text(max_size=5), st.text(max_size=10), max_size=5))
def test_plain_json_is_unchanged(value: dict[str, str]) -> None:
    import json

    text = json.dumps(value)
    assert strip_jsonc(text) == text
