"""The Python files of a project as the client and schema producers read them.

Every `.py` source the walk lists is read once as a `SyntaxFile` (the Python
front-end's facts and lowered tree, cached by content); imports are resolved
with the project's Python module resolution (producers/project/python_modules.py),
so a name imported from a project module is that module's binding, and a
library import counts only when the project does not itself hold a module of
that name.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.python_modules import PythonModules
from tsograph.producers.project.walk import UnreadableSource
from tsograph.producers.project.walk import read_source
from tsograph.producers.routes.python_client.class_fields import ClassFields
from tsograph.producers.routes.python_client.evaluator import LIBRARIES
from tsograph.producers.routes.python_client.evaluator import Cls
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.python.class_bodies import defines
from tsograph.producers.values.python.modules import module_value
from tsograph.producers.values.unknown import UNKNOWN

# Class methods of library bases that return an instance of the class they are called on:
# SQLModel 0.0.50 `SQLModel.model_validate` (main.py; _compat.sqlmodel_validate builds `cls()`).
INSTANCE_CLASSMETHODS: dict[str, frozenset[tuple[str, ...]]] = {
    "model_validate": frozenset({("sqlmodel", "SQLModel"), ("sqlmodel", "main", "SQLModel")}),
}

# The project classes a walk up a class's ancestry reads at the most (a deeper one is not
# read to its end, and says so).
ANCESTRY_LIMIT = 32
# Calls of library values that make values (clients, joined URLs): libraries.py answers.
LibraryCall = Callable[[Evaluator, Context, Node, Lib, Arguments[Node]], Value]


class PyProject:
    def __init__(
        self,
        model: ProjectModel,
        library_call: LibraryCall,
        subclassed: frozenset[tuple[str, ...]] = frozenset(),
    ) -> None:
        self.model = model
        # Library classes whose project subclasses make the library's value when called.
        self.subclassed = subclassed
        self.root: Path = model.root
        self.paths = [walked.path for walked in model.sources.python_sources]
        self.modules = PythonModules.load(model.root, self.paths)
        self._library_call = library_call
        self._contexts: dict[str, Context | None] = {}
        self._data: dict[str, bytes | None] = {}
        self.unreadable: dict[str, str] = {}
        self.parse_error_files: list[str] = []
        self.fields = ClassFields(self)
        # Values of bindings evaluated with no parameters bound (values.Evaluator.site).
        self.site_values: dict[tuple[str, int, str], Value] = {}

    # ---- files ----------------------------------------------------------------------

    def data(self, path: str) -> bytes | None:
        if path not in self._data:
            try:
                self._data[path] = read_source(self.root, path)
            except UnreadableSource as error:
                self.unreadable[path] = error.reason
                self._data[path] = None
        return self._data[path]

    def preload(self, paths: list[str]) -> None:
        jobs = [(path, data) for path in paths if (data := self.data(path)) is not None]
        self.model.syntax_files.preload(jobs)

    def context(self, path: str) -> Context | None:
        if path not in self._contexts:
            data = self.data(path)
            if data is None:
                self._contexts[path] = None
            else:
                syntax = self.model.syntax_files.get(path, data)
                if syntax.facts.parse_errors:
                    self.parse_error_files.append(path)
                self._contexts[path] = Context(syntax)
        return self._contexts[path]

    # ---- imports --------------------------------------------------------------------

    def imported(self, ev: Evaluator, ctx: Context, entry: Node) -> Value:
        """The value an import entry (import_namespace / import_named) binds."""
        statement = entry.parent
        specifier = statement.value if statement is not None else None
        if not specifier or ("type" in entry.flags):
            return UNKNOWN
        names = specifier.lstrip(".").split(".") if specifier.lstrip(".") else []
        top_external = not specifier.startswith(".") and names and self._external(ctx, names[0])
        if entry.kind == "import_namespace":
            if entry.value == "bind-first":
                names = names[:1]
            if top_external:
                return Lib(tuple(names)) if names[0] in LIBRARIES else UNKNOWN
            return self._module(ctx.path, ".".join(names) if not specifier.startswith(".") else "")
        if entry.kind != "import_named" or not entry.value or entry.value == "*":
            return UNKNOWN
        if top_external:
            return Lib((*names, entry.value)) if names[0] in LIBRARIES else UNKNOWN
        source = module_value(self.modules.resolve(ctx.path, specifier))
        return UNKNOWN if source is None else ev.module_name(source, entry.value)

    def _external(self, ctx: Context, top: str) -> bool:
        """Whether `top` is a module the project does not hold: a declared dependency or the
        standard library (PythonModules), or, for the libraries read here, a name no project
        module holds (a miss: declared where the manifests are not read, such as a
        `-r requirements/base.txt` include, or under another distribution name such as
        psycopg2-binary). The import can then only load the installed library."""
        kind = self.modules.resolve(ctx.path, top).kind
        return kind == "external" or (kind == "miss" and top in LIBRARIES)

    def _module(self, importer: str, dotted: str) -> Value:
        if not dotted:
            return UNKNOWN
        return module_value(self.modules.resolve(importer, dotted)) or UNKNOWN

    # ---- library calls and fields ---------------------------------------------------

    def library_call(
        self, ev: Evaluator, ctx: Context, call: Node, callee: Lib, args: Arguments[Node]
    ) -> Value:
        return self._library_call(ev, ctx, call, callee, args)

    def makes_instance(self, ev: Evaluator, cls: Cls, method: str) -> bool:
        """Whether `cls.<method>(…)` returns an instance of `cls`: a class method of a
        library base that builds one (INSTANCE_CLASSMETHODS), which no class between them
        defines again."""
        bases_with_it = INSTANCE_CLASSMETHODS.get(method)
        if bases_with_it is None:
            return False
        for current, bases in self.ancestry(ev, cls):
            if bases is None or defines(current.node, method):
                return False
            if any(isinstance(base, Lib) and base.path in bases_with_it for base in bases):
                return True
        return False

    def class_call(
        self, ev: Evaluator, ctx: Context, call: Node, cls: Cls, args: Arguments[Node]
    ) -> Value | None:
        """A call of a project class that subclasses one of `subclassed`: the library's value
        (redash's `RedashSQLAlchemy(SQLAlchemy)` instance is a Flask-SQLAlchemy handle)."""
        if not self.subclassed:
            return None
        for _, bases in self.ancestry(ev, cls):
            for base in bases or ():
                if isinstance(base, Lib) and base.path in self.subclassed:
                    return self._library_call(ev, ctx, call, base, args)
        return None

    def ancestry(self, ev: Evaluator, cls: Cls) -> Iterator[tuple[Cls, list[Value] | None]]:
        """`cls` and the project classes it derives from, each once, with the values of its
        bases as written; None where its module cannot be read, and for the class met past
        ANCESTRY_LIMIT classes, where the walk stops. As with os.walk, a caller that
        removes the project classes from a yielded list keeps the walk out of them."""
        seen: set[int] = set()
        work = [cls]
        while work:
            current = work.pop()
            if id(current.node) in seen:
                continue
            seen.add(id(current.node))
            owner = self.context(current.path)
            if owner is None or len(seen) > ANCESTRY_LIMIT:
                yield current, None
                if owner is not None:
                    return
                continue
            written = current.node.part("bases")
            bases = [
                ev.value(owner, item)
                for item in (written.items if written is not None else ())
                if item.kind not in ("keyword", "spread")
            ]
            yield current, bases
            work.extend(base for base in bases if isinstance(base, Cls))

    def self_field(self, ev: Evaluator, ctx: Context, owner: Node, name: str) -> Value:
        """`self.<name>` in a method: class_fields.py proves the one write it holds."""
        return self.fields.value(ev, ctx, owner, name)
