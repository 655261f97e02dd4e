"""Where a module's export comes from, in the order every evaluator reads it."""

from __future__ import annotations

from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.values.exports import export_sites


def _sites(source: str, name: str) -> list[tuple[str, str]]:
    root = read_syntax("src/a.ts", source.encode()).root
    return [
        (site.kind, site.specifier or site.name or site.node.kind)
        for site in export_sites(root, name)
    ]


SOURCE = """export * from "./first";
export const a = 1, { b } = o;
export function f() {}
export { x as c, y as d } from "./other";
const local = 2;
export { local as e };
export default class {}
module.exports.g = 3;
export * from "./second";
"""


def test_own_exports_come_before_every_star_in_source_order() -> None:
    assert _sites(SOURCE, "a") == [
        ("declared", "declarator"),
        ("star", "./first"),
        ("star", "./second"),
    ]
    assert _sites(SOURCE, "b")[0] == ("declared", "declarator")
    assert _sites(SOURCE, "f")[0] == ("declared", "function")
    assert _sites(SOURCE, "d")[0] == ("reexport", "./other")
    assert _sites(SOURCE, "e")[0] == ("local", "local")
    assert _sites(SOURCE, "g")[0] == ("member", "number")


def test_a_star_never_gives_default() -> None:
    assert _sites(SOURCE, "default") == [("default", "class")]


def test_module_exports_is_a_site_of_every_name() -> None:
    source = "module.exports = { db };\nmodule.exports.db = other;\n"
    assert _sites(source, "db") == [("module-exports", "object"), ("member", "identifier")]
