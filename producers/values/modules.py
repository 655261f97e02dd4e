"""How JavaScript code loads another module at run time: `require(…)` and `import(…)` calls.

Every evaluator recognises the two the same way: the global `require` (an
evaluator with scopes checks that no local binding shadows it) and the
`import` keyword, with the module named by a string, a template without
substitutions counting as one (Node resolves the same specifier either way).
"""

from __future__ import annotations

from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_tree import Node


def is_require(callee: Node | None) -> bool:
    return callee is not None and callee.kind == "identifier" and callee.value == "require"


def is_dynamic_import(callee: Node | None) -> bool:
    return callee is not None and callee.kind == "name" and callee.value == "import"


def specifier_argument(call: Node) -> str | None:
    """The module a `require`/`import` call names: its first argument as a proven string."""
    if call.kind != "call" or not call.items:
        return None
    return string_value(call.items[0])
