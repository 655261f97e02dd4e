"""The drafts of one Python file, and how a lowered node becomes one of them.

`Recorder` holds what the extractor (extractor.py) has found so far and the
pieces every part of the walk uses: declaring a symbol, reading a callee or
value chain into a ref, summarising an initializer, recording a call site or
a value use. `facts` resolves the drafts once the whole file is read.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.exchange.locations import LineIndex
from tsograph.producers.lang.drafts import UNRESOLVED
from tsograph.producers.lang.drafts import FileDrafts
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.drafts import Resolver
from tsograph.producers.lang.drafts import SiteDraft
from tsograph.producers.lang.drafts import WriteDraft
from tsograph.producers.lang.facts import CallSite
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.facts import Init
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import SiteKind
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.python.annotations import type_refs
from tsograph.producers.lang.python.node_reading import is_super_call
from tsograph.producers.lang.python.scopes import Scope
from tsograph.producers.lang.syntax_tree import Node

# Object literals nested deeper than this are summarised as "other".
OBJECT_DEPTH = 4
_TYPING = frozenset({"typing", "typing_extensions"})
_OTHER = Ref("other")
_READ_HEADS = frozenset({"param", "local", "decl", "import", "this", "static-this"})
# A site_nodes entry that keeps a read site without naming a call node (ids are positive).
READ_MARK = 0
# An attribute read whose chain takes more steps than this is not recorded (a nesting cut).
# Every prefix of `a.b.b.b…()` is a read of its own: unbounded, the reads of one chain of n
# members would walk and copy n²/2 members.
MAX_READ_CHAIN = 32


@dataclass(frozen=True, slots=True)
class Context:
    """Where the walk stands: the declaration that owns the code, its declaration path, the
    lexical scope, the class whose body this is ("" elsewhere), whether definitions here are
    named, and how many named owners enclose the code."""

    owner: str
    path: tuple[str, ...]
    scope: Scope
    class_id: str = ""
    named: bool = True
    depth: int = 0


class Recorder(FileDrafts):
    def __init__(self, path: str, data: bytes) -> None:
        super().__init__(path)
        self.data = data
        self.lines = LineIndex(data, count_bom=True)
        self.binding_scopes: list[Scope] = []
        self.exports: list[tuple[str, int, int, RefDraft]] = []
        self.main_guards: list[int] = []
        self.spans: list[tuple[int, int, str]] = []
        self.path_of_node: dict[int, tuple[str, ...]] = {}
        self.module_scope = Scope(None, "module")

    def loc(self, node: Node) -> tuple[int, int]:
        return self.lines.position(node.start)

    def typing_names(self) -> dict[str, str]:
        """Module-level names imported from typing: local name -> the typing name."""
        found: dict[str, str] = {}
        for item in self.imports:
            if item.specifier in _TYPING and item.kind == "named":
                found[item.local] = item.imported
            elif item.specifier in _TYPING and item.kind == "namespace":
                found[item.local] = "*"
        return found

    def types_of(self, annotation: Node | None) -> tuple[TypeRef, ...]:
        if annotation is None:
            return ()
        return type_refs(annotation, self.typing_names())

    def write_name(self, target: Node, ctx: Context, init: InitDraft) -> None:
        self.writes.append(WriteDraft(ctx.owner, RefDraft(target.value or "", ctx.scope), init))

    def write_chain(self, target: Node, ctx: Context, init: InitDraft) -> None:
        computed = target.kind == "index"
        receiver = target.part("object") if computed else target
        if receiver is None:
            return
        ref = self.value_ref(receiver, ctx)
        self.writes.append(WriteDraft(ctx.owner, ref, init, computed))

    def site(self, node: Node, ctx: Context, kind: SiteKind, callee: Node) -> None:
        ref, computed, last = self.full_chain(callee, ctx)
        line, column = self.loc(last)
        args: list[InitDraft] = []
        spread = False
        if node.kind == "call":
            for argument in node.items:
                if argument.kind == "spread" or argument.kind == "keyword":
                    # Positions after `*args` are unknown; keywords have no position.
                    spread = spread or argument.kind == "spread"
                    if argument.kind == "spread":
                        break
                    continue
                args.append(self.init_of(argument, ctx) or InitDraft("other"))
        fact = CallSite(
            kind, ctx.owner, line, column, UNRESOLVED, computed, spread=spread, item=_item(callee)
        )
        self.sites.append((fact, ref, args))
        self.site_nodes.append(id(node))

    def chain(
        self, node: Node, ctx: Context, limit: int | None = None
    ) -> tuple[RefDraft, bool, Node] | None:
        """The callee as a chain: (ref, cut by a computed access, the node its location is);
        None when the chain takes more than `limit` member or index steps."""
        members: list[str] = []
        computed = False
        last = node
        current = node
        steps = 0
        while True:
            if limit is not None and current.kind in ("member", "index"):
                steps += 1
                if steps > limit:
                    return None
            if current.kind == "member":
                prop = current.part("property")
                inner = current.part("object")
                if prop is None or inner is None:
                    return RefDraft(ready=_OTHER), computed, last
                if not members and not computed:
                    last = prop
                members.append(prop.value or "")
                current = inner
            elif current.kind == "index":
                inner = current.part("object")
                if inner is None:
                    return RefDraft(ready=_OTHER), True, last
                members.clear()
                computed = True
                current = inner
            else:
                break
        members.reverse()
        if current.kind == "identifier":
            return RefDraft(current.value or "", ctx.scope, members=tuple(members)), computed, last
        if current.kind == "call":
            if is_super_call(current) and ctx.scope.lookup("super") is None:
                target = self.enclosing_class(ctx)
                return (
                    RefDraft(ready=Ref("super", "super", target), members=tuple(members)),
                    computed,
                    last,
                )
            return RefDraft(node=id(current), members=tuple(members)), computed, last
        return RefDraft(ready=_OTHER, members=tuple(members)), computed, last

    def full_chain(self, node: Node, ctx: Context) -> tuple[RefDraft, bool, Node]:
        found = self.chain(node, ctx)
        assert found is not None  # no limit, no cut
        return found

    def enclosing_class(self, ctx: Context) -> str:
        """The class whose method holds the code (for `super()`), "" when none is named."""
        owner = self.decls.get(ctx.owner)
        while owner is not None and owner.fact.kind != "class":
            if owner.fact.kind in ("method", "constructor", "accessor"):
                return owner.fact.parent
            owner = self.decls.get(owner.fact.parent)
        return ""

    def value_ref(self, node: Node, ctx: Context) -> RefDraft:
        ref, computed, _ = self.full_chain(node, ctx)
        if computed:
            return RefDraft(ready=_OTHER)
        return ref

    def use(self, node: Node, ctx: Context, kind: SiteKind) -> None:
        found = self.chain(node, ctx, MAX_READ_CHAIN if kind == "read" else None)
        if found is None:
            self.nesting_cuts += 1
            return
        ref, computed, last = found
        line, column = self.loc(last)
        fact = CallSite(kind, ctx.owner, line, column, UNRESOLVED, computed)
        self.sites.append((fact, ref, ()))
        self.site_nodes.append(-1)

    def init_of(self, node: Node | None, ctx: Context, depth: int = 0) -> InitDraft | None:
        if node is None:
            return None
        kind = node.kind
        while kind in ("await", "assign") and depth < OBJECT_DEPTH:
            inner = node.part("value" if kind == "await" else "right")
            if inner is None:
                return InitDraft("other")
            node = inner
            kind = node.kind
        if kind == "null":
            return InitDraft("nullish")
        if kind in ("identifier", "member", "index"):
            return InitDraft("alias", self.value_ref(node, ctx))
        if kind == "call":
            return InitDraft("call", RefDraft(node=id(node)))
        if kind == "function":
            return InitDraft("function", RefDraft(node=id(node)))
        if kind == "object" and depth < OBJECT_DEPTH:
            members: list[tuple[str, InitDraft]] = []
            for item in node.items:
                if item.kind == "spread":
                    spread = self.init_of(item.part("value"), ctx, depth + 1)
                    if spread is not None:
                        members.append(("...", spread))
                    continue
                key = item.part("key")
                value = self.init_of(item.part("value"), ctx, depth + 1)
                if key is not None and key.kind == "string" and value is not None:
                    members.append((key.value or "", value))
            return InitDraft("object", members=members)
        if depth < OBJECT_DEPTH:
            if kind == "conditional":
                parts = [node.part("consequence"), node.part("alternative")]
            elif kind == "binary" and node.value == "or":
                parts = [node.part("left"), node.part("right")]
            elif kind == "binary" and node.value == "and":
                return self.init_of(node.part("right"), ctx, depth + 1)
            else:
                return InitDraft("other")
            found = [self.init_of(part, ctx, depth + 1) or InitDraft("other") for part in parts]
            return InitDraft("union", members=[("", part) for part in found])
        return InitDraft("other")

    def facts(self, parse_errors: int) -> FileFacts:
        resolver = _Resolver(self.bindings, {}, {}, self.decl_of_node)
        calls = resolver.kept_sites(self.sites, self.site_nodes)
        exports = []
        for name, line, column, ref in self.exports:
            value = resolver.ref(ref)
            node = value.target if value.head == "decl" else ""
            exports.append(Export("local", name, line, column, node, value))
        return self.file_facts(
            resolver, "python", calls, exports, parse_errors, main_guards=tuple(self.main_guards)
        )


def _item(callee: Node) -> tuple[str, ...] | None:
    """`holder[key]` with `holder` a name or a chain of plain attributes: the string key,
    () for any other key; None for any other callee."""
    if callee.kind != "index":
        return None
    holder = callee.part("object")
    while holder is not None and holder.kind == "member":
        holder = holder.part("object")
    if holder is None or holder.kind != "identifier":
        return None
    key = callee.part("index")
    if key is not None and key.kind == "string" and "bytes" not in key.flags:
        return (key.value or "",)
    return ()


class _Resolver(Resolver):
    """Python keeps a function value that names no declaration of its own (a lambda in a list)
    as an `other` ref, where JavaScript's facts leave the ref out."""

    __slots__ = ()

    def kept_sites(self, sites: list[SiteDraft], site_nodes: list[int]) -> list[CallSite]:
        """Attribute reads are kept when their head may have a type (a parameter or a local
        of any value, as well as the heads value uses keep): a property may answer them."""
        reads = [
            site.kind == "read" and site_nodes[index] < 0 and self.ref(callee).head in _READ_HEADS
            for index, (site, callee, _) in enumerate(sites)
        ]
        marked = [READ_MARK if read else node for read, node in zip(reads, site_nodes, strict=True)]
        return super().kept_sites(sites, marked)

    def init(self, draft: InitDraft | None) -> Init | None:
        ref = None if draft is None or draft.kind != "function" else draft.ref
        if ref is not None and ref.node >= 0:
            return Init("function", self.ref(ref))
        return super().init(draft)
