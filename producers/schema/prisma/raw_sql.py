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

from tree_sitter import Node

from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.schema import sql_relations, syntax
from tsograph.producers.schema.scan import SchemaScan

RAW_METHODS = frozenset({"$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe"})
_UNSAFE = frozenset({"$queryRawUnsafe", "$executeRawUnsafe"})
MAX_INLINE_DEPTH = 8


def _prisma_member(node: Node, namespaces: set[str], member: str) -> bool:
    node = syntax.unwrap(node)
    if node.type != "member_expression":
        return False
    obj = node.child_by_field_name("object")
    prop = node.child_by_field_name("property")
    return (
        obj is not None
        and prop is not None
        and syntax.text(obj) in namespaces
        and syntax.text(prop) == member
    )


def _tagged(node: Node) -> tuple[Node, Node] | None:
    """(tag, template) of a tagged template call."""
    if node.type != "call_expression":
        return None
    callee = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if callee is None or arguments is None or arguments.type != "template_string":
        return None
    return callee, arguments


def template_sql(
    template: Node, namespaces: set[str], claim: Callable[[Node], None], depth: int = 0
) -> str:
    """The SQL a tagged template sends, interpolations as `?` or inlined fragments."""
    return syntax.template_text(
        template, lambda inner: _substitution(inner, namespaces, claim, depth)
    )


def _substitution(
    node: Node | None, namespaces: set[str], claim: Callable[[Node], None], depth: int
) -> str:
    if node is None or depth >= MAX_INLINE_DEPTH:
        return "?"
    node = syntax.unwrap(node)
    tagged = _tagged(node)
    if tagged is not None and _prisma_member(tagged[0], namespaces, "sql"):
        claim(tagged[1])
        return template_sql(tagged[1], namespaces, claim, depth + 1)
    if _prisma_member(node, namespaces, "empty"):
        return ""
    if node.type == "call_expression":
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments and arguments.named_children else None
        if callee is not None and first is not None and _prisma_member(callee, namespaces, "raw"):
            value = syntax.string_value(first)
            if value is not None:
                claim(first)
                return value
    return "?"


def emit_sql(
    scan: SchemaScan, parsed: ParsedFile, offset: int, sql: str, strict: bool = False
) -> None:
    """Facts of one SQL text at `offset`: its relations, one dynamic fact per unread operand."""
    found = sql_relations.extract(sql, strict)
    for relation in found.relations:
        scan.source_fact(parsed, offset, relation.name)
    for _ in range(found.unresolved):
        scan.note("dynamic-relation-names:", "sql-operands")
        scan.source_fact(parsed, offset, "", dynamic=True)


def collect_file(
    scan: SchemaScan,
    parsed: ParsedFile,
    path: str,
    namespaces: set[str],
    is_client: Callable[[Node], bool],
) -> None:
    consts = syntax.top_level_consts(parsed.root)
    claimed: set[int] = set()

    def claim(node: Node) -> None:
        claimed.add(node.start_byte)
        scan.claim(path, node.start_byte)

    fragments: list[Node] = []
    for node in syntax.walk(parsed.root):
        if node.type != "call_expression":
            continue
        tagged = _tagged(node)
        if tagged is not None and _prisma_member(tagged[0], namespaces, "sql"):
            fragments.append(tagged[1])
            continue
        callee = node.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            continue
        prop = callee.child_by_field_name("property")
        receiver = callee.child_by_field_name("object")
        method = "" if prop is None else syntax.text(prop)
        if method not in RAW_METHODS or receiver is None or not is_client(receiver):
            continue
        arguments = node.child_by_field_name("arguments")
        if arguments is None:
            continue
        if arguments.type == "template_string":
            claim(arguments)
            emit_sql(scan, parsed, arguments.start_byte, template_sql(arguments, namespaces, claim))
            continue
        first = arguments.named_children[0] if arguments.named_children else None
        if first is None:
            continue
        if method in _UNSAFE:
            _unsafe(scan, parsed, first, consts, claim)
        # `$queryRaw(Prisma.sql`…`)` and `$queryRaw(fragment)`: the fragment is read where written.
    for template in fragments:
        if template.start_byte in claimed:
            continue
        claim(template)
        emit_sql(scan, parsed, template.start_byte, template_sql(template, namespaces, claim))


def _unsafe(
    scan: SchemaScan,
    parsed: ParsedFile,
    argument: Node,
    consts: dict[str, Node],
    claim: Callable[[Node], None],
) -> None:
    target = syntax.unwrap(argument)
    if target.type == "identifier" and syntax.text(target) in consts:
        target = syntax.unwrap(consts[syntax.text(target)])
    value = syntax.string_value(target)
    if value is None:
        scan.note("dynamic-relation-names:", "unsafe-sql-expressions")
        scan.source_fact(parsed, argument.start_byte, "", dynamic=True)
        return
    claim(target)
    emit_sql(scan, parsed, argument.start_byte, value)
