"""Declared types followed to receivers: what proves a class, and what must not.

The positive cases agree with the TypeScript checker (the declared-types
fixture is recorded with it); the negative ones are where a guess would be a
wrong direct edge, so no direct edge may appear.
"""

from __future__ import annotations

from pathlib import Path

from tests.graph.test_bound_dispatch import graph_of

BASES = """
export class Base { m() { return 1; } where(): this { return this; } }
export class Sub extends Base { m() { return 2; } own() { return 3; } }
export class Other { m() { return 4; } }
"""


def direct_calls(document: dict[str, object], source: str) -> set[str]:
    edges = document["edges"]
    assert isinstance(edges, list)
    return {
        edge["to"]
        for edge in edges
        if edge["from"] == source and edge["evidence"] == "direct" and "call" in edge["kinds"]
    }


def calls_of(tmp_path: Path, body: str, source: str = "use.ts#f") -> set[str]:
    document = graph_of(tmp_path, {"classes.ts": BASES, "use.ts": body})
    return direct_calls(document, source) - {"classes.ts#Base.where"}


def test_polymorphic_this_keeps_the_receivers_class(tmp_path: Path) -> None:
    body = "import { Sub } from './classes';\nexport function f(s: Sub) { s.where().own(); }\n"
    assert calls_of(tmp_path, body) == {"classes.ts#Sub.own"}


def test_an_assertion_names_the_asserted_class(tmp_path: Path) -> None:
    body = (
        "import { Base, Sub } from './classes';\n"
        "export function f(b: Base) { (b as Sub).m(); const s = b as Sub; s.own(); }\n"
    )
    assert calls_of(tmp_path, body) == {"classes.ts#Sub.m", "classes.ts#Sub.own"}


def test_assignments_after_the_declaration_prove_one_class_only(tmp_path: Path) -> None:
    one = "import { Sub } from './classes';\nexport function f() { let x; x = new Sub(); x.m(); }\n"
    assert calls_of(tmp_path / "one", one) == {"classes.ts#Sub.m"}
    two = (
        "import { Sub, Other } from './classes';\n"
        "export function f(c: boolean) { let x; x = new Sub(); if (c) x = new Other(); x.m(); }\n"
    )
    assert calls_of(tmp_path / "two", two) == set()


def test_overloads_returning_different_classes_prove_none(tmp_path: Path) -> None:
    body = (
        "import { Sub, Other } from './classes';\n"
        "function pick(a: string): Sub;\nfunction pick(a: number): Other;\n"
        "function pick(a: any): any { return null; }\n"
        "function same(a: string): Sub;\nfunction same(a: number): Sub;\n"
        "function same(a: any): any { return null; }\n"
        "export function f() { pick('a').m(); same(1).own(); }\n"
    )
    assert calls_of(tmp_path, body) == {"use.ts#pick", "use.ts#same", "classes.ts#Sub.own"}


def test_interface_members_and_aliases_carry_their_declared_types(tmp_path: Path) -> None:
    body = (
        "import { Sub } from './classes';\n"
        "interface Holder { readonly item: Sub; make(): Sub; again(): this }\n"
        "interface Named extends Holder { name: string }\n"
        "type Alias = Named;\n"
        "export function f(h: Alias) { h.item.own(); h.again().make().m(); }\n"
    )
    assert calls_of(tmp_path, body) == {"classes.ts#Sub.own", "classes.ts#Sub.m"}


def test_container_callbacks_and_loops_get_element_types(tmp_path: Path) -> None:
    body = (
        "import { Sub } from './classes';\n"
        "export function f(xs: Sub[], map: Map<string, Sub>) {\n"
        "  for (const x of xs) x.own();\n"
        "  map.forEach((value, key) => value.m());\n"
        "}\n"
        "export function g(xs: Sub[]) { xs.map((x) => x.own()); }\n"
        "export function h(xs: Sub[]) { xs.reduce((total, x) => total.own(), 0); }\n"
    )
    document = graph_of(tmp_path, {"classes.ts": BASES, "use.ts": body})
    assert direct_calls(document, "use.ts#f") == {"classes.ts#Sub.own"}
    assert direct_calls(document, "use.ts#f.map.forEach()") == {"classes.ts#Sub.m"}
    assert direct_calls(document, "use.ts#g.xs.map()") == {"classes.ts#Sub.own"}
    # `reduce`'s first parameter is the accumulator: it is not an element.
    assert direct_calls(document, "use.ts#h.xs.reduce()") == set()


def test_a_project_array_class_is_not_the_builtin(tmp_path: Path) -> None:
    body = (
        "import { Sub } from './classes';\n"
        "class Array<T> { map(f: (x: number) => void) {} }\n"
        "export function f(xs: Array<Sub>) { xs.map((x) => x.own()); }\n"
    )
    document = graph_of(tmp_path, {"classes.ts": BASES, "use.ts": body})
    assert direct_calls(document, "use.ts#f.xs.map()") == set()


def test_map_entries_are_not_elements(tmp_path: Path) -> None:
    body = (
        "import { Sub } from './classes';\n"
        "export function f(m: Map<Sub, Sub>) { for (const e of m) e.own(); }\n"
    )
    assert calls_of(tmp_path, body) == set()


def test_a_callback_parameter_takes_the_callees_declared_function_type(tmp_path: Path) -> None:
    body = (
        "import { Other, Sub } from './classes';\n"
        "function run(cb: (s: Sub, n: number) => void,\n"
        "  name?: string | ((s: Sub) => void) | Other[]) {}\n"
        "export function f() { run((s) => s.own(), (t) => t.m()); }\n"
    )
    document = graph_of(tmp_path, {"classes.ts": BASES, "use.ts": body})
    assert direct_calls(document, "use.ts#f.run()") == {"classes.ts#Sub.own"}
    assert direct_calls(document, "use.ts#f.run()~2") == {"classes.ts#Sub.m"}


def test_a_callback_whose_parameter_could_take_another_callable_type_is_not_typed(
    tmp_path: Path,
) -> None:
    # TypeScript types the callback from the union's callable members: with two, or with
    # a member that may hold call signatures, which one applies is not proven here.
    body = (
        "import { Sub, Other } from './classes';\n"
        "export interface Callable { (o: Other): void }\n"
        "export interface Extended extends Callable {}\n"
        "export type Alias = (o: Other) => void;\n"
        "function two(cb: ((s: Sub) => void) | ((o: Other) => void) | Other[]) {}\n"
        "function signature(cb: ((s: Sub) => void) | Callable) {}\n"
        "function extended(cb: ((s: Sub) => void) | Extended) {}\n"
        "function alias(cb: ((s: Sub) => void) | Alias) {}\n"
        "function rest(...cbs: ((s: Sub) => void)[]) {}\n"
        "export function f() {\n"
        "  two((x) => x.m()); signature((x) => x.m()); extended((x) => x.m());\n"
        "  alias((x) => x.m()); rest((x) => x.m());\n"
        "}\n"
    )
    document = graph_of(tmp_path, {"classes.ts": BASES, "use.ts": body})
    edges = document["edges"]
    assert isinstance(edges, list)
    assert not [
        edge
        for edge in edges
        if edge["from"].startswith("use.ts#f.")
        and edge["evidence"] == "direct"
        and edge["to"].startswith("classes.ts#")
    ]


def test_an_overloaded_callee_types_no_callback(tmp_path: Path) -> None:
    # Callers see the overload signatures (x: Other), never the implementation's (x: Sub).
    body = (
        "import { Sub, Other } from './classes';\n"
        "function run(cb: (x: Other) => void): void;\n"
        "function run(cb: (x: Sub) => void): void {}\n"
        "export function f() { run((x) => x.m()); }\n"
    )
    document = graph_of(tmp_path, {"classes.ts": BASES, "use.ts": body})
    assert direct_calls(document, "use.ts#f.run()") == set()


def test_an_undeclared_return_type_is_this_only_when_every_return_is_this(tmp_path: Path) -> None:
    classes = (
        "export class Base { m() { return 1; } self() { return this; } }\n"
        "export class Sub extends Base { own() { return this; }\n"
        "  mixed(c: boolean) { if (c) { return this; } return new Base(); } }\n"
    )
    body = (
        "import { Sub } from './classes';\n"
        "export function f(s: Sub) { s.self().own().m(); s.mixed(true).m(); }\n"
    )
    document = graph_of(tmp_path, {"classes.ts": classes, "use.ts": body})
    assert direct_calls(document, "use.ts#f") == {
        "classes.ts#Base.self",
        "classes.ts#Sub.own",
        "classes.ts#Sub.mixed",
        "classes.ts#Base.m",
    }
