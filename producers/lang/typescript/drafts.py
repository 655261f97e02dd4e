"""What only the TypeScript/JavaScript drafts need: JavaScript's scopes and export drafts.

The drafts every front-end shares, and the resolver that turns them into
facts once the whole file is read, are in producers/lang/drafts.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.exchange.symbol_ids import DEFAULT
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.drafts import Target
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import Ref


class Scope:
    """One lexical scope: a function (where `var` lands), a block, the module."""

    __slots__ = ("function", "names", "parent")

    def __init__(self, parent: Scope | None, *, function: bool) -> None:
        self.parent = parent
        self.function = function
        self.names: dict[str, Target] = {}

    def bind(self, name: str, target: Target) -> None:
        # The first declaration of a name wins, as the first location of a declaration does.
        self.names.setdefault(name, target)

    def var_scope(self) -> Scope:
        scope = self
        while not scope.function and scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup(self, name: str) -> Target | None:
        scope: Scope | None = self
        while scope is not None:
            target = scope.names.get(name)
            if target is not None:
                return target
            scope = scope.parent
        return None


@dataclass(slots=True)
class ExportDraft:
    """An export fact whose value (`fact.value` is None) is still a draft."""

    fact: Export
    value: RefDraft | None = None
    # `export { a as b }`: b gets an export node unless `a` is the declaration named b.
    node_unless_same: bool = False


def declared_export(
    fact: Export, class_node: int | None = None, declared: str = DEFAULT
) -> ExportDraft:
    """An export whose node (`fact.node`) is the declaration named `declared` made for it;
    its value is that declaration, or the named class expression `class_node` it holds."""
    if class_node is not None:
        return ExportDraft(fact, RefDraft(node=class_node))
    return ExportDraft(fact, RefDraft(ready=Ref("decl", declared, fact.node)))
