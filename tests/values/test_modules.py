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
