"""An incremental rebuild gives the graph a full rebuild gives, byte for byte.

Hypothesis writes small TypeScript projects (files importing each other's
functions and classes, subclasses across files, interfaces with
implementations, re-exports and `export *`, functions whose parameter's
method call is linked by value flow from call sites in other files, calls
into a package that is not installed, a test source, a tsconfig with a path
alias, a package.json) and a sequence of edits: add, remove and rename a
file, change an export, change a call, append a declaration, move code down a line, edit a comment,
change tsconfig.json or package.json. After each edit the graph rebuilt from
the previous state must equal a graph built from scratch (all records,
details included, serialised). An appended call passing a new value to a
function of another file changes a value-flow fact that file's calls depend
on, so the kept value flow (flow_reuse.py) is tested both ways. Facts come
from a cache shared by the examples, so the cost is binding, not parsing.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tsograph.producers.graph.incremental import BuildState
from tsograph.producers.graph.incremental import rebuild
from tsograph.producers.graph.options import GraphOptions
from tsograph.producers.graph.records import graph_records

MAX_FILES = 5


@dataclass(frozen=True)
class Item:
    """One declaration of a generated file; `other` names another file by number."""

    kind: str  # fn, class, sub, iface, use, reexport, star, param, pass, pkg
    name: int
    other: int = 0
    target: int = 0


@dataclass
class Project:
    files: dict[str, list[Item]] = field(default_factory=dict)
    alias: bool = False
    dependency: bool = False
    shift: dict[str, int] = field(default_factory=dict)
    comment: dict[str, int] = field(default_factory=dict)


def _module(files: list[str], number: int) -> str:
    return files[number % len(files)] if files else "m0"


def _render(project: Project, name: str) -> str:
    files = sorted(project.files)
    imports: dict[str, set[str]] = {}
    body: list[str] = []
    packages = False

    def use(number: int, symbol: str) -> str:
        module = _module(files, number)
        if module == name:
            return symbol
        local = f"{symbol}_{module.replace('.', '_')}"
        imports.setdefault(module, set()).add(f"{symbol} as {local}")
        return local

    for item in project.files[name]:
        if item.kind == "fn":
            callee = use(item.other, f"f{item.target}")
            body.append(f"export function f{item.name}() {{ return {callee}(); }}")
        elif item.kind == "class":
            body.append(
                f"export class C{item.name} {{ m0() {{ return this.n(); }} "
                f"n() {{ return {item.other}; }} }}"
            )
        elif item.kind == "sub":
            base = use(item.other, f"C{item.target}")
            body.append(
                f"export class C{item.name} extends {base} {{ n() {{ return super.n(); }} }}"
            )
        elif item.kind == "iface":
            body.append(f"export interface I{item.name} {{ m0(): number; }}")
            body.append(
                f"export class Impl{item.name} implements I{item.name} {{ m0() {{ return 1; }} }}"
            )
            # An interface from another file: candidates read every class in the program.
            typed = use(item.other, f"I{item.target}")
            body.append(f"export function call{item.name}(x: {typed}) {{ return x.m0(); }}")
        elif item.kind == "use":
            made = use(item.other, f"C{item.target}")
            body.append(
                f"export function use{item.name}() {{ const c = new {made}(); "
                "return c.m0() + c.n(); }"
            )
        elif item.kind == "reexport":
            module = _module(files, item.other)
            body.append(f"export {{ f{item.target} as r{item.name} }} from './{module}';")
        elif item.kind == "star":
            body.append(f"export * from './{_module(files, item.other)}';")
        elif item.kind == "param":
            # Bound dispatch: `x.m0()` links to what the call sites pass, in any file.
            body.append(f"export function p{item.name}(x: any) {{ return x.m0(); }}")
        elif item.kind == "pass":
            callee = use(item.other, f"p{item.target}")
            made = use(item.target, f"C{item.name}")
            body.append(f"export function pass{item.name}() {{ return {callee}(new {made}()); }}")
        elif item.kind == "pkg":
            # A package that is not installed: counted, by name, as a missing dependency.
            packages = True
            body.append(f"export function pad{item.name}() {{ return leftPad('{item.other}'); }}")
    lines = ["\n" * project.shift.get(name, 0)]
    if packages:
        lines.append("import leftPad from 'left-pad';")
    for module, names in sorted(imports.items()):
        prefix = "@/" if project.alias else "./"
        lines.append(f"import {{ {', '.join(sorted(names))} }} from '{prefix}{module}';")
    lines.extend(body)
    lines.append("// " + "edited " * project.comment.get(name, 0))
    return "\n".join(lines) + "\n"


def _write(root: Path, project: Project) -> None:
    src = root / "src"
    if src.exists():
        for path in src.iterdir():
            path.unlink()
    src.mkdir(parents=True, exist_ok=True)
    for name in project.files:
        (src / f"{name}.ts").write_text(_render(project, name))
    options: dict[str, object] = {"strict": True}
    if project.alias:
        options.update(baseUrl=".", paths={"@/*": ["src/*"]})
    (root / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options, "include": ["src"]})
    )
    package: dict[str, object] = {"name": "generated", "private": True}
    if project.dependency:
        package["dependencies"] = {"left-pad": "1.3.0"}
    (root / "package.json").write_text(json.dumps(package))


_NAMES = st.sampled_from(["m0", "m1", "m2", "m3", "m4", "util", "m1.test"])
_ITEMS = st.builds(
    Item,
    st.sampled_from(
        [
            "fn",
            "fn",
            "class",
            "sub",
            "iface",
            "use",
            "use",
            "reexport",
            "star",
            "param",
            "pass",
            "pass",
            "pkg",
        ]
    ),
    st.integers(0, 1),
    st.integers(0, MAX_FILES - 1),
    st.integers(0, 1),
)
_FILES = st.dictionaries(_NAMES, st.lists(_ITEMS, max_size=4), min_size=1, max_size=MAX_FILES)

# An edit: (what, file number, payload).
_EDITS = st.tuples(
    st.sampled_from(
        [
            "add",
            "remove",
            "rename",
            "export",
            "call",
            "append",
            "shift",
            "comment",
            "alias",
            "dependency",
        ]
    ),
    st.integers(0, MAX_FILES - 1),
    _ITEMS,
)


def _apply(project: Project, edit: tuple[str, int, Item]) -> None:
    what, number, item = edit
    files = sorted(project.files)
    name = files[number % len(files)]
    if what == "add":
        project.files[f"n{len(project.files)}"] = [item]
    elif what == "remove" and len(files) > 1:
        del project.files[name]
    elif what == "rename":
        project.files[f"r{number}{name}"] = project.files.pop(name)
    elif what == "export":
        # Another name for one declaration: importers lose it, or find another.
        items = project.files[name]
        if items:
            first = items[0]
            items[0] = Item(first.kind, (first.name + 1) % 2, first.other, first.target)
        else:
            items.append(item)
    elif what == "call":
        items = project.files[name]
        items.append(Item("fn", item.name, item.other, item.target))
    elif what == "append":
        # Any declaration added at the end: often only new names (importers that do not look
        # for them are kept), sometimes a new import or a name the file had.
        project.files[name].append(item)
    elif what == "shift":
        project.shift[name] = project.shift.get(name, 0) + 1
    elif what == "comment":
        project.comment[name] = project.comment.get(name, 0) + 1
    elif what == "alias":
        project.alias = not project.alias
    elif what == "dependency":
        project.dependency = not project.dependency


def _document(state: BuildState) -> bytes:
    return orjson.dumps(graph_records(state.graph), option=orjson.OPT_SORT_KEYS)


@pytest.fixture(scope="module")
def cache_dir() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        yield folder


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(files=_FILES, alias=st.booleans(), edits=st.lists(_EDITS, min_size=1, max_size=3))
def test_incremental_rebuild_equals_a_full_rebuild(
    cache_dir: str, files: dict[str, list[Item]], alias: bool, edits: list[tuple[str, int, Item]]
) -> None:
    project = Project(dict(files), alias=alias)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        _write(root, project)
        state = rebuild(None, GraphOptions(folder, cache_dir=cache_dir))
        for edit in edits:
            _apply(project, edit)
            _write(root, project)
            state = rebuild(state, GraphOptions(folder, cache_dir=cache_dir))
            full = rebuild(None, GraphOptions(folder, cache_dir=cache_dir))
            assert _document(state) == _document(full), edit
