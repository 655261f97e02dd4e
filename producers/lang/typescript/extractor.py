"""The sweep: captured nodes in source order, with a stack of frames for what encloses them.

A frame is pushed by a node that opens a scope, an owner (the declaration
whose code follows) or a `this` context, and popped once the sweep passes the
node's end. Handlers for each node type live in their own modules
(functions, classes, variables, scopes, uses, modules, commonjs); this module
holds the shared state and the pieces every handler uses (sites, value uses,
initializer summaries, locations) and turns the drafts into facts at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY
from dataclasses import dataclass

from tree_sitter import Node

from tsograph.exchange.locations import LineIndex
from tsograph.exchange.symbol_ids import DEFAULT
from tsograph.exchange.symbol_ids import symbol_id
from tsograph.producers.lang.drafts import UNRESOLVED
from tsograph.producers.lang.drafts import BindingDraft
from tsograph.producers.lang.drafts import DeclDraft
from tsograph.producers.lang.drafts import FileDrafts
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.drafts import Resolver
from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Declaration
from tsograph.producers.lang.facts import DeclarationKind
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import HeadKind
from tsograph.producers.lang.facts import Import
from tsograph.producers.lang.facts import ImportKind
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import SiteKind
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.facts import replace
from tsograph.producers.lang.typescript import syntax
from tsograph.producers.lang.typescript.drafts import ExportDraft
from tsograph.producers.lang.typescript.drafts import Scope
from tsograph.producers.lang.typescript.nullish import is_null_literal
from tsograph.producers.lang.typescript.nullish import rebinds_undefined

# Object literals nested deeper than this are summarised as "other".
OBJECT_DEPTH = 4
# Declarations nested deeper than this are not named: their code belongs to the
# enclosing declaration. Ids repeat their prefix, so without a bound a crafted
# file of nested callbacks would make ids quadratic in its size.
MAX_NAMED_DEPTH = 32
_LOAD_CALLEES = frozenset({b"require"})
# Chain bases whose value is named by their node: a call or `new` result, a declared
# function or class (`new class extends Base {}()`).
_RESULTS = frozenset({"call_expression", "new_expression"}) | syntax.FUNCTIONS | syntax.CLASSES
_OTHER = Ref("other")


@dataclass(slots=True)
class Frame:
    """What encloses the code from here to `end`.

    `owner` is the declaration that owns the code, `path` its declaration path
    (inline callbacks at module level start with `<module>`), `named` is false
    inside a member with a computed name or past MAX_NAMED_DEPTH (nothing
    there gets a name), `depth` counts the owners around the code and
    `module_level` marks the top level of the module or a namespace.
    """

    end: int
    owner: str
    path: tuple[str, ...]
    scope: Scope
    this_head: HeadKind
    this_target: str
    _: KW_ONLY
    named: bool = True
    module_level: bool = False
    depth: int = 0


Handler = Callable[["Extractor", Node], None]


class Extractor(FileDrafts):
    def __init__(self, path: str, data: bytes, language: str) -> None:
        super().__init__(path)
        self.data = data
        self.language = language
        needs_index = b"\r" in data or b"\xe2\x80\xa8" in data or b"\xe2\x80\xa9" in data
        self._lines = LineIndex(data, count_bom=True, js_breaks=True) if needs_index else None
        # Members of anonymous classes whose id an earlier declaration already has: one
        # node, but each class keeps its own member record for binding (see redeclared).
        self.shared_members: list[DeclDraft] = []
        self.exports: list[ExportDraft] = []
        self.load_of_node: dict[int, int] = {}
        # Value nodes a holder (variable, export default, exports.x =) already declared.
        self.named_values: dict[int, tuple[str, tuple[str, ...]]] = {}
        # Object literals whose members are named: node id -> declaration path of the object.
        self.holders: dict[int, tuple[str, ...]] = {}
        # Classes: node id -> (class id, declaration path), None for an unnamed class.
        self.classes: dict[int, tuple[str, tuple[str, ...]] | None] = {}
        self.consumed: set[int] = set()  # loads already recorded by their declarator
        # Calls that are a decorator's expression (`@Get()`), marked when the sweep passes
        # the decorator, which comes before the call inside it.
        self.decorator_calls: set[int] = set()
        # Types named by casts and instanceof (see type_use and narrowing), kept as nameless
        # bindings after every other one, so the indices of the others do not move.
        self.type_uses: list[BindingDraft] = []
        self.narrowings: list[tuple[BindingDraft, Scope, str]] = []
        self.typed_casts: set[int] = set()  # cast type nodes a chain already bound
        # (start byte, end byte, owner id) of every frame that names its owner, in source order.
        self.owner_spans: list[tuple[int, int, str]] = []
        # Function nodes that own their code (their returns are theirs): node id -> owner id.
        self.function_owner: dict[int, str] = {}
        self.module_syntax = False
        # Whether this file declares a name `undefined` (decided at its first use as a value).
        self._undefined_rebound: bool | None = None
        self.skip_until = -1
        self.module_scope = Scope(None, function=True)
        self.frames = [
            Frame(len(data) + 1, self.module, (), self.module_scope, "this", "", module_level=True)
        ]

    # ---- the sweep ---------------------------------------------------------------

    def sweep(self, nodes: list[Node], handlers: dict[str, Handler]) -> None:
        frames = self.frames
        for node in nodes:
            start = node.start_byte
            if start < self.skip_until:
                continue
            while start >= frames[-1].end:
                frames.pop()
            handler = handlers.get(node.type)
            if handler is not None:
                handler(self, node)

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def push(
        self,
        node: Node,
        *,
        owner: str | None = None,
        path: tuple[str, ...] | None = None,
        scope: Scope | None = None,
        this: tuple[HeadKind, str] | None = None,
        named: bool | None = None,
        module_level: bool = False,
    ) -> Frame:
        """Open a frame until the end of node; what is not given is inherited."""
        top = self.frames[-1]
        if owner is not None:
            self.owner_spans.append((node.start_byte, node.end_byte, owner))
            if owner != top.owner:
                self.function_owner[node.id] = owner
        this_head, this_target = this if this is not None else (top.this_head, top.this_target)
        depth = top.depth if owner is None or owner == top.owner else top.depth + 1
        is_named = top.named if named is None else named
        if is_named and depth >= MAX_NAMED_DEPTH:
            is_named = False
            self.nesting_cuts += 1
        frame = Frame(
            node.end_byte,
            top.owner if owner is None else owner,
            top.path if path is None else path,
            top.scope if scope is None else scope,
            this_head,
            this_target,
            named=is_named,
            module_level=module_level,
            depth=depth,
        )
        self.frames.append(frame)
        return frame

    # ---- locations, ids, declarations ----------------------------------------------

    def loc(self, node: Node) -> tuple[int, int]:
        if self._lines is not None:
            return self._lines.position(node.start_byte)
        point = node.start_point
        return point[0] + 1, point[1] + 1

    def offset_location(self, offset: int) -> tuple[int, int]:
        if self._lines is None:
            self._lines = LineIndex(self.data, count_bom=True, js_breaks=True)
        return self._lines.position(offset)

    def text(self, node: Node) -> str:
        return syntax.text(self.data, node)

    def id_of(self, path: tuple[str, ...]) -> str:
        return symbol_id(self.path, path)

    def redeclared(self, existing: DeclDraft, again: DeclDraft) -> None:
        first, other = existing.fact, again.fact
        if not first.has_body:
            existing.fact = replace(
                first,
                type=_merged_type(first, other.kind, other.type, has_body=other.has_body),
                # Overload signatures: callers see those, not the implementation's parameters.
                overloaded=first.overloaded
                or (first.kind in ("function", "method") and other.kind == first.kind),
            )
        super().redeclared(existing, again)
        if first.parent != other.parent and self.is_anonymous_class(other.parent):
            # Anonymous classes add no id segment, so two of them in one scope can both
            # declare `m`: still one node, but each class must find its own `m`
            # (`this.m()` inside the second is not the base's `m`).
            own = Declaration(
                other.id,
                other.kind,
                other.name,
                other.line,
                other.column,
                other.parent,
                other.has_body,
                other.static,
            )
            self.shared_members.append(DeclDraft(own))

    def declare_at(
        self,
        path: tuple[str, ...],
        kind: DeclarationKind,
        name_node: Node,
        *,
        has_body: bool,
        static: bool = False,
        type: tuple[TypeRef, ...] = (),
        init: InitDraft | None = None,
        parent: str | None = None,
    ) -> DeclDraft:
        """Declare `path` at name_node; the parent is the frame's owner unless given
        (members of an anonymous class, whose frame keeps the holder as owner)."""
        line, column = self.loc(name_node)
        return self.declare(
            self.id_of(path),
            kind,
            path[-1],
            line,
            column,
            self.frames[-1].owner if parent is None else parent,
            has_body=has_body,
            static=static,
            type=type,
            init=init,
        )

    def declare_default(self, value: Node, init: InitDraft | None) -> None:
        """`#default` as a module-level variable at value, for `export default <expression>`
        and `module.exports = <expression>`."""
        line, column = self.loc(value)
        self.declare(
            self.id_of((DEFAULT,)),
            "variable",
            DEFAULT,
            line,
            column,
            self.module,
            has_body=True,
            init=init,
        )

    def is_anonymous_class(self, ident: str) -> bool:
        declared = self.decls.get(ident)
        return declared is not None and declared.fact.is_anonymous_class

    def add_binding(self, draft: BindingDraft, scope: Scope) -> None:
        fact = draft.fact
        scope.bind(fact.name, ("param" if fact.kind == "param" else "local", len(self.bindings)))
        self.bindings.append(draft)

    def add_import(self, fact: Import, scope: Scope | None = None) -> int:
        """Keep an import; its local name, if any, is bound in `scope` (default: the module)."""
        index = len(self.imports)
        self.imports.append(fact)
        if fact.local:
            (scope or self.module_scope).bind(fact.local, ("import", index))
        return index

    # ---- chains, sites and value uses -------------------------------------------------

    def chain_ref(self, chain: syntax.Chain) -> RefDraft:
        split = chain.split_at_cast()
        types = () if chain.cast is None else syntax.declared_type(self.data, chain.cast)
        if split is None or len(types) > 1:
            # No assertion, or one to a union (kept as written: see syntax.value_cast).
            return self._chain_ref(chain, chain.members)
        # `(x as T).m`: the asserted value is a nameless local of type T that holds x,
        # so binding reads T (as TypeScript does) while flows still follow x.
        inner, after = split
        assert chain.cast is not None
        self.typed_casts.add(chain.cast.id)
        line, column = self.loc(chain.cast)
        types = types or (syntax.NO_TYPE,)
        init = InitDraft("alias", self._chain_ref(chain, inner))
        index = len(self.bindings)
        fact = Binding("", "local", self.frames[-1].owner, line, column, -1, types)
        self.bindings.append(BindingDraft(fact, init))
        return RefDraft(ready=Ref("local", "", "", index), members=after)

    def _chain_ref(self, chain: syntax.Chain, members: tuple[str, ...]) -> RefDraft:
        base = chain.base
        kind = chain.base_type
        if kind in ("identifier", "shorthand_property_identifier"):
            # `{ f }` names f as much as `{ f: f }` does.
            name = self.data[base.start_byte : base.end_byte].decode("utf-8", "replace")
            return RefDraft(name, self.frames[-1].scope, members=members)
        if kind == "this":
            frame = self.frames[-1]
            return RefDraft(ready=Ref(frame.this_head, "this", frame.this_target), members=members)
        if kind == "super":
            return RefDraft(
                ready=Ref("super", "super", self.frames[-1].this_target), members=members
            )
        if kind in _RESULTS:
            return RefDraft(node=base.id, members=members)
        return RefDraft(ready=_OTHER, members=members)

    def value_ref(self, node: Node) -> RefDraft:
        """What an expression stands for as a chain (a name, a result, a declared value)."""
        value = syntax.unwrap_value(node)
        if value.type in syntax.CLASSES:
            return RefDraft(node=value.id)
        return self.chain_ref(syntax.Chain(self.data, value))

    def site(
        self,
        node: Node,
        kind: SiteKind,
        callee: Node,
        arguments: Node | None,
        *,
        optional: bool = False,
    ) -> None:
        """A site at `node` calling `callee` with `arguments` (None for JSX and decorators
        without a call, whose sites pass nothing)."""
        chain = syntax.Chain(self.data, callee)
        line, column = self.loc(chain.last)
        ref = self.chain_ref(chain)
        args: list[InitDraft] = []
        spread = False
        if arguments is not None and arguments.type == "arguments":
            for argument in arguments.named_children:
                if argument.type == "comment":
                    continue
                if argument.type == "spread_element":
                    # Positions after a spread are unknown; the flow stops trusting them.
                    spread = True
                    break
                init = self.init_of(argument)
                if init is not None:
                    args.append(init)
        fact = CallSite(
            kind,
            self.frames[-1].owner,
            line,
            column,
            UNRESOLVED,
            chain.computed,
            chain.optional or optional,
            chain.base_type == "new_expression" and bool(chain.members),
            (),
            spread,
        )
        self.sites.append((fact, ref, args))
        self.site_nodes.append(node.id)

    def use(self, node: Node, kind: SiteKind) -> None:
        chain = syntax.Chain(self.data, node)
        line, column = self.loc(chain.last)
        ref = self.chain_ref(chain)
        owner = self.frames[-1].owner
        fact = CallSite(kind, owner, line, column, UNRESOLVED, chain.computed, chain.optional)
        self.sites.append((fact, ref, ()))
        self.site_nodes.append(-1)

    # ---- uses as a type -----------------------------------------------------------------

    def type_use(self, type_node: Node) -> None:
        """The type of a cast, used as a type where it is written: a nameless local of that
        type (its named types become `type` relations, as an annotation's do). A cast whose
        chain already made that local (`(x as T).m`, see chain_ref) is not kept twice."""
        if type_node.id in self.typed_casts:
            return
        types = syntax.declared_type(self.data, type_node)
        if types:
            line, column = self.loc(type_node)
            owner = self.frames[-1].owner
            fact = Binding("", "local", owner, line, column, -1, types)
            self.type_uses.append(BindingDraft(fact))

    def narrowing(self, node: Node) -> None:
        """`x instanceof C`: C is a value use (recorded by the caller) and the class x
        narrows to, a use as a type. Types bind by name from the module, so the type use
        is kept only when the name C starts with is the module's own class declaration or
        an import (decided in `facts`, once every scope is complete): a parameter, a local
        or a non-class value named C would make the module's C a wrong relation."""
        chain = syntax.Chain(self.data, node)
        if chain.base_type != "identifier" or chain.computed or chain.optional or chain.cast:
            return
        line, column = self.loc(chain.last)  # where the value use is placed too
        names = (self.text(chain.base), *chain.members)
        draft = BindingDraft(
            Binding("", "local", self.frames[-1].owner, line, column, -1, (TypeRef(names),))
        )
        self.narrowings.append((draft, self.frames[-1].scope, names[0]))

    def _module_class_or_import(self, scope: Scope, name: str, members: bool) -> bool:
        target = scope.lookup(name)
        if target is None or target is not self.module_scope.names.get(name):
            return False
        kind, value = target
        if kind == "import":
            return True
        declared = self.decls.get(str(value)) if kind == "decl" else None
        return declared is not None and declared.fact.kind == "class" and not members

    # ---- initializer summaries --------------------------------------------------------

    def init_of(self, node: Node | None, depth: int = 0) -> InitDraft | None:
        if node is None:
            return None
        value = syntax.unwrap_value(node)
        kind = value.type
        if is_null_literal(value) or (kind == "undefined" and not self._rebinds_undefined(value)):
            return InitDraft("nullish")
        if kind in ("identifier", "member_expression", "subscript_expression", "this"):
            return InitDraft("alias", self.value_ref(value))
        if kind == "new_expression":
            return InitDraft("new", RefDraft(node=value.id))
        if kind == "call_expression":
            load = self.module_load(value)
            if load is not None:
                return InitDraft("require" if load[0] == "require" else "import", specifier=load[1])
            return InitDraft("call", RefDraft(node=value.id))
        if kind in syntax.FUNCTIONS:
            return InitDraft("function", RefDraft(node=value.id))
        if kind in syntax.CLASSES:
            return InitDraft("class", RefDraft(node=value.id))
        if kind == "object" and depth < OBJECT_DEPTH:
            return InitDraft("object", members=self._object_members(value, depth))
        if depth < OBJECT_DEPTH:
            alternatives = syntax.alternatives(value)
            if alternatives:
                parts = [self.init_of(part, depth + 1) for part in alternatives]
                return InitDraft(
                    "union", members=[("", part or InitDraft("other")) for part in parts]
                )
        return InitDraft("other")

    def _rebinds_undefined(self, node: Node) -> bool:
        if self._undefined_rebound is None:
            self._undefined_rebound = rebinds_undefined(node, self.data)
        return self._undefined_rebound

    def _object_members(self, node: Node, depth: int) -> list[tuple[str, InitDraft]]:
        members: list[tuple[str, InitDraft]] = []
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                key = child.child_by_field_name("key")
                name = None if key is None else syntax.property_name(self.data, key)
                member = self.init_of(child.child_by_field_name("value"), depth + 1)
                if name is not None and member is not None:
                    members.append((name, member))
            elif kind == "shorthand_property_identifier":
                members.append(
                    (
                        self.text(child),
                        InitDraft("alias", RefDraft(self.text(child), self.frame.scope)),
                    )
                )
            elif kind == "method_definition":
                key = child.child_by_field_name("name")
                name = None if key is None else syntax.property_name(self.data, key)
                if name is not None:
                    members.append((name, InitDraft("function", RefDraft(node=child.id))))
            elif kind == "spread_element":
                inner = syntax.first_named(child)
                spread = self.init_of(inner, depth + 1)
                if spread is not None:
                    members.append(("...", spread))
        return members

    def module_load(self, node: Node) -> tuple[ImportKind, str] | None:
        """("require"|"dynamic", specifier) for `require('x')` and `import('x')` with a literal."""
        if node.type != "call_expression":
            return None
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if callee is None or arguments is None:
            return None
        callee_type = callee.type
        if callee_type == "import":
            kind: ImportKind = "dynamic"
        elif callee_type == "identifier" and self.data[callee.start_byte : callee.end_byte] in (
            _LOAD_CALLEES
        ):
            kind = "require"
        else:
            return None
        if arguments.type != "arguments":
            return None
        args = [child for child in arguments.named_children if child.type != "comment"]
        specifier = syntax.string_value(self.data, args[0]) if len(args) == 1 else None
        if specifier is None:
            return None
        return kind, specifier

    # ---- the end --------------------------------------------------------------------

    def facts(self, parse_errors: int) -> FileFacts:
        self.bindings.extend(self.type_uses)
        self.bindings.extend(
            draft
            for draft, scope, name in self.narrowings
            if self._module_class_or_import(scope, name, len(draft.fact.type[0].chain) > 1)
        )
        resolver = Resolver(self.bindings, {}, self.load_of_node, self.decl_of_node)
        calls = resolver.kept_sites(self.sites, self.site_nodes)
        exports = [self._export(draft, resolver) for draft in self.exports]
        return self.file_facts(
            resolver,
            self.language,
            calls,
            exports,
            parse_errors,
            more_declarations=self.shared_members,
            module_syntax=self.module_syntax,
        )

    def _export(self, draft: ExportDraft, resolver: Resolver) -> Export:
        fact = draft.fact
        value = None if draft.value is None else resolver.ref(draft.value)
        node = fact.node
        if draft.node_unless_same and not fact.type_only:
            own = self.id_of((fact.name,))
            same = value is not None and value.head == "decl" and value.target == own
            node = own
            if not same:
                self.declare(
                    own, "export", fact.name, fact.line, fact.column, self.module, has_body=False
                )
        return replace(fact, node=node, value=value)


def _merged_type(
    existing: Declaration, kind: DeclarationKind, types: tuple[TypeRef, ...], *, has_body: bool
) -> tuple[TypeRef, ...]:
    """The declared type callers see after another declaration of the same id.

    Callers see an overloaded function through its overload signatures only
    (the implementation's signature is hidden), so the signatures' return
    types are united: two different ones prove no single class. A setter
    declared before its getter leaves the getter's type.
    """
    if has_body:
        return existing.type or (types if kind == "accessor" else ())
    return syntax.unite_types(existing.type, types)
