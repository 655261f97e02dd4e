"""`next.config.*` read statically with tree-sitter: never executed.

The config is the value of `export default`, `module.exports =` or
`export =`, followed through same-file `const` bindings, `satisfies` / `as`,
parentheses, resolvable spreads and wrapper calls `withX(config)` (the
first argument; the wrapper itself is recorded as a doubt). A name that is
reassigned or mutated anywhere in the file is not followed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from tsograph.producers.lang.typescript.grammar import grammar_for, parse

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


def read_config(file: str, data: bytes) -> NextConfig:
    config = NextConfig(file=file)
    root = parse(grammar_for(file), data)
    if root.has_error:
        config.problems.append("syntax-error")
        return config
    reader = _Reader(data, root)
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
    def __init__(self, data: bytes, root: Node) -> None:
        self.data = data
        self.root = root
        self.wrapped = False
        self.unresolved_spread = False
        self.consts: dict[str, Node | None] = {}
        self.mutated: set[str] = set()
        self._scan()

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def _scan(self) -> None:
        for statement in self.root.named_children:
            declaration = statement
            if statement.type == "export_statement":
                inner = statement.child_by_field_name("declaration")
                if inner is not None:
                    declaration = inner
            if declaration.type == "lexical_declaration":
                is_const = declaration.children and declaration.children[0].type == "const"
                for declarator in declaration.named_children:
                    if declarator.type != "variable_declarator":
                        continue
                    name = declarator.child_by_field_name("name")
                    if name is None or name.type != "identifier":
                        continue
                    key = self.text(name)
                    if key in self.consts or not is_const:
                        self.mutated.add(key)
                    self.consts[key] = declarator.child_by_field_name("value")
        self._find_mutations(self.root)

    def _find_mutations(self, node: Node) -> None:
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in ("assignment_expression", "augmented_assignment_expression"):
                left = current.child_by_field_name("left")
                while left is not None and left.type in (
                    "member_expression",
                    "subscript_expression",
                ):
                    left = left.child_by_field_name("object")
                if left is not None and left.type == "identifier":
                    self.mutated.add(self.text(left))
            elif current.type == "call_expression":
                callee = current.child_by_field_name("function")
                if callee is not None and self.text(callee) == "Object.assign":
                    args = current.child_by_field_name("arguments")
                    for arg in args.named_children if args is not None else []:
                        if arg.type == "identifier":
                            self.mutated.add(self.text(arg))
            stack.extend(current.children)

    def exported(self) -> Node | None:
        found: Node | None = None
        for statement in self.root.named_children:
            if statement.type == "export_statement":
                children = statement.children
                if any(child.type in ("default", "=") for child in children):
                    value = statement.child_by_field_name("value")
                    if value is None:
                        declaration = statement.child_by_field_name("declaration")
                        value = declaration
                    if value is None:
                        value = children[-1] if children[-1].type != ";" else children[-2]
                    found = value
            elif statement.type == "expression_statement" and statement.named_children:
                expression = statement.named_children[0]
                if expression.type == "assignment_expression":
                    left = expression.child_by_field_name("left")
                    if left is not None and self.text(left) == "module.exports":
                        found = expression.child_by_field_name("right")
        return found

    def value(self, node: Node, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise _Unreadable("too-deep")
        kind = node.type
        if kind in ("parenthesized_expression", "satisfies_expression", "as_expression"):
            return self.value(node.named_children[0], depth + 1)
        if kind == "non_null_expression":
            return self.value(node.named_children[0], depth + 1)
        if kind == "identifier":
            name = self.text(node)
            if name in self.mutated or name not in self.consts:
                raise _Unreadable("unresolved-name")
            target = self.consts[name]
            if target is None:
                raise _Unreadable("unresolved-name")
            return self.value(target, depth + 1)
        if kind == "call_expression":
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            if first is None:
                raise _Unreadable("opaque-call")
            self.wrapped = True
            return self.value(first, depth + 1)
        if kind in ("arrow_function", "function_expression", "function", "function_declaration"):
            raise _Unreadable("function-export")
        if kind == "object":
            return self._object(node, depth)
        raise _Unreadable("not-an-object")

    def _object(self, node: Node, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for member in node.named_children:
            if member.type == "pair":
                key = _key(self, member.child_by_field_name("key"))
                value = member.child_by_field_name("value")
                if key is None or value is None:
                    self.unresolved_spread = True
                    continue
                result[key] = self.literal(value, depth + 1)
            elif member.type == "shorthand_property_identifier":
                name = self.text(member)
                try:
                    result[name] = self.literal_of_name(name, depth + 1)
                except _Unreadable:
                    result[name] = UNKNOWN
            elif member.type == "spread_element":
                try:
                    spread = self.value(member.named_children[0], depth + 1)
                except _Unreadable:
                    self.unresolved_spread = True
                    continue
                result.update(spread)
            elif member.type in ("method_definition",):
                key = _key(self, member.child_by_field_name("name"))
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
        kind = node.type
        if kind in ("parenthesized_expression", "satisfies_expression", "as_expression"):
            return self.literal(node.named_children[0], depth + 1)
        if kind == "string":
            return _string(self, node)
        if kind == "template_string":
            if any(child.type == "template_substitution" for child in node.named_children):
                return UNKNOWN
            return self.text(node)[1:-1]
        if kind == "true":
            return True
        if kind == "false":
            return False
        if kind == "array":
            items = [self.literal(item, depth + 1) for item in node.named_children]
            return UNKNOWN if any(item is UNKNOWN for item in items) else items
        if kind == "identifier":
            try:
                return self.literal_of_name(self.text(node), depth + 1)
            except _Unreadable:
                return UNKNOWN
        if kind == "object":
            return {"": UNKNOWN}
        return UNKNOWN


def _key(reader: _Reader, node: Node | None) -> str | None:
    if node is None:
        return None
    if node.type == "property_identifier":
        return reader.text(node)
    if node.type == "string":
        value = _string(reader, node)
        return value if isinstance(value, str) else None
    return None


def _string(reader: _Reader, node: Node) -> Any:
    parts = []
    for child in node.named_children:
        if child.type == "string_fragment":
            parts.append(reader.text(child))
        else:
            return UNKNOWN  # escape sequences are not decoded
    return "".join(parts)
