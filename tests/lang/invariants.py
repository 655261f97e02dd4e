"""Properties every FileFacts must have, whatever the input: the binding phase relies on them."""

from __future__ import annotations

from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref


def check(facts: FileFacts) -> None:
    by_id = {item.id: item for item in reversed(facts.declarations)}  # the first record
    anonymous = {item.id for item in facts.declarations if item.is_anonymous_class}
    seen: set[str] = set()
    for item in facts.declarations:
        if item.id in seen:
            # Only a member of an anonymous class repeats an id (one node, a record per class).
            assert item.parent in anonymous, f"declaration id {item.id} is unique"
            assert item.parent != by_id[item.id].parent
        seen.add(item.id)
    for ident in anonymous:
        assert "\x00" in ident, "an anonymous class id can never be a symbol id"
    known = set(by_id)
    assert facts.declarations[0].kind == "module"
    assert all(item.parent in known for item in facts.declarations[1:]), "parents exist"
    assert all(site.owner in known for site in facts.calls), "owners exist"
    assert all(item.owner in known for item in facts.bindings), "binding owners exist"
    for index, site in enumerate(facts.calls):
        _ref(facts, known, site.callee)
        if site.callee.head == "result":
            assert site.callee.index != index, "a call is not its own receiver"
    for declaration in facts.declarations:
        if declaration.extends is not None:
            _ref(facts, known, declaration.extends)
        _init(facts, known, declaration.init)
    for binding in facts.bindings:
        _init(facts, known, binding.init)
    for export in facts.exports:
        assert export.node == "" or export.node in known, "export nodes exist"
        if export.value is not None:
            _ref(facts, known, export.value)


def _ref(facts: FileFacts, known: set[str], ref: Ref) -> None:
    if ref.head == "decl":
        assert ref.target in known, f"decl target {ref.target} exists"
    elif ref.head in ("this", "static-this", "super"):
        assert ref.target == "" or ref.target in known
    elif ref.head == "import":
        assert 0 <= ref.index < len(facts.imports)
    elif ref.head in ("param", "local"):
        assert 0 <= ref.index < len(facts.bindings)
        assert facts.bindings[ref.index].kind == ref.head
        assert facts.bindings[ref.index].name == ref.name
    elif ref.head == "result":
        assert 0 <= ref.index < len(facts.calls)
        assert facts.calls[ref.index].kind in ("call", "new", "tagged", "super")


def _init(facts: FileFacts, known: set[str], init: Init | None) -> None:
    if init is None:
        return
    if init.ref is not None:
        _ref(facts, known, init.ref)
    for _, member in init.members:
        _init(facts, known, member)
