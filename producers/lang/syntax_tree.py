"""The language-neutral syntax form producers read: what code says, not how a parser spells it.

A front-end lowers its parser's tree into `Node`s (see KINDS below) and the
result is cached by content with the file's facts, so producers evaluate
values, find calls and read declarations without a parser and without
re-parsing an unchanged file. Only `producers/lang/<language>/` sees the
parser's tree.

Lowering normalises what the grammar spells many ways: one `function` kind
for declarations, expressions, arrows, methods and signatures (its `value`
says which form); one `class` kind; one `declaration` kind for
`const`/`let`/`var`; parentheses dropped; `as`, `satisfies`, `!` and `<T>x`
as one `cast` kind; string and template text decoded by the language's own
escape rules; comments left out. Python (producers/lang/python/lowering.py)
reuses these kinds where the meaning is the same and adds the few marked
"Python" below.

A node has:

* `kind`: a word from KINDS;
* `start`, `end`: byte offsets of its source text in the file;
* `value`: the decoded payload of leaves and the form or operator of inner
  nodes (see KINDS); None when the kind has none;
* `flags`: modifiers (`async`, `static`, `optional`, `export`, …);
* `parts`: named sub-nodes (`callee`, `object`, `property`, `left`, …);
* `items`: ordered sub-nodes (statements, arguments, elements, members…);
* `decorators`: the decorators written on a class, member or parameter;
* `parent`: the enclosing node (None at the module).

Nodes compare and hash by identity: a producer may key a table by node.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Value = str | None

# kind -> what `value`, `parts` and `items` hold. The vocabulary a producer may rely on.
KINDS: dict[str, str] = {
    # modules and statements
    "module": "items: statements",
    "statement": "an expression used as a statement; parts: value",
    "declaration": "value: const|let|var|using|await using; items: declarator",
    "declarator": "parts: name (a pattern), type, value",
    "function": (
        "value: declaration|expression|arrow|method|signature|lambda (Python; its body is the "
        "returned expression); flags: async, generator, "
        "static, get, set, abstract, optional, override, readonly, declare, public, private, "
        "protected; parts: name, parameters, body, return_type, type_parameters"
    ),
    "parameters": "items: parameter",
    "parameter": (
        "parts: pattern, type, value (the default); flags: optional, rest, keywords "
        "(Python `**kw`), readonly, public, private, protected, override"
    ),
    "parameter_separator": "Python's bare `*` or `/` in a parameter list; value: * or /",
    "class": (
        "value: declaration|expression; flags: abstract, declare; parts: name, base, "
        "base_type_arguments, implements, bases (Python), type_parameters; items: members "
        "(Python: the statements of the class body)"
    ),
    "bases": "Python class bases; items: expressions, keyword (`metaclass=M`), spread",
    "field": (
        "parts: name, type, value; flags: static, readonly, optional, abstract, declare, "
        "override, accessor, public, private, protected"
    ),
    "static_block": "parts: body",
    "index_signature": "a class or type index signature; parts: type",
    "interface": "parts: name, extends, type_parameters; items: members",
    "type_alias": "parts: name, type, type_parameters",
    "enum": "flags: const, declare; parts: name; items: enum_member",
    "enum_member": "parts: name, value",
    "namespace": "parts: name, body (`namespace a.b {}`, `declare module 'x' {}`)",
    "ambient": "`declare …`; items: the declaration",
    "import": (
        "value: the specifier; flags: type; items: import_default, import_namespace, import_named"
    ),
    "import_default": "parts: local",
    "import_namespace": (
        "parts: local; value: bind-first for Python's `import a.b` (binds `a`, loads `a.b`)"
    ),
    "import_named": (
        "value: the imported name (`*` for Python's `from m import *`, no local); flags: type; "
        "parts: local"
    ),
    "import_equals": "`import x = require('m')`; value: the specifier; parts: name",
    "import_alias": "`import x = a.b`; parts: name, value",
    "export": (
        "flags: default, type, star, equals; value: the specifier of a re-export; "
        "parts: declaration, value (`export default e`, `export = e`), namespace "
        "(`export * as ns`); items: export_name"
    ),
    "export_name": "flags: type; parts: name, alias",
    "block": "items: statements",
    "if": "parts: condition, consequence, alternative",
    "for": "parts: initializer, condition, increment, body",
    "for_in": (
        "value: in|of; flags: await, async; parts: kind (a name: const/let/var), left, right, "
        "body, alternative (Python's `else`)"
    ),
    "while": "parts: condition, body, alternative (Python's `else`)",
    "with_item": "Python `with` item; parts: value, alias",
    "do": "parts: body, condition",
    "with": "parts: object, body; Python: flags: async; items: with_item",
    "switch": "parts: value; items: case, default_case",
    "case": "parts: value, guard (Python); items: statements",
    "default_case": "items: statements",
    "try": (
        "parts: body, handler (catch), finalizer (block), alternative (Python's `else`); "
        "Python: items: catch (one per `except`)"
    ),
    "catch": "parts: parameter, type, body; flags: group (Python `except*`)",
    "return": "parts: value",
    "throw": "parts: value, cause (Python `raise e from c`)",
    "match": "Python `match`; parts: value; items: case",
    "match_pattern": "a case pattern, as written in value; items: the names it captures",
    "assert": "parts: condition, message",
    "delete": "Python `del`; items: targets",
    "scope_declaration": "value: global|nonlocal; items: identifiers",
    "break": "parts: label",
    "continue": "parts: label",
    "labeled": "parts: label, body",
    "empty": "`;`",
    "debugger": "`debugger`",
    # expressions
    "identifier": "value: the name",
    "name": "value: a property, label, key or type-less name as written (`#x` for private)",
    "this": "",
    "super": "",
    "null": "(Python: None)",
    "ellipsis": "Python `...`",
    "undefined": "",
    "boolean": "value: true|false",
    "number": "value: the literal as written",
    "string": (
        "value: the decoded string; flags: bytes (Python: each byte as the code point of its value)"
    ),
    "template": (
        "items: template_text (value: the cooked text) and substitution (parts: value); "
        "Python f-strings; flags: bytes"
    ),
    "template_text": "value: cooked text of one template part",
    "substitution": "parts: value",
    "regex": "value: the pattern; parts: flags",
    "member": "flags: optional; parts: object, property (a name)",
    "index": "flags: optional; parts: object, index (Python: several are an array 'tuple')",
    "slice": "Python `a:b:c` in an index; parts: start, stop, step",
    "keyword": "Python keyword argument; value: the name; parts: value",
    "call": "flags: optional; parts: callee, type_arguments; items: arguments",
    "tagged": "parts: tag, type_arguments, template",
    "new": "parts: callee, type_arguments; items: arguments",
    "await": "parts: value",
    "yield": "flags: delegate; parts: value",
    "unary": "value: the operator (typeof, void, delete, !, -, +, ~, not); parts: value",
    "update": "value: ++ or --; flags: prefix; parts: value",
    "binary": (
        "value: the operator (including &&, ||, ??, instanceof, in; Python and, or, not in, "
        "is not, |); parts: left, right"
    ),
    "comparison": "Python chained comparison `a < b < c`; value: operators, comma-joined; "
    "items: operands",
    "conditional": "parts: condition, consequence, alternative",
    "assign": (
        "value: = or a compound operator (+=, ??=, Python :=, …); parts: left, right, type "
        "(Python `x: T = v`, and `x: T` with no right)"
    ),
    "sequence": "items: expressions",
    "cast": "value: as|as const|satisfies|!|<>|instantiate; parts: value, type",
    "spread": "parts: value; value: * or ** in Python",
    "object": (
        "items: property, shorthand, spread, function (methods, accessors); a Python dict, "
        "whose non-literal keys are `computed`"
    ),
    "property": "parts: key, value (in patterns the value is a pattern)",
    "shorthand": "value: the name (`{ a }`)",
    "computed": "a computed key; parts: value",
    "array": "items: elements; value: tuple for a Python tuple (None for a list)",
    "set": "Python set display; items: elements",
    "comprehension": (
        "Python comprehension; value: list|set|dict|generator; parts: body; items: "
        "comprehension_for, comprehension_if"
    ),
    "comprehension_for": "flags: async; parts: left, right",
    "comprehension_if": "parts: condition",
    "annotation": "a Python annotation: the expression as written; parts: value",
    "meta": "value: import.meta or new.target",
    "decorator": "parts: value",
    "jsx": "parts: name; items: jsx_attribute, then children (jsx and expressions)",
    "jsx_attribute": "parts: name, value",
    # patterns
    "object_pattern": "items: property, shorthand, assign_pattern, rest",
    "array_pattern": "items: patterns",
    "assign_pattern": "parts: left, right (a default)",
    "rest": "parts: value",
    # types
    "type_ref": (
        "value: the name as written (`Repo`, `ns.Repo`, `string`, `this`); items: type arguments"
    ),
    "literal_type": "parts: value",
    "union": "items: types",
    "intersection": "items: types",
    "array_type": "parts: element",
    "tuple_type": "items: types",
    "object_type": "items: property_signature, function (method signatures), index_signature",
    "property_signature": "flags: optional, readonly; parts: name, type",
    "function_type": "flags: new; parts: parameters, return_type",
    "type_query": "`typeof x`; parts: value",
    "type_arguments": "items: types",
    "type_parameters": "items: type_parameter",
    "type_parameter": "parts: name, constraint, default",
    "type_other": "value: keyof|lookup|conditional|infer|template|mapped|optional|rest|predicate|…",
    # recovery
    "error": "code the parser could not read; items: what it could",
    "other": "syntax with no neutral form; value: a description",
}

FLAG_WORDS = frozenset(
    {
        "async",
        "generator",
        "static",
        "get",
        "set",
        "abstract",
        "optional",
        "override",
        "readonly",
        "declare",
        "public",
        "private",
        "protected",
        "accessor",
        "rest",
        "type",
        "default",
        "star",
        "equals",
        "await",
        "delegate",
        "prefix",
        "const",
        "new",
        "bytes",
        "keywords",
        "group",
    }
)

_EMPTY: dict[str, Node] = {}
_NO_FLAGS: frozenset[str] = frozenset()


class Node:
    __slots__ = ("decorators", "end", "flags", "items", "kind", "parent", "parts", "start", "value")

    def __init__(
        self,
        kind: str,
        start: int,
        end: int,
        value: Value = None,
        flags: frozenset[str] = frozenset(),
        parts: dict[str, Node] | None = None,
        items: tuple[Node, ...] = (),
        decorators: tuple[Node, ...] = (),
    ) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.value = value
        self.flags = flags
        self.parts = parts if parts else _EMPTY
        self.items = items
        self.decorators = decorators
        self.parent: Node | None = None

    def __repr__(self) -> str:
        shown = f" {self.value!r}" if self.value is not None else ""
        return f"<{self.kind}{shown} {self.start}-{self.end}>"

    def part(self, name: str) -> Node | None:
        return self.parts.get(name)

    def children(self) -> list[Node]:
        """Every sub-node in source order."""
        found = [*self.decorators, *self.parts.values(), *self.items]
        found.sort(key=lambda node: node.start)
        return found

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, in source order (iterative)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children()))

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


_PLACEHOLDER = Node("module", 0, 0)


def link_parents(root: Node) -> None:
    stack = [root]
    while stack:
        node = stack.pop()
        for child in (*node.decorators, *node.parts.values(), *node.items):
            child.parent = node
            stack.append(child)


# ---- the cached form -------------------------------------------------------------
#
# A flat list of rows in pre-order, the root first; a row is
# [kind, start, end, value, flags, parts, items, decorators] with empty trailing
# members left off, where parts are [name, row index] pairs and items and
# decorators lists of row indices. Flat, because JSON readers limit nesting
# depth and real code nests deeper; orjson reads it back in C, which is what
# keeps a warm run cheaper than parsing.


def encode(root: Node) -> list[list[Any]]:
    """The tree as flat rows (for the cache)."""
    rows: list[list[Any]] = []
    index: dict[int, int] = {}
    order: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        index[id(node)] = len(order)
        order.append(node)
        stack.extend(reversed([*node.decorators, *node.parts.values(), *node.items]))
    for node in order:
        row: list[Any] = [
            node.kind,
            node.start,
            node.end,
            _encode_value(node.value),
            sorted(node.flags),
            [[name, index[id(part)]] for name, part in node.parts.items()],
            [index[id(item)] for item in node.items],
            [index[id(decorator)] for decorator in node.decorators],
        ]
        while len(row) > 3 and (row[-1] is None or row[-1] == []):
            row.pop()
        rows.append(row)
    return rows


def decode(rows: list[list[Any]]) -> Node:
    """The tree `encode` gave, parents linked.

    The hottest loop of a warm run: nodes are made without calling `__init__` and
    linked to their parent as they are placed (measured 1.6 against 2.4 µs a node).
    """
    built: list[Node] = [_PLACEHOLDER] * len(rows)
    make = Node.__new__
    for position in range(len(rows) - 1, -1, -1):  # children come after their parent
        row = rows[position]
        size = len(row)
        node = make(Node)
        node.kind, node.start, node.end = row[0], row[1], row[2]
        node.value = _decode_value(row[3]) if size > 3 else None
        node.flags = frozenset(row[4]) if size > 4 and row[4] else _NO_FLAGS
        parts: dict[str, Node] = _EMPTY
        if size > 5 and row[5]:
            parts = {}
            for name, index in row[5]:
                child = built[index]
                child.parent = node
                parts[name] = child
        node.parts = parts
        node.items = _children(built, row[6], node) if size > 6 and row[6] else ()
        node.decorators = _children(built, row[7], node) if size > 7 and row[7] else ()
        built[position] = node
    root = built[0]
    root.parent = None
    return root


def _children(built: list[Node], indices: list[int], parent: Node) -> tuple[Node, ...]:
    children = [built[index] for index in indices]
    for child in children:
        child.parent = parent
    return tuple(children)


def _encode_value(value: Value) -> Any:
    # A JavaScript string may hold a lone surrogate (`"\\uD800"`), which JSON text cannot
    # carry; such a value is kept as the hex of its UTF-16 code units.
    if value is not None and not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return {"utf16": value.encode("utf-16-le", "surrogatepass").hex()}
    return value


def _decode_value(raw: Any) -> Value:
    if isinstance(raw, dict):
        return str(bytes.fromhex(raw["utf16"]).decode("utf-16-le", "surrogatepass"))
    return None if raw is None else str(raw)


def describe(root: Node) -> str:
    """An indented outline of the tree (one node a line), for goldens and debugging."""
    lines: list[str] = []
    stack: list[tuple[Node, int, str]] = [(root, 0, "")]
    while stack:
        node, depth, label = stack.pop()
        value = "" if node.value is None else f" {node.value!r}"
        flags = f" [{','.join(sorted(node.flags))}]" if node.flags else ""
        lines.append(f"{'  ' * depth}{label}{node.kind}{value}{flags} {node.start}-{node.end}")
        children = [
            *((decorator, "@") for decorator in node.decorators),
            *((part, f"{name}: ") for name, part in node.parts.items()),
            *((item, "- ") for item in node.items),
        ]
        stack.extend((child, depth + 1, prefix) for child, prefix in reversed(children))
    return "\n".join(lines) + "\n"
