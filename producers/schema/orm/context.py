"""What every ORM collector shares in one run: the scan, the evaluator and fact helpers."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node

from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.lang.typescript.syntax import string_value
from tsograph.producers.schema import facts as fact_builder
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.orm.tree import children, template_parts
from tsograph.producers.schema.orm.values import Evaluator
from tsograph.producers.schema.scan import SchemaScan

UNRESOLVED = "unresolved-orm-receivers:"
UNVERIFIED = "orm-naming-unverified:"
UNREADABLE = "unreadable-orm-declarations:"
DYNAMIC = "dynamic-relation-names:"


@dataclass
class OrmRun:
    scan: SchemaScan
    evaluator: Evaluator
    paths: tuple[str, ...]  # the parsed sources, in path order

    def parsed(self, path: str) -> ParsedFile:
        parsed = self.evaluator.project.parsed(path)
        assert parsed is not None, path
        return parsed

    def nodes(self, path: str) -> tuple[Node, ...]:
        """Calls and member accesses of a file, in source order (found once per file)."""
        return self.evaluator.nodes(path)

    def calls(self, path: str) -> Iterator[Node]:
        return (node for node in self.nodes(path) if node.type == "call_expression")

    def method_calls(self, path: str) -> Iterator[tuple[Node, str, Node, Node]]:
        """(call, method name, property node, receiver node) of each `receiver.method(...)`."""
        data = self.evaluator.data(path)
        for call in self.calls(path):
            shape = method_of(data, call)
            if shape is not None:
                yield (call, *shape)

    def use(
        self,
        path: str,
        at: Node,
        channel: str,
        method: str | None = None,
        *,
        dynamic: bool = False,
    ) -> None:
        self.scan.source_fact(
            self.parsed(path), at.start_byte, channel, method=method, dynamic=dynamic
        )

    def declare(
        self,
        path: str,
        at: Node,
        channel: str,
        qualified: str,
        method: str | None = None,
        *,
        written_in: str | None = None,
    ) -> None:
        """A declaration fact of the model declared in `path` (its `#model:` usr), located
        at `at` in `written_in` (default `path`: an association may add a key elsewhere)."""
        located = written_in or path
        line, column = self.parsed(located).location(at.start_byte)
        usr = f"{path}#model:{qualified}"
        self.scan.add(
            fact_builder.relation_use(
                channel, located, line, column, method=method, qualified_name=qualified, usr=usr
            )
        )

    def note(self, prefix: str, reason: str, name: str | None = None) -> None:
        self.scan.note(prefix, reason, name=name)

    def sql(
        self,
        path: str,
        at: Node,
        sql_text: str,
        *,
        spliced: bool = False,
        written: Node | None = None,
    ) -> None:
        """Relations of SQL text used at `at` and written at `written` (default: `at`);
        a tagged template's substitutions are bind parameters written `?`. Unreadable
        relation positions, or a `spliced` template, give one dynamic fact."""
        found = sql_relations.extract(sql_text)
        for relation in found.relations:
            self.use(path, at, relation.name)
        if spliced:
            # A template string is spliced, not bound: any substitution may name a relation.
            self.use(path, at, "", dynamic=True)
            self.note(DYNAMIC, "sql-templates")
        elif found.unresolved:
            self.use(path, at, "", dynamic=True)
            self.note(DYNAMIC, "sql")
        self.scan.claim(path, (at if written is None else written).start_byte)

    def sql_argument(self, path: str, node: Node, at: Node | None = None) -> bool:
        """Read a string literal or template as SQL used at `at` (default: the literal);
        False for other expressions."""
        found = template_sql(self.evaluator.data(path), node)
        if found is None:
            return False
        sql_text, substitutions = found
        self.sql(
            path, node if at is None else at, sql_text, spliced=substitutions > 0, written=node
        )
        return True


def template_sql(data: bytes, node: Node) -> tuple[str, int] | None:
    """The text of a string or template literal with each substitution written `?`,
    and how many substitutions there were; None for any other expression."""
    if node.type == "string":
        value = string_value(data, node)
        return None if value is None else (value, 0)
    if node.type != "template_string":
        return None
    parts = template_parts(data, node)
    count = sum(1 for part in parts if not isinstance(part, str))
    return "".join(part if isinstance(part, str) else "?" for part in parts), count


def chain_root(node: Node) -> Node:
    """The innermost receiver of a call/member chain (`db` in `db.select().from(t)`)."""
    while True:
        if node.type == "call_expression":
            inner = node.child_by_field_name("function")
        elif node.type == "member_expression":
            inner = node.child_by_field_name("object")
        elif node.type in ("await_expression", "parenthesized_expression", "non_null_expression"):
            inner = next(children(node), None)
        else:
            return node
        if inner is None:
            return node
        node = inner


def continued(call: Node) -> bool:
    """True when the call is the receiver of another chained call (not the chain's end)."""
    parent = call.parent
    return (
        parent is not None
        and parent.type == "member_expression"
        and parent.parent is not None
        and parent.parent.type == "call_expression"
    )


def method_of(data: bytes, call: Node) -> tuple[str, Node, Node] | None:
    """(method name, property node, receiver node) of a `receiver.method(...)` call."""
    callee = call.child_by_field_name("function")
    if callee is None or callee.type != "member_expression":
        return None
    prop = callee.child_by_field_name("property")
    obj = callee.child_by_field_name("object")
    if prop is None or obj is None or prop.type != "property_identifier":
        return None
    return data[prop.start_byte : prop.end_byte].decode(), prop, obj
