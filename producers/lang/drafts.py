"""Facts under construction, shared by every front-end: names are resolved once the file is read.

A name can be used before the line that declares it (hoisted functions and
classes, a call in a function body to a later top-level declaration), so an
extractor records each use with the scope it sits in and resolves every
draft after the last one. Results of calls are named by node until the call
sites are numbered. Each front-end keeps its own scopes (JavaScript's
function/block scopes, Python's LEGB); the resolver only asks them to look a
name up.

A draft of a declaration, a binding or a call site is its fact, built where
the extractor finds it, beside the parts that still name something
(`RefDraft`, `InitDraft`): the resolver puts those in, and a fact with none
comes out unchanged. What the extractor learns of a declaration later (a
redeclaration's body, type and overloads, a class's `implements`) replaces
the draft's fact.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Protocol

from tsograph.exchange.symbol_ids import MODULE
from tsograph.exchange.symbol_ids import CallbackNamer
from tsograph.exchange.symbol_ids import module_id
from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import DeclarationKind
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import HeadKind
from tsograph.producers.lang.facts import Import
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import InitKind
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import Return
from tsograph.producers.lang.facts import TypeDeclaration
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.facts import Write
from tsograph.producers.lang.facts import replace

# What a name in a scope stands for: ("decl", id), ("import", index), ("param"|"local", index);
# Python also has ("this"|"static-this", class id) and ("other", name).
Target = tuple[str, str | int]
# Value uses are kept only when their head can name something binding may follow.
_USEFUL_USE_HEADS = frozenset({"decl", "import", "this", "static-this", "super"})


class NameScope(Protocol):
    def lookup(self, name: str) -> Target | None: ...


@dataclass(slots=True)
class RefDraft:
    """A Ref to resolve later: by name in a scope, by node (a call, a load, a
    declaration) or ready-made; `members` are appended to what it resolves to."""

    name: str = ""
    scope: NameScope | None = None
    node: int = -1
    ready: Ref | None = None
    members: tuple[str, ...] = ()


@dataclass(slots=True)
class InitDraft:
    kind: InitKind
    ref: RefDraft | None = None
    specifier: str = ""
    members: list[tuple[str, InitDraft]] = field(default_factory=list)


@dataclass(slots=True)
class DeclDraft:
    """A declaration and what its `extends` and `init` will be (the fact's are None)."""

    fact: Declaration
    extends: RefDraft | None = None
    init: InitDraft | None = None


@dataclass(slots=True)
class BindingDraft:
    """A binding and what its `init` will be (the fact's is None)."""

    fact: Binding
    init: InitDraft | None = None


# The callee of a call site's fact until the resolver puts the site's own in.
UNRESOLVED = Ref("other")

# A call site (its fact's callee is UNRESOLVED, its args empty), its callee and its
# arguments before the first spread. A tuple, a fifth of the cost of a slotted record:
# documenso has over a hundred thousand sites, and nothing changes one once recorded.
SiteDraft = tuple[CallSite, RefDraft, Sequence[InitDraft]]


@dataclass(slots=True)
class WriteDraft:
    owner: str
    target: RefDraft
    value: InitDraft
    computed: bool = False


@dataclass(slots=True)
class ReturnDraft:
    owner: str
    value: InitDraft


class FileDrafts:
    """What an extractor has found in one file so far, and the steps every front-end takes."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.module = module_id(path)
        self.id_prefix = self.module[: -len(MODULE)]  # "<escaped path>#"
        self.decls: dict[str, DeclDraft] = {}
        self.bindings: list[BindingDraft] = []
        self.imports: list[Import] = []
        self.sites: list[SiteDraft] = []
        self.site_nodes: list[int] = []  # the call node of each site; -1 for value uses
        self.writes: list[WriteDraft] = []
        self.returns: list[ReturnDraft] = []
        self.types: list[TypeDeclaration] = []
        self.decl_of_node: dict[int, str] = {}  # id of a function node -> its declaration
        self.namer = CallbackNamer()
        self.nesting_cuts = 0
        self.dynamic_loads = 0
        self.declare(self.module, "module", MODULE, 1, 1, "", has_body=True)

    def declare(
        self,
        ident: str,
        kind: DeclarationKind,
        name: str,
        line: int,
        column: int,
        parent: str,
        *,
        has_body: bool,
        static: bool = False,
        callback: bool = False,
        type: tuple[TypeRef, ...] = (),
        init: InitDraft | None = None,
        extends: RefDraft | None = None,
    ) -> DeclDraft:
        """The declaration of `ident`: a new one, or the first one when it is declared again."""
        fact = Declaration(
            ident, kind, name, line, column, parent, has_body, static, callback, None, (), type
        )
        draft = DeclDraft(fact, extends, init)
        existing = self.decls.setdefault(ident, draft)
        if existing is not draft:
            self.redeclared(existing, draft)
        return existing

    def redeclared(self, existing: DeclDraft, again: DeclDraft) -> None:
        """`existing` is declared again (overloads, a getter and its setter, a redefinition):
        one node at the first location, with a body when either has one."""
        if again.fact.has_body and not existing.fact.has_body:
            existing.fact = replace(existing.fact, has_body=True)

    def declare_callback(
        self,
        owner: str,
        segment: str,
        node: int,
        line: int,
        column: int,
        type: tuple[TypeRef, ...] = (),
    ) -> tuple[str, tuple[str, ...]]:
        """An inline callback (a function passed straight to a call) in `owner`, named by its
        callee and keys (`segment`): its id and declaration path (names inside it extend it)."""
        ident = self.namer.name(owner, segment)
        self.declare(
            ident,
            "function",
            ident[len(owner) + 1 :],
            line,
            column,
            owner,
            has_body=True,
            callback=True,
            type=type,
        )
        self.decl_of_node[node] = ident
        return ident, (ident[len(self.id_prefix) :],)

    def file_facts(
        self,
        resolver: Resolver,
        language: str,
        calls: list[CallSite],
        exports: list[Export],
        parse_errors: int,
        *,
        more_declarations: Iterable[DeclDraft] = (),
        module_syntax: bool = False,
        main_guards: tuple[int, ...] = (),
    ) -> FileFacts:
        """The facts, once the sites are numbered (`Resolver.kept_sites`) and exports read."""
        module = self.decls.pop(self.module)
        return FileFacts(
            self.path,
            language,
            tuple(resolver.declarations(module, (*self.decls.values(), *more_declarations))),
            tuple(resolver.binding(draft) for draft in self.bindings),
            tuple(self.imports),
            tuple(exports),
            tuple(calls),
            tuple(self.types),
            module_syntax,
            self.dynamic_loads,
            parse_errors,
            self.nesting_cuts,
            tuple(resolver.write(draft) for draft in self.writes),
            tuple(resolver.returned(draft) for draft in self.returns),
            main_guards=main_guards,
        )


_RefKey = tuple[HeadKind, str, str, int, tuple[str, ...]]


@dataclass(slots=True)
class Resolver:
    """Turns drafts into facts once every scope, site, load and declaration is known."""

    bindings: list[BindingDraft]
    site_of_node: dict[int, int]
    load_of_node: dict[int, int]
    decl_of_node: dict[int, str]
    # Equal refs are one shared object: facts are immutable, and a file names the
    # same few things over and over (building each anew dominated the resolution).
    _shared: dict[_RefKey, Ref] = field(default_factory=dict)

    def ref(self, draft: RefDraft) -> Ref:
        key = self._key(draft)
        shared = self._shared.get(key)
        if shared is None:
            shared = self._shared[key] = Ref(*key)
        return shared

    def _key(self, draft: RefDraft) -> _RefKey:
        """The fields of the Ref a draft resolves to."""
        members = draft.members
        if draft.ready is not None:
            ready = draft.ready
            return ready.head, ready.name, ready.target, ready.index, ready.members + members
        if draft.scope is not None:
            target = draft.scope.lookup(draft.name)
            if target is None:
                return "global", draft.name, "", -1, members
            kind, value = target
            if kind == "decl":
                return "decl", draft.name, str(value), -1, members
            if kind in ("this", "static-this"):
                return kind, draft.name, str(value), -1, members  # type: ignore[return-value]
            if kind == "other":
                return "other", draft.name, "", -1, members
            head: HeadKind = (
                "import" if kind == "import" else "param" if kind == "param" else "local"
            )
            return head, draft.name, "", int(value), members
        site = self.site_of_node.get(draft.node)
        if site is not None:
            return "result", "", "", site, members
        load = self.load_of_node.get(draft.node)
        if load is not None:
            return "import", "", "", load, members
        declaration = self.decl_of_node.get(draft.node)
        if declaration is not None:
            return "decl", "", declaration, -1, members
        return "other", "", "", -1, members

    def init(self, draft: InitDraft | None) -> Init | None:
        if draft is None:
            return None
        if draft.ref is None and not draft.members and not draft.specifier:
            return Init.bare(draft.kind)
        ref = None if draft.ref is None else self.ref(draft.ref)
        if ref is not None and ref.head == "other" and draft.kind in ("function", "class"):
            ref = None  # a function value that is not a declaration of its own (a field's arrow)
        members = draft.members
        return Init(
            draft.kind,
            ref,
            draft.specifier,
            tuple([(key, self.value(value)) for key, value in members]) if members else (),
        )

    def value(self, draft: InitDraft) -> Init:
        init = self.init(draft)
        assert init is not None
        return init

    def kept_sites(self, sites: list[SiteDraft], site_nodes: list[int]) -> list[CallSite]:
        """The call sites, and the value uses whose head binding may follow, numbered in order:
        results of calls resolve to these numbers from here on."""
        kept = [
            index
            for index, (_, callee, _) in enumerate(sites)
            if site_nodes[index] >= 0 or self._useful(self.ref(callee))
        ]
        self.site_of_node = {
            site_nodes[old]: new for new, old in enumerate(kept) if site_nodes[old] >= 0
        }
        return [self.call(sites[index]) for index in kept]

    def _useful(self, ref: Ref) -> bool:
        if ref.head == "local":
            init = self.bindings[ref.index].init
            return init is not None and init.kind == "alias"
        return ref.head in _USEFUL_USE_HEADS

    def call(self, draft: SiteDraft) -> CallSite:
        """The site with its callee and arguments. Every kept site is built again, so by a call
        with the fields in order: `replace` costs three times as much."""
        site, callee, args = draft
        return CallSite(
            site.kind,
            site.owner,
            site.line,
            site.column,
            self.ref(callee),
            site.computed,
            site.optional,
            site.new_receiver,
            tuple(map(self.value, args)) if args else (),
            site.spread,
            site.item,
        )

    def declarations(self, module: DeclDraft, others: Iterable[DeclDraft]) -> list[Declaration]:
        """The module's declaration first, then the others in source order."""
        return [
            self.declaration(module),
            *sorted(
                (self.declaration(draft) for draft in others),
                key=lambda item: (item.line, item.column, item.id, item.parent),
            ),
        ]

    def declaration(self, draft: DeclDraft) -> Declaration:
        """The fact, with its base class and initializer when it has either."""
        extends = draft.extends
        if extends is None and draft.init is None:
            return draft.fact
        return replace(
            draft.fact,
            extends=None if extends is None else self.ref(extends),
            init=self.init(draft.init),
        )

    def write(self, draft: WriteDraft) -> Write:
        return Write(draft.owner, self.ref(draft.target), self.value(draft.value), draft.computed)

    def returned(self, draft: ReturnDraft) -> Return:
        return Return(draft.owner, self.value(draft.value))

    def binding(self, draft: BindingDraft) -> Binding:
        init = draft.init
        return draft.fact if init is None else replace(draft.fact, init=self.value(init))
