"""The Python front-end: `read_syntax(path, data)` gives facts, neutral tree and owner spans.

One tree-sitter parse with the pinned language pack's `python` grammar, one
lowering into the neutral syntax form (lowering.py), then the facts are read
from that form (extractor.py), so what producers see and what the graph sees
come from the same tree. Pure: the same path and bytes give equal results.
Parsers are shared within a process and are not thread-safe.
"""

from __future__ import annotations

from functools import cache

from tree_sitter import Node as TSNode
from tree_sitter import Parser
from tree_sitter_language_pack import get_parser

from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.python.extractor import Extractor
from tsograph.producers.lang.python.lowering import lower
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_file import paused_collection

SUFFIXES = (".py", ".pyi")


@cache
def _parser() -> Parser:
    return get_parser("python")


def read_syntax(path: str, data: bytes) -> SyntaxFile:
    """One Python file as producers read it; `path` is project-relative POSIX."""
    tree = _parser().parse(data).root_node
    errors = _error_count(tree) if tree.has_error else 0
    with paused_collection():
        root = lower(tree, data)
    extractor = Extractor(path, data)
    extractor.run(root)
    facts = extractor.facts(errors)
    spans = tuple(sorted(extractor.spans, key=lambda span: (span[0], -span[1])))
    return SyntaxFile(facts, root, data, spans, js_breaks=False)


def extract(path: str, data: bytes) -> FileFacts:
    """The facts of one Python file."""
    return read_syntax(path, data).facts


def _error_count(root: TSNode) -> int:
    """ERROR and MISSING nodes (iteratively: a hostile file nests deeper than the stack)."""
    count = 0
    cursor = root.walk()
    while True:
        node = cursor.node
        assert node is not None
        if node.is_error or node.is_missing:
            count += 1
        if node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return count
