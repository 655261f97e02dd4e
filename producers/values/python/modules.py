"""Project modules as values, and the submodules a package reaches by attribute or import.

Python binds `from pkg import sub` and `pkg.sub` to the submodule when the package's
`__init__` does not bind `sub` itself (the import system sets the attribute on the package
once the submodule is loaded). A regular package (`__init__.py`, or its stub) and a
namespace package (PEP 420: folders without one) have submodules this way; a plain
module has none. `from m import *` binds the names `star_brings` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.project.python_modules import PyResolution
from tsograph.producers.project.python_modules import PythonModules

_PACKAGE_INITS = ("__init__.py", "__init__.pyi")


@dataclass(frozen=True)
class Module:
    """A project module: the file that holds it."""

    path: str


@dataclass(frozen=True)
class Namespace:
    """A namespace package (PEP 420): the folders that make it up."""

    folders: tuple[str, ...]


def package_folder(path: str) -> str | None:
    """The folder a package's submodules live in; None when `path` is not a package's
    `__init__` (the project root's own `__init__.py` is the package of the root)."""
    if path in _PACKAGE_INITS or path.endswith(tuple(f"/{name}" for name in _PACKAGE_INITS)):
        return path.rpartition("/")[0]
    return None


def package_submodule(modules: PythonModules, path: str, name: str) -> PyResolution | None:
    """Where `name` leads inside the package whose `__init__` is `path`; None when `path`
    is no package or holds no such submodule."""
    folder = package_folder(path)
    return None if folder is None else modules.submodule([folder], name)


def submodule_of(
    modules: PythonModules, package: Module | Namespace, name: str
) -> PyResolution | None:
    """Where `name` leads inside a regular or a namespace package; None when nowhere."""
    if isinstance(package, Namespace):
        return modules.submodule(package.folders, name)
    return package_submodule(modules, package.path, name)


def module_value(found: PyResolution | None) -> Module | Namespace | None:
    """A resolution as a value: a module, a namespace package, or None (outside the
    project, ambiguous, or not found)."""
    if found is None:
        return None
    if found.kind == "module":
        return Module(found.path)
    if found.kind == "namespace":
        return Namespace(found.folders)
    return None


def star_brings(facts: FileFacts, name: str, all_defined: bool | None = None) -> bool:
    """Whether `from <module> import *` binds `name` (the language reference, "The import
    statement"): the names a module's `__all__` lists when it defines one (the literal
    names the front-end reads as exports), else every name not starting with `_`.
    `all_defined`: whether the module binds `__all__`, when the caller knows."""
    if all_defined is None:
        module = f"{facts.path}#<module>"
        all_defined = any(
            item.name == "__all__" and item.parent == module for item in facts.declarations
        )
    if all_defined:
        return any(export.name == name for export in facts.exports)
    return not name.startswith("_")
