"""`facts.replace`, the resolver's faster `dataclasses.replace` for facts records."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.facts import replace

_REF = Ref("decl", "f", "a.ts#f")
_INIT = Init("alias", _REF)
_CHANGES: list[tuple[Any, dict[str, Any]]] = [
    (Binding("x", "local", "a.ts#f", 2, 9, -1, (TypeRef(("T",)),)), {"init": _INIT}),
    (Binding("p", "param", "a.ts#f", 1, 12, 0, (), None, None), {"init": _INIT, "line": 3}),
    (Declaration("a.ts#C", "class", "C", 1, 7, "a.ts#<module>", True), {"extends": _REF}),
    (
        Declaration("a.ts#f", "function", "f", 4, 10, "a.ts#<module>", False),
        {"has_body": True, "type": (TypeRef(("R",)),), "overloaded": True},
    ),
    (CallSite("call", "a.ts#f", 5, 3, Ref("other")), {"callee": _REF, "args": (_INIT,)}),
]


@pytest.mark.parametrize(("record", "changes"), _CHANGES)
def test_replace_is_dataclasses_replace(record: Any, changes: dict[str, Any]) -> None:
    before = dataclasses.astuple(record)
    replaced = replace(record, **changes)
    assert replaced == dataclasses.replace(record, **changes)
    assert type(replaced) is type(record)
    assert dataclasses.astuple(record) == before


def test_replace_names_only_fields() -> None:
    with pytest.raises(KeyError):
        replace(_CHANGES[0][0], head2="decl")
