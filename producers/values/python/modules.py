"""Project modules as values, and the submodules a package reaches by attribute or import.

Python binds `from pkg import sub` and `pkg.sub` to the submodule when the package's
`__init__` does not bind `sub` itself (the import system sets the attribute on the package
once the submodule is loaded). Only a regular package (`__init__.py`, or its stub) has
submodules this way; a plain module has none.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.project.python_modules import PyResolution, PythonModules

_PACKAGE_INITS = ("__init__.py", "__init__.pyi")


@dataclass(frozen=True)
class Module:
    """A project module: the file that holds it."""

    path: str


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
