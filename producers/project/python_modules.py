"""Python module resolution over the walked files, as code-graph.txt states it.

An absolute import is searched in these roots: every folder holding the
importing file (its own folder up to the project root), every `src` folder
that holds a package, and every folder with a `pyproject.toml`, `setup.cfg`
or `setup.py`. In each place a regular package (`x/__init__.py`) or a module
file (`x.py`, else the stub `x.pyi`) wins over a namespace package (a folder
of Python files without `__init__`), as CPython's path finder does; the
portions of a namespace package found under several roots are one package. A
module found as two different files (next to the importer and under a root,
or under two roots) is ambiguous: CPython would take the first entry of a
`sys.path` the graph does not know, so nothing is guessed.

A relative import (`from . import x`, `from ..m import y`) is read from the
importing file's package (its folder), one folder up per extra dot, and never
searched in the roots.

A namespace package of the project never hides a declared dependency or a
standard-library module of the same name (CPython makes a namespace package
only when no entry of `sys.path` holds a regular package or module, and an
installed distribution is one). Whatever the project does not hold is
external when its top-level name is a dependency some manifest declares
(`pyproject.toml` [project] and poetry tables, `requirements*.txt` and `requirements/*.txt`,
`setup.cfg` install_requires/extras_require, `Pipfile`) or a module of the
running Python's standard library
(`sys.stdlib_module_names`, Python 3.11); anything else is a miss. A
distribution name is compared with `-` and `.` read as `_`, lower case; a
distribution whose import name differs (`pyyaml` gives `yaml`) is not known
without its installed metadata, so such an import is a miss, never external
by a guess. `setup.py` is code and is not read for dependencies.

Manifests are read through `fsread` (bounded, no links followed, recorded for
the graph cache); one that cannot be read or parsed is a note.
"""

from __future__ import annotations

import configparser
import contextlib
import re
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any
from typing import Literal

from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import read_config

ResolutionKind = Literal["module", "namespace", "external", "miss", "ambiguous"]
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py")
_REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class PyResolution:
    """Where a module name leads.

    `path` is the module's file for `module` (`pkg/__init__.py`, `pkg/m.py`);
    `folders` are a namespace package's portions; `places` the files an
    ambiguous name was found as.
    """

    kind: ResolutionKind
    path: str = ""
    folders: tuple[str, ...] = ()
    places: tuple[str, ...] = ()


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _parent(folder: str) -> str:
    return folder.rpartition("/")[0]


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


@dataclass
class PythonModules:
    """Resolves Python import specifiers of project files to project files or outside."""

    files: frozenset[str]
    declared: frozenset[str] = frozenset()
    project_roots: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    _folders: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        folders: set[str] = set()
        for path in self.files:
            folder = _parent(path)
            while folder and folder not in folders:
                folders.add(folder)
                folder = _parent(folder)
        self._folders = frozenset(folders)

    # ---- loading --------------------------------------------------------------------

    @classmethod
    def load(cls, root: Path, files: Iterable[str]) -> PythonModules:
        """Roots and declared dependencies found by probing the folders that hold the files."""
        sources = frozenset(files)
        folders = {""}
        for path in sources:
            folder = _parent(path)
            while folder not in folders:
                folders.add(folder)
                folder = _parent(folder)
        notes: list[str] = []
        declared: set[str] = set()
        roots: list[str] = []
        for folder in sorted(folders):
            marked = False
            for name in (*PROJECT_MARKERS, "Pipfile"):
                data = _read(root, _join(folder, name), notes)
                if data is None:
                    continue
                marked = marked or name in PROJECT_MARKERS
                declared.update(_declared(name, data, _join(folder, name), notes))
            for name in _requirement_files(root, folder):
                data = _read(root, _join(folder, name), notes)
                if data is not None:
                    declared.update(_requirements(data))
            if marked:
                roots.append(folder)
        return cls(sources, frozenset(declared), tuple(roots), notes)

    # ---- roots ----------------------------------------------------------------------

    def roots_for(self, importer: str) -> list[str]:
        """The search roots of an absolute import in `importer`, each once, in a fixed order."""
        found: list[str] = []
        folder = _parent(importer)
        while True:
            found.append(folder)
            if not folder:
                break
            folder = _parent(folder)
        found.extend(self._source_roots)
        found.extend(self.project_roots)
        return list(dict.fromkeys(found))

    @cached_property
    def _source_roots(self) -> tuple[str, ...]:
        """Every `src` folder that holds a package (`src/pkg/__init__.py`), sorted."""
        found = set()
        for path in self.files:
            if not path.endswith(("/__init__.py", "/__init__.pyi")):
                continue
            folder = _parent(_parent(path))
            if folder.rpartition("/")[2] == "src":
                found.add(folder)
        return tuple(sorted(found))

    # ---- resolution -----------------------------------------------------------------

    def resolve(self, importer: str, specifier: str) -> PyResolution:
        """Where `specifier` (`a.b`, `.m`, `..`, `.`) written in `importer` leads."""
        level = len(specifier) - len(specifier.lstrip("."))
        names = [part for part in specifier[level:].split(".") if part]
        if level:
            folder = _parent(importer)
            for _ in range(level - 1):
                if not folder:
                    return PyResolution("miss")
                folder = _parent(folder)
            if not names:
                return self._package_of(folder)
            return self._walk([folder], names) or PyResolution("miss")
        if not names:
            return PyResolution("miss")
        top = names[0]
        outside = top in sys.stdlib_module_names or normalize(top) in self.declared
        first = self._find(self.roots_for(importer), top)
        if outside and (first is None or first.kind == "namespace"):
            # An installed distribution is a regular package, and CPython makes a namespace
            # package only when no entry of sys.path holds a regular one.
            return PyResolution("external")
        found = self._walk(self.roots_for(importer), names)
        if found is not None:
            return found
        return PyResolution("miss")

    def _package_of(self, folder: str) -> PyResolution:
        for name in ("__init__.py", "__init__.pyi"):
            if _join(folder, name) in self.files:
                return PyResolution("module", _join(folder, name))
        if folder in self._folders or not folder:
            return PyResolution("namespace", folders=(folder,))
        return PyResolution("miss")

    def _walk(self, places: list[str], names: list[str]) -> PyResolution | None:
        """Find `names` segment by segment in the folders `places`; None when not there."""
        current: PyResolution | None = None
        for index, name in enumerate(names):
            current = self._find(places, name)
            if current is None or current.kind == "ambiguous":
                return current
            if index == len(names) - 1:
                return current
            if current.kind == "namespace":
                places = list(current.folders)
            elif current.path.endswith(("/__init__.py", "/__init__.pyi")):
                places = [_parent(current.path)]
            else:
                return None  # a module file has no submodules
        return current

    def submodule(self, folders: Iterable[str], name: str) -> PyResolution | None:
        """The module or package `name` inside a package whose folders are `folders`."""
        return self._find(list(folders), name)

    def _find(self, places: list[str], name: str) -> PyResolution | None:
        regular: list[str] = []
        portions: list[str] = []
        for place in places:
            folder = _join(place, name)
            hit = None
            for candidate in (
                f"{folder}/__init__.py",
                f"{folder}/__init__.pyi",
                f"{folder}.py",
                f"{folder}.pyi",
            ):
                if candidate in self.files:
                    hit = candidate
                    break
            if hit is not None:
                if hit not in regular:
                    regular.append(hit)
            elif folder in self._folders and folder not in portions:
                portions.append(folder)
        if len(regular) > 1:
            return PyResolution("ambiguous", places=tuple(sorted(regular)))
        if regular:
            return PyResolution("module", regular[0])
        if portions:
            return PyResolution("namespace", folders=tuple(portions))
        return None


def _read(root: Path, relative: str, notes: list[str]) -> bytes | None:
    try:
        return read_config(root, relative)
    except ConfigReadError as error:
        notes.append(f"{relative}: {error.reason}")
        return None


def _requirement_files(root: Path, folder: str) -> list[str]:
    """`requirements*.txt` in the folder, and the `.txt` files of a `requirements/` folder
    in it (`requirements/base.txt`, as Django projects often split them)."""
    base = root / folder if folder else root
    try:
        names = [
            entry.name
            for entry in base.iterdir()
            if entry.name.startswith("requirements") and entry.name.endswith(".txt")
        ]
    except OSError:
        return []
    split = base / "requirements"
    if split.is_dir() and not split.is_symlink():
        with contextlib.suppress(OSError):
            names.extend(
                f"requirements/{entry.name}"
                for entry in split.iterdir()
                if entry.name.endswith(".txt")
            )
    return sorted(names)


def _requirements(data: bytes) -> set[str]:
    found = set()
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue  # options, -r includes and -e editable paths name no distribution
        match = _REQUIREMENT_NAME.match(line)
        if match and "://" not in line[: match.end() + 3]:
            found.add(normalize(match.group()))
    return found


def _names_of(requirements: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(requirements, list):
        for item in requirements:
            if isinstance(item, str):
                found |= _requirements(item.encode())
    return found


def _declared(name: str, data: bytes, relative: str, notes: list[str]) -> set[str]:
    if name == "setup.py":
        return set()
    try:
        text = data.decode("utf-8")
        if name == "setup.cfg":
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(text)
            found = set()
            if parser.has_option("options", "install_requires"):
                found |= _requirements(parser.get("options", "install_requires").encode())
            if parser.has_section("options.extras_require"):
                for _, value in parser.items("options.extras_require"):
                    found |= _requirements(value.encode())
            return found
        document = tomllib.loads(text)
    except (UnicodeDecodeError, configparser.Error, tomllib.TOMLDecodeError) as error:
        notes.append(f"{relative}: {type(error).__name__}")
        return set()
    if name == "Pipfile":
        return {
            normalize(key)
            for table in ("packages", "dev-packages")
            for key in _table(document.get(table))
        }
    project = _table(document.get("project"))
    found = _names_of(project.get("dependencies"))
    for extra in _table(project.get("optional-dependencies")).values():
        found |= _names_of(extra)
    for group in _table(document.get("dependency-groups")).values():
        found |= _names_of(group)
    poetry = _table(_table(document.get("tool")).get("poetry"))
    tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
    tables += [_table(group).get("dependencies") for group in _table(poetry.get("group")).values()]
    for table in tables:
        found |= {normalize(key) for key in _table(table) if key != "python"}
    return found


def _table(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
