"""Bound dispatch: link a call whose target the direct rules cannot prove to every
implementation its receiver or callee can hold — when all of them are known.

The value flow (flow.py) answers "which values reach this receiver"; this
module indexes the program for it (call sites by target, writes, returns,
value uses, open declarations), keeps test sources a separate program, and
turns a complete flow into targets. A flow with any unknown value, or with no
value at all, gives no bound edge: the call stays unresolved in bound mode
and falls through to candidates.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass

from tsograph.producers.graph.binding import Binder
from tsograph.producers.graph.binding import holds_object
from tsograph.producers.graph.binding import runs
from tsograph.producers.graph.flow import Abstract
from tsograph.producers.graph.flow import Flow
from tsograph.producers.graph.flow import FlowIndex
from tsograph.producers.graph.flow import FlowMiss
from tsograph.producers.graph.flow import ValueFlow
from tsograph.producers.graph.flow import declared_member
from tsograph.producers.graph.flow import is_reflective
from tsograph.producers.graph.referents import Declared
from tsograph.producers.graph.referents import Module
from tsograph.producers.graph.test_side import TestSide
from tsograph.producers.graph.test_side import test_side
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.project.paths import ancestors
from tsograph.producers.project.paths import parent

# Site kinds whose argument lists reach the target's parameters.
_ARGUMENT_KINDS = frozenset({"call", "new", "super"})
# Site kinds that use a declaration as a value: its callers can no longer be enumerated.
_VALUE_USE_KINDS = frozenset({"callback", "reference", "jsx", "tagged", "decorator"})
_OTHER = Ref("other")


@dataclass(frozen=True, slots=True)
class Program:
    """How open the scanned program is to code outside it.

    `incomplete`: the scan skipped or could not parse some sources, so every
    exported function and class may be called from code nobody read.
    `library_folders`: folders of packages whose package.json declares an
    entry (main, module, exports, bin, types, typings, browser) and is not
    private, or cannot be read: their exports are open to the package's users. `entries`: graph
    ids of entry points, whose parameters the framework fills.
    """

    incomplete: bool = False
    library_folders: frozenset[str] = frozenset()
    # Entry points (route handlers, pages, middleware, …): the framework calls them.
    entries: frozenset[str] = frozenset()

    def opens(self, path: str) -> bool:
        """True when the exports of a project file may be called from outside."""
        if self.incomplete:
            return True
        return any(folder in self.library_folders for folder in ancestors(parent(path)))


@dataclass(frozen=True)
class FlowState:
    """A build's value-flow answers, for the next incremental build (BoundDispatch.resume):
    the program and test side they were made for, each view's memo and exhausted count
    (by production view), and whether loaded modules were opened. `missing_packages`:
    what resolving every file's specifiers found not installed (the test side resolves
    them all), kept with the side."""

    program: Program
    side: TestSide
    memos: dict[bool, tuple[dict[object, Flow], int]]
    opened: bool
    missing_packages: frozenset[str]
    # Names these answers: results kept per file are valid while it is the same.
    token: object


# One thing a file adds to the flow indexes: (slot, key, item); `contribution` makes them.
Entry = tuple[str, object, object]


def contribution(
    path: str,
    facts: FileFacts,
    indexed: Iterable[tuple[CallSite, str | None]],
    written: frozenset[str],
    exported: frozenset[str],
    holder: Callable[[Ref], str | None],
) -> list[Entry]:
    """What one file adds to the flow indexes, in order.

    `written`: the object-literal holders its written values hand on;
    `exported`: the declarations its exports name, when its exports are open to
    outside callers; `holder`: the object-literal holder a chain names
    (`_object_named`). A value use that links no function (`register(opts)`,
    `fw.use(hooks)`, `return hooks`, `const alias = hooks`) hands the object it
    names (or an object literal nested in it) to code that may call its
    methods with any arguments, so their parameters are no longer closed; a
    read of a member that is not itself an object literal (`hooks.count`) does
    not hand the object on.
    """
    entries: list[Entry] = []
    add = entries.append
    for write in facts.writes:
        target = write.target
        if write.computed:
            add(("computed", None, (path, target)))
        elif target.members:
            add(("name", target.members[-1], (path, write)))
        elif target.head == "decl":
            add(("decl", target.target, (path, write)))
        elif target.head in ("param", "local"):
            add(("binding", (path, target.index), (path, write)))
    for returned in facts.returns:
        add(("return", returned.owner, (path, returned.value)))
    for site in facts.calls:
        if site.kind == "decorator":
            add(("open", site.owner, None))
        if is_reflective(site):
            add(("computed", None, (path, _first_argument(site))))
    for declaration in sorted(exported):
        add(("open", declaration, None))
    # Modules whose exports code can reach without naming them: loaded at run
    # time, or whose namespace object is passed around as a value.
    for item in facts.imports:
        if item.kind in ("dynamic", "require"):
            add(("loaded", None, (path, item.specifier)))
    for site in facts.calls:
        callee = site.callee
        if (
            site.kind in ("reference", "callback")
            and callee.head == "import"
            and not callee.members
            and 0 <= callee.index < len(facts.imports)
            and facts.imports[callee.index].kind == "namespace"
        ):
            add(("loaded", None, (path, facts.imports[callee.index].specifier)))
    for used in sorted(written):
        add(("use", used, None))
    for indexed_site, linked in indexed:
        if linked is None:
            if indexed_site.kind in _VALUE_USE_KINDS:
                held = holder(indexed_site.callee)
                if held is not None:
                    add(("use", held, None))
        elif indexed_site.kind in _ARGUMENT_KINDS:
            add(("site", linked, (path, indexed_site)))
        elif indexed_site.kind in _VALUE_USE_KINDS:
            add(("use", linked, None))
    return entries


# The FlowIndex collection each slot of `contribution` fills: a dict keeps the items by
# key, a set the keys, a list the items.
_SLOTS: dict[str, str] = {
    "site": "sites_by_target",
    "use": "value_uses",
    "name": "writes_by_name",
    "decl": "writes_by_decl",
    "binding": "writes_by_binding",
    "computed": "computed_writes",
    "return": "returns_by_owner",
    "open": "open_declarations",
}


def _add(index: FlowIndex, slot: str, key: object, item: object) -> None:
    into = getattr(index, _SLOTS[slot])
    if isinstance(into, dict):
        into.setdefault(key, []).append(item)
    elif isinstance(into, set):
        into.add(key)
    else:
        into.append(item)


class BoundDispatch:
    def __init__(
        self,
        binder: Binder,
        program: Program,
        descendants: Callable[[], dict[str, set[str]]],
    ) -> None:
        self.binder = binder
        self.program = program
        self._descendants = descendants
        self._whole = FlowIndex()
        self._production = FlowIndex()
        self._flows: dict[bool, ValueFlow] = {}
        self._side: TestSide | None = None
        self._loaded: list[tuple[str, str]] = []
        self._opaque_loads = False
        self._opened = False
        self._resumed = False
        self._named: dict[tuple[str, Ref], str | None] = {}
        # Names this dispatch's flow answers (FlowState.token).
        self.token = object()

    # ---- indexing (one call per file and site, before any query) ---------------------

    def separate(self, paths: Iterable[str], kept: FlowState | None = None) -> None:
        """Decide which files form the test program; call once, before index_file. `kept`:
        the previous build's, when no file's imports resolve differently since (its side,
        and the packages its resolution of every specifier found missing)."""
        if kept is None:
            self._side = test_side(self.binder, paths)
        else:
            self._side = kept.side
            self.binder.missing_packages.update(kept.missing_packages)

    @property
    def side(self) -> TestSide:
        assert self._side is not None, "separate() decides the test program first"
        return self._side

    def _test(self, path: str) -> bool:
        return path in self.side.tests

    def index_file(
        self, path: str, facts: FileFacts, indexed: Iterable[tuple[CallSite, str | None]]
    ) -> None:
        """Index one file for the value flow: its facts, and its call sites as the direct
        rules bound them (`indexed`: a site and its target, None for a value use that
        links nothing)."""
        indexes = self._indexes(self._test(path))
        for slot, key, item in self.contribution(path, facts, indexed):
            if slot == "loaded":
                self._loaded.append(item)  # type: ignore[arg-type]
                continue
            for index in indexes:
                _add(index, slot, key, item)
        if facts.dynamic_loads:
            self._opaque_loads = True

    def contribution(
        self, path: str, facts: FileFacts, indexed: Iterable[tuple[CallSite, str | None]]
    ) -> list[Entry]:
        """What one file adds to the flow indexes (see `contribution`)."""
        return contribution(
            path,
            facts,
            indexed,
            frozenset(self.written_escapes(path, facts)),
            frozenset(self._exported(path)) if self.program.opens(path) else frozenset(),
            lambda ref: self._object_named(path, ref),
        )

    def written_escapes(self, path: str, facts: FileFacts) -> set[str]:
        """The object-literal holders a file's written values hand on.

        `x = flag ? hooks : other`, `{ hooks }`, `return hooks as Api`: values
        handed on without a value-use site of their own. Bound from the file's
        import closure only (an incremental run keeps the answer per file).
        """
        found: set[str] = set()
        for init in _written_values(facts):
            for ref in _aliases(init):
                holder = self._object_named(path, ref)
                if holder is not None:
                    found.add(holder)
        return found

    def _object_named(self, path: str, ref: Ref) -> str | None:
        """The object-literal holder whose object (or a literal nested in it) `ref` names.

        Kept per (file, ref): a file's written values and value uses name the same few
        holders again and again (65,000 questions, 39,000 distinct, on documenso), and
        every question is asked with nothing in progress, so the answer cannot change
        within a build (an incremental build keeps them across builds, file_memo.py)."""
        key = (path, ref)
        if key in self._named:
            return self._named[key]
        found = self._named[key] = self._holder_named(path, ref)
        return found

    def _holder_named(self, path: str, ref: Ref) -> str | None:
        binder = self.binder
        value = binder.head_value(path, ref)
        for position in range(len(ref.members) + 1):
            if isinstance(value, Declared):
                declaration = binder.declarations.get(value.id)
                if (
                    declaration is not None
                    and holds_object(declaration)
                    and _nested_literal(declaration.init, ref.members[position:])
                ):
                    return declaration.id
            if position < len(ref.members):
                value = binder.member_value(path, value, ref.members[position])
        return None

    def _indexes(self, test: bool) -> tuple[FlowIndex, ...]:
        return (self._whole,) if test else (self._whole, self._production)

    def _exported(self, path: str) -> set[str]:
        found: set[str] = set()
        index = self.binder.file(path)
        if index is None:
            return found
        for name in index.exports:
            value = self.binder.export_declaration(path, name)
            target = getattr(value, "id", None)
            if isinstance(target, str):
                found.add(target)
        return found

    # ---- between builds ----------------------------------------------------------------

    def kept(self) -> FlowState:
        """What the next build may take over (see `resume`)."""
        return FlowState(
            self.program,
            self.side,
            {view: (flow.memo, flow.exhausted) for view, flow in self._flows.items()},
            self._opened,
            frozenset(self.binder.missing_packages),
            self.token,
        )

    def resume(self, kept: FlowState) -> bool:
        """Answer every query from the previous build's flows instead of indexing the
        program, when the caller has shown that the edit changes no value-flow fact
        (flow_reuse.py): same program openness and test side. The flows are frozen: a
        query they do not hold raises FlowMiss, and the caller indexes and asks again."""
        if kept.program != self.program or kept.side != self.side:
            return False
        self._flows = {
            view: ValueFlow.frozen(self.binder, memo, exhausted)
            for view, (memo, exhausted) in kept.memos.items()
        }
        self._opened = kept.opened
        self._resumed = True
        self.token = kept.token
        return True

    # ---- queries -----------------------------------------------------------------------

    def flow(self, path: str) -> ValueFlow:
        """Call sites outside the test side see the program without it.

        When production code imports a test-side file, the two programs are
        not separate after all and every call site sees the whole project.
        """
        self._open_loaded_modules()
        production = self.production_view(path)
        flow = self._flows.get(production)
        if flow is None:
            if self._resumed:
                raise FlowMiss(path)
            index = self._production if production else self._whole
            flow = ValueFlow(self.binder, index, self._family)
            self._flows[production] = flow
        return flow

    def production_view(self, path: str) -> bool:
        """True when a call site in `path` sees the program without test sources."""
        return not self.side.joined and path not in self.side.tests

    def visible(self, path: str, targets: Iterable[str]) -> list[str]:
        """The candidate targets a call site in `path` can reach.

        A production call site is not linked to a class or object literal
        whose test source production code never loads; a call site inside a
        test source sees them all.
        """
        side = self.side
        if path in side.tests:
            return list(targets)
        file_of = self.binder.file_of
        hidden = side.tests - side.loaded
        return [target for target in targets if file_of[target] not in hidden]

    def _open_loaded_modules(self) -> None:
        """Open the exports of loaded modules, once, before the first query.

        A module loaded with import()/require() or used as a namespace value has
        exports whose callers cannot be listed; a loader with a computed
        specifier could load any module, so then every export is open.
        """
        if self._opened:
            return
        if self._resumed:
            raise FlowMiss("loaded modules")
        self._opened = True
        if self._opaque_loads:
            paths = [index.facts.path for index in self.binder.loaded()]
        else:
            paths = []
            for importer, specifier in self._loaded:
                value = self.binder.module_value(importer, specifier)
                if isinstance(value, Module):
                    paths.append(value.path)
        opened: set[str] = set()
        for path in paths:
            opened |= self._exported(path)
        for entry in self.program.entries:
            opened.add(entry)
            declaration = self.binder.declarations.get(entry)
            if declaration is not None and declaration.kind == "export":
                # The export names another declaration: that is what the framework calls.
                value = self.binder.export_declaration(self.binder.file_of[entry], declaration.name)
                if isinstance(value, Declared):
                    opened.add(value.id)
        self._whole.open_declarations |= opened
        self._production.open_declarations |= opened

    def _family(self, class_id: str) -> Iterable[str]:
        return self._descendants().get(class_id, ())

    @property
    def exhausted(self) -> int:
        return sum(flow.exhausted for flow in self._flows.values())

    def targets(self, path: str, site: CallSite) -> tuple[str, ...]:
        """Every implementation the call can reach, or () when not all are known."""
        if site.kind != "call" or site.computed:
            return ()
        callee = site.callee
        flow = self.flow(path)
        if callee.members:
            receiver = Ref(
                callee.head, callee.name, callee.target, callee.index, callee.members[:-1]
            )
            values = flow.of_ref(path, receiver)
            member: str | None = callee.members[-1]
        else:
            values = flow.of_ref(path, callee)
            member = None
        if not values:
            return ()
        found: set[str] = set()
        for value in values:
            target = self._callable(value, member)
            if target is None or (member is not None and flow.replaced(value, member)):
                return ()
            found.add(target)
        return tuple(sorted(found))

    def _callable(self, value: Abstract, member: str | None) -> str | None:
        binder = self.binder
        if member is None:
            if value[0] != "decl":
                return None
            declaration = binder.declarations.get(value[1])
            return value[1] if declaration is not None and runs(declaration) else None
        found: Declaration | None = None
        if value[0] in ("inst", "decl"):
            found = declared_member(binder, value, member)
        else:
            literal = value[2]  # type: ignore[misc]
            for key, init in literal.members:
                if key == member and init.kind == "function" and init.ref is not None:
                    found = binder.declarations.get(init.ref.target)
        if found is None or not runs(found):
            return None
        return found.id


def _first_argument(site: CallSite) -> Ref:
    if site.args and site.args[0].kind == "alias" and site.args[0].ref is not None:
        return site.args[0].ref
    return _OTHER


def _nested_literal(init: Init | None, keys: tuple[str, ...]) -> bool:
    """True when following `keys` through an object literal stays on object literals."""
    for key in keys:
        if init is None or init.kind != "object":
            return False
        init = next((member for name, member in reversed(init.members) if name == key), None)
    return init is not None and init.kind == "object"


def _written_values(facts: FileFacts) -> Iterator[Init]:
    """Every initializer, assigned, returned and argument value a file writes down."""
    for declaration in facts.declarations:
        if declaration.init is not None:
            yield declaration.init
    for binding in facts.bindings:
        if binding.init is not None:
            yield binding.init
    for write in facts.writes:
        yield write.value
    for returned in facts.returns:
        yield returned.value
    for site in facts.calls:
        yield from site.args


def _aliases(init: Init) -> Iterator[Ref]:
    """Chains a value is written as: itself, a branch (`a ?? b`) or an object member."""
    pending = [init]
    while pending:
        current = pending.pop()
        if current.kind == "alias" and current.ref is not None:
            yield current.ref
        elif current.kind in ("object", "union"):
            pending.extend(member for _, member in current.members)
