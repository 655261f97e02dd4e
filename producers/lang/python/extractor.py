"""Per-file facts of a Python file, read from its neutral syntax tree.

One walk in source order (an explicit stack, so deep nesting costs no Python
stack) with a context per node: the declaration that owns the code, its
declaration path, the lexical scope, the enclosing class. Names are resolved
once the file is read (see scopes.py), refs to call results once every call
has its index.

Ids follow exchange/symbol_ids.py: `app/models.py#User.save`, nested
functions `outer.inner`, the module `<module>`. What is named:

* `def` and `class` at any depth, methods (`__init__` is the `constructor`,
  `@property` and its setters `accessor`s, `@staticmethod`/`@classmethod`
  `static`), a name assigned at module level (`variable`) or in a class body
  (`field`), and a lambda assigned to a plain name (a `function` of that name).
* A lambda or a generator expression passed directly as a call argument is an
  inline callback named as JavaScript's are (`<callee>(<keys>)`, numbered
  `~2`…): the callee runs it. Any other lambda, and list, set and dict
  comprehensions (which run in place), belong to the code around them.
* Decorators, base classes and default values belong to what they decorate
  or define; code under `if __name__ == "__main__":` belongs to the module,
  and the block's line is kept in `main_guards`.

The first parameter of a method is `this` (`self`) or, in a classmethod and
`__new__`, `static-this` (`cls`); it is no binding, and parameter positions
count the arguments a call passes (after `self`). Imports: `import a.b as c`
is a namespace import of `a.b` as `c`; `import a.b` binds `a` to `a` and loads
`a.b` (a side-effect import); `from .m import x` is a named import;
`from m import *` is a `star` import; imports under `if TYPE_CHECKING:` are
type-only. A literal `__all__` gives the file's exports.
"""

from __future__ import annotations

import dataclasses

from tsograph.exchange.symbol_ids import Key
from tsograph.exchange.symbol_ids import callback_segment
from tsograph.exchange.symbol_ids import symbol_id
from tsograph.producers.lang.drafts import BindingDraft
from tsograph.producers.lang.drafts import InitDraft
from tsograph.producers.lang.drafts import RefDraft
from tsograph.producers.lang.drafts import ReturnDraft
from tsograph.producers.lang.facts import Binding
from tsograph.producers.lang.facts import DeclarationKind
from tsograph.producers.lang.facts import Import
from tsograph.producers.lang.facts import Ref
from tsograph.producers.lang.facts import TypeDeclaration
from tsograph.producers.lang.facts import TypeRef
from tsograph.producers.lang.python.node_reading import CHAINS
from tsograph.producers.lang.python.node_reading import assigns
from tsograph.producers.lang.python.node_reading import callback_key
from tsograph.producers.lang.python.node_reading import callee_of
from tsograph.producers.lang.python.node_reading import decorator_word
from tsograph.producers.lang.python.node_reading import is_attribute_read
from tsograph.producers.lang.python.node_reading import is_main_guard
from tsograph.producers.lang.python.node_reading import is_super_call
from tsograph.producers.lang.python.node_reading import isinstance_test
from tsograph.producers.lang.python.node_reading import paired
from tsograph.producers.lang.python.node_reading import use_kind
from tsograph.producers.lang.python.recorder import Context
from tsograph.producers.lang.python.recorder import Recorder
from tsograph.producers.lang.python.scopes import Narrowed
from tsograph.producers.lang.python.scopes import Scope
from tsograph.producers.lang.syntax_tree import Node

# The path of a local bound by `with value as name`: it holds what value.__enter__() returns.
ENTERED = ("__enter__",)
# Declarations nested deeper than this are not named (as in the TypeScript front-end).
MAX_NAMED_DEPTH = 32


class Extractor(Recorder):
    """The walk: each node in source order with the context it stands in."""

    # ---- the walk ---------------------------------------------------------------------

    def run(self, root: Node) -> None:
        top = Context(self.module, (), self.module_scope)
        stack: list[tuple[Node, Context]] = [(child, top) for child in reversed(root.items)]
        while stack:
            node, context = stack.pop()
            pushed = self.visit(node, context)
            if pushed is None:
                pushed = [(child, context) for child in node.children()]
            stack.extend(reversed(pushed))

    def visit(self, node: Node, ctx: Context) -> list[tuple[Node, Context]] | None:
        kind = node.kind
        if kind == "function":
            return self.on_function(node, ctx)
        if kind == "class":
            return self.on_class(node, ctx)
        if kind == "call":
            self.on_call(node, ctx)
        elif kind == "decorator":
            value = node.part("value")
            if value is not None and value.kind != "call":
                self.site(value, ctx, "decorator", value)
        elif kind == "assign":
            self.on_assign(node, ctx)
        elif kind == "return":
            value = node.part("value")
            self.returns.append(
                ReturnDraft(ctx.owner, self.init_of(value, ctx) or InitDraft("nullish"))
            )
        elif kind == "import":
            self.on_import(node, ctx)
        elif kind == "scope_declaration":
            names = {item.value or "" for item in node.items}
            (ctx.scope.globals if node.value == "global" else ctx.scope.nonlocals).update(names)
        elif kind == "comprehension":
            return self.on_comprehension(node, ctx)
        elif kind == "for_in":
            self.bind_targets(node.part("left"), ctx)
        elif kind == "with_item":
            self.bind_entered(node.part("alias"), node.part("value"), ctx)
        elif kind == "catch":
            self.bind_targets(node.part("parameter"), ctx)
        elif kind == "match_pattern":
            for item in node.items:
                self.bind_targets(item, ctx)
            return []
        elif kind == "if" and ctx.owner == self.module and is_main_guard(node.part("condition")):
            self.main_guards.append(self.loc(node)[0])
        elif kind == "if":
            return self.on_if(node, ctx)
        elif kind == "type_alias":
            name = node.part("name")
            if name is not None and name.kind == "identifier" and ctx.scope.kind == "module":
                line, column = self.loc(name)
                self.types.append(TypeDeclaration(name.value or "", "type", line, column))
            return []
        elif kind == "annotation":
            return []  # types name no values the graph follows
        elif kind in CHAINS:
            use = use_kind(node)
            if use is not None:
                self.use(node, ctx, use)
            elif is_attribute_read(node):
                self.use(node, ctx, "read")
        return None

    # ---- definitions ------------------------------------------------------------------

    def child_context(
        self, ctx: Context, name: str | None, at: Node
    ) -> tuple[Context | None, tuple[str, ...]]:
        """The owner a named definition gets: (None when it is not named, its path)."""
        if name is None or not ctx.named:
            return None, ctx.path
        if ctx.depth + 1 >= MAX_NAMED_DEPTH:
            self.nesting_cuts += 1
            return None, ctx.path
        path = (*ctx.path, name)
        return ctx, path

    def on_function(self, node: Node, ctx: Context) -> list[tuple[Node, Context]]:
        name_node = node.part("name")
        decorators = [d.part("value") for d in node.decorators]
        flags = {decorator_word(value) for value in decorators if value is not None}
        if node.value == "lambda":
            owner, path, named = _owned(self.lambda_owner(node, ctx), ctx)
        elif name_node is not None:
            owner, path, named = self.on_def(node, name_node, flags, ctx)
        else:
            owner, path, named = _owned(None, ctx)
        if named:
            self.spans.append((node.start, node.end, owner))
        scope = Scope(ctx.scope, "function")
        inner = Context(owner, path, scope, "", named or ctx.named, ctx.depth + (1 if named else 0))
        if not named and node.value != "lambda" and name_node is not None and ctx.named:
            inner = Context(owner, path, scope, "", False, ctx.depth)
        outer = Context(owner, ctx.path, ctx.scope, ctx.class_id, ctx.named, ctx.depth)
        pushed: list[tuple[Node, Context]] = [(d, outer) for d in node.decorators]
        receiver = ""
        if ctx.class_id and node.value != "lambda":
            if "staticmethod" in flags:
                receiver = ""
            elif "classmethod" in flags or (name_node is not None and name_node.value == "__new__"):
                receiver = "static-this"
            else:
                receiver = "this"
        parameters = node.part("parameters")
        if parameters is not None:
            pushed.extend(self.bind_parameters(parameters, owner, scope, outer, receiver, ctx))
        body = node.part("body")
        if body is not None:
            if node.value == "lambda" and named:
                self.returns.append(
                    ReturnDraft(owner, self.init_of(body, inner) or InitDraft("other"))
                )
            pushed.append((body, inner))
        return pushed

    def on_def(
        self, node: Node, name_node: Node, flags: set[str], ctx: Context
    ) -> tuple[str, tuple[str, ...], bool]:
        """A `def`'s name: declared (a function, method, constructor or accessor) when named,
        bound in the scope around it; (owner, path, named) of its code."""
        parent_ctx, path = self.child_context(ctx, name_node.value, name_node)
        owner, named = ctx.owner, parent_ctx is not None
        if named:
            owner = symbol_id(self.path, path)
            kind: DeclarationKind = "function"
            static = False
            if ctx.class_id:
                kind = "method"
                if name_node.value == "__init__":
                    kind = "constructor"
                elif "property" in flags or "accessor" in flags:
                    kind = "accessor"
                # `__new__` is a static method whether or not it is decorated as one.
                static = bool(flags & {"staticmethod", "classmethod"}) or (
                    name_node.value == "__new__"
                )
            line, column = self.loc(name_node)
            returned = self.types_of(node.part("return_type"))
            self.declare(
                owner,
                kind,
                path[-1],
                line,
                column,
                ctx.owner,
                has_body=True,
                static=static,
                type=returned,
            )
            self.decl_of_node[id(node)] = owner
        if name_node.value and ctx.scope.owns(name_node.value):
            ctx.scope.bind(
                name_node.value, ("decl", owner) if named else self.local_for(name_node, ctx)
            )
        elif name_node.value:
            self.write_name(name_node, ctx, InitDraft("function"))
        return owner, path, named

    def lambda_owner(self, node: Node, ctx: Context) -> tuple[str, tuple[str, ...]] | None:
        """(owner, path) of a lambda that gets a name, else None."""
        named = self.decl_of_node.get(id(node))
        if named is not None:
            return named, self.path_of_node[id(node)]
        return self.inline_callback(node, ctx)

    def inline_callback(self, node: Node, ctx: Context) -> tuple[str, tuple[str, ...]] | None:
        parent = node.parent
        if parent is not None and parent.kind == "keyword":
            parent = parent.parent
        if parent is None or parent.kind != "call" or not ctx.named:
            return None
        if ctx.depth + 1 >= MAX_NAMED_DEPTH:
            self.nesting_cuts += 1
            return None
        callee = callee_of(parent.part("callee"))
        if callee is None:
            return None
        keys: list[Key] = []
        for argument in parent.items:
            key = callback_key(argument)
            if key is None or len(keys) == 2:
                break
            keys.append(key)
        line, column = self.loc(node)
        segment = callback_segment(callee, keys)
        return self.declare_callback(ctx.owner, segment, id(node), line, column)

    def bind_parameters(
        self,
        parameters: Node,
        owner: str,
        scope: Scope,
        outer: Context,
        receiver: str,
        ctx: Context,
    ) -> list[tuple[Node, Context]]:
        pushed: list[tuple[Node, Context]] = []
        position = 0
        for parameter in parameters.items:
            if parameter.kind != "parameter":
                continue
            pattern = parameter.part("pattern")
            default = parameter.part("value")
            if default is not None:
                pushed.append((default, outer))
            if pattern is None or pattern.kind != "identifier":
                continue
            name = pattern.value or ""
            if receiver:
                scope.bind(name, (receiver, ctx.class_id))
                receiver = ""
                continue
            starred = "rest" in parameter.flags or "keywords" in parameter.flags
            line, column = self.loc(pattern)
            types = self.types_of(parameter.part("type"))
            init = None if default is None else self.init_of(default, outer)
            path = None if starred else ()
            fact = Binding(name, "param", owner, line, column, position, types, None, path)
            draft = BindingDraft(fact, init)
            if scope.bind(name, ("param", len(self.bindings))):
                self.bindings.append(draft)
                self.binding_scopes.append(scope)
            position += 1
        return pushed

    def on_class(self, node: Node, ctx: Context) -> list[tuple[Node, Context]]:
        name_node = node.part("name")
        name = None if name_node is None else name_node.value
        parent_ctx, path = self.child_context(ctx, name, node)
        bases = node.part("bases")
        positional = (
            [] if bases is None else [b for b in bases.items if b.kind not in ("keyword", "spread")]
        )
        extends = None
        if positional:
            extends = self.value_ref(positional[0], ctx)
        scope = Scope(ctx.scope, "class")
        if parent_ctx is None or name_node is None:
            owner = ctx.owner
            inner = Context(owner, ctx.path, scope, "", False, ctx.depth)
        else:
            owner = symbol_id(self.path, path)
            line, column = self.loc(name_node)
            self.declare(
                owner, "class", path[-1], line, column, ctx.owner, has_body=True, extends=extends
            )
            self.spans.append((node.start, node.end, owner))
            inner = Context(owner, path, scope, owner, True, ctx.depth + 1)
        if name and ctx.scope.owns(name):
            ctx.scope.bind(
                name, ("decl", owner) if parent_ctx is not None else self.local_for(name_node, ctx)
            )
        outer = Context(owner, ctx.path, ctx.scope, ctx.class_id, ctx.named, ctx.depth)
        pushed: list[tuple[Node, Context]] = [(d, outer) for d in node.decorators]
        if bases is not None:
            pushed.append((bases, outer))
        pushed.extend((item, inner) for item in node.items)
        return pushed

    def local_for(self, name_node: Node | None, ctx: Context) -> tuple[str, str | int]:
        """Bind an unnamed definition's name as a local of the code around it."""
        assert name_node is not None
        line, column = self.loc(name_node)
        index = len(self.bindings)
        fact = Binding(name_node.value or "", "local", ctx.owner, line, column)
        self.bindings.append(BindingDraft(fact))
        self.binding_scopes.append(ctx.scope)
        return ("local", index)

    def on_comprehension(self, node: Node, ctx: Context) -> list[tuple[Node, Context]]:
        found = self.inline_callback(node, ctx) if node.value == "generator" else None
        owner, path, named = _owned(found, ctx)
        if named:
            self.spans.append((node.start, node.end, owner))
        scope = Scope(ctx.scope, "comprehension")
        inner = Context(owner, path, scope, "", ctx.named, ctx.depth + (1 if named else 0))
        for clause in node.items:
            if clause.kind == "comprehension_for":
                self.bind_targets(clause.part("left"), inner)
        return [(child, inner) for child in node.children()]

    def on_if(self, node: Node, ctx: Context) -> list[tuple[Node, Context]] | None:
        """`if isinstance(x, C):` where x is a parameter or local of this function that the
        body never assigns: in the body, x reads a local typed C (a subclass may be what it
        holds, as for an annotation)."""
        narrowed = isinstance_test(node.part("condition"))
        body = node.part("consequence")
        if narrowed is None or body is None or ctx.scope.kind != "function":
            return None
        name, class_node = narrowed
        bound = ctx.scope.names.get(name)
        if (
            bound is None
            or bound[0] not in ("param", "local")
            or name in ctx.scope.conflicts
            or ctx.scope.lookup("isinstance") is not None
            or assigns(body, name)
        ):
            return None
        line, column = self.loc(class_node)
        index = len(self.bindings)
        types = self.types_of(class_node)
        fact = Binding(name, "local", ctx.owner, line, column, type=types)
        self.bindings.append(BindingDraft(fact))
        self.binding_scopes.append(ctx.scope)
        inner = dataclasses.replace(ctx, scope=Narrowed(ctx.scope, name, index))
        return [(child, inner if child is body else ctx) for child in node.children()]

    # ---- names, writes and values -----------------------------------------------------

    def bind_targets(self, target: Node | None, ctx: Context, value: Node | None = None) -> None:
        """Names an assignment-like statement binds (`for`, `with … as`, `except … as`)."""
        if target is None:
            return
        if target.kind == "identifier":
            init = self.init_of(value, ctx) if value is not None else InitDraft("other")
            self.assign_name(target, ctx, init or InitDraft("other"), ())
        elif target.kind == "array":
            for item in target.items:
                self.bind_targets(item.part("value") if item.kind == "spread" else item, ctx)
        elif target.kind in ("member", "index"):
            self.write_chain(target, ctx, InitDraft("other"))

    def bind_entered(self, target: Node | None, value: Node | None, ctx: Context) -> None:
        """`with value as name`: name holds what `value.__enter__()` returns, which binding
        reads from the local's init and the path ("__enter__",); anything else bound by a
        `with` stores an unknown value."""
        if target is None:
            return
        scope = ctx.scope
        name = target.value or ""
        if (
            target.kind != "identifier"
            or scope.kind not in ("function", "comprehension")
            or not scope.owns(name)
            or name in scope.names
        ):
            self.bind_targets(target, ctx)
            return
        line, column = self.loc(target)
        init = self.init_of(value, ctx) or InitDraft("other")
        scope.bind(name, ("local", len(self.bindings)))
        fact = Binding(name, "local", ctx.owner, line, column, path=ENTERED)
        self.bindings.append(BindingDraft(fact, init))
        self.binding_scopes.append(scope)

    def assign_name(
        self, target: Node, ctx: Context, init: InitDraft, types: tuple[TypeRef, ...]
    ) -> None:
        name = target.value or ""
        scope = ctx.scope
        if not scope.owns(name) or name in scope.names:
            self.write_name(target, ctx, init)
            return
        line, column = self.loc(target)
        is_lambda = init.kind == "function" and init.ref is not None and init.ref.node >= 0
        if (
            ctx.named
            and ctx.depth + 1 < MAX_NAMED_DEPTH
            and (is_lambda or scope.kind in ("module", "class"))
        ):
            ident = symbol_id(self.path, (*ctx.path, name))
            kind: DeclarationKind = "variable" if scope.kind == "module" else "field"
            if is_lambda and init.ref is not None:
                # `f = lambda …` names the lambda `f`, at any depth (as `def f` would).
                kind = "method" if scope.kind == "class" else "function"
                self.decl_of_node[init.ref.node] = ident
                self.path_of_node[init.ref.node] = (*ctx.path, name)
                init = InitDraft("function", RefDraft(ready=Ref("decl", target=ident)))
            self.declare(
                ident, kind, name, line, column, ctx.owner, has_body=True, type=types, init=init
            )
            scope.bind(name, ("decl", ident))
            return
        scope.bind(name, ("local", len(self.bindings)))
        fact = Binding(name, "local", ctx.owner, line, column, type=types)
        self.bindings.append(BindingDraft(fact, init))
        self.binding_scopes.append(scope)

    def on_assign(self, node: Node, ctx: Context) -> None:
        left = node.part("left")
        right = node.part("right")
        if left is None:
            return
        if node.value not in ("=", ":="):
            if node.value == "+=" and _is_all(left, ctx):
                self.on_all(right, ctx)  # `__all__ += [...]` exports more names
            elif left.kind == "identifier":
                # `x += y` stores what `x.__iadd__(y)` returns: a value not followed.
                self.write_name(left, ctx, InitDraft("other"))
            elif left.kind in ("member", "index"):
                self.write_chain(left, ctx, InitDraft("other"))
            return
        types = self.types_of(node.part("type"))
        if right is not None and right.kind == "function" and right.value == "lambda":
            init: InitDraft | None = InitDraft("function", RefDraft(node=id(right)))
        else:
            init = self.init_of(right, ctx) if right is not None else None
        if left.kind == "identifier":
            if right is None:
                # `x: int` declares without storing.
                self.annotate_name(left, ctx, types)
                return
            self.assign_name(left, ctx, init or InitDraft("other"), types)
            if _is_all(left, ctx):
                self.on_all(right, ctx)
        elif left.kind in ("member", "index"):
            if right is not None:
                self.write_chain(left, ctx, init or InitDraft("other"))
        elif left.kind == "array":
            values = paired(left, right)
            for index, item in enumerate(left.items):
                if values is not None and item.kind == "identifier":
                    value = self.init_of(values[index], ctx) or InitDraft("other")
                    self.assign_name(item, ctx, value, ())
                else:
                    self.bind_targets(item.part("value") if item.kind == "spread" else item, ctx)

    def annotate_name(self, target: Node, ctx: Context, types: tuple[TypeRef, ...]) -> None:
        name = target.value or ""
        scope = ctx.scope
        if name in scope.names or not scope.owns(name):
            return
        line, column = self.loc(target)
        if scope.kind in ("module", "class") and ctx.named and ctx.depth + 1 < MAX_NAMED_DEPTH:
            ident = symbol_id(self.path, (*ctx.path, name))
            kind: DeclarationKind = "variable" if scope.kind == "module" else "field"
            self.declare(ident, kind, name, line, column, ctx.owner, has_body=False, type=types)
            scope.bind(name, ("decl", ident))
            return
        scope.bind(name, ("local", len(self.bindings)))
        fact = Binding(name, "local", ctx.owner, line, column, type=types)
        self.bindings.append(BindingDraft(fact))
        self.binding_scopes.append(scope)

    def on_all(self, value: Node | None, ctx: Context) -> None:
        """`__all__ = ["a", "b"]`: each literal name is an export of this file."""
        if value is None or value.kind != "array":
            return
        for item in value.items:
            if item.kind != "string" or item.value is None:
                continue
            line, column = self.loc(item)
            self.exports.append((item.value, line, column, RefDraft(item.value, self.module_scope)))

    def on_import(self, node: Node, ctx: Context) -> None:
        specifier = node.value or ""
        type_only = "type" in node.flags
        for item in node.items:
            local_node = item.part("local")
            local = "" if local_node is None else (local_node.value or "")
            line, column = self.loc(item)
            if item.kind == "import_namespace":
                if item.value == "bind-first":
                    self.add_import("namespace", local, "*", local, line, column, type_only, ctx)
                    if specifier != local:
                        self.add_import(
                            "side-effect", specifier, "", "", line, column, type_only, ctx
                        )
                else:
                    self.add_import(
                        "namespace", specifier, "*", local, line, column, type_only, ctx
                    )
            elif item.value == "*":
                self.add_import("star", specifier, "*", "", line, column, type_only, ctx)
            else:
                self.add_import(
                    "named", specifier, item.value or "", local, line, column, type_only, ctx
                )

    def add_import(
        self,
        kind: str,
        specifier: str,
        imported: str,
        local: str,
        line: int,
        column: int,
        type_only: bool,
        ctx: Context,
    ) -> None:
        index = len(self.imports)
        scoped = ctx.scope.kind != "module"
        self.imports.append(
            Import(kind, specifier, imported, local, line, column, type_only, scoped)  # type: ignore[arg-type]
        )
        if not local or not ctx.scope.owns(local):
            return
        existing = ctx.scope.names.get(local)
        if existing is not None and existing[0] == "import":
            earlier = self.imports[int(existing[1])]
            if (earlier.kind, earlier.specifier, earlier.imported) == (kind, specifier, imported):
                return  # `import os` and `import os.path` both bind `os` to the module os
        ctx.scope.bind(local, ("import", index))

    # ---- calls and values -------------------------------------------------------------

    def on_call(self, node: Node, ctx: Context) -> None:
        callee = node.part("callee")
        if callee is None or (is_super_call(node) and ctx.scope.lookup("super") is None):
            return  # `super()` itself is the head of a `super` chain, not a call to follow
        self.site(node, ctx, "call", callee)

    # ---- the end ----------------------------------------------------------------------


def _is_all(left: Node, ctx: Context) -> bool:
    return left.kind == "identifier" and left.value == "__all__" and ctx.scope.kind == "module"


def _owned(
    found: tuple[str, tuple[str, ...]] | None, ctx: Context
) -> tuple[str, tuple[str, ...], bool]:
    """(owner, path, named) of code that `found` names apart, else of the code around it."""
    if found is None:
        return ctx.owner, ctx.path, False
    return found[0], found[1], True
