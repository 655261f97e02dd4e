"""Promise callbacks (`p.then(f)`, `.catch(f)`, `.finally(f)`) as the interpreter runs them.

A reaction job runs only once the synchronous code has finished: checked on Node
20.20.2 with CommonJS and ES modules, a callback queued by an imported module's
top level runs after the importer's top level too. So the interpreter queues
these callbacks and runs them after every module's top level, in the order
they were queued, as the microtask queue would. Which settlement a callback
waits for decides whether its registrations are sure: `then`'s first callback
runs when the chain fulfils (the same assumption as an `await`, which the
interpreter follows through), `finally`'s when it settles either way, a
rejection callback only when it rejects, so what that one registers is
conditional. The value a callback receives is not known.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue

# The callbacks of each Promise.prototype method, by position: whether it runs only on
# a rejection (then(onFulfilled, onRejected), catch(onRejected), finally(onFinally)).
ON_REJECTION: dict[str, tuple[bool, ...]] = {
    "then": (False, True),
    "catch": (True,),
    "finally": (False,),
}


@dataclass(frozen=True)
class Deferred:
    """A callback waiting for the top levels to finish, with the frame that queued it."""

    function: FunctionValue
    frame: Frame


def awaits_at_top_level(root: Node) -> bool:
    """Whether a module's top level awaits (`await`, `for await`, `await using`).

    Queued callbacks may then run while the module waits, before its later
    statements, so nothing orders them after the module's own registrations.
    """
    pending = list(root.items)
    while pending:
        node = pending.pop()
        if node.kind == "function":
            continue  # an await in a function body waits in that function only
        if node.kind == "await" or (
            (node.kind == "for_in" and "await" in node.flags)
            or (node.kind == "declaration" and node.value == "await using")
        ):
            return True
        pending.extend(node.children())
    return False
