"""The value layer's one scope table: which declaration a name refers to, for every evaluator."""

from __future__ import annotations

from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.values.scopes import Declaration
from tsograph.producers.values.scopes import Scopes
from tsograph.producers.values.scopes import import_source
from tsograph.producers.values.scopes import pattern_paths


def _uses(source: str, name: str) -> tuple[Scopes, list[Node]]:
    """The table of a file and the identifiers `name` that are read (not declared)."""
    root = read_syntax("src/a.ts", source.encode()).root
    found = [
        node
        for node in find_all(root, ("identifier",))
        if node.value == name and node.parent is not None and node.parent.kind == "call"
    ]
    return Scopes(), found


def _at(source: str, name: str) -> list[tuple[str, int] | None]:
    """(kind, line) of the declaration each `name(…)` call reads."""
    table, uses = _uses(source, name)
    found: list[tuple[str, int] | None] = []
    for use in uses:
        declaration = table.lookup(use, name)
        if declaration is None:
            found.append(None)
        else:
            line = source.encode()[: declaration.name.start].count(b"\n") + 1
            found.append((declaration.kind, line))
    return found


def test_the_nearest_scope_wins_and_every_declaration_form_declares() -> None:
    source = """import { f } from "m";
f();
function g(f, ...rest) { f(); }
{ const [f] = xs; f(); }
for (const f of xs) f();
for (let f = 1;;) f();
try {} catch ({ f }) { f(); }
switch (1) { case 1: const f = 2; f(); }
const h = function f() { f(); };
"""
    assert _at(source, "f") == [
        ("import", 1),
        ("parameter", 3),
        ("const", 4),
        ("mutable", 5),
        ("mutable", 6),
        ("other", 7),
        ("const", 8),
        ("function", 9),
    ]


def test_for_of_without_a_declaration_declares_nothing() -> None:
    assert _at("let f = a;\nfor (f of xs) f();\n", "f") == [("mutable", 1)]


def test_var_in_if_try_and_labels_is_hoisted_but_block_scoped_names_are_not() -> None:
    source = "if (x) { var f = a; }\nf();\nif (x) { let g = b; }\ng();\n"
    assert _at(source, "f") == [("mutable", 1)]
    assert _at(source, "g") == [None]


def test_types_neither_hide_values_nor_are_hidden_by_them() -> None:
    source = "type f = string;\ninterface f {}\nconst f = a;\nf();\n"
    table, uses = _uses(source, "f")
    value = table.lookup(uses[0], "f")
    type_ = table.lookup_type(uses[0], "f")
    assert value is not None and value.kind == "const"
    assert type_ is not None and type_.kind == "type" and type_.node.kind == "type_alias"


def test_property_paths_stop_where_no_property_reaches_the_name() -> None:
    root = read_syntax(
        "src/a.js", b"const { a, b: [c, ...d], e = 1, f: { g = 2, h: i = 3 }, [k]: l, ...m } = x;"
    ).root
    pattern = next(iter(find_all(root, ("object_pattern",))))
    assert [(name.value, keys) for name, keys in pattern_paths(pattern, ())] == [
        ("a", ("a",)),
        ("c", None),
        ("d", None),
        ("e", None),
        ("g", None),
        ("i", ("f", "h")),
        ("l", None),
        ("m", None),
    ]


def test_imports_name_their_module_and_export() -> None:
    root = read_syntax("src/a.ts", b'import d, { x as y } from "m";\nimport * as ns from "n";').root
    table = Scopes().table(root)
    sources = {name: import_source(found.node) for name, found in table.items()}
    assert sources == {"d": ("m", "default"), "y": ("m", "x"), "ns": ("n", "*")}
    assert all(isinstance(found, Declaration) for found in table.values())
