"""Where each declaration of a changed file ends, and a digest of its body.

The graph knows where a declaration's name is, not where its code ends. For
the files a change touches (and only those) the file is parsed again with the
same tree-sitter grammar the graph uses, and each declaration's span is the
nearest enclosing declaration-like node around its name: a function, class,
method, field, variable declarator, object entry or assignment, or the
function or class expression itself for a callback. The body digest hashes
that text with the declared name taken out and white space squeezed, so the
same body under another name, or in another file, has the same digest.

A file that is not TypeScript or JavaScript, or a declaration whose name is
not where the graph says, gets the one line of its name as its span, and
`exact` says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from tsograph.producers.lang.typescript.grammar import grammar_for, parse

SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_DECLARATIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "method_definition",
        "method_signature",
        "abstract_method_signature",
        "public_field_definition",
        "variable_declarator",
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "pair",
        "assignment_expression",
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
        "class",
        "call_expression",
    }
)
# A body shorter than this says too little to call two declarations the same code.
MIN_MOVED_BODY = 40


@dataclass(frozen=True)
class Span:
    first: int  # 1-based lines, inclusive
    last: int
    digest: str | None  # None: too short, or not read, to find a move by
    exact: bool
    text: str  # the declaration's code, for base/<key>.txt


def spans(path: str, data: bytes, where: dict[str, tuple[int, int, str]]) -> dict[str, Span]:
    """`where`: id -> (line, column, name) of each declaration the graph holds in this file."""
    if not path.endswith(SCRIPT_SUFFIXES):
        return {key: _line_only(data, line) for key, (line, _, _) in where.items()}
    root = parse(grammar_for(path), data)
    found: dict[str, Span] = {}
    for key, (line, column, name) in where.items():
        point = (line - 1, column - 1)
        node = root.named_descendant_for_point_range(point, point)
        while node is not None and node.type not in _DECLARATIONS:
            node = node.parent
        if node is None or node.parent is None:
            found[key] = _line_only(data, line)
            continue
        # `export function f` and `export default class` carry their export.
        if node.parent.type == "export_statement":
            node = node.parent
        text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
        found[key] = Span(
            node.start_point[0] + 1, node.end_point[0] + 1, _digest(text, name), True, text
        )
    return found


def _line_only(data: bytes, line: int) -> Span:
    lines = data.split(b"\n")
    text = lines[line - 1].decode("utf-8", "replace") if 0 < line <= len(lines) else ""
    return Span(line, line, None, False, text)


def _digest(text: str, name: str) -> str | None:
    body = " ".join(text.replace(name, "\0", 1).split()) if name else " ".join(text.split())
    if len(body) < MIN_MOVED_BODY:
        return None
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def innermost(spans_of: dict[str, Span], lines: set[int]) -> set[str]:
    """The declarations that own each line: the narrowest span holding it (none for lines
    outside every declaration)."""
    owners: set[str] = set()
    ordered = sorted(spans_of.items(), key=lambda item: item[1].last - item[1].first)
    for line in lines:
        for key, span in ordered:
            if span.first <= line <= span.last:
                owners.add(key)
                break
    return owners
