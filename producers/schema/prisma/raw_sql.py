"""Raw SQL through Prisma Client: `$queryRaw`/`$executeRaw` templates, `Prisma.sql`
fragments and the `…Unsafe` methods.

Interpolations of a tagged template are bind parameters, so each becomes `?`;
nested `Prisma.sql` fragments, `Prisma.raw('literal')` and `Prisma.empty` are
inlined. A `?` where a relation name belongs is an unresolved operand of the
extractor and becomes one dynamic fact. `…Unsafe` reads a string literal or a
same-file const; anything else is one dynamic fact.
"""

from __future__ import annotations

from collections.abc import Callable

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_read import template_text
from tsograph.producers.lang.syntax_read import top_level_consts
from tsograph.producers.lang.syntax_read import unwrap
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.prisma.bindings import prisma_member
from tsograph.producers.schema.schema_scan import SchemaScan

RAW_METHODS = frozenset({"$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe"})
_UNSAFE = frozenset({"$queryRawUnsafe", "$executeRawUnsafe"})
MAX_INLINE_DEPTH = 8


def template_sql(
    template: Node, namespaces: set[str], claim: Callable[[Node], None], depth: int = 0
) -> str:
    """The SQL a tagged template sends, interpolations as `?` or inlined fragments."""
    return template_text(template, lambda inner: _substitution(inner, namespaces, claim, depth))


def _substitution(
    node: Node | None, namespaces: set[str], claim: Callable[[Node], None], depth: int
) -> str:
    if node is None or depth >= MAX_INLINE_DEPTH:
        return "?"
    node = unwrap(node)
    if node.kind == "tagged":
        tag, template = node.part("tag"), node.part("template")
        if tag is not None and template is not None and prisma_member(tag, namespaces, "sql"):
            claim(template)
            return template_sql(template, namespaces, claim, depth + 1)
    if prisma_member(node, namespaces, "empty"):
        return ""
    if node.kind == "call" and node.items:
        callee = node.part("callee")
        first = node.items[0]
        if callee is not None and prisma_member(callee, namespaces, "raw"):
            value = string_value(first)
            if value is not None:
                claim(first)
                return value
    return "?"


def emit_sql(
    scan: SchemaScan, file: SyntaxFile, offset: int, sql: str, strict: bool = False
) -> None:
    """Facts of one SQL text at `offset`: its relations, one dynamic fact per unread operand."""
    found = sql_relations.extract_substituted(sql, strict)
    for relation in found.relations:
        scan.source_fact(file, offset, relation.name)
    for _ in range(found.unresolved):
        scan.note("dynamic-relation-names:", "sql-operands", at=scan.place(file, offset))
        scan.source_fact(file, offset, "", dynamic=True)


def _raw_call(node: Node, is_client: Callable[[Node], bool]) -> str | None:
    """The raw method a call or tagged template sends to a proven client, else None."""
    callee = node.part("callee" if node.kind == "call" else "tag")
    if callee is None or callee.kind != "member":
        return None
    prop = callee.part("property")
    receiver = callee.part("object")
    method = None if prop is None else prop.value
    if method not in RAW_METHODS or receiver is None or not is_client(receiver):
        return None
    return method


def collect_file(
    scan: SchemaScan,
    file: SyntaxFile,
    path: str,
    namespaces: set[str],
    is_client: Callable[[Node], bool],
) -> None:
    consts = top_level_consts(file.root)
    claimed: set[int] = set()

    def claim(node: Node) -> None:
        claimed.add(node.start)
        scan.claim(path, node.start)

    fragments: list[Node] = []
    for node in file.root.walk():
        if node.kind == "tagged":
            tag, template = node.part("tag"), node.part("template")
            if tag is None or template is None:
                continue
            if prisma_member(tag, namespaces, "sql"):
                fragments.append(template)
            elif _raw_call(node, is_client) is not None:
                claim(template)
                emit_sql(scan, file, template.start, template_sql(template, namespaces, claim))
            continue
        if node.kind != "call" or not node.items:
            continue
        method = _raw_call(node, is_client)
        if method in _UNSAFE:
            _unsafe(scan, file, node.items[0], consts, claim)
        # `$queryRaw(Prisma.sql`…`)` and `$queryRaw(fragment)`: the fragment is read where written.
    for template in fragments:
        if template.start in claimed:
            continue
        claim(template)
        emit_sql(scan, file, template.start, template_sql(template, namespaces, claim))


def _unsafe(
    scan: SchemaScan,
    file: SyntaxFile,
    argument: Node,
    consts: dict[str, Node],
    claim: Callable[[Node], None],
) -> None:
    target = unwrap(argument)
    if target.kind == "identifier" and target.value in consts:
        target = unwrap(consts[target.value])
    value = string_value(target)
    if value is None:
        scan.note(
            "dynamic-relation-names:",
            "unsafe-sql-expressions",
            at=scan.place(file, argument.start),
        )
        scan.source_fact(file, argument.start, "", dynamic=True)
        return
    claim(target)
    emit_sql(scan, file, argument.start, value)
