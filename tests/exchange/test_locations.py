"""LineIndex and byte_column agree with a byte-by-byte count."""

from __future__ import annotations

from hypothesis import example
from hypothesis import given
from hypothesis import strategies as st

from tsograph.exchange.locations import BOM
from tsograph.exchange.locations import LineIndex
from tsograph.exchange.locations import byte_column

LS = "\u2028".encode()
PS = "\u2029".encode()

# Sources built from pieces that matter for lines and columns, plus any text.
_PIECES = st.sampled_from(
    [
        *(b"\n", b"\r", b"\r\n", LS, PS, BOM, b"a", b"\t", b"\\u0041", b'\\"'),
        *("\u00e9".encode(), "\u20ac".encode(), "\U0001f600".encode(), "\u0085".encode()),
    ]
)
# Surrogates are left out: they have no UTF-8 form, and a source is UTF-8 bytes.
_TEXT = st.text(st.characters(codec="utf-8"), max_size=5).map(str.encode)
sources = st.lists(st.one_of(_PIECES, _TEXT), max_size=30).map(b"".join)


def naive_position(
    data: bytes, offset: int, *, count_bom: bool, js_breaks: bool
) -> tuple[int, int]:
    """Walk the bytes before the offset; a break that ends by the offset starts a new line."""
    breaks = [b"\r\n", b"\r", b"\n", *((LS, PS) if js_breaks else ())]
    line, column = 1, 1
    # An uncounted BOM has no width: offsets inside it or right after it are column 1.
    i = min(offset, len(BOM)) if not count_bom and data.startswith(BOM) else 0
    while i < offset:
        token = next((brk for brk in breaks if data.startswith(brk, i)), None)
        if token is not None and i + len(token) <= offset:
            line, column, i = line + 1, 1, i + len(token)
        else:
            column, i = column + 1, i + 1
    return line, column


def utf8_width(char: str) -> int:
    """UTF-8 length by code point range; a lone surrogate is written as three bytes."""
    code = ord(char)
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4


@given(sources, st.booleans(), st.booleans())
@example(b"\xef\xbb\xbfa\r\nb", False, False)
@example(b"a\xe2\x80\xa8\r\n", True, True)
def test_line_index_agrees_with_a_naive_count(
    data: bytes, count_bom: bool, js_breaks: bool
) -> None:
    index = LineIndex(data, count_bom=count_bom, js_breaks=js_breaks)
    for offset in range(len(data) + 1):
        assert index.position(offset) == naive_position(
            data, offset, count_bom=count_bom, js_breaks=js_breaks
        )
    last_line, _ = index.position(len(data))
    assert index.line_count == last_line


@given(st.text(st.characters(exclude_categories=()), max_size=30), st.data())
def test_byte_column_counts_utf8_bytes_before_the_character(text: str, data: st.DataObject) -> None:
    char_index = data.draw(st.integers(0, len(text)))
    assert byte_column(text, char_index) == sum(map(utf8_width, text[:char_index])) + 1


@given(sources)
def test_byte_column_matches_line_index_on_the_first_line(data: bytes) -> None:
    # Both views of one line agree; the pieces are whole UTF-8 sequences, so
    # the first line always decodes.
    text = data.split(b"\n")[0].split(b"\r")[0].decode("utf-8")
    index = LineIndex(data, count_bom=True)
    for char_index in range(len(text) + 1):
        offset = len(text[:char_index].encode())
        assert index.position(offset) == (1, byte_column(text, char_index))
