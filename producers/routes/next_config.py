"""`next.config.*` read statically from its syntax: never executed.

The config is the value of `export default`, `module.exports =` or
`export =`, followed through same-file `const` bindings, `satisfies` / `as`,
parentheses, resolvable spreads and wrapper calls `withX(config)` (the
first argument; the wrapper itself is recorded as a doubt). A name that is
reassigned or mutated anywhere in the file is not followed.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import chain
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_read import top_level
from tsograph.producers.lang.syntax_read import unwrap
from tsograph.producers.lang.syntax_tree import Node

# next@16.4.6 shared/lib/constants.js CONFIG_FILES (next.config.mts only where Node runs
# TypeScript natively, so not assumed) and server/config-shared.js defaultConfig.pageExtensions.
CONFIG_FILES = ("next.config.js", "next.config.mjs", "next.config.ts")
DEFAULT_PAGE_EXTENSIONS = ("tsx", "ts", "jsx", "js")
# Keys whose routes tsograph cannot enumerate (they add or move routes).
ROUTE_KEYS = ("rewrites", "redirects", "i18n")
_MAX_DEPTH = 32

# A value tsograph could not read statically.
UNKNOWN: Any = object()


@dataclass
class NextConfig:
    """What the config says; `problems` are reasons the prefix is unresolved."""

    file: str | None = None
    values: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    wrapped: bool = False
    unresolved_spread: bool = False

    @property
    def readable(self) -> bool:
        return not self.problems


def accepted_base_path(value: str) -> bool:
    """Whether Next.js accepts a basePath (next@16.4.6 server/config.js: empty, or `/`-led
    without a trailing `/`; `/` itself is rejected; nothing else is checked)."""
    return value == "" or (value.startswith("/") and not value.endswith("/"))


class _Unreadable(Exception):
    pass


def read_next_config(file: SyntaxFile) -> NextConfig:
    config = NextConfig(file=file.path)
    if file.facts.parse_errors:
        config.problems.append("syntax-error")
        return config
    reader = _Reader(file.root)
    node = reader.exported()
    if node is None:
        config.problems.append("no-export")
        return config
    try:
        value = reader.value(node, 0)
    except _Unreadable as error:
        config.problems.append(str(error))
        return config
    if not isinstance(value, dict):
        config.problems.append("not-an-object")
        return config
    config.values = value
    config.wrapped = reader.wrapped
    config.unresolved_spread = reader.unresolved_spread
    return config


class _Reader:
    def __init__(self, root: Node) -> None:
        self.root = root
        self.wrapped = False
        self.unresolved_spread = False
        self.consts: dict[str, Node | None] = {}
        self.mutated: set[str] = set()
        self._scan()

    def _scan(self) -> None:
        for declaration in top_level(self.root, ("declaration",)):
            if declaration.value not in ("const", "let"):
                continue  # `var` is not followed: hoisting and redeclaration make it unsafe
            for declarator in declaration.items:
                name = declarator.part("name")
                if name is None or name.kind != "identifier" or name.value is None:
                    continue
                if name.value in self.consts or declaration.value != "const":
                    self.mutated.add(name.value)
                self.consts[name.value] = declarator.part("value")
        self._find_mutations()

    def _find_mutations(self) -> None:
        for node in self.root.walk():
            if node.kind == "assign":
                left = node.part("left")
                while left is not None and left.kind in ("member", "index"):
                    left = left.part("object")
                if left is not None and left.kind == "identifier" and left.value is not None:
                    self.mutated.add(left.value)
            elif node.kind == "call":
                callee = node.part("callee")
                if callee is not None and chain(callee) == ("Object", "assign"):
                    self.mutated.update(
                        arg.value
                        for arg in node.items
                        if arg.kind == "identifier" and arg.value is not None
                    )

    def exported(self) -> Node | None:
        found: Node | None = None
        for statement in self.root.items:
            if statement.kind == "export" and statement.flags & {"default", "equals"}:
                found = statement.part("value") or statement.part("declaration")
            elif statement.kind == "statement":
                expression = statement.part("value")
                if expression is not None and expression.kind == "assign":
                    left = expression.part("left")
                    if left is not None and chain(left) == ("module", "exports"):
                        found = expression.part("right")
        return found

    def value(self, node: Node, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise _Unreadable("too-deep")
        node = unwrap(node)
        kind = node.kind
        if kind == "identifier":
            name = node.value or ""
            if name in self.mutated or name not in self.consts:
                raise _Unreadable("unresolved-name")
            target = self.consts[name]
            if target is None:
                raise _Unreadable("unresolved-name")
            return self.value(target, depth + 1)
        if kind == "call":
            if not node.items:
                raise _Unreadable("opaque-call")
            self.wrapped = True
            return self.value(node.items[0], depth + 1)
        if kind == "function":
            raise _Unreadable("function-export")
        if kind == "object":
            return self._object(node, depth)
        raise _Unreadable("not-an-object")

    def _object(self, node: Node, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for member in node.items:
            if member.kind == "property":
                key = _key(member.part("key"))
                value = member.part("value")
                if key is None or value is None:
                    self.unresolved_spread = True
                    continue
                result[key] = self.literal(value, depth + 1)
            elif member.kind == "shorthand":
                name = member.value or ""
                try:
                    result[name] = self.literal_of_name(name, depth + 1)
                except _Unreadable:
                    result[name] = UNKNOWN
            elif member.kind == "spread":
                inner = member.part("value")
                try:
                    if inner is None:
                        raise _Unreadable("empty-spread")
                    spread = self.value(inner, depth + 1)
                except _Unreadable:
                    self.unresolved_spread = True
                    continue
                result.update(spread)
            elif member.kind == "function":
                key = _key(member.part("name"))
                if key is not None:
                    result[key] = UNKNOWN
            else:
                self.unresolved_spread = True
        return result

    def literal_of_name(self, name: str, depth: int) -> Any:
        if name in self.mutated or self.consts.get(name) is None:
            raise _Unreadable("unresolved-name")
        target = self.consts[name]
        assert target is not None
        return self.literal(target, depth)

    def literal(self, node: Node, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            return UNKNOWN
        node = unwrap(node)
        kind = node.kind
        if kind in ("string", "template"):
            text = string_value(node)
            return UNKNOWN if text is None else text
        if kind == "boolean":
            return node.value == "true"
        if kind == "array":
            items = [self.literal(item, depth + 1) for item in node.items]
            return UNKNOWN if any(item is UNKNOWN for item in items) else items
        if kind == "identifier":
            try:
                return self.literal_of_name(node.value or "", depth + 1)
            except _Unreadable:
                return UNKNOWN
        if kind == "object":
            return {"": UNKNOWN}
        return UNKNOWN


def _key(node: Node | None) -> str | None:
    """A property name or a string key; computed and numeric keys are not read."""
    if node is not None and node.kind in ("name", "string"):
        return node.value
    return None
