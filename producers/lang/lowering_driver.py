"""The lowering every front-end shares: a parser's tree walked once into neutral `Node`s.

One iterative pass with a tree cursor (deep nesting costs no Python stack):
each named grammar node is lowered after its children by the builder its
language registered for the node's grammar type, from a `Frame` holding the
children already lowered (by grammar field) and the anonymous tokens
(`async`, operators, `?.`) between them. A language makes one `Lowering`,
registers its builders into it (by decorator, or by the table helpers below
for the shapes many grammar types share) and calls `Lowering.lower`.

This is the cold-run hotspot (every node of every file passes through it), so
frames are slotted, tokens are (field, text) pairs and the loop keeps its
lookups in locals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tree_sitter import Node as TSNode

from tsograph.producers.lang.lowering_nodes import lowered
from tsograph.producers.lang.lowering_nodes import source_text
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.syntax_tree import link_parents

# A lowered child or a token's text: what a frame keeps by grammar field.
_Item = TypeVar("_Item")


class Frame:
    """A grammar node being lowered: its span, the field it fills in its parent, its lowered
    children and its anonymous tokens, both as (grammar field or None, …) pairs."""

    __slots__ = ("end", "kind", "named", "slot", "start", "tokens")

    def __init__(self, kind: str, start: int, end: int, slot: str | None) -> None:
        self.kind = kind  # the grammar type ("ERROR" for an error node)
        self.start = start
        self.end = end
        self.slot = slot
        self.named: list[tuple[str | None, Node]] = []
        self.tokens: list[tuple[str | None, str]] = []

    def part(self, name: str) -> Node | None:
        return _in_field(self.named, name)

    def parts_named(self, name: str) -> list[Node]:
        return _all_in_field(self.named, name)

    def unnamed(self) -> list[Node]:
        return [node for field_name, node in self.named if field_name is None]

    def nodes(self) -> list[Node]:
        return [node for _, node in self.named]

    def first(self) -> Node | None:
        """The first lowered child, whatever field it fills."""
        return self.named[0][1] if self.named else None

    def nth(self, index: int) -> Node | None:
        """The lowered child at `index`, whatever field it fills (None past the last)."""
        return self.named[index][1] if len(self.named) > index else None

    def items_of(self, name: str) -> tuple[Node, ...]:
        """The items of the part in grammar field `name` (none when it is missing)."""
        found = self.part(name)
        return () if found is None else found.items

    def has(self, token: str) -> bool:
        # A loop: any() over a generator costs about twice as much, and this is asked per node.
        for _, kind in self.tokens:  # noqa: SIM110
            if kind == token:
                return True
        return False

    def token(self, field_name: str) -> str | None:
        return _in_field(self.tokens, field_name)

    def tokens_named(self, field_name: str) -> list[str]:
        return _all_in_field(self.tokens, field_name)


def _in_field(pairs: list[tuple[str | None, _Item]], field_name: str) -> _Item | None:
    """The first child (or token) in grammar field `field_name`."""
    for name, item in pairs:
        if name == field_name:
            return item
    return None


def _all_in_field(pairs: list[tuple[str | None, _Item]], field_name: str) -> list[_Item]:
    return [item for name, item in pairs if name == field_name]


def parameter_of(
    frame: Frame, pattern: Node | None, flags: set[str], decorators: list[Node] | None = None
) -> Node:
    """A `parameter` binding `pattern`, with the grammar's `type` and default `value` fields."""
    parts = {"pattern": pattern, "type": frame.part("type"), "value": frame.part("value")}
    return lowered(frame, "parameter", flags=flags, parts=parts, decorators=decorators or ())


Built = Node | list[Node] | None
Builder = Callable[[Frame, bytes], Built]


class Lowering:
    """One language's builders, keyed by grammar type, and the walk that applies them.

    `skipped` grammar types are left out with everything under them (comments);
    a grammar type with no builder goes to `fallback`.
    """

    def __init__(self, skipped: frozenset[str], fallback: Builder) -> None:
        self.skipped = skipped
        self.fallback = fallback
        self.builders: dict[str, Builder] = {}

    def builder(self, *kinds: str) -> Callable[[Builder], Builder]:
        def register(function: Builder) -> Builder:
            for kind in kinds:
                self.builders[kind] = function
            return function

        return register

    # ---- the shapes many grammar types share -------------------------------------------

    def fields(
        self,
        kinds: str | tuple[str, ...],
        kind: str,
        parts: str,
        value: str | None = None,
        flag_tokens: tuple[str, ...] = (),
        items_from: str = "",
    ) -> None:
        """`kind` with grammar fields as parts, in the order written: `fields("while_statement",
        "while", "condition body")`; `name=field` where the part is named otherwise than the
        field (`"callee=function"`). Each of `flag_tokens` written in the node is a flag; the
        items are those of the part in grammar field `items_from` (a `switch`'s cases)."""
        named = tuple(
            (name, field or name)
            for name, _, field in (word.partition("=") for word in parts.split())
        )

        def build(frame: Frame, data: bytes) -> Node:
            flags = [token for token in flag_tokens if frame.has(token)] if flag_tokens else ()
            return lowered(
                frame,
                kind,
                value,
                flags=flags,
                parts={name: frame.part(f) for name, f in named},
                items=frame.items_of(items_from) if items_from else (),
            )

        self._register(kinds, build)

    def ordered(
        self, kinds: str | tuple[str, ...], kind: str, parts: str, value: str | None = None
    ) -> None:
        """`kind` with the lowered children as parts by position: `ordered("assert_statement",
        "assert", "condition message")`; a child missing leaves its part out."""
        names = parts.split()

        def build(frame: Frame, data: bytes) -> Node:
            return lowered(frame, kind, value, parts=dict(zip(names, frame.nodes(), strict=False)))

        self._register(kinds, build)

    def wrap(
        self,
        kinds: str | tuple[str, ...],
        kind: str,
        part: str = "value",
        value: str | None = None,
    ) -> None:
        """`kind` with the first lowered child as its one part (`await x`, `...x`)."""

        def build(frame: Frame, data: bytes) -> Node:
            return lowered(frame, kind, value, parts={part: frame.first()})

        self._register(kinds, build)

    def items(self, kinds: str | tuple[str, ...], kind: str, value: str | None = None) -> None:
        """`kind` with every lowered child as its items, in order."""

        def build(frame: Frame, data: bytes) -> Node:
            return lowered(frame, kind, value, items=frame.nodes())

        self._register(kinds, build)

    def leaf(self, kinds: str | tuple[str, ...], kind: str, value: str | None = None) -> None:
        """`kind` with a fixed value (None: no value)."""

        def build(frame: Frame, data: bytes) -> Node:
            return lowered(frame, kind, value)

        self._register(kinds, build)

    def text(self, kinds: str | tuple[str, ...], kind: str) -> None:
        """`kind` with the node's source text as its value (names, numbers)."""

        def build(frame: Frame, data: bytes) -> Node:
            return lowered(frame, kind, source_text(frame, data))

        self._register(kinds, build)

    def transparent(self, *kinds: str) -> None:
        """The first lowered child stands for the node (annotations, clauses, `(x)`)."""
        self._register(kinds, _first)

    def dropped(self, *kinds: str) -> None:
        """Nothing: the node adds nothing a producer reads, or its parent reads its text."""
        self._register(kinds, _nothing)

    def _register(self, kinds: str | tuple[str, ...], build: Builder) -> None:
        for kind in (kinds,) if isinstance(kinds, str) else kinds:
            self.builders[kind] = build

    # ---- the walk ---------------------------------------------------------------------------

    def lower(self, root: TSNode, data: bytes) -> Node:
        """The neutral form of a parsed file (`data` is the text the tree was parsed from),
        parents linked; a file whose root lowers to nothing is an empty module."""
        skipped = self.skipped
        builders = self.builders
        fallback = self.fallback
        cursor = root.walk()
        first_child = cursor.goto_first_child
        next_sibling = cursor.goto_next_sibling
        up = cursor.goto_parent
        stack: list[Frame] = [Frame(root.type, root.start_byte, root.end_byte, None)]
        push = stack.append
        pop = stack.pop
        result: Built = None
        # `entering`: the cursor stands on the node of stack[-1], its children not visited yet.
        entering = True
        on_child = False
        while True:
            if entering:
                on_child = first_child()
            if on_child:
                node = cursor.node
                assert node is not None
                if node.is_named or node.is_error:
                    kind = node.type
                    if kind not in skipped:
                        if node.is_error:
                            kind = "ERROR"
                        push(Frame(kind, node.start_byte, node.end_byte, cursor.field_name))
                        entering = True
                        continue
                else:
                    stack[-1].tokens.append((cursor.field_name, node.type))
                if next_sibling():
                    entering = False
                    continue
                up()
            # All children of stack[-1] are lowered and the cursor stands on its node.
            frame = pop()
            built = builders.get(frame.kind, fallback)(frame, data)
            if not stack:
                result = built
                break
            if isinstance(built, Node):
                stack[-1].named.append((frame.slot, built))
            elif built is not None:
                stack[-1].named.extend((frame.slot, node) for node in built)
            entering = False
            on_child = next_sibling()
            if not on_child:
                up()
        module = (
            result if isinstance(result, Node) else Node("module", root.start_byte, root.end_byte)
        )
        link_parents(module)
        return module


def _first(frame: Frame, data: bytes) -> Node | None:
    return frame.first()


def _nothing(frame: Frame, data: bytes) -> None:
    return None
