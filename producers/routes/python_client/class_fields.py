"""`self.<name>` read in a method: the value of the one write its class makes, when proven.

SDKs hold their client on the instance (`self._client = httpx.Client(base_url=…)` in
`__init__`, then `self._client.get("/v1/ping/")` in the methods). The read in a method of
class C is the value of the write `self.<name> = v` when:

- C's own methods write `self.<name>` exactly once, with a plain `=` on that one target;
  C and the classes related to it bind no class attribute `<name>` (a read before the write
  would find it) and define no `__setattr__`/`__getattr__`/`__getattribute__`;
- every other write of `.<name>` in the project is `self.<name> = …` in a method of a
  class D that never shares an instance with C: D is not an ancestor or a descendant of
  C, no class derives from both, and every class involved has proven bases (project
  classes, library imports or builtins); a class with a base that is not proven (a call,
  a name bound twice) may derive from anything;
- no `setattr(` call in the project (it can write any attribute).

This is the JS client's proof for `this.field` (routes/client/static_values.py: one
assignment, in the class) made to fit Python: a write outside `__init__` is still the
only value the attribute can hold (without a class attribute a read before it raises).
Library base classes are taken as they are declared: a library class that transforms
attribute writes is not looked into.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.python_client.evaluator import Cls
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.routes.python_client.scopes import nodes
from tsograph.producers.values.unknown import UNKNOWN

if TYPE_CHECKING:
    from tsograph.producers.routes.python_client.project import PyProject

_MAY_SET = re.compile(rb"setattr|__dict__")
_HOOKS = ("__setattr__", "__getattr__", "__getattribute__")
_WRITE_KINDS = frozenset({"assign", "for_in", "comprehension_for", "with_item", "delete"})


@dataclass
class ClassInfo:
    node: Node
    path: str
    parents: list[int] = field(default_factory=list)  # ids of project base classes
    open: bool = False  # a base that is not proven


@dataclass
class Write:
    target: Node  # the `X.<name>` member written
    assign: Node | None  # the plain `self.<name> = v` statement, else None
    cls: Node | None  # the class whose method writes `self.<name>`, else None


class ClassFields:
    def __init__(self, project: PyProject) -> None:
        self.project = project
        self._classes: dict[int, ClassInfo] | None = None
        self._ancestors: dict[int, tuple[frozenset[int], bool]] = {}
        self._writes: dict[str, list[Write]] = {}
        self._setattr_keys: set[str | None] | None = None  # None: a key not written literally

    def value(self, ev: Evaluator, ctx: Context, owner: Node, name: str) -> Value:
        """`<owner>.<name>` where `owner` is the first parameter of a method of a class."""
        method, cls = method_of(owner)
        if method is None or cls is None or owner.value != first_parameter(method):
            return UNKNOWN
        if self._setattr_may_write(name):
            return UNKNOWN
        own: list[Write] = []
        for write in self.writes(name):
            if write.cls is cls:
                own.append(write)
            elif write.cls is None or not self._apart(cls, write.cls):
                return UNKNOWN
        if len(own) != 1 or own[0].assign is None:
            return UNKNOWN
        if self._shadowed(cls, name):
            return UNKNOWN
        return ev.value(ctx, own[0].assign.part("right"))

    # ---- writes ---------------------------------------------------------------------

    def writes(self, name: str) -> list[Write]:
        found = self._writes.get(name)
        if found is None:
            found = []
            needle = b"." + name.encode()
            for path in self.project.paths:
                data = self.project.data(path)
                ctx = self.project.context(path) if data is not None and needle in data else None
                if ctx is not None:
                    found.extend(_writes_in(ctx.root, name))
            self._writes[name] = found
        return found

    def _setattr_may_write(self, name: str) -> bool:
        """A `setattr(obj, key, v)` call whose key is not a literal other than `name`."""
        if self._setattr_keys is None:
            keys: set[str | None] = set()
            for path in self.project.paths:
                data = self.project.data(path)
                ctx = self.project.context(path) if data and _MAY_SET.search(data) else None
                if ctx is not None:
                    keys.update(_setattr_keys(ctx))
            self._setattr_keys = keys
        return None in self._setattr_keys or name in self._setattr_keys

    # ---- classes --------------------------------------------------------------------

    def _apart(self, cls: Node, other: Node) -> bool:
        """Whether no instance can be both a `cls` and an `other`."""
        classes = self.classes()
        ancestors, is_open = self.ancestors(id(cls))
        if is_open or id(other) in ancestors:
            return False
        for key in classes:
            line, line_open = self.ancestors(key)
            if id(other) not in line:
                continue
            if line_open or id(cls) in line:
                return False
        # A class whose line is not proven may derive from both.
        return not any(self.ancestors(key)[1] for key in classes)

    def _shadowed(self, cls: Node, name: str) -> bool:
        """A class attribute `name`, or an attribute hook, in `cls`, its ancestors or
        descendants."""
        classes = self.classes()
        ancestors, _ = self.ancestors(id(cls))
        family = set(ancestors)
        family.update(key for key in classes if id(cls) in self.ancestors(key)[0])
        for key in family:
            info = classes.get(key)
            ctx = self.project.context(info.path) if info is not None else None
            if info is None or ctx is None:
                continue
            bound = ctx.scopes.table(info.node).names
            if name in bound or any(hook in bound for hook in _HOOKS):
                return True
        return False

    def ancestors(self, key: int) -> tuple[frozenset[int], bool]:
        """The project classes a class derives from (itself included), and whether a base
        somewhere along the line is not proven."""
        found = self._ancestors.get(key)
        if found is None:
            classes = self.classes()
            seen: set[int] = set()
            is_open = False
            work = [key]
            while work:
                current = work.pop()
                if current in seen:
                    continue
                seen.add(current)
                info = classes.get(current)
                if info is None:
                    is_open = True
                    continue
                is_open = is_open or info.open
                work.extend(info.parents)
            found = (frozenset(seen), is_open)
            self._ancestors[key] = found
        return found

    def classes(self) -> dict[int, ClassInfo]:
        if self._classes is None:
            self._classes = {}
            ev = Evaluator(self.project)
            for path in self.project.paths:
                ctx = self.project.context(path)
                if ctx is None:
                    continue
                for node in nodes(ctx.root):
                    if node.kind == "class":
                        self._classes[id(node)] = _class_info(ev, ctx, node)
        return self._classes


def _class_info(ev: Evaluator, ctx: Context, node: Node) -> ClassInfo:
    info = ClassInfo(node, ctx.path)
    bases = node.part("bases")
    for base in bases.items if bases is not None else ():
        if base.kind == "keyword":
            continue  # metaclass=…: not a base
        value = ev.value(ctx, base)
        if isinstance(value, Cls):
            info.parents.append(id(value.node))
        elif not isinstance(value, Lib) and not _outside(ev, ctx, base):
            info.open = True
    return info


def _outside(ev: Evaluator, ctx: Context, base: Node) -> bool:
    """A base that cannot be a project class: a builtin name, or a name (or an attribute or
    subscript of one) imported from a module outside the project."""
    head = base
    while head.kind in ("member", "index"):
        inner = head.part("object")
        if inner is None:
            return False
        head = inner
    if head.kind != "identifier" or not head.value:
        return False
    found = ctx.scopes.lookup(head, head.value)
    if found is None:
        # Unbound in the file: a builtin, unless a star import may have brought it.
        return not any(
            node.kind == "import_named" and node.value == "*" for node in nodes(ctx.root)
        )
    _, sites = found
    return bool(sites) and all(
        site.kind == "import" and _external_import(ev.project, ctx, site.node) for site in sites
    )


def _external_import(project: PyProject, ctx: Context, entry: Node) -> bool:
    """An import entry whose module is outside the project (a dependency or the standard
    library, as PythonModules resolves it)."""
    statement = entry.parent
    specifier = statement.value if statement is not None else None
    if not specifier or specifier.startswith("."):
        return False
    top = specifier.split(".", 1)[0]
    return project.modules.resolve(ctx.path, top).kind == "external"


def _setattr_keys(ctx: Context) -> set[str | None]:
    """The attribute names the file's `setattr` calls write (None: not a literal); a
    `setattr` passed as a value, `__setattr__` or `__dict__` may write any."""
    keys: set[str | None] = set()
    for node in nodes(ctx.root):
        if node.kind == "member":
            prop = node.part("property")
            if prop is not None and prop.value in ("setattr", "__setattr__"):
                keys.add(None)  # `object.__setattr__(self, k, v)`
            elif prop is not None and prop.value == "__dict__" and not _read_only(node):
                keys.add(None)  # `obj.__dict__[k] = v`, `.update(…)`, or an alias of it
            continue
        if node.kind != "identifier" or node.value != "setattr":
            continue
        parent = node.parent
        if parent is None or parent.kind != "call" or parent.part("callee") is not node:
            keys.add(None)
            continue
        items = list(parent.items)
        key = items[1] if len(items) > 1 else None
        literal = key is not None and key.kind == "string" and "bytes" not in key.flags
        keys.add(key.value if literal and key is not None else None)
    return keys


def _read_only(dict_member: Node) -> bool:
    """`obj.__dict__` only read: `.copy()`, `.items()`, `.keys()`, `.values()`, `.get(…)`."""
    parent = dict_member.parent
    if parent is None or parent.kind != "member" or parent.part("object") is not dict_member:
        return False
    prop = parent.part("property")
    return prop is not None and prop.value in ("copy", "items", "keys", "values", "get")


def _writes_in(root: Node, name: str) -> list[Write]:
    found: list[Write] = []
    for node in nodes(root):
        if node.kind not in _WRITE_KINDS:
            continue
        if node.kind == "with_item":
            targets = [node.part("alias")]
        elif node.kind == "delete":
            targets = list(node.items)
        else:
            targets = [node.part("left")]
        for target in targets:
            for member in _members(target):
                prop = member.part("property")
                if prop is None or prop.value != name:
                    continue
                found.append(_write(node, member))
    return found


def _members(target: Node | None) -> list[Node]:
    if target is None:
        return []
    if target.kind == "member":
        return [target]
    if target.kind in ("array", "spread", "array_pattern", "object_pattern"):
        return [member for item in target.children() for member in _members(item)]
    return []


def _write(statement: Node, member: Node) -> Write:
    owner = member.part("object")
    method, cls = method_of(member)
    if owner is None or method is None or owner.kind != "identifier":
        return Write(member, None, None)
    if owner.value != first_parameter(method):
        return Write(member, None, None)
    plain = (
        statement.kind == "assign" and statement.value == "=" and statement.part("left") is member
    )
    return Write(member, statement if plain else None, cls)


def method_of(node: Node) -> tuple[Node | None, Node | None]:
    """The function directly inside a class body that holds `node`, and that class."""
    function: Node | None = None
    for ancestor in node.ancestors():
        if ancestor.kind == "function":
            function = ancestor
        elif ancestor.kind == "class":
            if function is not None and function.parent is ancestor:
                return function, ancestor
            return None, None
    return None, None


def first_parameter(function: Node) -> str | None:
    """The name a method's instance is bound to; None for static and class methods."""
    params = function.part("parameters")
    if params is None or not params.items:
        return None
    if any(decorator_name(d) in ("staticmethod", "classmethod") for d in function.decorators):
        return None
    pattern = params.items[0].part("pattern")
    return pattern.value if pattern is not None and pattern.kind == "identifier" else None


def decorator_name(decorator: Node) -> str:
    value = decorator.part("value")
    return value.value or "" if value is not None and value.kind == "identifier" else ""
