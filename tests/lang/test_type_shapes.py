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


def test_member_types_unite_overloads_and_aliases_name_their_types() -> None:
    source = b"""
interface Q { readonly m: Mgr; get(n: string): Promise<T | undefined>; fork(): this;
  pick(a: string): A<X>; pick(a: number): A<Y>; pick(a: boolean); f: () => void }
type Same = Q; type Either = A | B; type Shape = { a: Mgr }; type Fn = () => void;
"""
    types = {t.name: t for t in extract("a.ts", source).types}
    assert types["Q"].member_types == (
        ("m", "property", (TypeRef(("Mgr",)),)),
        ("get", "method", (TypeRef(("Promise",), (TypeRef(("T",)),)),)),
        ("fork", "method", (TypeRef(("this",)),)),
        # Two instantiations of A are A; the overload without a return type is `any`.
        ("pick", "method", (TypeRef(("A",)), TypeRef(()))),
        # A function type keeps its return type under the `=>` chain (void is no named type).
        ("f", "property", (TypeRef(("=>",), (TypeRef(()),)),)),
    )
    assert types["Same"].aliases == (TypeRef(("Q",)),)
    assert types["Either"].aliases == (TypeRef(("A",)), TypeRef(("B",)))
    assert types["Shape"].aliases == ()
    # A function type alias names the function type, so a callback typed `Fn` is callable.
    assert types["Fn"].aliases == (TypeRef(("=>",), (TypeRef(()),)),)


def test_loops_assertions_and_overloads_in_facts() -> None:
    facts = extract(
        "a.ts",
        b"function f(xs: X[], y: unknown) {\n"
        b"  for (const x of xs) {} const c = y as C; (y as D).m();\n}\n"
        b"function o(a: string): A;\nfunction o(a: number): B;\nfunction o(a: any) {}\n",
    )
    bindings = {b.name: b for b in facts.bindings}
    element = bindings["x"].init
    assert element is not None and element.kind == "element"
    assert element.ref is not None and element.ref.name == "xs"
    assert bindings["c"].type == (TypeRef(("C",)),)
    call = next(site for site in facts.calls if site.callee.members == ("m",))
    assert call.callee.head == "local"
    asserted = facts.bindings[call.callee.index]
    assert (asserted.name, asserted.type) == ("", (TypeRef(("D",)),))
    # `y as C` is also a use of C as a type, at C; `(y as D)` has its typed local already.
    type_uses = [(b.line, b.column, b.type) for b in facts.bindings if not b.name and not b.init]
    assert type_uses == [(2, 41, (TypeRef(("C",)),))]
    overloaded = next(d for d in facts.declarations if d.name == "o")
    assert overloaded.type == (TypeRef(("A",)), TypeRef(("B",)))
