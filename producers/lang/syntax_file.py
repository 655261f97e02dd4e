"""One source file as producers read it: its facts, its neutral syntax tree and who owns each byte.

Route and schema producers look at call arguments and literals the facts do
not keep, but must name the code they find exactly as the graph does:
`owner_at` gives the graph node id that owns the code at a byte offset, from
the same frames the front-end named the declarations with. Everything here
is language-neutral and survives the cache (`to_plain` / `from_plain`), so a
warm run reads it without a parser.
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from tsograph.exchange.locations import LineIndex
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.syntax_tree import decode
from tsograph.producers.lang.syntax_tree import encode

Span = tuple[int, int, str]  # (start, end, owner id), in source order


@dataclass(frozen=True, slots=True)
class SyntaxFile:
    facts: FileFacts
    root: Node
    data: bytes
    spans: tuple[Span, ...]
    # How the language breaks lines, for locations: JavaScript also breaks at U+2028/U+2029.
    js_breaks: bool = True
    _starts: list[int] = field(default_factory=list)
    _lines: list[LineIndex] = field(default_factory=list)  # built on the first `location`

    @property
    def path(self) -> str:
        return self.facts.path

    def owner_at(self, offset: int) -> str:
        """The id of the innermost declaration or inline callback whose code holds `offset`.

        A function, method, class member or inline callback owns its whole node
        (name, parameters and body); code outside all of them belongs to the
        `<path>#<module>` node, as do members with computed names.
        """
        if not self._starts and self.spans:
            self._starts.extend(start for start, _, _ in self.spans)
        return innermost_owner(self.spans, self._starts, offset) or self.facts.declarations[0].id

    def location(self, offset: int) -> tuple[int, int]:
        """1-based line and 1-based UTF-8 byte column of a byte offset (a BOM counts)."""
        if not self._lines:
            self._lines.append(LineIndex(self.data, count_bom=True, js_breaks=self.js_breaks))
        return self._lines[0].position(offset)

    def text(self, node: Node) -> str:
        """The source text of a node, as written."""
        return self.data[node.start : node.end].decode("utf-8", "replace")

    def to_plain(self) -> dict[str, Any]:
        """What the cache keeps beside the facts: the tree and the owner spans."""
        return {
            "spans": [list(span) for span in self.spans],
            "syntax": encode(self.root),
            "jsBreaks": self.js_breaks,
        }

    @staticmethod
    def from_plain(facts: FileFacts, data: bytes, plain: Any) -> SyntaxFile:
        """The file `to_plain` described; ValueError/TypeError/KeyError on a foreign entry."""
        with paused_collection():
            root = decode(plain["syntax"])
        spans = tuple((int(start), int(end), str(owner)) for start, end, owner in plain["spans"])
        return SyntaxFile(facts, root, data, spans, bool(plain["jsBreaks"]))


def innermost_owner(spans: Sequence[Span], starts: Sequence[int], offset: int) -> str:
    """The owner of the innermost span holding `offset` ("" when none does); `starts` are the
    spans' starts."""
    index = bisect_right(starts, offset) - 1
    while index >= 0:
        start, end, owner = spans[index]
        if start <= offset < end:
            return owner
        index -= 1
    return ""


@contextmanager
def paused_collection() -> Iterator[None]:
    """No cyclic garbage collection while a tree is built.

    A tree is tens of thousands of objects linked both ways (parents), all kept;
    the collector would walk the growing heap again and again while they are
    made, which cost more than building them (measured: 2-3x on documenso).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
