"""Which declaration a name in a JavaScript/TypeScript syntax tree refers to.

A small lexical resolver over the tree-sitter tree: it walks from a use up
through blocks and functions and looks at the declarations each scope holds
(hoisted `var` and function declarations included, since a name is bound in
its whole scope). It answers only what the client producer needs: is `fetch`
the global one, is a name a `const` (immutable, so its initializer is its
value), a parameter of which function, or an import from which module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tree_sitter import Node

BindingKind = Literal["const", "mutable", "function", "class", "import", "param", "other"]

FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
_BLOCKS = frozenset({"program", "statement_block", "switch_case", "switch_default", "class_body"})
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
_PATTERN_NAMES = frozenset(
    {"identifier", "shorthand_property_identifier_pattern", "shorthand_property_identifier"}
)

Key = tuple[int, int, str]


def key_of(node: Node) -> Key:
    return (node.start_byte, node.end_byte, node.type)


@dataclass(frozen=True)
class Binding:
    kind: BindingKind
    node: Node  # the declarator, function, class, import specifier, or the function of a param
    position: int = -1  # parameters: the index; imports: unused
    specifier: str = ""  # imports: the module specifier
    imported: str = ""  # imports: the name in that module ("default", "*" for a namespace)
    simple: bool = True  # parameters: a plain required name (no default, rest or pattern)


def text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def unquote(node: Node) -> str | None:
    """The value of a string literal without substitutions; None for anything else."""
    if node.type != "string":
        return None
    return "".join(piece_value(child) for child in node.named_children)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def piece_value(node: Node) -> str:
    """A string fragment or escape sequence as the text it stands for."""
    raw = text(node)
    if node.type != "escape_sequence":
        return raw
    body = raw[1:]
    if body.startswith("u{") and body.endswith("}"):
        return _code_point(body[2:-1], raw)
    if body.startswith("u") and len(body) == 5:
        return _code_point(body[1:], raw)
    if body.startswith("x") and len(body) == 3:
        return _code_point(body[1:], raw)
    if body.startswith(("\n", "\r")):
        return ""  # a line continuation
    return _ESCAPES.get(body, body)


def _code_point(digits: str, raw: str) -> str:
    try:
        value = int(digits, 16)
        return chr(value) if value <= 0x10FFFF else raw
    except ValueError:
        return raw


class Scopes:
    """Name resolution for one file, with each scope's declarations read once."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self._tables: dict[Key, dict[str, Binding]] = {}

    def lookup(self, use: Node, name: str) -> Binding | None:
        """The binding `name` has at `use`; None when nothing in the file binds it."""
        node: Node | None = use
        while node is not None:
            table = self._table(node)
            if table is not None and name in table:
                return table[name]
            node = node.parent
        return None

    def _table(self, node: Node) -> dict[str, Binding] | None:
        if (
            node.type not in _BLOCKS
            and node.type not in FUNCTIONS
            and node.type
            not in (
                "for_statement",
                "for_in_statement",
                "catch_clause",
                "class",
                "class_declaration",
            )
        ):
            return None
        key = key_of(node)
        table = self._tables.get(key)
        if table is None:
            table = {}
            self._fill(node, table)
            self._tables[key] = table
        return table

    def _fill(self, node: Node, table: dict[str, Binding]) -> None:
        if node.type in FUNCTIONS:
            self._parameters(node, table)
            if node.type in ("function_expression", "function", "generator_function"):
                name = node.child_by_field_name("name")
                if name is not None:
                    table.setdefault(text(name), Binding("function", node))
            return
        if node.type in ("for_statement", "for_in_statement", "catch_clause"):
            for field in ("initializer", "left", "parameter"):
                child = node.child_by_field_name(field)
                if child is None:
                    continue
                if child.type in ("lexical_declaration", "variable_declaration"):
                    self._declaration(child, table, loop=True)
                else:
                    for item in _names(child):
                        table.setdefault(item, Binding("other", child))
            return
        if node.type in ("class", "class_declaration"):
            return
        for child in node.named_children:
            self._statement(child, table, top=node.type == "program")

    def _statement(self, child: Node, table: dict[str, Binding], *, top: bool) -> None:
        kind = child.type
        if kind == "export_statement":
            for inner in child.named_children:
                self._statement(inner, table, top=top)
        elif kind in ("lexical_declaration", "variable_declaration"):
            self._declaration(child, table, loop=False)
        elif kind in ("function_declaration", "generator_function_declaration"):
            name = child.child_by_field_name("name")
            if name is not None:
                table.setdefault(text(name), Binding("function", child))
        elif kind in ("class_declaration", "abstract_class_declaration"):
            name = child.child_by_field_name("name")
            if name is not None:
                table.setdefault(text(name), Binding("class", child))
        elif kind == "import_statement" and top:
            self._import(child, table)
        elif kind in (
            "enum_declaration",
            "internal_module",
            "interface_declaration",
            "type_alias_declaration",
        ):
            name = child.child_by_field_name("name")
            if name is not None:
                table.setdefault(text(name), Binding("other", child))
        elif kind not in ("statement_block",) and not kind.endswith("_statement"):
            return
        if kind in ("if_statement", "try_statement", "labeled_statement"):
            # `var` declarations inside nested statements are hoisted to the function.
            for inner in _var_declarations(child):
                self._declaration(inner, table, loop=False)

    def _declaration(self, node: Node, table: dict[str, Binding], *, loop: bool) -> None:
        is_const = node.type == "lexical_declaration" and text(node.child(0)) == "const"
        for declarator in node.named_children:
            if declarator.type != "variable_declarator":
                continue
            name = declarator.child_by_field_name("name")
            if name is None:
                continue
            if name.type == "identifier":
                kind: BindingKind = "const" if is_const and not loop else "mutable"
                table.setdefault(text(name), Binding(kind, declarator))
            else:
                for item in _names(name):
                    table.setdefault(item, Binding("other", declarator))

    def _parameters(self, function: Node, table: dict[str, Binding]) -> None:
        params = function.child_by_field_name("parameters")
        if params is None:
            single = function.child_by_field_name("parameter")
            if single is not None:
                table.setdefault(text(single), Binding("param", function, 0))
            return
        for index, param in enumerate(params.named_children):
            target = param
            simple = False
            if param.type in _PARAMETERS:
                pattern = param.child_by_field_name("pattern")
                target = pattern if pattern is not None else param
                simple = target.type == "identifier" and param.child_by_field_name("value") is None
            elif param.type == "identifier":
                simple = True
            for name in _names(target):
                table.setdefault(name, Binding("param", function, index, simple=simple))

    def _import(self, node: Node, table: dict[str, Binding]) -> None:
        source = node.child_by_field_name("source")
        specifier = unquote(source) if source is not None else None
        if specifier is None:
            return
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    table.setdefault(
                        text(part), Binding("import", part, specifier=specifier, imported="default")
                    )
                elif part.type == "namespace_import":
                    for name in part.named_children:
                        table.setdefault(
                            text(name), Binding("import", part, specifier=specifier, imported="*")
                        )
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type != "import_specifier":
                            continue
                        original = spec.child_by_field_name("name")
                        alias = spec.child_by_field_name("alias") or original
                        table.setdefault(
                            text(alias),
                            Binding("import", spec, specifier=specifier, imported=text(original)),
                        )


def _names(pattern: Node) -> list[str]:
    if pattern.type in _PATTERN_NAMES:
        return [text(pattern)]
    names: list[str] = []
    for child in pattern.named_children:
        if child.type == "pair_pattern":
            value = child.child_by_field_name("value")
            if value is not None:
                names.extend(_names(value))
        elif child.type in ("property_identifier", "type_annotation"):
            continue
        else:
            names.extend(_names(child))
    return names


def _var_declarations(node: Node) -> list[Node]:
    found: list[Node] = []
    stack = list(node.named_children)
    while stack:
        child = stack.pop()
        if child.type == "variable_declaration":
            found.append(child)
        elif child.type not in FUNCTIONS and child.type not in ("class", "class_declaration"):
            stack.extend(child.named_children)
    return found


def enclosing_function(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None:
        if parent.type in FUNCTIONS:
            return parent
        parent = parent.parent
    return None
