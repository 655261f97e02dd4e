"""Where each declaration of a changed file ends, and a digest of its body.

The graph knows where a declaration's name is, not where its code ends. For
the files a change touches (and only those) the file is read as producers
read it (its neutral syntax tree, from the syntax cache's front-ends, so no
parser tree leaves `producers/lang/`), and each declaration's span is the
innermost declaration-like node whose text holds its name: a function (also
a callback or lambda), class, field, variable declarator, interface, type
alias, enum, object property or assignment, widened to the `export` that
carries it. The body digest hashes that text with the declared name taken
out and white space squeezed, so the same body under another name, or in
another file, has the same digest.

A file no front-end reads, or a declaration whose name is not where the
graph says, gets the one line of its name as its span, and `exact` says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.syntax_cache import PYTHON_SUFFIXES
from tsograph.producers.project.syntax_cache import read_syntax

SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", *PYTHON_SUFFIXES)
_DECLARATIONS = frozenset(
    {
        "function",
        "class",
        "field",
        "declarator",
        "interface",
        "type_alias",
        "enum",
        "property",
        "assign",
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
    if not path.lower().endswith(SCRIPT_SUFFIXES):
        return {key: _line_only(data, line) for key, (line, _, _) in where.items()}
    root = read_syntax(path, data).root
    starts = _line_starts(data)
    found: dict[str, Span] = {}
    for key, (line, column, name) in where.items():
        node = _enclosing(root, starts[line - 1] + column - 1) if 0 < line <= len(starts) else None
        if node is None:
            found[key] = _line_only(data, line)
            continue
        # `export function f` and `export default class` carry their export; a decorated
        # Python definition starts at its first decorator.
        first = min([node.start, *(decorator.start for decorator in node.decorators)])
        last = node.end
        if node.parent is not None and node.parent.kind == "export":
            first, last = node.parent.start, node.parent.end
        text = data[first:last].decode("utf-8", "replace")
        found[key] = Span(
            data.count(b"\n", 0, first) + 1,
            data.count(b"\n", 0, max(first, last - 1)) + 1,
            _digest(text, name),
            True,
            text,
        )
    return found


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    at = data.find(b"\n")
    while at != -1:
        starts.append(at + 1)
        at = data.find(b"\n", at + 1)
    return starts


def _enclosing(root: Node, offset: int) -> Node | None:
    """The innermost declaration-like node whose text holds `offset` (not the module)."""
    best: Node | None = None
    node: Node | None = root
    while node is not None:
        if node.kind in _DECLARATIONS:
            best = node
        node = next((child for child in node.children() if child.start <= offset < child.end), None)
    return best


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
