"""Per-file facts: what one file says about itself, in a form no parser leaks into.

A front-end (one folder per language under `producers/lang/`) turns a file's
bytes into one `FileFacts`. Binding reads these facts only, never a syntax
tree, so a later language adds a folder that fills the same records. Facts are
a pure function of the path and the bytes (ids embed the path), which is what
lets the project cache them by content.

Records, all frozen:

* `Declaration` – one graph node: `id` (a symbol id), `kind` (module,
  function, method, constructor, accessor, class, field, variable, export),
  `name` (its last id segment), `line`/`column` (1-based line, 1-based UTF-8
  byte column of the name token, a BOM counting as its three bytes), `parent`
  (id of the enclosing declaration; "" for the module itself), `has_body`
  (functions with a body, classes, fields and variables with an initializer),
  `static`, `callback` (an inline callback, linked from `parent` by a contains
  edge), `extends` (classes: the base as written, as a `Ref`), `implements`
  (classes: `TypeRef`s), `type` (fields and variables: the declared type;
  functions, methods and getters: the declared return type), `init` (fields
  and variables: what the initializer is) and `overloaded` (a function or
  method with overload signatures: callers see those, and the parameters
  recorded are the implementation's). Ids are unique within a file: the
  first location of overloads and same-named declarations is kept. Two
  exceptions serve class expressions: an anonymous class expression (`new
  class extends Base {}()`) is a `class` record with an empty `name` and an
  internal id (a NUL, which no symbol id contains): binding sees a class (its
  members, `extends`, `this`), the graph gives it no node; and when members of
  two anonymous classes produce the same id, each class keeps a record of its
  own (same id, its own `parent`) so that each finds its own member, while the
  graph has one node.
* `Binding` – a name that is not a declaration but can head a chain: a
  parameter (`position` is its index) or a local variable, with its owner
  (the declaration whose code declares it), declared type and initializer.
* `Import` – one imported name: ES imports (named, default, namespace,
  side-effect), `require('x')` and literal `import('x')`; Python's
  `from m import *` is a `star` import (no local name). `imported` is the
  name in the other module, `*` for the whole module, "" for side effects.
* `Export` – one exported name: `local` (the name refers to `value` in this
  file; `value` is None for an exported interface, type alias or enum),
  `reexport` (`imported` from `specifier`, `*` for `export * as ns`), `star`
  (`export * from`), `equals` (`export =`, `module.exports =`) and `commonjs`
  (`exports.x =`, `module.exports.x =`, and each static key of an object
  assigned to `module.exports`). `node` is the id that stands for the
  exported name in this file – the declaration it exports (`export function
  f`), the `#default` declaration, or an export node (`export { a as b }`,
  `export default handler`, re-exports, destructured or uninitialised
  exports); "" when the export has no node of its own (`export *`,
  `exports.x = handler`, `module.exports = handler`, type-only exports).
* `CallSite` – one place where code of `owner` calls or uses a function value:
  `kind` is call, new, tagged (template), decorator, super (`super(...)`), jsx,
  callback (a function value passed as an argument) or reference (any other
  value use). `callee` is the chain as written with its head classified;
  `computed` says a computed access (`obj[key]`) cut it, `optional` that it
  goes through `?.`, `new_receiver` that its receiver is a `new C()` written
  in place. The location is the callee's last name (`save` in
  `this.repo.save()`), or where the callee starts. Calls are in source order,
  an enclosing call before the calls inside it. Value uses are kept only
  where their head could name something (a declaration, an import, `this`,
  `super`, or a local that aliases a chain).
* `Ref` – a chain `head.m1.m2…` with the head classified by this file's
  lexical scopes: `decl` (`target` is a declaration id of this file), `import`
  (`index` into imports), `param` / `local` (`index` into bindings), `this`
  and `static-this` (`target` is the enclosing class id, "" outside a class;
  `static-this` is `this` in static code, the class itself), `super`
  (`target` is the class whose base is meant), `global` (nothing in the file
  binds `name`), `result` (`index` into calls: the value that call or `new`
  returns) and `other` (any other expression).
* `Init` – an initializer summary: alias (a chain, including a destructured
  path), new / call (`ref` heads the result of that site), function, class,
  object (`members` by static key, `...` for a spread), require / import
  (`specifier`), union (`members` are the alternatives, keys empty: `a ? b :
  c`, `a ?? b`, `a || b`; `a && b` is `b` and `a, b` is `b`), nullish (`null`,
  `void x`, and `undefined` in a file that declares no name `undefined`),
  element (`for (const x of xs)`: `ref` is the iterable, x one of its
  elements), other.
* `Write` / `Return` – assignments and returned values, the flow bound
  dispatch follows; a call site's `args` summarise its arguments up to the
  first spread (`spread` says one cut them).
* `TypeRef` – a declared type: the qualified name as a chain (`("Repo",)`,
  `("ns", "Repo")`, `("string",)`) with type arguments (`Promise<Repo>`);
  `T[]` is written `Array<T>`, a function type `(a: A) => R` is the chain
  `FUNCTION_TYPE` with the arguments R, A, … (see the TypeScript front-end),
  and any other type that is not a named reference is the empty chain. A
  declared type is the tuple of its union members, null and undefined left
  out.

`to_plain()` turns the facts into nested lists of strings, numbers, booleans
and None (JSON-ready, for the facts cache); `FileFacts.from_plain()` reverses
it exactly and rejects data written for another FACTS_VERSION.
`FileFacts.to_json()` writes the JSON of those lists without building them.
The records are frozen to the type checker; at run time they are built with
a plain `__init__` (see `record`), and `replace` is `dataclasses.replace` at
half the cost.
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import fields
from functools import partial
from operator import attrgetter
from typing import TYPE_CHECKING
from typing import Any
from typing import Literal
from typing import Self
from typing import TypeVar

import orjson

if TYPE_CHECKING:
    from dataclasses import dataclass as record
else:

    def record(*, frozen: bool, slots: bool) -> Any:
        """The records' dataclass decorator: frozen to the type checker, at run time with a
        plain `__init__`. A frozen dataclass's `__init__` stores each field through
        `object.__setattr__`, four times slower than a slot store, and hundreds of thousands
        of records are built per run (extraction, unpickling in the parent, the cache's
        `from_plain`). Equality and hashing are a frozen dataclass's (`unsafe_hash`)."""
        return dataclass(slots=slots, unsafe_hash=frozen)


# Bump whenever a record changes shape or meaning: cached facts of another version are re-parsed.
FACTS_VERSION = 13

DeclarationKind = Literal[
    "module",
    "function",
    "method",
    "constructor",
    "accessor",
    "class",
    "field",
    "variable",
    "export",
]
HeadKind = Literal[
    "decl",
    "import",
    "param",
    "local",
    "this",
    "static-this",
    "super",
    "global",
    "result",
    "other",
]
InitKind = Literal[
    "alias",
    "new",
    "call",
    "function",
    "class",
    "object",
    "require",
    "import",
    "union",
    "nullish",
    "element",
    "other",
]
# "read": a Python attribute read (`a.b` not called, not assigned to), which runs a property's
# getter; only the Python front-end writes it.
SiteKind = Literal[
    "call", "new", "tagged", "decorator", "super", "jsx", "callback", "reference", "read"
]
ImportKind = Literal["named", "default", "namespace", "side-effect", "require", "dynamic", "star"]
ExportKind = Literal["local", "reexport", "star", "equals", "commonjs"]
BindingKind = Literal["param", "local"]
TypeKind = Literal["interface", "type", "enum"]
MemberKind = Literal["property", "method"]

Plain = list[Any]
# The chain of a function type: no type name is spelled so.
FUNCTION_TYPE = "=>"
# A signature of an interface or object type: name, kind and declared (return) type.
MemberType = tuple[str, MemberKind, tuple["TypeRef", ...]]


class FactsFormatError(ValueError):
    """Plain data that was not written by this version's `to_plain`."""


class _Record:
    """A facts record as plain data: its fields in declaration order, each written by the
    codec its annotation names in `_CODECS` (the table at the end of this module)."""

    __slots__ = ()

    def to_plain(self) -> Plain:
        return _encode(self)

    @classmethod
    def from_plain(cls, data: Plain) -> Self:
        """The record `to_plain` wrote; ValueError/TypeError on data of another shape."""
        return _decode(cls, data)


@record(frozen=True, slots=True)
class TypeRef(_Record):
    chain: tuple[str, ...]
    args: tuple[TypeRef, ...] = ()


@record(frozen=True, slots=True)
class Ref(_Record):
    head: HeadKind
    name: str = ""
    target: str = ""
    index: int = -1
    members: tuple[str, ...] = ()


@record(frozen=True, slots=True)
class Init(_Record):
    kind: InitKind
    ref: Ref | None = None
    specifier: str = ""
    members: tuple[tuple[str, Init], ...] = ()

    @staticmethod
    def bare(kind: InitKind) -> Init:
        """The Init of a kind with nothing more (`other`, `nullish`: over a quarter of all inits),
        one object per kind: facts are immutable, and building each anew is what costs."""
        shared = _BARE_INITS.get(kind)
        if shared is None:
            shared = _BARE_INITS[kind] = Init(kind)
        return shared


_BARE_INITS: dict[InitKind, Init] = {}


@record(frozen=True, slots=True)
class Declaration(_Record):
    id: str
    kind: DeclarationKind
    name: str
    line: int
    column: int
    parent: str
    has_body: bool
    static: bool = False
    callback: bool = False
    extends: Ref | None = None
    implements: tuple[TypeRef, ...] = ()
    type: tuple[TypeRef, ...] = ()
    init: Init | None = None
    overloaded: bool = False

    @property
    def is_anonymous_class(self) -> bool:
        """An anonymous class expression: a class to binding, no graph node."""
        return self.kind == "class" and not self.name


@record(frozen=True, slots=True)
class Binding(_Record):
    name: str
    kind: BindingKind
    owner: str
    line: int
    column: int
    position: int = -1
    type: tuple[TypeRef, ...] = ()
    init: Init | None = None
    # Parameters: the property path read from the argument (`{ store }` reads
    # ("store",)); () for the whole argument, None where no static path leads
    # to the name (array patterns, rest parameters).
    path: tuple[str, ...] | None = ()


@record(frozen=True, slots=True)
class Import(_Record):
    kind: ImportKind
    specifier: str
    imported: str
    local: str
    line: int
    column: int
    type_only: bool = False
    # Python: written in a function or class body, so it binds no name of the module.
    scoped: bool = False


@record(frozen=True, slots=True)
class Export(_Record):
    kind: ExportKind
    name: str
    line: int
    column: int
    node: str = ""
    value: Ref | None = None
    specifier: str = ""
    imported: str = ""
    type_only: bool = False


@record(frozen=True, slots=True)
class CallSite(_Record):
    kind: SiteKind
    owner: str
    line: int
    column: int
    callee: Ref
    computed: bool = False
    optional: bool = False
    new_receiver: bool = False
    args: tuple[Init, ...] = ()
    spread: bool = False
    # Python: a call of an item, `holder[key](…)` with `holder` a plain name chain (the
    # callee ref): ("k",) for a string key, () for any other key; None for other callees.
    item: tuple[str, ...] | None = None


@record(frozen=True, slots=True)
class Write(_Record):
    """An assignment: `target = value` in the code of `owner`.

    `target` is the chain written (`x`, `this.store`, `app.locals.db`); with
    `computed`, a computed key cut it (`obj[key] = v`) and `target` is the
    receiver whose properties become unknown. Destructuring assignments give
    one write per name with an `other` value: what they store is not followed.
    """

    owner: str
    target: Ref
    value: Init
    computed: bool = False


@record(frozen=True, slots=True)
class Return(_Record):
    """A value `owner` (a function, method, accessor or callback) returns; the owner is
    "" for a generator's `return`, a value that leaves the function but is no call's result."""

    owner: str
    value: Init


@record(frozen=True, slots=True)
class TypeDeclaration(_Record):
    """A module-level interface, type alias or enum: not a graph node, but a name
    binding needs to tell from an unknown one (a call through an interface).

    `members` are the names of the property and method signatures an interface
    or object type declares itself; `extends` the named types it extends (for
    a type alias, the named parts of an intersection). Interface dispatch
    matches implementations by them. `member_types` give the declared type of
    each property signature and the return type of each method signature
    (`(name, "property" | "method", type)`; overloads united, as for
    functions), and `aliases` the type a type alias names when it is a
    named type or a union of named types (`type A = B`, `type A = B | C`).
    `callable` says its values may be called: a call or construct signature of
    its own, or an alias of anything but object types (the types it extends
    may add more).
    """

    name: str
    kind: TypeKind
    line: int
    column: int
    members: tuple[str, ...] = ()
    extends: tuple[TypeRef, ...] = ()
    member_types: tuple[MemberType, ...] = ()
    aliases: tuple[TypeRef, ...] = ()
    callable: bool = False


@record(frozen=True, slots=True)
class FileFacts(_Record):
    """Everything one file says about itself.

    `module_syntax` is true when the file has ES import or export statements;
    `dynamic_loads` counts `require(...)` and `import(...)` calls whose
    specifier is not a literal; `parse_errors` counts ERROR and MISSING nodes
    (facts of the well-formed rest are kept); `nesting_cuts` counts places
    where declarations nested too deep to be named were left to the
    declaration around them (a front-end's bound, to report as a cut).
    """

    path: str
    language: str
    declarations: tuple[Declaration, ...]
    bindings: tuple[Binding, ...]
    imports: tuple[Import, ...]
    exports: tuple[Export, ...]
    calls: tuple[CallSite, ...]
    types: tuple[TypeDeclaration, ...] = ()
    module_syntax: bool = False
    dynamic_loads: int = 0
    parse_errors: int = 0
    nesting_cuts: int = 0
    writes: tuple[Write, ...] = ()
    returns: tuple[Return, ...] = ()
    # Python: lines of module-level `if __name__ == "__main__":` blocks (a script entry).
    main_guards: tuple[int, ...] = ()

    def to_plain(self) -> Plain:
        return [FACTS_VERSION, *_encode(self)]

    def to_json(self) -> bytes:
        """`orjson.dumps(self.to_plain())`, without building the lists: orjson walks the
        records and asks `_fields_in_order` for each one's fields (a record is the list of
        its fields in plain data; tuples are lists, None null). On documenso this takes a
        quarter of the time of `to_plain` and `dumps`: 0.5 s against 2.1 s."""
        return orjson.dumps(
            [FACTS_VERSION, *_FIELDS[FileFacts][0](self)],
            default=_fields_in_order,
            option=orjson.OPT_PASSTHROUGH_DATACLASS,
        )

    @classmethod
    def from_plain(cls, data: Any) -> Self:
        if not isinstance(data, list) or not data or data[0] != FACTS_VERSION:
            raise FactsFormatError("not facts of this version")
        try:
            return _decode(cls, data[1:])
        except (TypeError, ValueError) as error:
            raise FactsFormatError("malformed facts") from error


Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]
_R = TypeVar("_R", bound=_Record)
# A field's codec: None for a value that is plain as it is (str, int, bool, a Literal kind).
Codec = tuple[Encode, Decode] | None


def _encode(record: _Record) -> Plain:
    getter, encoders, _ = _FIELDS[type(record)]
    return [
        value if encode is None else encode(value)
        for value, encode in zip(getter(record), encoders, strict=True)
    ]


def _decode(kind: type[_R], data: Plain) -> _R:
    _, _, decoders = _FIELDS[kind]
    return kind(
        *[
            item if decode is None else decode(item)
            for item, decode in zip(data, decoders, strict=True)
        ]
    )


def _record(kind: type[_Record]) -> Codec:
    return _encode, partial(_decode, kind)


def _decode_init(data: Plain) -> Init:
    kind, ref, specifier, members = data
    if ref is None and not specifier and not members:
        return Init.bare(kind)
    return _decode(Init, data)


def _optional(codec: Codec) -> Codec:
    assert codec is not None
    encode, decode = codec
    return (
        lambda value: None if value is None else encode(value),
        lambda data: None if data is None else decode(data),
    )


def _items(codec: Codec) -> Codec:
    """A tuple of any length: a list in plain data."""
    if codec is None:
        return list, tuple
    encode, decode = codec
    return (
        lambda values: [encode(value) for value in values],
        lambda data: tuple(decode(item) for item in data),
    )


def _pair(*codecs: Codec) -> Codec:
    """A tuple of fixed length, each place with its codec."""

    def encode(values: tuple[Any, ...]) -> list[Any]:
        return [v if c is None else c[0](v) for v, c in zip(values, codecs, strict=True)]

    def decode(data: list[Any]) -> tuple[Any, ...]:
        return tuple(d if c is None else c[1](d) for d, c in zip(data, codecs, strict=True))

    return encode, decode


_RECORDS: tuple[type[_Record], ...] = (
    TypeRef,
    Ref,
    Init,
    Declaration,
    Binding,
    Import,
    Export,
    CallSite,
    Write,
    Return,
    TypeDeclaration,
)
# Every field annotation a record uses, as written, and how it goes to plain data and back.
_SCALARS = (
    "str",
    "int",
    "bool",
    "DeclarationKind",
    "HeadKind",
    "InitKind",
    "SiteKind",
    "ImportKind",
    "ExportKind",
    "BindingKind",
    "TypeKind",
)
# Inits with nothing but a kind come back as the one shared object of that kind.
_INIT: Codec = (_encode, _decode_init)
_CODECS: dict[str, Codec] = {
    **dict.fromkeys(_SCALARS),
    "tuple[str, ...]": _items(None),
    "tuple[str, ...] | None": _optional(_items(None)),
    "tuple[int, ...]": _items(None),
    "Ref": _record(Ref),
    "Ref | None": _optional(_record(Ref)),
    "Init": _INIT,
    "Init | None": _optional(_INIT),
    "tuple[Init, ...]": _items(_INIT),
    "tuple[tuple[str, Init], ...]": _items(_pair(None, _INIT)),
    "tuple[TypeRef, ...]": _items(_record(TypeRef)),
    "tuple[MemberType, ...]": _items(_pair(None, None, _items(_record(TypeRef)))),
    **{f"tuple[{kind.__name__}, ...]": _items(_record(kind)) for kind in _RECORDS},
}
_Fields = tuple[
    Callable[[Any], tuple[Any, ...]], tuple[Encode | None, ...], tuple[Decode | None, ...]
]


def _fields_of(kind: type[Any]) -> _Fields:
    """A record's field getter and the encoder and decoder of each field (None: as it is)."""
    declared = fields(kind)
    codecs = [_CODECS[str(field.type)] for field in declared]
    getter = attrgetter(*(field.name for field in declared))
    return (
        getter if len(codecs) > 1 else lambda record: (getter(record),),
        tuple(None if codec is None else codec[0] for codec in codecs),
        tuple(None if codec is None else codec[1] for codec in codecs),
    )


# Built at import, so a field whose annotation the table lacks fails at once.
_FIELDS: dict[type, _Fields] = {kind: _fields_of(kind) for kind in (*_RECORDS, FileFacts)}


def _fields_in_order(record: Any) -> tuple[Any, ...]:
    """orjson's hook in `to_json`: a record's fields (every codec in `_CODECS` writes what
    orjson writes for the value itself, so the JSON is that of `to_plain`)."""
    return _FIELDS[type(record)][0](record)


def _pickled_as_calls(*records: type) -> None:
    """Pickle each record as a call of its class with its fields in order.

    Extraction workers send facts to the parent as these objects (the plain
    lists stay the cache's format): pickle keeps one copy of each Ref or Init
    the resolver shares, and on a fifth of documenso loading them took 0.57 s
    against 0.89 s for unpickling the lists plus `from_plain`, pickling 0.11 s
    against 0.27 s. The default pickling of frozen slotted dataclasses is
    slower than either.
    """
    for record in records:
        getter = attrgetter(*(item.name for item in fields(record)))
        copyreg.pickle(record, _call_of(record, getter))


def _call_of(record: type, getter: attrgetter[Any]) -> Any:
    def reduce(value: object) -> tuple[type, tuple[Any, ...]]:
        return record, getter(value)

    return reduce


_pickled_as_calls(*_RECORDS, FileFacts)

# Each record's field getter and the position of each field by name, for `replace`.
_POSITIONS: dict[type, tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]] = {
    kind: (_FIELDS[kind][0], {item.name: index for index, item in enumerate(fields(kind))})
    for kind in (*_RECORDS, FileFacts)
}

if TYPE_CHECKING:
    from dataclasses import replace as replace
else:

    def replace(record: _Record, /, **changes: Any) -> Any:
        """`dataclasses.replace` to the type checker; at run time a call of the record's class
        with its fields in order, at half the cost (`dataclasses.replace` reads each
        field's metadata on every call): the resolver gives most bindings their initializer
        this way, twenty thousand on documenso."""
        kind = type(record)
        getter, positions = _POSITIONS[kind]
        values = list(getter(record))
        for name, value in changes.items():
            values[positions[name]] = value
        return kind(*values)
