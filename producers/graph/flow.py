"""Bound value flow: every value that can reach a receiver or a callable, or unknown.

The analysis is whole-program and context- and path-insensitive. A flow is a
set of abstract values — an instance of a project class, a project
declaration (a function, a class, an object literal held by a variable or
field), or an object literal written in place — or `None` when some value
that can reach the slot is not known. Unknown wins every union, so a bound
edge is only ever drawn when *every* observed value is a project
implementation.

Values are followed through: `new C()`, object literals, `this` (the class and
its project subclasses), variable initializers plus every assignment,
parameters (the default plus the same-position argument at every call site
of a closed function or constructor, `super(...)` and the implicit super of
subclasses without a constructor included), destructuring, properties
(initializer, parameter property, getter return, plus every same-named write
whose receiver may hold the value), returned values of called project
functions, `await`, `?:`, `??`, `||`, `&&` and `,`. `null` and `undefined`
add no value: a call on them throws, so they never hold a target.

Where code outside the scan could inject a value, the flow is unknown:
parameters of methods, inline callbacks and members of an object literal
that escapes (their callers cannot be enumerated), functions and classes
used as values, constructors of a base class one of whose forwarding
subclasses (no constructor of its own) is used as a value, classes with
decorators, functions without any call site, exports when the package
is a library or the scan is incomplete, computed and reflective writes
(`obj[key] = v`, `Object.assign`, `Reflect.set`, …) on the values they may
reach. Not modeled, and documented as gaps: `eval`, prototype APIs, values
that leave through library code and come back, `delete`.

Cycles (`this.store = this.store.withCache()`) are iterated to their least
fixpoint. Each query has a budget of steps and nesting; a query over budget is
unknown and counted.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field

from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.binding import holds_object
from tsograph.producers.graph.referents import Declared
from tsograph.producers.graph.referents import External
from tsograph.producers.graph.referents import Instance
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import Write

MAX_STEPS = 20_000
MAX_NESTING = 256
MAX_FIXPOINT_ROUNDS = 16
# Groupings that may be under way at once (each one nests the queries it runs).
MAX_NESTED_GROUPINGS = 8

# Abstract values: ("inst", class id), ("decl", declaration id) or
# ("lit", file path, object Init) for a literal with no declaration of its own.
Abstract = tuple[str, str] | tuple[str, str, Init]
Flow = frozenset[Abstract] | None

_EMPTY: frozenset[Abstract] = frozenset()
# Functions that write properties of their first argument (reflective writes).
_REFLECTIVE = frozenset(
    {
        ("Object", "assign"),
        ("Object", "defineProperty"),
        ("Object", "defineProperties"),
        ("Object", "setPrototypeOf"),
        ("Reflect", "set"),
        ("Reflect", "defineProperty"),
        ("Reflect", "deleteProperty"),
        ("Reflect", "setPrototypeOf"),
    }
)


@dataclass
class _Grouped:
    """Writes (or reflective targets) by the values their receivers may hold.

    `items` are (file, receiver, write); `by_value` and `unknown` index into
    them, `unknown` holding the items whose receiver flow is not known.
    """

    items: list[tuple[str, Ref, Write | None]] = field(default_factory=list)
    by_value: dict[Abstract, list[int]] = field(default_factory=dict)
    unknown: list[int] = field(default_factory=list)

    def add(self, path: str, receiver: Ref, write: Write | None, receivers: Flow) -> None:
        position = len(self.items)
        self.items.append((path, receiver, write))
        if receivers is None:
            self.unknown.append(position)
            return
        for value in receivers:
            self.by_value.setdefault(value, []).append(position)

    def holding(self, value: Abstract, descendants: Callable[[str], Iterable[str]]) -> list[int]:
        """Items whose known receivers may hold the value (or, for a class, a subclass)."""
        held = [value]
        if value[0] == "inst":
            held.extend(("inst", each) for each in descendants(value[1]))
        found: set[int] = set()
        for each in held:
            found.update(self.by_value.get(each, ()))
        return sorted(found)


class BudgetExceeded(Exception):
    """A query went over its step or nesting budget."""


class FlowMiss(Exception):
    """A frozen flow (the previous build's answers) was asked a query it does not hold."""


@dataclass
class FlowIndex:
    """Who calls, writes and returns what, over one program (whole, or without tests)."""

    sites_by_target: dict[str, list[tuple[str, CallSite]]] = field(default_factory=dict)
    value_uses: set[str] = field(default_factory=set)
    writes_by_name: dict[str, list[tuple[str, Write]]] = field(default_factory=dict)
    writes_by_decl: dict[str, list[tuple[str, Write]]] = field(default_factory=dict)
    writes_by_binding: dict[tuple[str, int], list[tuple[str, Write]]] = field(default_factory=dict)
    computed_writes: list[tuple[str, Ref]] = field(default_factory=list)
    returns_by_owner: dict[str, list[tuple[str, Init]]] = field(default_factory=dict)
    open_declarations: set[str] = field(default_factory=set)


@dataclass
class _Query:
    steps: int = 0
    depth: int = 0
    cyclic: bool = False


class ValueFlow:
    """Flows of one program over the binder's facts; queries are memoized."""

    def __init__(
        self,
        binder: Binder,
        index: FlowIndex,
        descendants: Callable[[str], Iterable[str]],
    ) -> None:
        self.binder = binder
        self.index = index
        self.descendants = descendants
        self.exhausted = 0
        self._memo: dict[object, Flow] = {}
        self._active: set[object] = set()
        self._seeds: dict[object, Flow] = {}
        self._round: dict[object, Flow] = {}
        self._query = _Query()
        self._reflected_memo: dict[Abstract, bool] = {}
        self._open_classes: frozenset[str] | None = None
        self._grouped: dict[tuple[str, str], _Grouped] = {}
        self._grouping: set[tuple[str, str]] = set()
        self._frozen = False

    @classmethod
    def frozen(cls, binder: Binder, memo: dict[object, Flow], exhausted: int) -> ValueFlow:
        """A flow answering only from a previous build's memo (never computing: a query
        it does not hold raises FlowMiss, so it reads no index), and never adding to the
        memo, which stays shared with the build that made it."""
        flow = cls(binder, FlowIndex(), lambda _: ())
        flow._memo = memo
        flow.exhausted = exhausted
        flow._frozen = True
        return flow

    @property
    def memo(self) -> dict[object, Flow]:
        """Every answer so far, by query (top-level and nested)."""
        return self._memo

    # ---- queries ---------------------------------------------------------------------

    def of_ref(self, path: str, ref: Ref) -> Flow:
        """The flow of a chain as written in `path`, or None when not every value is known."""
        return self._top(("ref", path, ref), lambda: self._ref(path, ref))

    def replaced(self, value: Abstract, name: str) -> bool:
        """True when a write may replace the member (monkey patching) or reflection may reach it."""
        key = ("replaced", value, name)
        flow = self._top(
            key, lambda: None if self._reflected(value) else self._writes_to(value, name)
        )
        return flow is None or bool(flow)

    def _top(self, key: object, compute: Callable[[], Flow]) -> Flow:
        memo = self._memo
        if key in memo:
            return memo[key]
        if self._frozen:
            raise FlowMiss(key)
        self._query = _Query()
        self._seeds = {}
        try:
            for _ in range(MAX_FIXPOINT_ROUNDS):
                self._round = {}
                self._query.cyclic = False
                result = compute()
                if not self._query.cyclic:
                    memo.update(self._round)
                    memo[key] = result
                    return result
                seeds = {k: self._round.get(k, _EMPTY) for k in self._seeds}
                if seeds == self._seeds:
                    memo.update(self._round)
                    memo[key] = result
                    return result
                self._seeds = seeds
            result = None
        except BudgetExceeded:
            self.exhausted += 1
            result = None
        self._active.clear()
        memo[key] = result
        return result

    def _cached(self, key: object, compute: Callable[[], Flow]) -> Flow:
        memo = self._memo
        if key in memo:
            return memo[key]
        if key in self._round:
            return self._round[key]
        if key in self._active:
            # A slot that feeds itself: use this round's seed and iterate to the fixpoint.
            self._query.cyclic = True
            return self._seeds.setdefault(key, _EMPTY)
        query = self._query
        query.steps += 1
        if query.steps > MAX_STEPS or query.depth >= MAX_NESTING:
            raise BudgetExceeded
        query.depth += 1
        self._active.add(key)
        try:
            result = compute()
        finally:
            self._active.discard(key)
            query.depth -= 1
        self._round[key] = result
        return result

    # ---- expressions -----------------------------------------------------------------

    def _init(self, path: str, init: Init, holder: str = "") -> Flow:
        kind = init.kind
        if kind in ("alias", "new", "call"):
            return None if init.ref is None else self._ref(path, init.ref)
        if kind in ("function", "class"):
            ref = init.ref
            if ref is not None and ref.head == "decl" and ref.target and not ref.members:
                return frozenset({("decl", ref.target)})
            return frozenset({("decl", holder)}) if holder else None
        if kind == "object":
            if holder:
                return frozenset({("decl", holder)})
            return frozenset({("lit", path, init)})
        if kind == "union":
            return _union(self._init(path, part) for _, part in init.members)
        if kind == "nullish":
            # Holds no implementation: a call on it throws, so no other target runs.
            return _EMPTY
        return None

    def _ref(self, path: str, ref: Ref) -> Flow:
        return self._cached(("ref", path, ref), lambda: self._compute_ref(path, ref))

    def _compute_ref(self, path: str, ref: Ref) -> Flow:
        if ref.members:
            receiver = self._ref(
                path, Ref(ref.head, ref.name, ref.target, ref.index, ref.members[:-1])
            )
            if receiver is None:
                return None
            return _union(self._member(value, ref.members[-1]) for value in receiver)
        index = self.binder.file(path)
        if index is None:
            return None
        facts = index.facts
        head = ref.head
        if head == "decl":
            return self._declaration(ref.target)
        if head == "import":
            if not 0 <= ref.index < len(facts.imports):
                return None
            value = self.binder.import_value(path, facts.imports[ref.index])
            if isinstance(value, Declared):
                return self._declaration(value.id)
            return None
        if head in ("param", "local"):
            if not 0 <= ref.index < len(facts.bindings):
                return None
            return self._binding(path, ref.index)
        if head == "this":
            if not ref.target or ref.target in self._this_open():
                return None
            classes = {ref.target, *self.descendants(ref.target)}
            return frozenset(("inst", each) for each in classes)
        if head == "static-this":
            return frozenset({("decl", ref.target)}) if ref.target else None
        if head == "result":
            if not 0 <= ref.index < len(facts.calls):
                return None
            return self._result(path, facts.calls[ref.index])
        return None

    def _this_open(self) -> frozenset[str]:
        """Classes whose `this` may be any value: a method of theirs is used detached.

        `h.run.bind(x)`, `const { run } = h` or `[h.run]` let a caller choose
        `this`; the whole class family (bases and subclasses, which share the
        method) is then open.
        """
        if self._open_classes is None:
            binder = self.binder
            found: set[str] = set()
            for used in self.index.value_uses:
                member = binder.declarations.get(used)
                if member is None or member.kind not in ("method", "accessor"):
                    continue
                owner = member.parent
                if binder.declarations.get(owner) is None:
                    continue
                found.update(binder.class_chain(owner))
                found.update(self.descendants(owner))
            self._open_classes = frozenset(found)
        return self._open_classes

    def _declaration(self, declaration_id: str) -> Flow:
        return self._cached(("decl", declaration_id), lambda: self._compute_decl(declaration_id))

    def _compute_decl(self, declaration_id: str) -> Flow:
        declaration = self.binder.declarations.get(declaration_id)
        if declaration is None:
            return None
        if declaration.kind not in ("variable", "field", "export"):
            return frozenset({("decl", declaration_id)})
        if declaration.kind == "export":
            value = self.binder.export_declaration(
                self.binder.file_of[declaration_id], declaration.name
            )
            if isinstance(value, Declared) and value.id != declaration_id:
                return self._declaration(value.id)
            return None
        if declaration_id in self.index.open_declarations:
            return None
        path = self.binder.file_of[declaration_id]
        parts: list[Flow] = []
        init = declaration.init
        if init is not None:
            parts.append(self._init(path, init, declaration_id))
        elif declaration.kind == "field" and not declaration.has_body:
            parts.append(_EMPTY)  # `store: Store` without an initializer: writes decide
        writes = self.index.writes_by_decl.get(declaration_id, ())
        parts.extend(self._init(write_path, write.value) for write_path, write in writes)
        if not parts:
            return None
        return _union(parts)

    def _binding(self, path: str, binding_index: int) -> Flow:
        key = ("binding", path, binding_index)
        return self._cached(key, lambda: self._compute_binding(path, binding_index))

    def _compute_binding(self, path: str, binding_index: int) -> Flow:
        index = self.binder.file(path)
        assert index is not None
        binding = index.facts.bindings[binding_index]
        writes = self.index.writes_by_binding.get((path, binding_index), ())
        parts: list[Flow] = [self._init(write_path, w.value) for write_path, w in writes]
        if binding.kind == "local":
            parts.append(None if binding.init is None else self._init(path, binding.init))
            return _union(parts)
        if binding.path is None or binding.position < 0:
            return None
        arguments = self._arguments(binding.owner, binding.position)
        if arguments is None:
            return None
        for site_path, argument in arguments:
            if argument is None:
                parts.append(None if binding.init is None else self._init(path, binding.init))
                continue
            value = self._init(site_path, argument)
            for key in binding.path:
                if value is None:
                    break
                value = _union(self._member(each, key) for each in value)
            parts.append(value)
        return _union(parts)

    def _arguments(self, function_id: str, position: int) -> list[tuple[str, Init | None]] | None:
        """The argument at `position` of every call of a closed function, None if open.

        A missing argument is None in the list (the default value applies).
        """
        function = self.binder.declarations.get(function_id)
        if function is None or not self._closed(function):
            return None
        sites = list(self.index.sites_by_target.get(function_id, ()))
        if function.kind == "constructor":
            sites.extend(self.index.sites_by_target.get(function.parent, ()))
            forwarded = self._implicit_super_sites(function.parent)
            if forwarded is None:
                return None
            sites.extend(forwarded)
        if not sites:
            return None  # no observed call: the value comes from outside, or from nowhere
        found: list[tuple[str, Init | None]] = []
        for site_path, site in sites:
            if position < len(site.args):
                found.append((site_path, site.args[position]))
            elif site.spread:
                return None
            else:
                found.append((site_path, None))
        return found

    def _implicit_super_sites(self, class_id: str) -> list[tuple[str, CallSite]] | None:
        """`new Sub(...)` for project subclasses that construct through this class.

        None when such a subclass escapes (used as a value, or open to code
        outside the scan): whoever receives it can construct it, and so this
        class, with arguments no call site shows.
        """
        found: list[tuple[str, CallSite]] = []
        index = self.index
        for descendant in self.descendants(class_id):
            chain = self.binder.class_chain(descendant)
            if class_id not in chain:
                continue
            between = chain[: chain.index(class_id)]
            if any(self.binder.constructor_of(each) is not None for each in between):
                continue
            if descendant in index.open_declarations or descendant in index.value_uses:
                return None
            found.extend(index.sites_by_target.get(descendant, ()))
        return found

    def _closed(self, function: Declaration) -> bool:
        """A function whose every caller is indexed: no value use, no outside caller."""
        if function.id in self.index.open_declarations or function.id in self.index.value_uses:
            return False
        if function.kind == "constructor":
            class_id = function.parent
            return (
                class_id not in self.index.open_declarations
                and class_id not in self.index.value_uses
            )
        if function.kind == "function":
            if function.callback:
                return False
            holder = self.binder.declarations.get(function.parent)
            return holder is None or not holds_object(holder) or self._object_closed(holder)
        if function.kind in ("variable", "field"):
            init = function.init
            return function.kind == "variable" and init is not None and init.kind == "function"
        return False  # methods, accessors: callers through receivers cannot be enumerated

    def _object_closed(self, holder: Declaration) -> bool:
        """True when only the calls the project shows can reach an object literal's methods.

        The literal must be held by a variable that is neither open (exported
        from a library, an entry file or a loaded module) nor used as a value:
        passed to any call, returned, stored, aliased or nested elsewhere, the
        object reaches code that may call its methods with arguments nobody
        can list. A literal held by a field travels with its class or
        instances, whose uses are not tracked one by one, so it is open.
        """
        return (
            holder.kind == "variable"
            and holder.id not in self.index.open_declarations
            and holder.id not in self.index.value_uses
        )

    def _result(self, path: str, site: CallSite) -> Flow:
        if site.kind == "new":
            value = self.binder.ref_value(path, site.callee)
            if isinstance(value, Declared):
                declaration = self.binder.declarations.get(value.id)
                if declaration is not None and declaration.kind == "class":
                    return frozenset({("inst", value.id)})
            return None
        if site.kind != "call" or site.computed:
            return None
        callees = self._ref(path, site.callee)
        if callees is None:
            return None
        return _union(self._returns(value) for value in callees)

    def _returns(self, value: Abstract) -> Flow:
        if value[0] != "decl":
            return None
        function_id = value[1]
        returns = self.index.returns_by_owner.get(function_id)
        if not returns:
            return None
        return _union(self._init(return_path, init) for return_path, init in returns)

    # ---- properties ------------------------------------------------------------------

    def _member(self, value: Abstract, name: str) -> Flow:
        return self._cached(("member", value, name), lambda: self._compute_member(value, name))

    def _compute_member(self, value: Abstract, name: str) -> Flow:
        if self._reflected(value):
            return None
        binder = self.binder
        parts: list[Flow] = []
        if value[0] in ("inst", "decl"):
            declaration = binder.declarations.get(value[1]) if value[0] == "decl" else None
            if value[0] == "decl" and (declaration is None or not _has_members(declaration)):
                return None
            member = declared_member(binder, value, name)
            if member is not None:
                parts.append(self._member_declaration(member))
            elif declaration is not None and declaration.kind != "class":
                # An object literal's holder without a child of that name: the literal's key.
                parts.append(self._literal_member(binder.file_of[value[1]], declaration.init, name))
            else:
                return None
        else:
            assert len(value) == 3
            parts.append(self._literal_member(value[1], value[2], name))
        parts.append(self._writes_to(value, name))
        return _union(parts)

    def _literal_member(self, path: str, init: Init | None, name: str) -> Flow:
        if init is None:
            return None
        found: Init | None = None
        for key, member in init.members:
            if key == "...":
                return None  # a spread may bring any key
            if key == name:
                found = member
        if found is None:
            return _EMPTY  # absent here: only writes can add it
        return self._init(path, found)

    def _member_declaration(self, member: Declaration) -> Flow:
        if member.kind in ("method", "function", "constructor"):
            return frozenset({("decl", member.id)})
        if member.kind == "accessor":
            returns = self.index.returns_by_owner.get(member.id)
            if not returns:
                return None
            return _union(self._init(path, init) for path, init in returns)
        return self._declaration(member.id)

    def _writes_to(self, value: Abstract, name: str) -> Flow:
        """Values of every same-named write whose receiver may hold `value`."""
        grouped = self._writes_by_receiver(("name", name))
        if grouped is None:
            # Indexing this name is already under way further up: decide write by write.
            writes = [
                (write_path, write)
                for write_path, write in self.index.writes_by_name.get(name, ())
                if self._may_reach(write_path, _receiver(write.target), value)
            ]
        else:
            positions = [*grouped.holding(value, self.descendants), *grouped.unknown]
            writes = []
            for position in positions:
                path, _, write = grouped.items[position]
                if write is not None:
                    writes.append((path, write))
        if not writes:
            return _EMPTY
        return _union(self._init(write_path, write.value) for write_path, write in writes)

    def _may_reach(self, path: str, receiver: Ref, value: Abstract) -> bool:
        receivers = self._ref(path, receiver)
        return receivers is None or self._may_hold(receivers, value)

    def _writes_by_receiver(self, key: tuple[str, str]) -> _Grouped | None:
        """Writes grouped by the values their receivers may hold, computed once per key.

        ("name", n) groups the writes of property n, ("computed", "") the
        computed and reflective writes. Each receiver flow is its own query
        with its own budget, memoized like any other, so a common member name
        costs one pass over its writes instead of one per value asked about.
        None while the same key is being grouped (a cycle): callers then
        decide write by write inside their own query.
        """
        grouped = self._grouped.get(key)
        if grouped is not None:
            return grouped
        if key in self._grouping or len(self._grouping) >= MAX_NESTED_GROUPINGS:
            return None
        self._grouping.add(key)
        saved = (self._query, self._seeds, self._round, self._active)
        self._active = set()
        try:
            grouped = _Grouped()
            entries: list[tuple[str, Ref, Write | None]]
            if key[0] == "name":
                entries = [
                    (write_path, _receiver(write.target), write)
                    for write_path, write in self.index.writes_by_name.get(key[1], ())
                ]
            else:
                entries = [(path, ref, None) for path, ref in self.index.computed_writes]
            for path, receiver, write in entries:
                grouped.add(path, receiver, write, self.of_ref(path, receiver))
        finally:
            self._query, self._seeds, self._round, self._active = saved
            self._grouping.discard(key)
        self._grouped[key] = grouped
        return grouped

    def _may_hold(self, receivers: frozenset[Abstract], value: Abstract) -> bool:
        if value in receivers:
            return True
        if value[0] == "inst":
            family = set(self.descendants(value[1]))
            return any(each[0] == "inst" and each[1] in family for each in receivers)
        return False

    def _reflected(self, value: Abstract) -> bool:
        """True when a computed or reflective write may reach the value's properties.

        A target whose flow is known blocks the values it holds. A target whose
        flow is unknown blocks every value unless its declared type rules the
        value out: a package type, or a project class outside the value's
        class family (the spec's static-type exclusion, read from declared
        types instead of a checker; untyped and interface-typed targets
        exclude nothing).
        """
        cached = self._reflected_memo.get(value)
        if cached is not None:
            return cached
        grouped = self._writes_by_receiver(("computed", ""))
        if grouped is None:
            blocked = False
            for path, receiver in self.index.computed_writes:
                receivers = self._ref(path, receiver)
                if receivers is None:
                    blocked = not self._type_excludes(path, receiver, value)
                else:
                    blocked = self._may_hold(receivers, value)
                if blocked:
                    break
        else:
            blocked = bool(grouped.holding(value, self.descendants)) or any(
                not self._type_excludes(
                    grouped.items[position][0], grouped.items[position][1], value
                )
                for position in grouped.unknown
            )
        if not self._query.cyclic:
            # A verdict reached from this round's fixpoint seeds may still grow.
            self._reflected_memo[value] = blocked
        return blocked

    def _type_excludes(self, path: str, receiver: Ref, value: Abstract) -> bool:
        static = self.binder.ref_value(path, receiver)
        if isinstance(static, External):
            return True
        if isinstance(static, Instance):
            if value[0] != "inst":
                return True
            return static.class_id not in self.binder.class_chain(value[1])
        return False  # an interface, an untyped or any other value may hold anything


def _union(parts: Iterable[Flow]) -> Flow:
    found: set[Abstract] = set()
    for part in parts:
        if part is None:
            return None
        found.update(part)
    return frozenset(found)


def _receiver(target: Ref) -> Ref:
    """The receiver of a property write: the written chain without its last name."""
    return Ref(target.head, target.name, target.target, target.index, target.members[:-1])


def is_reflective(site: CallSite) -> bool:
    """`Object.assign(target, …)` and the other calls that write a target's properties."""
    callee = site.callee
    return (
        site.kind == "call"
        and callee.head == "global"
        and len(callee.members) == 1
        and (callee.name, callee.members[0]) in _REFLECTIVE
    )


def _has_members(declaration: Declaration) -> bool:
    """A class, or a declaration holding an object literal: what a member is read from."""
    return declaration.kind == "class" or holds_object(declaration)


def declared_member(binder: Binder, value: Abstract, name: str) -> Declaration | None:
    """The member an abstract instance or declaration has under `name`: found along the
    class chain for an instance (instance members) or a class (static members), else the
    declaration's first child of that name (an object literal's holder)."""
    if value[0] == "inst":
        return binder.find_member(value[1], name, static=False)
    declaration = binder.declarations.get(value[1])
    if declaration is None:
        return None
    if declaration.kind == "class":
        return binder.find_member(declaration.id, name, static=True)
    children = binder.children.get(declaration.id, {}).get(name)
    return children[0] if children else None
