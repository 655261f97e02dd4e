"""`parse_file(...).owner_at` names code exactly as the graph names its nodes."""

from __future__ import annotations

from tsograph.producers.lang.typescript import parse_file

SOURCE = b"""import { Hono } from 'hono'
const app = new Hono()
app.get('/a', (c) => c.text('x'))
export class A { m() { return [1].map((x) => x + 1) } }
export function f() { return 1 }
"""


def _owner(needle: bytes) -> str:
    parsed = parse_file("src/t.ts", SOURCE)
    return parsed.owner_at(SOURCE.index(needle))


def test_owner_is_the_innermost_node_and_a_graph_id() -> None:
    parsed = parse_file("src/t.ts", SOURCE)
    ids = {declaration.id for declaration in parsed.facts.declarations}
    cases = {
        b"import": "src/t.ts#<module>",
        b"(c)": 'src/t.ts#<module>.app.get("/a")',
        b"c.text": 'src/t.ts#<module>.app.get("/a")',
        b"return [1]": "src/t.ts#A.m",
        b"x + 1": "src/t.ts#A.m.\u2026.map()",
        b"return 1": "src/t.ts#f",
    }
    for needle, expected in cases.items():
        assert _owner(needle) == expected
        assert expected in ids


def test_location_counts_utf8_bytes() -> None:
    data = "const s = '\u00e9'; function g() {}\n".encode()
    parsed = parse_file("a.ts", data)
    assert parsed.location(data.index(b"function")) == (1, 17)
    assert parsed.owner_at(data.index(b"{}")) == "a.ts#g"
