"""Declaration spans of changed files come from the neutral syntax tree, for every language."""

from __future__ import annotations

from tsograph.producers.review.spans import spans


def test_a_decorated_python_method_spans_its_decorator_and_body() -> None:
    data = (
        b"class Shop:\n    @staticmethod\n    def total(items):\n"
        b"        return sum(items)\n\nX = 1\n"
    )
    where = {"shop.py#Shop.total": (3, 9, "total"), "shop.py#X": (6, 1, "X")}
    found = spans("shop.py", data, where)
    total = found["shop.py#Shop.total"]
    assert (total.first, total.last, total.exact) == (2, 4, True)
    assert total.text.startswith("@staticmethod")
    assert found["shop.py#X"].first == found["shop.py#X"].last == 6


def test_an_exported_typescript_function_carries_its_export() -> None:
    data = b"// head\nexport function f(a: number) {\n  return a + 1;\n}\n"
    span = spans("m.ts", data, {"m.ts#f": (2, 17, "f")})["m.ts#f"]
    assert (span.first, span.last) == (2, 4)
    assert span.text.startswith("export function")


def test_a_name_the_graph_misplaces_is_read_by_its_line_only() -> None:
    span = spans("m.ts", b"const a = 1;\n", {"m.ts#gone": (9, 1, "gone")})["m.ts#gone"]
    assert not span.exact


def test_a_file_no_front_end_reads_is_read_by_line() -> None:
    span = spans("notes.md", b"one\ntwo\n", {"notes.md#x": (2, 1, "x")})["notes.md#x"]
    assert (span.first, span.last, span.exact, span.text) == (2, 2, False, "two")
