"""The naming and reading rules as tables: input on the left, what facts must say on the right."""

from __future__ import annotations

import pytest

from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.typescript import extract
from tsograph.producers.lang.typescript.strings import decode_js_string


def _callback_ids(source: str, path: str = "r.ts") -> list[str]:
    facts = extract(path, source.encode())
    return [item.id.removeprefix(f"{path}#") for item in facts.declarations if item.callback]


@pytest.mark.parametrize(
    ("source", "ids"),
    [
        # The anchor is the outermost call of the argument chain.
        (
            "app.get('/x', asyncHandler(async (req, res) => res.end()));",
            ['<module>.app.get("/x")'],
        ),
        # Nested callbacks extend the id of the callback that holds them.
        (
            "describe('suite', () => { it('works', () => {}); it('works', () => {}); });",
            [
                '<module>.describe("suite")',
                '<module>.describe("suite").it("works")',
                '<module>.describe("suite").it("works")~2',
            ],
        ),
        # A call or `new` inside the callee chain is shortened to `…`.
        ("new Hono().get('/a', (c) => c.text('a'));", ['<module>.….get("/a")']),
        # Repeats in one scope are numbered in source order; keys may be empty.
        (
            "function Comp() { useEffect(() => {}, []); useEffect(() => {}); }",
            ["Comp.useEffect()", "Comp.useEffect()~2"],
        ),
        # A variable receiving the call's result is not a segment.
        ("function load() { const rows = ids.map((id) => id); }", ["load.ids.map()"]),
        # Several inline functions in one call collide too.
        (
            "app.get('/x', () => {}, () => {});",
            ['<module>.app.get("/x")', '<module>.app.get("/x")~2'],
        ),
        # Keys: arrays, name chains, templates, at most two, stopping at another argument.
        (
            "books.on(['PUT', 'PATCH'], '/b', () => {});",
            ['<module>.books.on(["PUT","PATCH"],"/b")'],
        ),
        ("authors.get(PATHS.authors, () => {});", ["<module>.authors.get(PATHS.authors)"]),
        ("r.get(`/u/${id}/${a + b}`, () => {});", ["<module>.r.get(`/u/${id}/${…}`)"]),
        ("r.get('/a', 'b', 'c', () => {});", ['<module>.r.get("/a","b")']),
        ("r.get(1, '/a', () => {});", ["<module>.r.get()"]),
        # The callee chain keeps this, super and string-keyed accesses.
        ("this.router.post('/p', () => {});", ['<module>.this.router.post("/p")']),
        ("db['run']('/q', () => {});", ['<module>.db["run"]("/q")']),
        ("db[method]('/q', () => {});", ['<module>.…("/q")']),
        # `new` anchors; wrappers around the callback are ignored.
        ("new Promise((resolve) => resolve(1));", ["<module>.new Promise()"]),
        ("app.use(((req) => req) as Handler);", ["<module>.app.use()"]),
        ("app.use((req) => req)!;", ["<module>.app.use()"]),
        # Not callbacks: immediately invoked, object members, variables, JSX attributes.
        ("(() => go())();", []),
        ("const h = { handler: async () => go() };", []),
        ("const f = () => go();", []),
        # A callback in a member with a computed name gets no name.
        ("class A { [k]() { app.get('/z', () => {}); } }", []),
    ],
)
def test_inline_callback_ids(source: str, ids: list[str]) -> None:
    assert _callback_ids(source) == ids


def test_callbacks_in_a_variable_initializer_belong_to_the_variable() -> None:
    source = "export const GET = withAuth(async (req) => handle(req));"
    assert _callback_ids(source) == ["GET.withAuth()"]


def test_long_keys_are_cut_in_utf16_units() -> None:
    key = "é" * 63 + "😀"  # 63 units, then a pair that would cross 64
    assert _callback_ids(f"app.get('{key}', () => 1);") == [f'<module>.app.get("{"é" * 63}…")']


@pytest.mark.parametrize(
    ("body", "value"),
    [
        ("plain", "plain"),
        (r"a\nb\tc", "a\nb\tc"),
        (r"\x41\u0042\u{43}", "ABC"),
        (r"\uD83D\uDE00", "😀"),
        (r"\u{1F600}", "😀"),
        ("line\\\ncontinued", "linecontinued"),
        (r"\'\"\\", "'\"\\"),
        (r"\q", "q"),
        (r"\u{110000}", r"\u{110000}"),
    ],
)
def test_string_values(body: str, value: str) -> None:
    assert decode_js_string(body) == value


@pytest.mark.parametrize(
    ("annotation", "types"),
    [
        ("Repo", (TypeRef(("Repo",)),)),
        ("ns.sub.Repo", (TypeRef(("ns", "sub", "Repo")),)),
        ("Promise<Repo>", (TypeRef(("Promise",), (TypeRef(("Repo",)),)),)),
        ("Repo | null | undefined", (TypeRef(("Repo",)),)),
        ("A | B", (TypeRef(("A",)), TypeRef(("B",)))),
        ("Repo[]", (TypeRef(("Array",), (TypeRef(("Repo",)),)),)),
        ("readonly (Repo)[]", (TypeRef(("Array",), (TypeRef(("Repo",)),)),)),
        ("Promise<Repo | null>", (TypeRef(("Promise",), (TypeRef(("Repo",)),)),)),
        ("any", (TypeRef(("any",)),)),
        ("{ a: string }", (TypeRef(()),)),
        # A function type: the return type (void is no type), then each parameter's.
        ("(x: number) => void", (TypeRef(("=>",), (TypeRef(()), TypeRef(("number",)))),)),
        (
            "(this: T, a: A | B, b?: Repo, ...rest: C[]) => Promise<R>",
            (
                TypeRef(
                    ("=>",),
                    (TypeRef(("Promise",), (TypeRef(("R",)),)), TypeRef(()), TypeRef(("Repo",))),
                ),
            ),
        ),
        (
            "A<B<C<D<E>>>>",
            (TypeRef(("A",), (TypeRef(("B",), (TypeRef(("C",), (TypeRef(("D",)),)),)),)),),
        ),
    ],
)
def test_declared_types(annotation: str, types: tuple[TypeRef, ...]) -> None:
    facts = extract("t.ts", f"let x: {annotation} = make();".encode())
    assert facts.declarations[1].type == types


def test_this_follows_arrows_and_resets_in_functions() -> None:
    source = """
    class A {
      static s() { this.a(); }
      m() {
        const f = () => this.b();
        function g() { this.c(); }
        [1].map(function () { this.d(); });
      }
    }
    """
    heads = {
        site.callee.members[0]: (site.callee.head, site.callee.target)
        for site in extract("t.ts", source.encode()).calls
        if site.callee.name == "this"
    }
    assert heads == {
        "a": ("static-this", "t.ts#A"),
        "b": ("this", "t.ts#A"),
        "c": ("this", ""),
        "d": ("this", ""),
    }


def _ids(source: str, path: str = "r.ts") -> dict[str, str]:
    facts = extract(path, source.encode())
    return {item.id.removeprefix(f"{path}#"): item.kind for item in facts.declarations}


def _owners(source: str, path: str = "r.ts") -> dict[str, str]:
    """The owner of each call site, by the callee's head name."""
    facts = extract(path, source.encode())
    return {site.callee.name: site.owner.removeprefix(f"{path}#") for site in facts.calls}


@pytest.mark.parametrize(
    ("source", "member", "owner"),
    [
        # No named holder: the key extends the enclosing scope's path.
        ("app.use({ handle() { go(); } });", "handle", "handle"),
        ("function f() { app.use({ handle() { go(); } }); }", "f.handle", "f.handle"),
        ("server.route({ handler: async () => go() });", "handler", "handler"),
        # The keys of enclosing object literals are named; an array or a call breaks the chain.
        ("app.use({ a: { b() { go(); } } });", "a.b", "a.b"),
        ("app.use({ list: [{ item() { go(); } }] });", "item", "item"),
        ("function f() { return { p: () => go() }; }", "f.p", "f.p"),
        # Beside inline callbacks of the same call, and inside one.
        ("app.get('/x', { before() { go(); } }, () => {});", "before", "before"),
        (
            "app.get('/x', () => { use({ inner() { go(); } }); });",
            '<module>.app.get("/x").inner',
            '<module>.app.get("/x").inner',
        ),
        # A named holder still names the object.
        ("function f() { const o = { m() { go(); } }; }", "f.o.m", "f.o.m"),
        ("export default create({ r() { go(); } });", "default.r", "default.r"),
    ],
)
def test_object_members_without_a_holder_are_named_by_key(
    source: str, member: str, owner: str
) -> None:
    assert _ids(source)[member] == "function"
    assert _owners(source)["go"] == owner


def test_a_computed_key_on_the_way_leaves_the_member_to_the_module() -> None:
    source = "function f() { app.use({ [k]: { hidden() { go(); } } }); }"
    assert _owners(source)["go"] == "<module>"
    assert "f.hidden" not in _ids(source)


@pytest.mark.parametrize(
    ("source", "owner"),
    [
        ("@dec() class C { m() {} }", "C"),
        ("class C { @dec() m() {} }", "C.m"),
        ("class C { @dec() get size() { return 1; } }", "C.size"),
        ("class C { @dec() label = 1; }", "C.label"),
        ("class C { @dec() plain: string; }", "C.plain"),
        ("class C { m(@dec() body) {} }", "C.m"),
        ("class C { constructor(@dec() private svc: S) {} }", "C.constructor"),
        ("class C { @dec() [k]() {} }", "<module>"),
        ("@dec() export class C {}", "C"),
        ("@dec() export default class {}", "default"),
    ],
)
def test_decorators_belong_to_what_they_decorate(source: str, owner: str) -> None:
    assert _owners(source)["dec"] == owner


def test_decorator_callbacks_are_named_under_the_decorated_member() -> None:
    source = "class C { @Get('/x', () => guard()) find() {} }"
    assert _callback_ids(source) == ['C.find.Get("/x")']
    assert _owners(source)["guard"] == 'C.find.Get("/x")'


@pytest.mark.parametrize(
    ("source", "kind", "value"),
    [
        ("const app = make();\nexport default app;", "export", "app"),
        ("const api = {};\nexport default api.handler;", "export", "api"),
        ("export default load().handler;", "variable", "default"),
        ("export default [1, 2];", "variable", "default"),
    ],
)
def test_export_default_always_has_a_default_node(source: str, kind: str, value: str) -> None:
    facts = extract("r.ts", source.encode())
    assert _ids(source)["default"] == kind
    (export,) = facts.exports
    assert export.node == "r.ts#default"
    assert export.value is not None and export.value.name == value


@pytest.mark.parametrize(
    ("source", "declared"),
    [
        ("const helper = require('./legacy.cjs');", {"helper"}),
        ("let lazy = await import('./lazy');", {"lazy"}),
        ("namespace NS { const inner = require('./inner'); }", {"NS.inner"}),
        # Not module-level variables: no declaration, the import only.
        ("const { pick } = require('./pick');", set()),
        ("function load() { const local = require('./local'); }", {"load"}),
    ],
)
def test_module_level_loads_are_variables_and_stay_imports(source: str, declared: set[str]) -> None:
    facts = extract("r.ts", source.encode())
    names = {name for name, kind in _ids(source).items() if kind != "module"}
    assert names == declared
    for declaration in facts.declarations:
        if declaration.kind == "variable":
            assert declaration.init is not None
            assert declaration.init.kind in ("require", "import")
    assert all(item.kind in ("require", "dynamic") for item in facts.imports)
    assert len(facts.imports) == 1


def test_calls_through_a_required_variable_keep_the_import_head() -> None:
    facts = extract("r.ts", b"const helper = require('./legacy.cjs');\nhelper.twice(1);\n")
    (site,) = facts.calls
    assert (site.callee.head, site.callee.index, site.callee.members) == ("import", 0, ("twice",))


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("let x = null;", "nullish"),
        ("let x = undefined;", "nullish"),
        ("let x = void 0;", "nullish"),
        ("let x = void load();", "nullish"),
        ("let x = (null as any)!;", "nullish"),
        ("let x = undefinedValue;", "alias"),
        # A file that declares its own `undefined` (parameter, variable, import, pattern).
        ("let x = undefined; function f(undefined) {}", "other"),
        ("let x = undefined; const undefined = 1;", "other"),
        ("let x = undefined; import { y as undefined } from 'y';", "other"),
        ("let x = undefined; const [undefined] = [];", "other"),
        ("let x = undefined; const { k: undefined } = {};", "other"),
        # Not declarations: a default value, a property, a string.
        ("let x = undefined; function f(a = undefined) {} o.undefined; 'undefined';", "nullish"),
    ],
)
def test_null_and_undefined_values(source: str, kind: str) -> None:
    facts = extract("r.ts", source.encode())
    declaration = next(item for item in facts.declarations if item.id == "r.ts#x")
    assert declaration.init is not None
    assert declaration.init.kind == kind


@pytest.mark.parametrize(
    ("source", "owners"),
    [
        ("function f() { return g(); }", ["f"]),
        ("const f = () => g();", ["f"]),
        ("class C { m() { return g(); } }", ["C.m"]),
        # A generator's `return` ends the iteration: the call returns an iterator, so the
        # value belongs to no call's result ("" owner), though it still leaves the function.
        ("function* f() { return g(); }", [""]),
        ("const f = function* () { return g(); };", [""]),
        ("class C { *m() { return g(); } }", [""]),
        ("async function* f() { yield 1; return g(); }", [""]),
    ],
)
def test_returns_belong_to_the_function_whose_call_gives_them(
    source: str, owners: list[str]
) -> None:
    facts = extract("r.ts", source.encode())
    assert [item.owner.removeprefix("r.ts#") for item in facts.returns] == owners
