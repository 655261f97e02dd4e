"""A `__tablename__` that a `declared_attr` computes from the class name, evaluated.

SQLAlchemy 2.0.58 (orm/decl_base.py `_ClassScanMapperConfig`) calls a
`@declared_attr` / `@declared_attr.directive` `__tablename__` of a mixin or of the
declarative base with the class being mapped, so Netflix/dispatch's base
(`return resolve_table_name(cls.__name__)`, a helper that splits the name before each
capital and joins the lowered parts with `_`) names `DispatchUser`'s table
`dispatch_user` (checked by mapping such classes and printing `__table__.fullname`).

Evaluated exactly, on the class name and nothing else: string literals, the
parameter's `.__name__`, `+` of texts, `.lower()`/`.upper()`/`.casefold()`,
`"sep".join(list)`, a list display or list comprehension over texts with `if`
filters on an item's truth, `re.sub(pattern, repl, text)` and `re.split(pattern,
text)` with literal patterns and no flags (the standard library's own `re`, as the
application runs it), names assigned once in the function, and calls of project
functions written the same way. Anything else gives no name (counted unverified).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Fn
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.values.python.arguments import Arguments

_DECLARED_ATTR = frozenset(
    {
        ("sqlalchemy", "orm", "declared_attr"),
        ("sqlalchemy", "orm", "declared_attr", "directive"),
        ("sqlalchemy", "ext", "declarative", "declared_attr"),
        ("sqlalchemy", "ext", "declarative", "declared_attr", "directive"),
    }
)
_CASE_METHODS = {"lower": str.lower, "upper": str.upper, "casefold": str.casefold}
_MAX_DEPTH = 8


@dataclass(frozen=True)
class _Class:
    """The class being mapped, as the directive's parameter."""

    name: str


Value = str | tuple[str, ...] | _Class
Names = dict[str, Value]


def declared_tablename(
    project: PyProject, ctx: Context, function: Node, class_name: str
) -> str | None:
    """The table name a `declared_attr` `__tablename__` function gives the class
    `class_name`, or None when it is not one this module evaluates."""
    if len(function.decorators) != 1 or "async" in function.flags:
        return None
    decorator = Evaluator(project).value(ctx, function.decorators[0].part("value"))
    if not isinstance(decorator, Lib) or decorator.path not in _DECLARED_ATTR:
        return None
    params = _parameters(function)
    if params is None or len(params) != 1:
        return None
    found = _Run(project).body(ctx, function, {params[0]: _Class(class_name)}, 0)
    return found if isinstance(found, str) and found else None


def _parameters(function: Node) -> list[str] | None:
    """The names of plain positional parameters (no default, `*`, `**` or separator)."""
    params = function.part("parameters")
    names: list[str] = []
    for item in params.items if params is not None else ():
        pattern = item.part("pattern")
        if (
            item.kind != "parameter"
            or item.flags
            or item.part("value") is not None
            or pattern is None
            or pattern.kind != "identifier"
            or not pattern.value
        ):
            return None
        names.append(pattern.value)
    return names


class _Run:
    def __init__(self, project: PyProject) -> None:
        self.project = project

    def body(self, ctx: Context, function: Node, names: Names, depth: int) -> Value | None:
        """The value a function returns: assignments of new names, then `return`."""
        block = function.part("body")
        if block is None or function.value == "lambda":
            return None
        names = dict(names)
        for index, statement in enumerate(block.items):
            if statement.kind == "return":
                return self.value(ctx, statement.part("value"), names, depth)
            inner = statement.part("value") if statement.kind == "statement" else None
            if inner is None:
                return None
            if index == 0 and inner.kind == "string":
                continue  # the docstring
            left = inner.part("left") if inner.kind == "assign" else None
            if (
                left is None
                or inner.value != "="
                or left.kind != "identifier"
                or not left.value
                or left.value in names
            ):
                return None
            found = self.value(ctx, inner.part("right"), names, depth)
            if found is None:
                return None
            names[left.value] = found
        return None

    def value(self, ctx: Context, node: Node | None, names: Names, depth: int) -> Value | None:
        if node is None:
            return None
        kind = node.kind
        if kind == "string":
            return None if "bytes" in node.flags else node.value or ""
        if kind == "identifier":
            return names.get(node.value or "")
        if kind == "member":
            owner = self.value(ctx, node.part("object"), names, depth)
            prop = node.part("property")
            if isinstance(owner, _Class) and prop is not None and prop.value == "__name__":
                return owner.name
            return None
        if kind == "binary" and node.value == "+":
            left = self.value(ctx, node.part("left"), names, depth)
            right = self.value(ctx, node.part("right"), names, depth)
            return left + right if isinstance(left, str) and isinstance(right, str) else None
        if kind == "array" and node.value is None:
            items = [self.value(ctx, item, names, depth) for item in node.items]
            texts = tuple(item for item in items if isinstance(item, str))
            return texts if len(texts) == len(items) else None
        if kind == "comprehension" and node.value == "list":
            return self._comprehension(ctx, node, names, depth)
        if kind == "call":
            return self._call(ctx, node, names, depth)
        return None

    def _comprehension(self, ctx: Context, node: Node, names: Names, depth: int) -> Value | None:
        """`[body for name in texts if condition …]` with one `for`."""
        loops = [item for item in node.items if item.kind == "comprehension_for"]
        if len(loops) != 1 or node.items[0] is not loops[0] or "async" in loops[0].flags:
            return None
        target = loops[0].part("left")
        source = self.value(ctx, loops[0].part("right"), names, depth)
        if target is None or target.kind != "identifier" or not target.value:
            return None
        if not isinstance(source, tuple):
            return None
        made: list[str] = []
        for item in source:
            scope = {**names, target.value: item}
            kept = True
            for condition in node.items[1:]:
                test = self.value(ctx, condition.part("condition"), scope, depth)
                if not isinstance(test, (str, tuple)):
                    return None
                kept = kept and bool(test)
            if kept:
                found = self.value(ctx, node.part("body"), scope, depth)
                if not isinstance(found, str):
                    return None
                made.append(found)
        return tuple(made)

    def _call(self, ctx: Context, node: Node, names: Names, depth: int) -> Value | None:
        args = Arguments.of(node)
        if args.open or args.keywords:
            return None
        values = [self.value(ctx, item, names, depth) for item in args.positional]
        callee = node.part("callee")
        if callee is None or any(value is None for value in values):
            return None
        if callee.kind == "member":
            prop = callee.part("property")
            method = prop.value if prop is not None else None
            owner_node = callee.part("object")
            if owner_node is not None and method and _stdlib_re(ctx, owner_node):
                return _regex(method, values)
            owner = self.value(ctx, owner_node, names, depth)
            if isinstance(owner, str) and method in _CASE_METHODS and not values:
                return _CASE_METHODS[method](owner)
            if isinstance(owner, str) and method == "join" and len(values) == 1:
                joined = values[0]
                return owner.join(joined) if isinstance(joined, tuple) else None
            return None
        if callee.kind != "identifier" or depth >= _MAX_DEPTH:
            return None
        function = Evaluator(self.project).value(ctx, callee)
        if not isinstance(function, Fn) or function.node.decorators:
            return None
        params = _parameters(function.node)
        home = self.project.context(function.path)
        if home is None or params is None or len(params) != len(values):
            return None
        if "async" in function.node.flags or "generator" in function.node.flags:
            return None
        given = [value for value in values if value is not None]
        bound = dict(zip(params, given, strict=True))
        return self.body(home, function.node, bound, depth + 1)


def _stdlib_re(ctx: Context, node: Node) -> bool:
    """Whether `node` is the name `re` bound only by `import re`."""
    if node.kind != "identifier" or node.value != "re":
        return False
    found = ctx.scopes.lookup(node, "re")
    if found is None or len(found[1]) != 1 or ctx.scopes.written_globally("re"):
        return False
    site = found[1][0]
    statement = site.node.parent
    return (
        site.kind == "import"
        and site.node.kind == "import_namespace"
        and statement is not None
        and statement.value == "re"
    )


def _regex(method: str, values: list[Value | None]) -> Value | None:
    """`re.sub(pattern, repl, text)` and `re.split(pattern, text)` with texts, where the
    pattern cannot backtrack for long (`_bounded`): the pattern is the repository's."""
    if not all(isinstance(value, str) for value in values):
        return None
    texts = [value for value in values if isinstance(value, str)]
    if not texts or len(texts[-1]) > _MAX_TEXT or not _bounded(texts[0]):
        return None
    try:
        if method == "sub" and len(texts) == 3:
            return re.sub(texts[0], texts[1], texts[2])
        if method == "split" and len(texts) == 2:
            parts = re.split(texts[0], texts[1])
            # A group that took no part in a match splits out None, not text.
            found = tuple(part for part in parts if isinstance(part, str))
            return found if len(found) == len(parts) else None
    except (re.error, IndexError):
        return None
    return None


# A repository's pattern is run on a class name only when its cost is bounded: short
# text, at most two repeats, none inside another, no backreference (a nested or
# repeated quantifier can backtrack for longer than any run should wait).
_MAX_TEXT = 128
_MAX_PATTERN = 128
_MAX_REPEATS = 2
_REPEATS = frozenset({"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"})
_REFUSED = frozenset({"GROUPREF", "GROUPREF_EXISTS", "GROUPREF_IGNORE"})


def _bounded(pattern: str) -> bool:
    if len(pattern) > _MAX_PATTERN:
        return False
    # The parser `re` itself uses (Python 3.11's re._parser), read, never compiled here.
    parser: Any = importlib.import_module("re._parser")
    try:
        parsed = parser.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return False
    repeats = 0
    work: list[tuple[Any, bool]] = [(parsed, False)]
    while work:
        items, inside_repeat = work.pop()
        for op, value in items:
            name = str(op)
            if name in _REFUSED:
                return False
            if name in _REPEATS:
                repeats += 1
                if inside_repeat or repeats > _MAX_REPEATS:
                    return False
                work.append((value[2], True))
            elif name == "SUBPATTERN":
                work.append((value[3], inside_repeat))
            elif name == "BRANCH":
                work.extend((branch, inside_repeat) for branch in value[1])
            elif name in ("ASSERT", "ASSERT_NOT"):
                work.append((value[1], inside_repeat))
            elif name == "ATOMIC_GROUP":
                work.append((value, inside_repeat))
    return True
