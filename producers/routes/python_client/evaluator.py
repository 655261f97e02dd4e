"""What a Python expression holds, as far as the code proves it, for URLs and HTTP clients.

Strings are plain `str` in which HOLE (routes/client/urls.py) stands for text
that is not known (a parameter, an environment value, a formatted field with
a conversion or a format spec); a hole is read as text without `/`, `?`,
`#` or `:`, the contract's reading of an interpolation that fills a segment.

Followed: string literals, f-strings, `+`, `%` (`%s`, `%d`, `%i`, `%%`,
`%(name)s` with a dict literal), `str.format` (auto, numbered and named
fields), `str(x)`, `rstrip`/`lstrip`/`strip`/`removeprefix`/`removesuffix`
with literal arguments, `"/".join([...])`, `urllib.parse.urljoin` (the
standard library's own function on the proven text), names bound exactly once
in their scope (module constants across imports included), `with X as name`,
and `self.<attr>` written exactly once in the whole project (`self.<attr> =`
in one method of the class). Anything else is UNKNOWN.

Library values are proven from imports only: an import whose top-level module
is a library the project does not itself hold (PythonModules says external)
gives `Lib(("httpx", "Client"))`; calling a client constructor gives a
`Client` that remembers its library, its `base_url` and where it was made.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.urls import BASE_MARK
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.python_client.scopes import FileScopes
from tsograph.producers.routes.python_client.scopes import Site
from tsograph.producers.values.budget import DepthBudget
from tsograph.producers.values.project_classes import ProjectClass
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.python.literals import Seq
from tsograph.producers.values.python.literals import fstring_pieces
from tsograph.producers.values.python.members import BoundMember
from tsograph.producers.values.python.modules import Module
from tsograph.producers.values.python.modules import Namespace
from tsograph.producers.values.python.modules import module_value
from tsograph.producers.values.python.modules import star_brings
from tsograph.producers.values.python.modules import submodule_of
from tsograph.producers.values.python.strings import UNKNOWN_TEXT
from tsograph.producers.values.python.strings import Field
from tsograph.producers.values.python.strings import Text
from tsograph.producers.values.python.strings import percent_format as text_percent_format
from tsograph.producers.values.python.strings import string_method
from tsograph.producers.values.unknown import UNKNOWN
from tsograph.producers.values.unknown import Unknown

if TYPE_CHECKING:
    from tsograph.producers.routes.python_client.project import PyProject

# Packages whose values the producers interpret (HTTP clients; databases for `schema`).
LIBRARIES = frozenset(
    {
        "requests",
        "httpx",
        "aiohttp",
        "urllib",
        "sqlalchemy",
        "sqlmodel",
        "flask_sqlalchemy",
        "functools",
        "typing",
        "django",
        "taggit",  # django-taggit's TaggableManager: a field with no column (django_models.py)
        "sqlite3",
        "psycopg",
        "psycopg2",
        "asyncpg",
        "pymysql",
    }
)


@dataclass(frozen=True)
class Lib:
    """A module or attribute of a supported library (`("requests", "get")`)."""

    path: tuple[str, ...]
    # The call that made this library object (file path, call node), kept by its
    # attributes: the options given there (a declarative base's MetaData). Not part of
    # the value's identity.
    origin: tuple[str, Node] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Client:
    """A client object: requests.Session, httpx.Client/AsyncClient, aiohttp.ClientSession.

    `base` is the base URL as URL text (None: none given; BASE_MARK-led: not known);
    `origin` is (path, offset) of the constructor call; `options` the keyword names given.
    """

    library: str
    base: str | None
    origin: tuple[str, int]
    options: frozenset[str] = frozenset()
    open: bool = False  # `**kwargs` passed to the constructor


@dataclass(frozen=True)
class RequestObject:
    """urllib.request.Request(url, data, …, method=…)."""

    url: str
    method: str | None  # None: not proven
    origin: tuple[str, int]


@dataclass(frozen=True)
class Fn:
    path: str
    node: Node


# A class the project declares (`class` statement).
Cls = ProjectClass


@dataclass(frozen=True)
class Obj:
    """An instance a call of a project class made (`User(name=…)`)."""

    cls: Cls


@dataclass(frozen=True)
class Mapping:
    items: tuple[tuple[str, Value], ...]


Value = (
    str
    | int
    | Lib
    | Client
    | BoundMember
    | RequestObject
    | Module
    | Namespace
    | Fn
    | Cls
    | Obj
    | Seq
    | Mapping
    | Unknown
)

# What a wrapper invocation binds: (function node id, parameter name) -> value.
Env = dict[tuple[int, str], Value]


def url_text(value: Value) -> str:
    """A value in a URL position: its text, or one hole."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return HOLE


def literal(text: str) -> str:
    """Literal source text as URL text: the sentinel characters themselves are escaped."""
    return text.replace(HOLE, "%EE%80%80").replace(BASE_MARK, "%EE%80%81")


class Context:
    """One file as the evaluator reads it."""

    def __init__(self, syntax: SyntaxFile) -> None:
        self.syntax = syntax
        self.path = syntax.path
        self.root = syntax.root
        self.scopes = FileScopes(syntax.root)


class Evaluator:
    def __init__(self, project: PyProject, env: Env | None = None) -> None:
        self.project = project
        self.env: Env = env or {}
        self._active: set[tuple[str, int, str]] = set()
        self._budget = DepthBudget()

    # ---- expressions ----------------------------------------------------------------

    def value(self, ctx: Context, node: Node | None) -> Value:
        if node is None:
            return UNKNOWN
        cut: Value = UNKNOWN
        return self._budget.within(lambda: self._value(ctx, node), cut)

    def _value(self, ctx: Context, node: Node) -> Value:
        kind = node.kind
        if kind == "string":
            return UNKNOWN if "bytes" in node.flags else literal(node.value or "")
        if kind == "number":
            try:
                return int(node.value or "", 10)
            except ValueError:
                return UNKNOWN
        if kind == "template":
            return self._fstring(ctx, node)
        if kind == "identifier":
            return self.name(ctx, node, node.value or "")
        if kind == "member":
            return self._member(ctx, node)
        if kind == "call":
            return self._call(ctx, node)
        if kind == "binary":
            return self._binary(ctx, node)
        if kind == "array":
            return Seq(tuple(self.value(ctx, item) for item in node.items))
        if kind == "object":
            return self._mapping(ctx, node)
        if kind in ("await", "annotation"):
            return self.value(ctx, node.part("value"))
        if kind == "index":
            return self._index(ctx, node)
        return UNKNOWN

    def _index(self, ctx: Context, node: Node) -> Value:
        """`Annotated[X, …]` is X: the alias calls and reads attributes through its origin
        (CPython 3.11 typing._BaseGenericAlias.__call__ and __getattr__)."""
        if self.value(ctx, node.part("object")) != Lib(("typing", "Annotated")):
            return UNKNOWN
        index = node.part("index")
        if index is not None and index.kind == "array" and index.items:
            return self.value(ctx, index.items[0])
        return UNKNOWN

    def _fstring(self, ctx: Context, node: Node) -> Value:
        pieces = fstring_pieces(ctx.syntax, node)
        if pieces is None:
            return UNKNOWN
        return "".join(
            literal(piece)
            if isinstance(piece, str)
            else url_text(UNKNOWN if piece is None else self.value(ctx, piece))
            for piece in pieces
        )

    def _mapping(self, ctx: Context, node: Node) -> Value:
        items: list[tuple[str, Value]] = []
        for item in node.items:
            key = item.part("key") if item.kind == "property" else None
            if key is None or key.kind != "string" or key.value is None:
                return UNKNOWN
            items.append((key.value, self.value(ctx, item.part("value"))))
        return Mapping(tuple(items))

    def _binary(self, ctx: Context, node: Node) -> Value:
        left = self.value(ctx, node.part("left"))
        operator = node.value
        if operator == "or":
            # `X or "default"`: proven only when the left side is a non-empty literal text.
            return left if isinstance(left, str) and left and HOLE not in left else UNKNOWN
        right = self.value(ctx, node.part("right"))
        if operator == "+":
            if isinstance(left, int) and isinstance(right, int):
                return left + right
            if isinstance(left, str) or isinstance(right, str):
                if isinstance(left, (int, Seq, Mapping)) or isinstance(right, (int, Seq, Mapping)):
                    return UNKNOWN  # `str + int` raises
                return url_text(left) + url_text(right)
            return UNKNOWN
        if operator == "%" and isinstance(left, str):
            return percent_format(left, right)
        return UNKNOWN

    def _member(self, ctx: Context, node: Node) -> Value:
        prop = node.part("property")
        name = prop.value if prop is not None else None
        if not name:
            return UNKNOWN
        owner_node = node.part("object")
        owner = self.value(ctx, owner_node)
        if isinstance(owner, Lib):
            return Lib((*owner.path, name), owner.origin)
        if isinstance(owner, Client):
            return BoundMember(owner, name)
        if isinstance(owner, (Module, Namespace)):
            return self.module_name(owner, name)
        if owner is UNKNOWN and owner_node is not None and owner_node.kind == "identifier":
            return self.project.self_field(self, ctx, owner_node, name)
        return UNKNOWN

    def _call(self, ctx: Context, node: Node) -> Value:
        callee_node = node.part("callee")
        if callee_node is None:
            return UNKNOWN
        args = Arguments.of(node)
        if callee_node.kind == "member":
            prop = callee_node.part("property")
            method = prop.value if prop is not None else ""
            receiver = self.value(ctx, callee_node.part("object"))
            if isinstance(receiver, str) and method:
                return self._string_method(ctx, receiver, method, node)
            if isinstance(receiver, Cls) and self.project.makes_instance(
                self, receiver, method or ""
            ):
                return Obj(receiver)
        if (
            callee_node.kind == "identifier"
            and callee_node.value == "str"
            and ctx.scopes.lookup(callee_node, "str") is None
            and len(args.positional) == 1
        ):
            found = self.value(ctx, args.positional[0])
            return url_text(found) if isinstance(found, (str, int)) else UNKNOWN
        callee = self.value(ctx, callee_node)
        if isinstance(callee, Lib):
            return self.project.library_call(self, ctx, node, callee, args)
        if isinstance(callee, Cls):
            made = self.project.class_call(self, ctx, node, callee, args)
            return Obj(callee) if made is None else made
        return UNKNOWN

    def _string_method(self, ctx: Context, text: str, method: str, call: Node) -> Value:
        values = Arguments.read(call, lambda arg: self.value(ctx, arg))
        return to_url_text(
            string_method(from_url_text(text), method, values, url_field, _url_items)
        )

    # ---- names ----------------------------------------------------------------------

    def name(self, ctx: Context, use: Node, name: str) -> Value:
        found = ctx.scopes.lookup(use, name)
        if found is None:
            if ctx.scopes.written_globally(name):
                return UNKNOWN
            return self._starred(ctx, name, frozenset({ctx.path}))[1]
        scope, sites = found
        if scope.kind == "module" and ctx.scopes.written_globally(name):
            return UNKNOWN
        if len(sites) != 1:
            return self._same_package(ctx, sites, name)
        return self.site(ctx, sites[0], name)

    def _same_package(self, ctx: Context, sites: list[Site], name: str) -> Value:
        """`import urllib.error` and `import urllib.request` (or `import urllib`) all bind
        `urllib` to the one package: a name bound only by such imports holds it."""
        for site in sites:
            statement = site.node.parent
            if (
                site.kind != "import"
                or site.node.kind != "import_namespace"
                or site.node.value != "bind-first"
                or statement is None
                or (statement.value or "").split(".", 1)[0] != name
            ):
                return UNKNOWN
        return self.site(ctx, sites[0], name)

    def module_name(self, module: Module | Namespace, name: str) -> Value:
        """A name at the top level of a project module; a submodule when none binds it."""
        if isinstance(module, Module):
            ctx = self.project.context(module.path)
            if ctx is None:
                return UNKNOWN
            sites = ctx.scopes.module_sites(name)
            if sites:
                if len(sites) == 1 and not ctx.scopes.written_globally(name):
                    return self.site(ctx, sites[0], name)
                return UNKNOWN
            brought, value = self._starred(ctx, name, frozenset({ctx.path}))
            if brought:
                return value
        return module_value(submodule_of(self.project.modules, module, name)) or UNKNOWN

    def _starred(self, ctx: Context, name: str, seen: frozenset[str]) -> tuple[bool, Value]:
        """A module-level name no statement of the module binds: whether one of its
        `from m import *` may bind it (values/python/modules.star_brings), and what it
        binds; unknown when two may, or a star from outside the project may."""
        found: list[Value] = []
        for item in ctx.syntax.facts.imports:
            if item.kind != "star" or item.scoped:
                continue
            source = module_value(self.project.modules.resolve(ctx.path, item.specifier))
            if isinstance(source, Namespace):
                continue  # a namespace package binds no names of its own
            other = self.project.context(source.path) if isinstance(source, Module) else None
            if other is None or other.path in seen:
                return True, UNKNOWN
            if not star_brings(other.syntax.facts, name):
                continue
            if other.scopes.module_sites(name):
                found.append(self.module_name(Module(other.path), name))
                continue
            brought, value = self._starred(other, name, seen | {other.path})
            if brought:
                found.append(value)
        if len(found) > 1:
            return True, UNKNOWN  # which star binds it last is not read
        return (True, found[0]) if found else (False, UNKNOWN)

    def site(self, ctx: Context, site: Site, name: str) -> Value:
        key = (ctx.path, site.node.start, name)
        if key in self._active:
            return UNKNOWN
        # Without bound parameters a binding always means the same: computed once a run.
        memo = self.project.site_values if not self.env and not self._active else None
        if memo is not None and key in memo:
            return memo[key]
        self._active.add(key)
        try:
            found = self._site(ctx, site, name)
        finally:
            self._active.discard(key)
        if memo is not None:
            memo[key] = found
        return found

    def _site(self, ctx: Context, site: Site, name: str) -> Value:
        node = site.node
        if site.kind == "assign":
            left = node.part("left")
            if node.value != "=" or left is None or left.kind != "identifier":
                return UNKNOWN
            return self.value(ctx, node.part("right"))
        if site.kind == "with":
            return self.value(ctx, node.part("value"))
        if site.kind == "import":
            return self.project.imported(self, ctx, node)
        if site.kind == "def":
            return Fn(ctx.path, node)
        if site.kind == "class":
            return Cls(ctx.path, node)
        if site.kind == "param":
            function = node.parent.parent if node.parent is not None else None
            if function is not None:
                return self.env.get((id(function), name), UNKNOWN)
        return UNKNOWN


def url_field(value: Value) -> Field:
    """A value as one argument of `%` or `str.format`: URL text as a Text (a hole is an
    unknown part), an int, or None."""
    if isinstance(value, str):
        return from_url_text(value)
    if isinstance(value, int):
        return value
    return None


def from_url_text(value: str) -> Text:
    pieces: list[str | None] = []
    for index, part in enumerate(value.split(HOLE)):
        if index:
            pieces.append(None)
        if part:
            pieces.append(part)
    return Text(tuple(pieces))


def _url_items(value: Value) -> list[Text] | None:
    """A list display's items as texts for `join` (an unknown one is text, or join raises)."""
    if not isinstance(value, Seq):
        return None
    if any(not isinstance(item, (str, Unknown)) for item in value.items):
        return None
    return [from_url_text(item) if isinstance(item, str) else UNKNOWN_TEXT for item in value.items]


def to_url_text(value: Text | None) -> Value:
    if value is None:
        return UNKNOWN
    return "".join(HOLE if piece is None else piece for piece in value.pieces)


def percent_format(template: str, right: Value) -> Value:
    """`template % right` on URL text (values/python/strings.percent_format)."""
    fields: list[Field] | dict[str, Field] | None
    if isinstance(right, Seq):
        fields = [url_field(item) for item in right.items]
    elif isinstance(right, Mapping):
        fields = {key: url_field(item) for key, item in right.items}
    elif right is UNKNOWN:
        fields = None  # a tuple of unknown size or a mapping: the fields are not known
    else:
        fields = [url_field(right)]
    return to_url_text(text_percent_format(from_url_text(template), fields))


def join_url(base: Value, url: Value) -> Value:
    """urllib.parse.urljoin(base, url) on proven text (the analysing Python's own function,
    3.11; its rules are RFC 3986 section 5.2 for the schemes it knows)."""
    if not isinstance(base, str) or not isinstance(url, str):
        return UNKNOWN
    if url.startswith(HOLE) or (base.startswith(HOLE) and not url.startswith(("http:", "https:"))):
        if base.startswith(HOLE) and url.startswith("/") and not url.startswith("//"):
            return BASE_MARK + url  # rooted at an origin that is not known
        return UNKNOWN
    return urljoin(base, url)
