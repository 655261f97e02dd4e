"""Module loads (`require`, `import()`) and function returns, read once for every evaluator."""

from __future__ import annotations

from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.values import modules


def _calls(source: str) -> list[Node]:
    root = read_syntax("src/a.ts", source.encode()).root
    return sorted(find_all(root, ("call",)), key=lambda node: node.start)


def test_the_specifier_is_a_string_or_a_template_without_substitutions() -> None:
    calls = _calls("require('pg'); require(`knex`); require(`./${name}`); require(name);")
    assert all(modules.is_require(call.part("callee")) for call in calls)
    assert [modules.specifier_argument(call) for call in calls] == ["pg", "knex", None, None]


def test_a_dynamic_import_is_the_keyword_not_a_function_named_import() -> None:
    keyword, member = _calls("import('./m'); loader.import('./m');")
    assert modules.is_dynamic_import(keyword.part("callee"))
    assert modules.specifier_argument(keyword) == "./m"
    assert not modules.is_dynamic_import(member.part("callee"))
    assert not modules.is_require(member.part("callee"))


def test_a_function_returns_what_its_own_return_statements_give() -> None:
    from tsograph.producers.values.returns import return_statements

    root = read_syntax(
        "src/a.ts",
        b"function f(x) { if (x) return 1; const g = () => { return 2; };"
        b" class C { m() { return 3; } } return; }",
    ).root
    function = next(iter(find_all(root, ("function",))))
    body = function.part("body")
    assert body is not None
    values = [statement.part("value") for statement in return_statements(body)]
    # The bare `return;` ends the body's block; `return 1` sits in the nested `if`.
    assert [None if value is None else value.value for value in values] == [None, "1"]


def test_commonjs_exports_are_the_whole_module_or_one_named_member() -> None:
    root = read_syntax(
        "src/a.js",
        b"module.exports = f; exports.a = 1; module.exports.b = 2; exports = 3;"
        b" exports.a.b = 4; other.exports.c = 5; (module.exports) = g;",
    ).root
    statements = list(root.items)
    assignments = [statement.part("value") for statement in statements]
    targets = [assignment.part("left") for assignment in assignments if assignment is not None]
    assert [modules.is_module_exports(target) for target in targets if target is not None] == [
        True,
        False,
        False,
        False,
        False,
        False,
        True,
    ]
    assert [modules.exports_member(target) for target in targets if target is not None] == [
        None,
        "a",
        "b",
        None,
        None,
        None,
        None,
    ]
    values = [modules.module_exports_value(statement) for statement in statements]
    assert [None if value is None else value.value for value in values] == [
        "f",
        None,
        None,
        None,
        None,
        None,
        "g",
    ]


def test_a_function_gives_its_expression_body_or_each_return_value() -> None:
    from tsograph.producers.values.returns import function_results

    root = read_syntax(
        "src/a.ts",
        b"const f = () => a; function g(x) { if (x) return b; return; } declare function h(): C;",
    ).root
    arrow, declared, bodyless = sorted(find_all(root, ("function",)), key=lambda node: node.start)
    results = [function_results(function) for function in (arrow, declared, bodyless)]
    names = [
        None if found is None else [None if n is None else n.value for n in found]
        for found in results
    ]
    assert names == [["a"], [None, "b"], None]
