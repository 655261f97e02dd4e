"""One ORM run: the scan, the evaluator and the fact helpers every ORM collector shares."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import template_text
from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.schema import sql_relations
from tsograph.producers.schema.orm.declarations import CALLS
from tsograph.producers.schema.orm.declarations import callee_of
from tsograph.producers.schema.orm.declarations import literal_string
from tsograph.producers.schema.orm.declarations import written_entries
from tsograph.producers.schema.orm.orm_evaluator import Evaluator
from tsograph.producers.schema.schema_scan import SchemaScan

UNRESOLVED = "unresolved-orm-receivers:"
UNVERIFIED = "orm-naming-unverified:"
UNREADABLE = "unreadable-orm-declarations:"
DYNAMIC = "dynamic-relation-names:"


@dataclass
class OrmRun:
    scan: SchemaScan
    evaluator: Evaluator
    paths: tuple[str, ...]  # the parsed sources, in path order

    def file(self, path: str) -> SyntaxFile:
        found = self.evaluator.project.file(path)
        assert found is not None, path
        return found

    def nodes(self, path: str) -> tuple[Node, ...]:
        """Calls and member accesses of a file, in source order (found once per file)."""
        return self.evaluator.nodes(path)

    def calls(self, path: str) -> Iterator[Node]:
        """Calls and tagged templates, in source order."""
        return (node for node in self.nodes(path) if node.kind in CALLS)

    def method_calls(self, path: str) -> Iterator[tuple[Node, str, Node, Node]]:
        """(call, method name, property node, receiver node) of each `receiver.method(...)`."""
        for call in self.calls(path):
            shape = method_of(call)
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
        """A relation-use fact at `at`, its symbol the declaration that encloses it."""
        self.scan.source_fact(self.file(path), at.start, channel, method=method, dynamic=dynamic)

    def use_written_keys(
        self,
        path: str,
        node: Node,
        channel: str,
        column_of: Callable[[str], str | None],
        *,
        nested_arrays: bool = False,
        wrappers: tuple[str, ...] = (),
    ) -> None:
        """A use of each column an option value names: the strings of `['id', 'name']`, the
        keys of `{id: true}`, objects in the array; with `nested_arrays` also the arrays in
        it (Sequelize's `['name', 'alias']`); an entry named in `wrappers` (Sequelize's
        `{include: [...], exclude: [...]}`) holds more of them."""
        if node.kind == "array":
            for item in node.items:
                item = unwrap_value(item)
                written = literal_string(item)
                if written is not None:
                    column = column_of(written)
                    if column is not None:
                        self.use(path, item, channel, column)
                elif item.kind == "object" or (nested_arrays and item.kind == "array"):
                    self.use_written_keys(
                        path,
                        item,
                        channel,
                        column_of,
                        nested_arrays=nested_arrays,
                        wrappers=wrappers,
                    )
            return
        if node.kind != "object":
            return
        for name, key, item in written_entries(node):
            if name in wrappers and item.kind == "property":
                value = item.part("value")
                if value is not None:
                    self.use_written_keys(
                        path,
                        unwrap_value(value),
                        channel,
                        column_of,
                        nested_arrays=nested_arrays,
                        wrappers=wrappers,
                    )
                continue
            column = None if name is None else column_of(name)
            if column is not None:
                self.use(path, key, channel, column)

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
        located = self.file(written_in or path)
        self.scan.declaration(located, at.start, channel, qualified, method, model_path=path)

    def note(
        self,
        prefix: str,
        reason: str,
        name: str | None = None,
        *,
        at: tuple[str, Node] | None = None,
    ) -> None:
        """Count a limitation cause; `at` is the (path, node) a user should look at."""
        place = None if at is None else self.scan.place(self.file(at[0]), at[1].start)
        self.scan.note(prefix, reason, name=name, at=place)

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
        a tagged template's substitutions are bind parameters, no names. Unreadable
        relation positions, or a `spliced` template, give one dynamic fact."""
        found = sql_relations.extract_substituted(sql_text)
        for relation in found.relations:
            self.use(path, at, relation.name)
        if spliced:
            # A template string is spliced, not bound: any substitution may name a relation.
            self.use(path, at, "", dynamic=True)
            self.note(DYNAMIC, "sql-templates", at=(path, at))
        elif found.unresolved:
            self.use(path, at, "", dynamic=True)
            self.note(DYNAMIC, "sql", at=(path, at))
        self.scan.claim(path, (at if written is None else written).start)

    def sql_argument(self, path: str, node: Node, at: Node | None = None) -> bool:
        """Read a string literal or template as SQL used at `at` (default: the literal);
        False for other expressions."""
        found = template_sql(node)
        if found is None:
            return False
        sql_text, substitutions = found
        self.sql(
            path, node if at is None else at, sql_text, spliced=substitutions > 0, written=node
        )
        return True


def template_sql(node: Node) -> tuple[str, int] | None:
    """The text of a string or template literal with each substitution written
    sql_relations.SUBSTITUTION, and how many substitutions there were; None for any
    other expression."""
    if node.kind == "string":
        return None if node.value is None else (node.value, 0)
    if node.kind != "template":
        return None
    substitutions: list[Node | None] = []

    def placeholder(inner: Node | None) -> str:
        substitutions.append(inner)
        return sql_relations.SUBSTITUTION

    text = template_text(node, placeholder)
    return text, len(substitutions)


def chain_root(node: Node) -> Node:
    """The innermost receiver of a call/member chain (`db` in `db.select().from(t)`)."""
    while True:
        if node.kind in CALLS:
            inner = callee_of(node)
        elif node.kind == "member":
            inner = node.part("object")
        elif node.kind == "await" or (node.kind == "cast" and node.value == "!"):
            inner = node.part("value")
        else:
            return node
        if inner is None:
            return node
        node = inner


def continued(call: Node) -> bool:
    """True when the call is the receiver of another chained call (not the chain's end)."""
    parent = call.parent
    grand = None if parent is None else parent.parent
    return (
        parent is not None
        and parent.kind == "member"
        and grand is not None
        and grand.kind in CALLS
        and callee_of(grand) is parent
    )


def method_of(call: Node) -> tuple[str, Node, Node] | None:
    """(method name, property node, receiver node) of a `receiver.method(...)` call."""
    callee = callee_of(call) if call.kind in CALLS else None
    if callee is None or callee.kind != "member":
        return None
    prop = callee.part("property")
    obj = callee.part("object")
    if prop is None or obj is None or not prop.value or prop.value.startswith("#"):
        return None
    return prop.value, prop, obj
