"""Parse errors: counting them, and recovering the one form a producer cannot lose.

The bundled TypeScript grammar predates `export type * from "./x"`. It
usually reads the statement as an `export *` with an ERROR around `type`
(modules.py flags that as type-only), but after other broken code the whole
statement can end up inside a larger ERROR. The text of each ERROR node is
then searched for the statement, so the re-export is still known.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.typescript.drafts import ExportDraft
from tsograph.producers.lang.typescript.extractor import Extractor
from tsograph.producers.lang.typescript.modules import reexport
from tsograph.producers.lang.typescript.strings import decode_js_string

_TYPE_STAR = re.compile(
    rb"(?<![\w$.])export\s+type\s+\*\s*(?:as\s+([\w$]+)\s+)?from\s*(?:\"([^\"\r\n]*)\"|'([^'\r\n]*)')"
)


def error_nodes(root: Node) -> tuple[int, list[Node]]:
    """(ERROR and MISSING nodes, the outermost ERROR nodes), visiting only subtrees with errors."""
    count = 0
    outermost: list[Node] = []
    pending: list[tuple[Node, bool]] = [(root, False)]
    while pending:
        node, inside = pending.pop()
        if node.is_missing:
            count += 1
            continue
        if node.is_error:
            count += 1
            if not inside:
                outermost.append(node)
            inside = True
        pending.extend((child, inside) for child in node.children if child.has_error)
    outermost.sort(key=lambda node: node.start_byte)
    return count, outermost


def recover_type_reexports(ex: Extractor, errors: list[Node]) -> None:
    known = {
        (draft.fact.name, draft.fact.specifier)
        for draft in ex.exports
        if draft.fact.kind != "local"
    }
    for error in errors:
        for match in _TYPE_STAR.finditer(ex.data, error.start_byte, error.end_byte):
            raw_name, double, single = match.groups()
            body = double if double is not None else single
            specifier = decode_js_string(body.decode("utf-8", "replace"))
            name = "*" if raw_name is None else raw_name.decode("utf-8", "replace")
            if (name, specifier) in known:
                continue
            known.add((name, specifier))
            ex.module_syntax = True
            line, column = ex.offset_location(match.start())
            if raw_name is None:
                ex.exports.append(
                    ExportDraft(
                        Export("star", "*", line, column, specifier=specifier, type_only=True)
                    )
                )
            else:
                reexport(ex, line, column, name, "*", specifier, type_only=True)
