"""How JavaScript code loads another module at run time and what CommonJS code exports.

Every evaluator recognises loads the same way: the global `require` (an
evaluator with scopes asks `is_global_require`: no declaration of the file's scope
table binds the name there) and the `import` keyword, with the module named by a
string, a template without substitutions counting as one (Node resolves the same
specifier either way).
And it reads CommonJS exports the same way: `module.exports = value` sets the
whole export, `exports.name = value` and `module.exports.name = value` one
member.
"""

from __future__ import annotations

from tsograph.producers.lang.syntax_read import chain
from tsograph.producers.lang.syntax_read import string_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.values.scopes import Scopes


def is_require(callee: Node | None) -> bool:
    return callee is not None and callee.kind == "identifier" and callee.value == "require"


def is_global_require(callee: Node | None, table: Scopes) -> bool:
    """Node's `require`: the name, with no declaration of the file binding it there (a
    parameter or a local function named `require` may load anything, or nothing)."""
    return is_require(callee) and callee is not None and table.lookup(callee, "require") is None


def is_dynamic_import(callee: Node | None) -> bool:
    return callee is not None and callee.kind == "name" and callee.value == "import"


def specifier_argument(call: Node) -> str | None:
    """The module a `require`/`import` call names: its first argument as a proven string."""
    if call.kind != "call" or not call.items:
        return None
    return string_value(call.items[0])


def is_module_exports(target: Node) -> bool:
    """`module.exports` itself, as an assignment target or a value."""
    return chain(target) == ("module", "exports")


def exports_member(target: Node) -> str | None:
    """The export `exports.name` or `module.exports.name` names; None for anything else."""
    names = chain(target)
    if names is not None and names[:-1] in (("exports",), ("module", "exports")):
        return names[-1]
    return None


def module_exports_value(statement: Node) -> Node | None:
    """The value of a statement `module.exports = value`; None for any other statement."""
    if statement.kind != "statement":
        return None
    assignment = statement.part("value")
    if assignment is None or assignment.kind != "assign" or assignment.value != "=":
        return None
    left = assignment.part("left")
    return assignment.part("right") if left is not None and is_module_exports(left) else None
