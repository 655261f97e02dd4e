"""Reading small pieces of the tree: names, chains, string values, callback keys, types.

Everything here walks a bounded stretch of the tree with a loop (a chain, a
literal, a type annotation cut at TYPE_DEPTH), never the whole file.
"""

from __future__ import annotations

from functools import lru_cache

from tree_sitter import Node

from tsograph.exchange.symbol_ids import ArrayKey
from tsograph.exchange.symbol_ids import Callee
from tsograph.exchange.symbol_ids import Key
from tsograph.exchange.symbol_ids import NameChainKey
from tsograph.exchange.symbol_ids import StringKey
from tsograph.exchange.symbol_ids import TemplateKey
from tsograph.producers.lang.facts import FUNCTION_TYPE
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.typescript.strings import decode_js_string

# Expressions that leave the value they wrap unchanged, for naming and chains.
WRAPPERS = frozenset(
    {
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
    }
)
FUNCTIONS = frozenset({"arrow_function", "function_expression", "generator_function"})
CLASSES = frozenset({"class"})
# Statements that declare a named function (or its overload signature) or class.
FUNCTION_DECLARATIONS = frozenset(
    {"function_declaration", "generator_function_declaration", "function_signature"}
)
CLASS_DECLARATIONS = frozenset({"class_declaration", "abstract_class_declaration"})
# Type arguments deeper than this are not recorded (Promise<Array<Map<…>>>).
TYPE_DEPTH = 3
_NULLISH_TYPES = frozenset({"null", "undefined", "void", "never"})
_NO_STEPS: list[tuple[str, str]] = []


def text(data: bytes, node: Node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def first_named(node: Node) -> Node | None:
    for child in node.named_children:
        if child.type != "comment":
            return child
    return None


def class_expression_name(node: Node) -> Node | None:
    """The own name of a class expression (`class B {}` in `const A = class B {}`)."""
    return node.child_by_field_name("name") if node.type in CLASSES else None


def unwrap(node: Node) -> Node:
    """The expression inside parentheses, `as`, `satisfies`, `!` and `<T>` wrappers."""
    while node.type in WRAPPERS:
        inner = node.named_children[-1] if node.type == "type_assertion" else first_named(node)
        if inner is None:
            return node
        node = inner
    return node


def cast_type(node: Node) -> Node | None:
    """The type node of `x as T` or `<T>x`; None for `as const` and any other node."""
    if node.type == "as_expression":
        named = [child for child in node.named_children if child.type != "comment"]
        return named[-1] if len(named) >= 2 else None
    if node.type == "type_assertion":
        arguments = first_named(node)
        return None if arguments is None else first_named(arguments)
    return None


def value_cast(data: bytes, node: Node | None) -> tuple[TypeRef, ...]:
    """The type an initializer is asserted to (`x as T`, outermost first), else ().

    An assertion to a union is not kept: code narrows such a value right after
    (`if (is(select, SQL)) … else select.getSQL()`), which binding cannot follow,
    so every part would get an edge the checker rules out.
    """
    while node is not None and node.type in WRAPPERS:
        found = cast_type(node)
        if found is not None:
            types = declared_type(data, found)
            return types if len(types) == 1 else ()
        node = unwrap_once(node)
    return ()


def unwrap_once(node: Node) -> Node | None:
    """The expression directly inside one wrapper."""
    return node.named_children[-1] if node.type == "type_assertion" else first_named(node)


def unwrap_value(node: Node) -> Node:
    """Like unwrap, and also through `await`: the value an initializer stands for."""
    node = unwrap(node)
    while node.type == "await_expression":
        inner = first_named(node)
        if inner is None:
            return node
        node = unwrap(inner)
    return node


_EITHER_OPERATORS = frozenset({"??", "||"})


def alternatives(node: Node) -> list[Node]:
    """The expressions a value can come from, for `?:`, `??`, `||`, `&&` and `,`; else [].

    `a && b` yields `b` or a falsy `a`, and a falsy value is never an object or
    function a call could go to, so only `b` is kept; `a, b` yields `b`.
    """
    kind = node.type
    if kind == "ternary_expression":
        parts = [node.child_by_field_name("consequence"), node.child_by_field_name("alternative")]
        return [part for part in parts if part is not None]
    if kind == "binary_expression":
        operator = node.child_by_field_name("operator")
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if operator is None or left is None or right is None:
            return []
        if operator.type in _EITHER_OPERATORS:
            return [left, right]
        if operator.type == "&&":
            return [right]
        return []
    if kind == "sequence_expression":
        last = node.named_children[-1] if node.named_children else None
        return [] if last is None else [last]
    return []


def outer(node: Node) -> tuple[Node, Node | None]:
    """(outermost wrapper around node, that wrapper's parent)."""
    parent = node.parent
    while parent is not None and parent.type in WRAPPERS:
        node = parent
        parent = node.parent
    return node, parent


def decorators(node: Node) -> list[Node]:
    """The decorators of a class or member: on it, or before `export` around a class."""
    found = [child for child in node.children if child.type == "decorator"]
    parent = node.parent
    if parent is not None and parent.type == "export_statement":
        found = [child for child in parent.children if child.type == "decorator"] + found
    return found


def string_value(data: bytes, node: Node) -> str | None:
    """The value of a string literal node, None for anything else."""
    if node.type != "string":
        return None
    return decode_js_string(
        data[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "replace")
    )


def property_name(data: bytes, node: Node) -> str | None:
    """A static member or property name (`a`, `#a`, `"a"`, `1`); None when computed."""
    kind = node.type
    if kind in ("property_identifier", "private_property_identifier", "identifier", "number"):
        return text(data, node)
    if kind == "string":
        return string_value(data, node)
    return None


class Chain:
    """A callee or value chain as written, read from the outside in.

    `base` is the innermost expression (identifier, this, super, a call…).
    `members` are the names after the base up to the first computed access
    (that is what binding can follow); `computed` says a computed access cut
    the chain. `last` is the node of the last name, where a site is located.
    """

    __slots__ = (
        "_steps",
        "base",
        "base_type",
        "cast",
        "cast_steps",
        "computed",
        "last",
        "members",
        "optional",
    )

    def __init__(self, data: bytes, node: Node) -> None:
        kind = node.type
        if kind == "identifier":
            # A bare name (`f()`, most callees and values): nothing to walk.
            self._steps = _NO_STEPS
            self.cast = None
            self.cast_steps = 0
            self.base = self.last = node
            self.base_type = kind
            self.optional = self.computed = False
            self.members: tuple[str, ...] = ()
            return
        # (kind, name) innermost first once reversed; kind is prop, elem or computed.
        steps: list[tuple[str, str]] = []
        optional = False
        last: Node | None = None
        # The outermost type assertion the chain passes (`(x as T).m`): its type node and
        # how many steps lie inside it.
        cast: Node | None = None
        outside = 0
        while True:
            if kind == "member_expression":
                # children: object, "." or optional_chain, property (faster than field lookups).
                children = node.children
                if len(children) < 3:
                    break
                prop = children[-1]
                if children[1].type == "optional_chain":
                    optional = True
                name = data[prop.start_byte : prop.end_byte].decode("utf-8", "replace")
                steps.append(("prop", name))
            elif kind == "subscript_expression":
                children = node.children
                if len(children) < 3:
                    break
                prop = node.child_by_field_name("index") or node
                if children[1].type == "optional_chain":
                    optional = True
                key = string_value(data, unwrap(prop))
                steps.append(("elem", key) if key is not None else ("computed", ""))
            elif kind in WRAPPERS or kind == "await_expression":
                if cast is None and kind in ("as_expression", "type_assertion"):
                    cast = cast_type(node)
                    outside = len(steps)
                # `(await load()).save()`: the awaited value; Promise<T> types say what it is.
                inner = unwrap_once(node) if kind in WRAPPERS else first_named(node)
                if inner is None or inner == node:
                    break
                node = inner
                kind = node.type
                continue
            else:
                break
            if last is None:
                last = prop
            node = children[0]
            kind = node.type
        steps.reverse()
        self._steps = steps
        self.cast = cast
        self.cast_steps = len(steps) - outside
        self.base = node
        self.base_type = kind
        self.optional = optional
        self.last = node if last is None else last
        self.computed = False
        names: list[str] = []
        for step_kind, name in steps:
            if step_kind == "computed":
                self.computed = True
                break
            names.append(name)
        self.members = tuple(names)

    def split_at_cast(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """(members inside the cast, members after it), when no computed access cuts
        the inside; members after are cut at their first computed access."""
        if self.cast is None:
            return None
        inner = self._steps[: self.cast_steps]
        if any(kind == "computed" for kind, _ in inner):
            return None
        after: list[str] = []
        for kind, name in self._steps[self.cast_steps :]:
            if kind == "computed":
                break
            after.append(name)
        return tuple(name for _, name in inner), tuple(after)

    def callee(self, data: bytes) -> Callee:
        """The chain for callback ids: a computed access, a call or any other
        expression than a name, this or super is written `…`."""
        steps = self._steps
        after = -1
        for index, (step_kind, _) in enumerate(steps):
            if step_kind == "computed":
                after = index
        head = None
        if after < 0 and self.base_type in ("identifier", "this", "super"):
            head = text(data, self.base)
        return Callee(head, tuple(steps[after + 1 :]))


def name_chain(data: bytes, node: Node) -> str | None:
    """`a` or `a.b.c` when node is an identifier with plain property accesses."""
    parts: list[str] = []
    node = unwrap(node)
    while node.type == "member_expression":
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if obj is None or prop is None or b"?" in data[obj.end_byte : prop.start_byte]:
            return None
        parts.append(text(data, prop))
        node = unwrap(obj)
    if node.type != "identifier":
        return None
    parts.append(text(data, node))
    return ".".join(reversed(parts))


def callback_key(data: bytes, node: Node) -> Key | None:
    """A static key argument of a callback's anchor call, None for any other argument."""
    node = unwrap(node)
    kind = node.type
    if kind == "string":
        value = string_value(data, node)
        return None if value is None else StringKey(value)
    if kind == "template_string":
        return _template_key(data, node)
    if kind == "array":
        items: list[Key] = []
        for child in node.named_children:
            if child.type == "comment":
                continue
            item = callback_key(data, child) if child.type != "array" else None
            if item is None:
                return None
            items.append(item)
        return ArrayKey(tuple(items))
    chain_text = name_chain(data, node)
    return None if chain_text is None else NameChainKey(chain_text)


def _template_key(data: bytes, node: Node) -> TemplateKey:
    pieces: list[str] = []
    substitutions: list[str | None] = []
    position = node.start_byte + 1
    for child in node.named_children:
        if child.type != "template_substitution":
            continue
        pieces.append(data[position : child.start_byte].decode("utf-8", "replace"))
        inner = first_named(child)
        substitutions.append(None if inner is None else name_chain(data, inner))
        position = child.end_byte
    pieces.append(data[position : node.end_byte - 1].decode("utf-8", "replace"))
    return TemplateKey(tuple(pieces), tuple(substitutions))


def declared_type(data: bytes, annotation: Node | None) -> tuple[TypeRef, ...]:
    """The union members of a type annotation (`: T`), null and undefined left out."""
    if annotation is None:
        return ()
    node = first_named(annotation) if annotation.type == "type_annotation" else annotation
    return () if node is None else _union_members(data, node, 0)


NO_TYPE = TypeRef(())


def unite_types(first: tuple[TypeRef, ...], second: tuple[TypeRef, ...]) -> tuple[TypeRef, ...]:
    """The union of two signatures' declared types (overloads), () for none.

    A signature without a type stands as the empty type (it is `any`), and
    two references to the same name with different type arguments become the
    name alone: `Builder<T>` and `Builder<any>` are one class, but not one
    instantiation.
    """
    merged = list(first or (NO_TYPE,))
    for item in second or (NO_TYPE,):
        same = next((i for i, known in enumerate(merged) if known.chain == item.chain), None)
        if same is None:
            merged.append(item)
        elif merged[same] != item:
            merged[same] = TypeRef(item.chain)
    return () if merged == [NO_TYPE] else tuple(merged)


def property_annotation(data: bytes, annotation: Node | None, keys: tuple[str, ...]) -> Node | None:
    """The annotation of the property a path reads in an object type literal, if declared.

    `{ store }: { store: ItemStore }` gives the `: ItemStore` of `store`; a
    path through a named type, a union or a missing property gives None.
    """
    node = annotation
    for key in keys:
        if node is None:
            return None
        literal = first_named(node) if node.type == "type_annotation" else node
        if literal is None or literal.type != "object_type":
            return None
        found = None
        for member in literal.named_children:
            if member.type != "property_signature":
                continue
            name = member.child_by_field_name("name")
            if name is not None and property_name(data, name) == key:
                found = member.child_by_field_name("type")
        node = found
    return node


def _union_members(data: bytes, node: Node, depth: int) -> tuple[TypeRef, ...]:
    members: list[TypeRef] = []
    pending = [node]
    while pending:
        current = pending.pop()
        while current.type in ("parenthesized_type", "readonly_type"):
            inner = first_named(current)
            if inner is None:
                break
            current = inner
        if current.type == "union_type":
            pending.extend(reversed([c for c in current.named_children if c.type != "comment"]))
        elif not _nullish(data, current):
            members.append(type_ref(data, current, depth))
    return tuple(members)


def _nullish(data: bytes, node: Node) -> bool:
    return node.type in ("predefined_type", "literal_type") and text(data, node) in _NULLISH_TYPES


def type_ref(data: bytes, node: Node, depth: int) -> TypeRef:
    while node.type in ("parenthesized_type", "readonly_type"):
        inner = first_named(node)
        if inner is None:
            return TypeRef(())
        node = inner
    kind = node.type
    if kind in ("type_identifier", "predefined_type", "identifier", "this_type"):
        # `this` (polymorphic this) is the name binding reads as the receiver's own type.
        return _named_type(data[node.start_byte : node.end_byte])
    if kind == "union_type":
        # An argument such as `Repo | null` stands for its one member; a real union for nothing.
        members = _union_members(data, node, depth)
        return members[0] if len(members) == 1 else TypeRef(())
    if kind == "nested_type_identifier":
        return TypeRef(_qualified_name(data, node))
    if kind == "generic_type":
        name = node.child_by_field_name("name")
        arguments = node.child_by_field_name("type_arguments")
        base = type_ref(data, name, depth) if name is not None else TypeRef(())
        return TypeRef(base.chain, _arguments(data, arguments, depth))
    if kind == "array_type":
        element = first_named(node)
        args = (
            () if element is None or depth >= TYPE_DEPTH else (type_ref(data, element, depth + 1),)
        )
        return TypeRef(("Array",), args)
    if kind == "function_type":
        return _function_type(data, node, depth)
    return TypeRef(())


def _function_type(data: bytes, node: Node, depth: int) -> TypeRef:
    """`(a: A, b?: B) => R` as the chain FUNCTION_TYPE with the arguments R, A, B.

    A parameter's type is its one named member (else the empty chain), `this:`
    is no position, and a rest parameter ends the list: it stands for every
    later position. Below TYPE_DEPTH only the chain is kept.
    """
    if depth >= TYPE_DEPTH:
        return TypeRef((FUNCTION_TYPE,))
    returned = node.child_by_field_name("return_type")
    args = [_one_member(data, returned, depth)]
    parameters = node.child_by_field_name("parameters")
    for parameter in () if parameters is None else parameters.named_children:
        if parameter.type not in ("required_parameter", "optional_parameter"):
            continue
        pattern = parameter.child_by_field_name("pattern")
        if pattern is not None and pattern.type == "this":
            continue
        if pattern is not None and pattern.type == "rest_pattern":
            break
        args.append(_one_member(data, parameter.child_by_field_name("type"), depth))
    return TypeRef((FUNCTION_TYPE,), tuple(args))


def _one_member(data: bytes, node: Node | None, depth: int) -> TypeRef:
    if node is None:
        return NO_TYPE
    if node.type == "type_annotation":
        inner = first_named(node)
        if inner is None:
            return NO_TYPE
        node = inner
    members = _union_members(data, node, depth + 1)
    return members[0] if len(members) == 1 else NO_TYPE


@lru_cache(maxsize=4096)
def _named_type(name: bytes) -> TypeRef:
    """One shared TypeRef per plain type name: facts are immutable and names repeat."""
    return TypeRef((name.decode("utf-8", "replace"),))


def _qualified_name(data: bytes, node: Node) -> tuple[str, ...]:
    parts: list[str] = []
    while node.type == "nested_type_identifier":
        name = node.child_by_field_name("name")
        module = node.child_by_field_name("module")
        if name is None or module is None:
            return ()
        parts.append(text(data, name))
        node = module
    # The qualifier is an identifier or a dotted nested_identifier.
    parts.extend(reversed([part.strip() for part in text(data, node).split(".")]))
    return tuple(reversed(parts))


def _arguments(data: bytes, node: Node | None, depth: int) -> tuple[TypeRef, ...]:
    if node is None or depth >= TYPE_DEPTH:
        return ()
    return tuple(
        type_ref(data, child, depth + 1) for child in node.named_children if child.type != "comment"
    )
