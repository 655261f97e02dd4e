"""The last collector: SQL in plain string literals, read only in strict uppercase mode.

A string or template literal that no collector claimed is read as SQL when its
verb and relation keywords are uppercase (`sql_relations.extract(text, strict=True)`);
substitutions of a template become `?` (an unread relation operand is one dynamic
fact). A lowercase literal that would name relations in normal mode is counted
under skipped-sql-literals:. Files are parsed only when their bytes hold an SQL verb.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from tsograph.producers.schema import sql_relations, syntax
from tsograph.producers.schema.prisma.raw_sql import emit_sql
from tsograph.producers.schema.scan import SchemaScan

# A file is parsed only when its bytes could hold a literal this pass reads or counts:
# an uppercase SQL verb (strict mode), or a quoted lowercase statement head followed
# by a relation keyword on the same line (a skipped-sql-literals: candidate).
_STRICT_VERB = re.compile(
    rb"\b(?:SELECT|INSERT|UPDATE|DELETE|TRUNCATE|CREATE|ALTER|DROP|MERGE|REPLACE|GRANT|REVOKE)\b"
)
_LOWERCASE_SQL = re.compile(
    rb"[\"'`]\s*(?i:select|insert|update|delete|with|truncate)\b[^\"'`\n]{0,400}?\b(?i:from|into|set|join|table)\b"
)


def _literal_text(node: Node) -> str | None:
    if node.type == "string":
        return syntax.string_value(node)
    return syntax.template_text(node, lambda _: "?")


def collect(scan: SchemaScan) -> None:
    for path in scan.files.sources:
        data = scan.data(path)
        if data is None or (
            _STRICT_VERB.search(data) is None and _LOWERCASE_SQL.search(data) is None
        ):
            continue
        parsed = scan.parsed(path)
        if parsed is None:
            continue
        for node in syntax.walk(parsed.root):
            if node.type not in ("string", "template_string"):
                continue
            if (path, node.start_byte) in scan.claimed:
                continue
            parent = node.parent
            if parent is not None and parent.type == "call_expression":
                continue  # a tagged template: its tag decides what it is, not this pass
            text = _literal_text(node)
            if not text:
                continue
            if sql_relations.looks_like_sql(text, strict=True):
                emit_sql(scan, parsed, node.start_byte, text, strict=True)
            elif sql_relations.looks_like_sql(text) and sql_relations.extract(text).relations:
                scan.note("skipped-sql-literals:", "literals")
