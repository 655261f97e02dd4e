"""Whether a module writes into the object a name holds, so its literal no longer says
what the object holds.

A `const` binding cannot be assigned again, but its object can be written through:
`name.x = …`, `name.x += …`, `delete name.x`, `Object.assign(name, …)` and
`Object.defineProperty(name, …)`, also through a deeper member (`name.a.b = …`).
The client evaluator (a const object's members) and the Prisma provenance (a client
held in an object's property) read an object literal only when nothing in the module
writes into it.
"""

from __future__ import annotations

from collections.abc import Callable

from tsograph.producers.lang.syntax_read import chain
from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_tree import Node

_OBJECT_WRITERS = (("Object", "assign"), ("Object", "defineProperty"))


def written_through(root: Node, name: str, is_binding: Callable[[Node], bool]) -> bool:
    """Whether module `root` writes into the object `name` holds; `is_binding(identifier)`
    says whether an identifier spelled `name` there is that binding (not a shadowing one)."""
    for node in find_all(root, ("assign", "unary", "call")):
        target: Node | None = None
        if node.kind == "assign":
            target = node.part("left")
        elif node.kind == "unary" and node.value == "delete":
            target = node.part("value")
        elif node.kind == "call" and _writes_object(node):
            target = node.items[0] if node.items and node.items[0].kind != "spread" else None
        while target is not None and target.kind in ("member", "index"):
            target = target.part("object")
        if (
            target is not None
            and target.kind == "identifier"
            and target.value == name
            and is_binding(target)
        ):
            return True
    return False


def _writes_object(call: Node) -> bool:
    callee = call.part("callee")
    return callee is not None and chain(callee) in _OBJECT_WRITERS
