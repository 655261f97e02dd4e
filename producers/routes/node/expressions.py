"""Expressions as the route interpreter evaluates them: literals, templates, operators,
objects, arrays, members and assignments.

Only values routing depends on are followed (runtime_values.py); anything else
is UNKNOWN. A `&&`/`||`/`??` right side or a `?:` branch whose condition is not
a known boolean runs marked conditional, so what it registers may exist.
Calls and `new` are the interpreter's (interpreter.py): it follows project
functions and hands framework calls to the framework table.
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from dataclasses import replace

from tsograph.producers.lang.syntax_read import static_key
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.node.runtime_values import UNKNOWN
from tsograph.producers.routes.node.runtime_values import ArrayValue
from tsograph.producers.routes.node.runtime_values import ClassValue
from tsograph.producers.routes.node.runtime_values import External
from tsograph.producers.routes.node.runtime_values import Frame
from tsograph.producers.routes.node.runtime_values import FunctionValue
from tsograph.producers.routes.node.runtime_values import ModuleValue
from tsograph.producers.routes.node.runtime_values import ObjectValue
from tsograph.producers.routes.node.runtime_values import Scope
from tsograph.producers.routes.node.runtime_values import Value
from tsograph.producers.values import modules
from tsograph.producers.values.javascript import fold
from tsograph.producers.values.javascript import js_string
from tsograph.producers.values.javascript import number


class Expressions(ABC):
    """The expression half of the interpreter; calls, `new` and the step count are its own."""

    @abstractmethod
    def tick(self) -> None:
        """Count one step of the project-wide budget."""

    @abstractmethod
    def call(self, node: Node, scope: Scope, frame: Frame) -> Value:
        """A call or tagged template."""

    @abstractmethod
    def new(self, node: Node, scope: Scope, frame: Frame) -> Value:
        """A `new` expression."""

    def branches(
        self, node: Node, scope: Scope, frame: Frame
    ) -> tuple[bool | None, Node | None, Node | None]:
        """(the condition when it is a known boolean, consequence, alternative) of an if or `?:`."""
        condition = node.part("condition")
        known = None if condition is None else self.eval(condition, scope, frame)
        return (
            known if isinstance(known, bool) else None,
            node.part("consequence"),
            node.part("alternative"),
        )

    def eval(self, node: Node, scope: Scope, frame: Frame) -> Value:
        self.tick()
        kind = node.kind
        if kind in ("cast", "await"):
            inner = node.part("value")
            return UNKNOWN if inner is None else self.eval(inner, scope, frame)
        if kind == "string":
            return UNKNOWN if node.value is None else node.value
        if kind == "template":
            return self.template(node, scope, frame)
        if kind == "number":
            return number(node.value or "")
        if kind == "boolean":
            return node.value == "true"
        if kind in ("null", "undefined"):
            return None
        if kind == "identifier":
            name = node.value or ""
            if scope.has(name):
                return scope.lookup(name)
            return UNKNOWN
        if kind == "member":
            return self.member_expression(node, scope, frame)
        if kind == "index":
            target = node.part("object")
            index = node.part("index")
            if target is None or index is None:
                return UNKNOWN
            key = self.eval(index, scope, frame)
            base = self.eval(target, scope, frame)
            if isinstance(key, str):
                return self.member(base, key)
            if (
                isinstance(key, int)
                and isinstance(base, ArrayValue)
                and base.complete  # an unknown spread shifts the positions
                and 0 <= key < len(base.items)
            ):
                return base.items[key]
            return UNKNOWN
        if kind == "object":
            return self.object(node, scope, frame)
        if kind == "array":
            return self.array(node, scope, frame)
        if kind == "function":
            return FunctionValue(frame.file, node, scope)
        if kind == "class":
            return ClassValue(frame.file, node, scope)
        if kind in ("call", "tagged"):
            return self.call(node, scope, frame)
        if kind == "new":
            return self.new(node, scope, frame)
        if kind == "binary":
            return self.binary(node, scope, frame)
        if kind == "conditional":
            known, consequence, alternative = self.branches(node, scope, frame)
            if known is not None:
                chosen = consequence if known else alternative
                return UNKNOWN if chosen is None else self.eval(chosen, scope, frame)
            unsure = replace(frame, context=replace(frame.context, conditional=True))
            for part in (consequence, alternative):
                if part is not None:
                    self.eval(part, scope, unsure)
            return UNKNOWN
        if kind == "assign" and node.value == "=":
            return self.assignment(node, scope, frame)
        if kind == "sequence":
            result: Value = UNKNOWN
            for child in node.items:
                result = self.eval(child, scope, frame)
            return result
        if kind == "unary":
            operand = node.part("value")
            operand_value = UNKNOWN if operand is None else self.eval(operand, scope, frame)
            if node.value == "!" and isinstance(operand_value, bool):
                return not operand_value
            return UNKNOWN
        return UNKNOWN

    def template(self, node: Node, scope: Scope, frame: Frame) -> Value:
        parts: list[str] = []
        for child in node.items:
            if child.kind == "substitution":
                inner = child.part("value")
                value = UNKNOWN if inner is None else self.eval(inner, scope, frame)
                if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                    return UNKNOWN
                parts.append(js_string(value))
            else:
                parts.append(child.value or "")
        return "".join(parts)

    def binary(self, node: Node, scope: Scope, frame: Frame) -> Value:
        op = node.value
        left = node.part("left")
        right = node.part("right")
        if op is None or left is None or right is None:
            return UNKNOWN
        left_value = self.eval(left, scope, frame)
        if op in ("&&", "||", "??"):
            if (op == "&&" and left_value is False) or (op == "||" and left_value is True):
                return left_value
            if op == "??" and left_value is not None and left_value is not UNKNOWN:
                return left_value
            decided = isinstance(left_value, bool) or (op == "??" and left_value is None)
            inner = (
                frame
                if decided
                else replace(frame, context=replace(frame.context, conditional=True))
            )
            right_value = self.eval(right, scope, inner)
            return right_value if decided else UNKNOWN
        return fold(op, left_value, self.eval(right, scope, frame))

    def object(self, node: Node, scope: Scope, frame: Frame) -> Value:
        result = ObjectValue()
        for item in node.items:
            if item.kind == "property":
                key_node = item.part("key")
                value_node = item.part("value")
                key = static_key(item)
                if key_node is not None and key_node.kind == "computed":
                    inner = key_node.part("value")
                    computed = UNKNOWN if inner is None else self.eval(inner, scope, frame)
                    key = computed if isinstance(computed, str) else None
                if key is None or value_node is None:
                    result.complete = False
                    continue
                result.members[key] = self.eval(value_node, scope, frame)
            elif item.kind == "shorthand" and item.value is not None:
                found = scope.lookup(item.value)
                result.members[item.value] = UNKNOWN if found is None else found
            elif item.kind == "function":
                key = static_key(item)
                if key is None:
                    result.complete = False
                else:
                    result.members[key] = FunctionValue(frame.file, item, scope)
            elif item.kind == "spread":
                inner = item.part("value")
                spread = UNKNOWN if inner is None else self.eval(inner, scope, frame)
                if isinstance(spread, ObjectValue):
                    result.members.update(spread.members)
                    result.complete = result.complete and spread.complete
                else:
                    result.complete = False
        return result

    def array(self, node: Node, scope: Scope, frame: Frame) -> ArrayValue:
        """An array literal; a spread of a known array adds its items (`[...controllers]`)."""
        items: list[Value] = []
        complete = True
        for child in node.items:
            if child.kind != "spread":
                items.append(self.eval(child, scope, frame))
                continue
            inner = child.part("value")
            spread = UNKNOWN if inner is None else self.eval(inner, scope, frame)
            if isinstance(spread, ArrayValue):
                items.extend(spread.items)
                complete = complete and spread.complete
            else:
                complete = False
        return ArrayValue(items, complete)

    def member(self, base: Value, name: str) -> Value:
        if isinstance(base, ObjectValue):
            return base.members.get(name, UNKNOWN)
        if isinstance(base, ModuleValue):
            if name in base.exports:
                return base.exports[name]
            if base.commonjs is not None:
                return self.member(base.commonjs, name)
            return UNKNOWN
        if isinstance(base, External):
            return base.member(name)
        if isinstance(base, ClassValue):
            return _static_method(base, name)
        if isinstance(base, ArrayValue) and name == "length" and base.complete:
            return len(base.items)
        return UNKNOWN

    def member_expression(self, node: Node, scope: Scope, frame: Frame) -> Value:
        target = node.part("object")
        prop = node.part("property")
        if target is None or prop is None:
            return UNKNOWN
        name = prop.value
        if target.kind == "identifier" and target.value == "module" and name == "exports":
            exported = frame.module.commonjs
            if exported is None:
                exported = ObjectValue(frame.module.exports)
            return exported
        base = self.eval(target, scope, frame)
        if name is None:
            return UNKNOWN
        return self.member(base, name)

    def assignment(self, node: Node, scope: Scope, frame: Frame) -> Value:
        left = node.part("left")
        right = node.part("right")
        if left is None or right is None:
            return UNKNOWN
        value = self.eval(right, scope, frame)
        key = modules.exports_member(left)
        if modules.is_module_exports(left):
            frame.module.commonjs = value
            if isinstance(value, ObjectValue):
                frame.module.exports.update(value.members)
        elif key is not None:
            frame.module.exports[key] = value
            if isinstance(frame.module.commonjs, ObjectValue):
                frame.module.commonjs.members[key] = value
        elif left.kind == "identifier" and left.value is not None:
            scope.assign(left.value, value)
        elif left.kind == "member":
            target = left.part("object")
            prop = left.part("property")
            member = None if prop is None else prop.value
            base = None if target is None else self.eval(target, scope, frame)
            if isinstance(base, ObjectValue) and member is not None:
                base.members[member] = value
        return value


def _static_method(cls: ClassValue, name: str) -> Value:
    """`Controller.list` handed to a router or called: the class's static method of that name."""
    for item in cls.node.items:
        if item.kind != "function" or item.value != "method" or "static" not in item.flags:
            continue
        if item.flags & {"get", "set"}:
            continue  # an accessor's value is what it returns, not the function
        if static_key(item) == name:
            return FunctionValue(cls.file, item, cls.scope)
    return UNKNOWN
