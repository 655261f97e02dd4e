"""Declared types that reach a value through the declarations around it, without a checker.

The binder proves a receiver's class from a declared type written on the
name itself (an annotation, a field type, a declared return type). This
module follows the declarations a name's type comes from when it is not
written there:

* the declared type of a chain (`static_type`): a parameter, local or
  variable's annotation, a field's or getter's type read through a proven
  instance, a function's or method's declared return type for a call
  result, and locals initialised from any of these;
* element types: `for (const x of xs)` and the callbacks of the built-in
  containers (`xs.map((x) => …)`, `set.forEach`, `map.forEach`), whose
  parameters TypeScript types from the receiver's type arguments (contextual
  typing of the callback);
* values assigned after the declaration of a `let x;` with no type and no
  initializer, the variable TypeScript types from its assignments.

Each answer is a `Typed` (the file the type is written in, where its names
resolve, and the type); anything else is None and the binder keeps its own
reasons. Unions are never narrowed: a receiver declared as a union stays with
the union rules of the graph builder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import TypeVar

from tsograph.producers.graph.referents import UNTYPED
from tsograph.producers.graph.referents import Declared
from tsograph.producers.graph.referents import External
from tsograph.producers.graph.referents import Instance
from tsograph.producers.graph.referents import Interface
from tsograph.producers.graph.referents import Unknown
from tsograph.producers.graph.referents import Value
from tsograph.producers.lang.facts import FUNCTION_TYPE
from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import TypeRef

if TYPE_CHECKING:
    from tsograph.producers.graph.binding import Binder

_K = TypeVar("_K")
_V = TypeVar("_V")

Typed = tuple[str, TypeRef]

# Types that wrap the value a function eventually produces.
WRAPPERS = frozenset({"Promise", "PromiseLike", "Awaited", "Readonly", "NonNullable"})
# Callback parameters of the built-in containers that receive one of the receiver's type
# arguments: container -> method -> {parameter position: type argument index}. The
# callback is always the method's first argument. Read from typescript@5.9.3
# lib.es5.d.ts (Array, ReadonlyArray: forEach/map/filter/find/findIndex/some/every/
# reduce/reduceRight/sort), lib.es2015.core.d.ts (find,
# findIndex), lib.es2015.collection.d.ts (Map, Set, ReadonlyMap, ReadonlySet forEach),
# lib.es2019.array.d.ts (flatMap) and lib.es2023.array.d.ts (findLast, findLastIndex).
# `reduce`'s first parameter is the accumulator, typed T in one overload only: not kept.
_ELEMENT_CALLBACK = {0: 0}
_ARRAY_CALLBACKS: dict[str, dict[int, int]] = {
    "forEach": _ELEMENT_CALLBACK,
    "map": _ELEMENT_CALLBACK,
    "filter": _ELEMENT_CALLBACK,
    "find": _ELEMENT_CALLBACK,
    "findIndex": _ELEMENT_CALLBACK,
    "findLast": _ELEMENT_CALLBACK,
    "findLastIndex": _ELEMENT_CALLBACK,
    "some": _ELEMENT_CALLBACK,
    "every": _ELEMENT_CALLBACK,
    "flatMap": _ELEMENT_CALLBACK,
    "sort": {0: 0, 1: 0},
    "reduce": {1: 0},
    "reduceRight": {1: 0},
}
CALLBACKS: dict[str, dict[str, dict[int, int]]] = {
    "Array": _ARRAY_CALLBACKS,
    "ReadonlyArray": _ARRAY_CALLBACKS,
    "Set": {"forEach": {0: 0, 1: 0}},
    "ReadonlySet": {"forEach": {0: 0, 1: 0}},
    "Map": {"forEach": {0: 1, 1: 0}},
    "ReadonlyMap": {"forEach": {0: 1, 1: 0}},
}
# What `for…of` gives from each built-in iterable (its first type argument).
ITERABLES = frozenset({"Array", "ReadonlyArray", "Set", "ReadonlySet"})
# Array methods that return the receiver's own array type (lib.es5.d.ts, lib.es2023.array.d.ts):
# an element of their result is an element of the receiver. `filter` only without a type
# predicate (with one it returns the narrowed `S[]`).
_SAME_ARRAY = frozenset({"slice", "reverse", "sort", "concat", "toSorted", "toReversed"})
MAX_HOPS = 32
# Types whose values have no call signatures, beside the project's classes: primitives,
# and lib interfaces without call signatures (typescript@5.9.3 lib.es5.d.ts,
# lib.es2015.collection.d.ts) unless the file binds the name itself.
_PRIMITIVES = frozenset(
    (name,) for name in ("string", "number", "boolean", "bigint", "symbol", "object")
)
_NOT_CALLABLE_LIB = frozenset({"Array", "ReadonlyArray", "Map", "Set", "Date", "RegExp"})


class DeclaredTypes:
    def __init__(self, binder: Binder) -> None:
        self.binder = binder
        # Per file: inline callback id -> (call site index, argument position).
        self._callbacks: dict[str, dict[str, tuple[int, int]]] = {}
        # Per file: the values written to each local binding index / declaration id.
        self._writes: dict[str, dict[tuple[str, object], list[Init]]] = {}
        # Per file: whether each owner's returns are all `return this`.
        self._returns: dict[str, dict[str, bool]] = {}
        # Per file: the values each owner returns.
        self._values: dict[str, dict[str, list[Init]]] = {}
        # Per file: the parameter bindings of each (owner, position).
        self._params: dict[str, dict[tuple[str, int], list[Binding]]] = {}
        self._active: set[object] = set()

    # ---- the declared type of a chain ----------------------------------------------

    def static_type(self, path: str, ref: Ref, hops: int = 0) -> Typed | None:
        """The one declared type of what a chain names, with the file it is written in."""
        key = ("type", path, ref)
        if hops > MAX_HOPS or key in self._active:
            return None
        self._active.add(key)
        try:
            return self._static_type(path, ref, hops)
        finally:
            self._active.discard(key)

    def _static_type(self, path: str, ref: Ref, hops: int) -> Typed | None:
        binder = self.binder
        index = binder.file(path)
        if index is None:
            return None
        if ref.members:
            owner = binder.ref_value(path, _prefix(ref))
            if isinstance(owner, Interface):
                found = binder.interface_member(owner, ref.members[-1])
                if found is None or found[1] != "property":
                    return None
                return _single(found[0], found[2])
            member = binder.member_of(owner, ref.members[-1])
            if member is None or member.kind not in ("field", "accessor"):
                return None
            return _single(binder.file_of[member.id], member.type)
        head = ref.head
        facts = index.facts
        if head in ("param", "local") and 0 <= ref.index < len(facts.bindings):
            binding = facts.bindings[ref.index]
            if binding.type:
                return _single(path, binding.type)
            if binding.init is not None and binding.kind == "local":
                return self._init_type(path, binding.init, hops)
            return None
        if head == "decl":
            declaration = binder.declarations.get(ref.target)
            if declaration is None or declaration.kind not in ("variable", "field"):
                return None
            where = binder.file_of[ref.target]
            if declaration.type:
                return _single(where, declaration.type)
            if declaration.init is not None:
                return self._init_type(where, declaration.init, hops)
            return None
        if head == "result" and 0 <= ref.index < len(facts.calls):
            return self._result_type(path, ref.index, hops)
        return None

    def _init_type(self, path: str, init: Init, hops: int) -> Typed | None:
        if init.kind in ("alias", "call") and init.ref is not None:
            return self.static_type(path, init.ref, hops + 1)
        return None

    def _result_type(self, path: str, site_index: int, hops: int) -> Typed | None:
        binder = self.binder
        index = binder.file(path)
        assert index is not None
        site = index.facts.calls[site_index]
        if site.kind != "call" or site.computed:
            return None
        callee = binder.ref_value(path, site.callee)
        if isinstance(callee, Declared):
            declaration = binder.declarations[callee.id]
            if declaration.kind not in ("function", "method"):
                return None
            if is_this_type(declaration.type):
                return None
            return _single(binder.file_of[callee.id], declaration.type)
        members = site.callee.members
        if isinstance(callee, External) and members and members[-1] in _SAME_ARRAY:
            receiver = self.static_type(path, _prefix(site.callee), hops + 1)
            if receiver is not None:
                where, declared = receiver[0], strip_wrappers(receiver[1])
                if self._builtin(where, declared) in ("Array", "ReadonlyArray"):
                    return where, declared
        return None

    def returns_this(self, declaration: Declaration) -> bool:
        """A method without a declared type whose every `return` is `return this`:
        TypeScript infers the polymorphic `this` type for it."""
        if declaration.kind != "method" or not declaration.has_body or declaration.overloaded:
            return False
        path = self.binder.file_of[declaration.id]
        cached = self._returns.get(path)
        if cached is None:
            cached = self._returns[path] = {}
            index = self.binder.file(path)
            for returned in () if index is None else index.facts.returns:
                value = returned.value
                this = value.kind == "alias" and value.ref is not None and value.ref.head == "this"
                only_this = this and value.ref is not None and not value.ref.members
                cached[returned.owner] = cached.get(returned.owner, True) and only_this
        return cached.get(declaration.id, False)

    def returned_instance(self, declaration: Declaration, depth: int) -> Instance | None:
        """The class a function without a declared return type returns, as TypeScript
        infers it: every `return` that gives a value gives an instance of that one class.

        Returns of `null`/`undefined` are left out (the inferred type is then `C | null`,
        whose members are C's); `return this` is polymorphic (returns_this), and two
        classes make a union, which proves no single class.
        """
        init = declaration.init
        if declaration.kind == "variable":
            callable_ = init is not None and init.kind == "function"
        else:
            callable_ = declaration.kind in ("function", "method") and declaration.has_body
        if declaration.overloaded or not callable_:
            return None
        path = self.binder.file_of[declaration.id]
        found: Instance | None = None
        for returned in self._returned(path).get(declaration.id, ()):
            if returned.kind == "nullish":
                continue
            if returned.kind == "alias" and returned.ref and returned.ref.head == "this":
                return None
            value = self.binder.init_value(path, returned, "", depth + 1)
            if not isinstance(value, Instance) or (found is not None and value != found):
                return None
            found = value
        return found

    def _returned(self, path: str) -> dict[str, list[Init]]:
        cached = self._values.get(path)
        if cached is None:
            cached = self._values[path] = {}
            index = self.binder.file(path)
            for returned in () if index is None else index.facts.returns:
                cached.setdefault(returned.owner, []).append(returned.value)
        return cached

    # ---- element types -------------------------------------------------------------

    def callback_parameter(self, path: str, binding: Binding) -> Value | None:
        """The value of an unannotated callback parameter: typed by the parameter of the
        project function the callback is passed to, or by a built-in container."""
        if binding.kind != "param" or binding.path != () or binding.position < 0:
            return None
        found = self._callback_sites(path).get(binding.owner)
        if found is None:
            return None
        index = self.binder.file(path)
        assert index is not None
        site = index.facts.calls[found[0]]
        if site.computed or site.kind not in ("call", "new"):
            return None
        typed = self._declared_callback(path, site, found[1], binding.position)
        if typed is not None:
            return typed
        callee = site.callee
        if found[1] != 0 or site.kind != "call" or not callee.members:
            return None
        receiver = self.static_type(path, _prefix(callee))
        if receiver is None:
            return None
        where, declared = receiver
        # An initializer's `await` is not in the facts: `const xs = await load()` and
        # `const xs = load()` both read load's `Promise<T[]>`, so the promise is looked through.
        declared = strip_wrappers(declared)
        container = self._builtin(where, declared)
        if container is None:
            return None
        argument = CALLBACKS[container].get(callee.members[-1], {}).get(binding.position)
        if argument is None or argument >= len(declared.args):
            return None
        return self.binder.type_value(where, (declared.args[argument],))

    def _declared_callback(
        self, path: str, site: CallSite, argument: int, position: int
    ) -> Value | None:
        """A callback parameter's class from the function type of the callee's parameter.

        TypeScript types `(m) => …` passed to `run(cb: (m: Manager) => void)`
        from that parameter (contextual typing): `m` is a Manager. The callee is
        a project function, method or constructor; its parameter's declared
        type must hold exactly one function type, and any other union members
        must be values that cannot be called (a primitive, a project class, an
        interface without call signatures), else TypeScript may type the
        callback from another member. An overloaded callee gives no type:
        callers see its overload signatures, whose parameters the facts do not
        keep. `this` in the function type is the receiver's class.
        """
        binder = self.binder
        callee = binder.ref_value(path, site.callee)
        if not isinstance(callee, Declared):
            return None
        target = callee.id
        if site.kind == "new":
            if binder.declarations[target].kind != "class":
                return None
            constructor = binder.constructor_of(target)
            if constructor is None:
                return None
            target = constructor.id
        if binder.declarations[target].overloaded:
            return None
        where = binder.file_of[target]
        function = self._function_parameter(where, target, argument)
        if function is None or position + 1 >= len(function.args):
            return None
        parameter = function.args[position + 1]
        if parameter.chain == ("this",):
            if site.kind != "call" or not site.callee.members:
                return None
            receiver = binder.ref_value(path, _prefix(site.callee))
            return receiver if isinstance(receiver, Instance) else None
        value = binder.type_value(where, (parameter,))
        return value if isinstance(value, (Instance, Interface)) else None

    def _function_parameter(self, path: str, owner: str, position: int) -> TypeRef | None:
        """The one function type a parameter of `owner` declares at a position."""
        declared = {
            binding.type
            for binding in self._parameters(path).get((owner, position), ())
            if binding.path == ()
        }
        if len(declared) != 1:
            return None
        types = declared.pop()
        functions = [each for each in types if each.chain == (FUNCTION_TYPE,)]
        if len(functions) != 1:
            return None
        for other in types:
            if other is not functions[0] and not self._not_callable(path, other):
                return None
        return functions[0]

    def _not_callable(self, path: str, declared: TypeRef) -> bool:
        if declared.chain in _PRIMITIVES:
            return True
        if len(declared.chain) == 1 and declared.chain[0] in _NOT_CALLABLE_LIB:
            return self.binder.name_value(path, declared.chain[0]) == External()
        value = self.binder.type_value(path, (declared,))
        if isinstance(value, Instance):
            return True
        if not isinstance(value, Interface):
            return False
        index = self.binder.file(value.path)
        found = None if index is None else index.type_declarations.get(value.name)
        return (
            found is not None
            and found.kind == "interface"
            and not found.callable
            and not found.extends
        )

    def _parameters(self, path: str) -> dict[tuple[str, int], list[Binding]]:
        return self._file_index(self._params, path, _parameters)

    def _file_index(
        self, memo: dict[str, dict[_K, _V]], path: str, build: Callable[[FileFacts], dict[_K, _V]]
    ) -> dict[_K, _V]:
        """An index of one file's facts, built on first use."""
        found = memo.get(path)
        if found is None:
            index = self.binder.file(path)
            found = memo[path] = {} if index is None else build(index.facts)
        return found

    def element_value(self, path: str, iterable: Ref) -> Value:
        """What `for (const x of iterable)` binds x to, when the iterable's type says."""
        found = self.static_type(path, iterable)
        if found is None:
            return Unknown(UNTYPED)
        where, declared = found
        declared = strip_wrappers(declared)
        container = self._builtin(where, declared)
        if container not in ITERABLES or not declared.args:
            return Unknown(UNTYPED)
        return self.binder.type_value(where, (declared.args[0],))

    def _builtin(self, path: str, declared: TypeRef) -> str | None:
        """The built-in container a type names, unless the file binds that name itself."""
        if len(declared.chain) != 1 or declared.chain[0] not in CALLBACKS:
            return None
        name = declared.chain[0]
        return name if self.binder.name_value(path, name) == External() else None

    def _callback_sites(self, path: str) -> dict[str, tuple[int, int]]:
        return self._file_index(self._callbacks, path, _callback_sites)

    # ---- assignments after the declaration ----------------------------------------

    def assigned_value(self, path: str, key: tuple[str, object], depth: int) -> Value:
        """The value of a `let x;` from its assignments: one proven value, else unknown.

        TypeScript types such a variable from the assignments that reach each
        use; when every assignment in the file gives the same project value,
        that is the value at every use (before the first one it is undefined,
        and a call on it throws).
        """
        values: list[Value] = []
        for init in self._assignments(path).get(key, ()):
            if init.kind == "nullish":
                continue
            value = self.binder.init_value(path, init, "", depth + 1)
            if value not in values:
                values.append(value)
        if len(values) == 1 and not isinstance(values[0], (External, Unknown)):
            return values[0]
        return Unknown(UNTYPED)

    def _assignments(self, path: str) -> dict[tuple[str, object], list[Init]]:
        return self._file_index(self._writes, path, _assignments)


def _parameters(facts: FileFacts) -> dict[tuple[str, int], list[Binding]]:
    """The parameters of the file by (owner, position)."""
    found: dict[tuple[str, int], list[Binding]] = {}
    for binding in facts.bindings:
        if binding.kind == "param" and binding.position >= 0:
            found.setdefault((binding.owner, binding.position), []).append(binding)
    return found


def _callback_sites(facts: FileFacts) -> dict[str, tuple[int, int]]:
    """Each inline callback declared in the file: the site and position it is passed at first."""
    found: dict[str, tuple[int, int]] = {}
    for site_index, site in enumerate(facts.calls):
        for position, argument in enumerate(site.args):
            ref = argument.ref
            if argument.kind == "function" and ref is not None and ref.head == "decl":
                found.setdefault(ref.target, (site_index, position))
    return found


def _assignments(facts: FileFacts) -> dict[tuple[str, object], list[Init]]:
    """The values assigned to each plain local or declaration of the file."""
    found: dict[tuple[str, object], list[Init]] = {}
    for write in facts.writes:
        target = write.target
        if target.members or write.computed:
            continue
        if target.head == "local":
            found.setdefault(("local", target.index), []).append(write.value)
        elif target.head == "decl":
            found.setdefault(("decl", target.target), []).append(write.value)
    return found


def strip_wrappers(declared: TypeRef) -> TypeRef:
    while declared.chain and declared.chain[-1] in WRAPPERS and len(declared.args) == 1:
        declared = declared.args[0]
    return declared


def is_this_type(types: tuple[TypeRef, ...]) -> bool:
    """A declared return type of `this` (polymorphic this), possibly in a Promise."""
    return len(types) == 1 and strip_wrappers(types[0]).chain == ("this",)


def _single(path: str, types: tuple[TypeRef, ...]) -> Typed | None:
    if len(types) != 1 or not types[0].chain:
        return None
    return path, types[0]


def _prefix(ref: Ref) -> Ref:
    return Ref(ref.head, ref.name, ref.target, ref.index, ref.members[:-1])
