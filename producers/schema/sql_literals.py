"""The last collector: SQL in plain string literals, read only in strict uppercase mode.

A string or template literal that no collector claimed is read as SQL when its
verb and relation keywords are uppercase (`sql_relations.extract(text, strict=True)`);
substitutions of a template are no names (an unread relation operand is one dynamic
fact). A lowercase literal that would name relations in normal mode is counted
under skipped-sql-literals:. Files are parsed only when their bytes hold an SQL verb.
"""

from __future__ import annotations

import re

from tsograph.producers.lang.syntax_read import template_text
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.prisma.raw_sql import emit_sql
from tsograph.producers.schema.schema_scan import SchemaScan

# A file is parsed only when its bytes could hold a literal this pass reads or counts:
# an uppercase SQL verb (strict mode), or a quoted lowercase statement head followed
# by a relation keyword on the same line (a skipped-sql-literals: candidate).
_STRICT_VERB = re.compile(
    rb"\b(?:SELECT|INSERT|UPDATE|DELETE|TRUNCATE|CREATE|ALTER|DROP|MERGE|REPLACE|GRANT|REVOKE)\b"
)
_LOWERCASE_SQL = re.compile(
    rb"[\"'`]\s*(?i:select|insert|update|delete|with|truncate)\b[^\"'`\n]{0,400}?\b(?i:from|into|set|join|table)\b"
)


def collect(scan: SchemaScan) -> None:
    for path in scan.files.sources:
        data = scan.data(path)
        if data is None or (
            _STRICT_VERB.search(data) is None and _LOWERCASE_SQL.search(data) is None
        ):
            continue
        file = scan.syntax(path)
        if file is None:
            continue
        for node in file.root.walk():
            if node.kind not in ("string", "template"):
                continue
            if (path, node.start) in scan.claimed:
                continue
            parent = node.parent
            if parent is not None and parent.kind == "tagged":
                continue  # a tagged template: its tag decides what it is, not this pass
            if node.kind == "string":
                text = node.value
            else:
                text = template_text(node, lambda _: sql_relations.SUBSTITUTION)
            if not text:
                continue
            if sql_relations.looks_like_sql(text, strict=True):
                emit_sql(scan, file, node.start, text, strict=True)
            elif sql_relations.looks_like_sql(text) and sql_relations.extract(text).relations:
                scan.note("skipped-sql-literals:", "literals", at=scan.place(file, node.start))
