"""Interfaces and object type aliases record the member names and bases dispatch matches by."""

from __future__ import annotations

from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.typescript import extract

SOURCE = b"""
interface A extends B, ns.C<T> {
  load(): string[]; name: string; get?(x: number): void; [k: string]: any
}
type S = { find(id: string): void; save: () => void } & Other;
type F = (x: number) => void;
enum E { A }
function f() { interface Local { x(): void } }
"""


def test_members_and_bases_of_module_level_types() -> None:
    types = {t.name: t for t in extract("a.ts", SOURCE).types}
    assert set(types) == {"A", "S", "F", "E"}
    assert types["A"].members == ("load", "name", "get")
    assert types["A"].extends == (
        TypeRef(("B",)),
        TypeRef(("ns", "C"), (TypeRef(("T",)),)),
    )
    assert (types["S"].members, types["S"].extends) == (("find", "save"), (TypeRef(("Other",)),))
    assert (types["F"].members, types["F"].extends) == ((), ())
    assert (types["E"].kind, types["E"].members) == ("enum", ())
