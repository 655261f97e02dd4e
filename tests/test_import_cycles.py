"""No import cycle among the producers' modules, counting imports inside functions too.

An import moved into a function body still makes a cycle (it only hides it from the
interpreter); imports under `if TYPE_CHECKING:` never run and are not counted.
Importing `a.b.c` runs the packages `a` and `a.b` as well, so those are edges too.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from tests.cli_helpers import REPO

_ROOT = "tsograph"


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((REPO / "producers").rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([_ROOT, *parts])] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _targets(
    module: str, path: Path, node: ast.Import | ast.ImportFrom, modules: dict[str, Path]
) -> set[str]:
    named: list[str] = []
    if isinstance(node, ast.Import):
        named = [alias.name for alias in node.names]
    else:
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join([*base, *([node.module] if node.module else [])])
        else:
            source = node.module or ""
        named = [
            f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
            for alias in node.names
        ]
    targets: set[str] = set()
    for name in named:
        parts = name.split(".")
        for end in range(2, len(parts) + 1):  # the packages on the way run too
            target = ".".join(parts[:end])
            if target in modules and target != module and not module.startswith(target + "."):
                targets.add(target)
    return targets


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        module: {
            target
            for node in _imports(ast.parse(path.read_text("utf-8")))
            for target in _targets(module, path, node, modules)
        }
        for module, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            following = next(edges, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    work.append((following, iter(sorted(graph[following]))))
                elif following in on_stack:
                    low[node] = min(low[node], index[following])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_no_import_cycle_among_the_producers() -> None:
    assert cycles(import_graph()) == []


def test_the_walk_sees_a_cycle_hidden_in_a_function_body() -> None:
    # The check above would pass on a graph that missed function-level imports.
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import typed\n"
        "def later():\n    import hidden\n"
    )
    found = [alias.name for node in _imports(ast.parse(source)) for alias in node.names]
    assert sorted(found) == ["TYPE_CHECKING", "hidden"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_producer_package_imports() -> None:
    for module, path in _modules().items():
        if path.name == "__init__.py":
            importlib.import_module(module)
