"""Which file a tsconfig `extends` entry names, found the way typescript@5.9.3 finds it.

TypeScript reads `extends` in `getExtendsConfigPath` (lib/typescript.js):

* `./x`, `../x` and rooted paths name a file next to the config, `.json`
  added when the file as written does not exist;
* anything else goes through `nodeNextJsonConfigResolver`: Node's module
  resolution in NodeNext mode for JSON files only, as a CommonJS request
  (features 30: `imports`, self-name, `exports` with pattern trailers), so
  the conditions are `require`, `types`, `node` and `default`
  (`getConditions`), a package folder's entry is its package.json
  `tsconfig` field, else `tsconfig.json` (`loadNodeModuleFromDirectoryWorker`
  with `isConfigLookup`), and an `exports` field, when present, is the only
  way into the package (`loadModuleFromSpecificNodeModulesDirectory`).

Packages are looked up in `node_modules` of each folder on the way up. Where
no package is installed, a workspace package takes the place of the link
the package manager would create (`Workspace.linked`), so a monorepo that
extends `@org/tsconfig/base.json` resolves without `node_modules`. In a
service run (project/enclosing.py) the lookup goes on above the run's root
up to the workspace root, with the workspace root's packages as the links,
as a run at the workspace root looks it up; the files found there are named
from the run's root (`../../packages/tsconfig/base.json`). A read
that cannot be made (a symbolic link, a folder where a file was expected)
stops the lookup with a note: nothing is guessed past it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from tsograph.producers.project import paths
from tsograph.producers.project.enclosing import Enclosing
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import is_dir
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.packages import PackageInfo
from tsograph.producers.project.packages import Workspace
from tsograph.producers.project.packages import package_name_of
from tsograph.producers.project.packages import read_package

# typescript@5.9.3 getConditions(NodeNext, CommonJS): ["require", "types", "node"], plus "default".
CONDITIONS = frozenset({"require", "types", "node", "default"})
# removeFileExtension's list, longest first, as `loadModuleFromFileNoImplicitExtensions` strips it.
_KNOWN_EXTENSIONS = (
    ".d.json.ts",
    ".d.mts",
    ".d.cts",
    ".d.ts",
    ".json",
    ".mjs",
    ".cjs",
    ".mts",
    ".cts",
    ".tsx",
    ".jsx",
    ".ts",
    ".js",
)
# Extensions after which `tryAddingExtensions` tries `<stem>.json` for a JSON-only config lookup.
_JSON_AFTER = frozenset({".json", ".ts", ".d.ts", ".js", ""})


class _Stop(Exception):
    """A read that cannot be made: the lookup ends without an answer."""


class ExtendsLocator:
    def __init__(
        self,
        root: Any,
        workspace: Workspace | None,
        note: Callable[[str], None],
        enclosing: Enclosing | None = None,
    ):
        self.root = root
        self.workspace = workspace
        self.enclosing = enclosing
        self._note = note
        self._packages: dict[str, PackageInfo | None] = {}

    def locate(self, directory: str, spec: str) -> str | None:
        spec = spec.replace("\\", "/")
        try:
            found = self._locate(directory, spec)
        except _Stop as stop:
            self._note(f"extends {spec!r} of {directory or '.'} not read ({stop})")
            return None
        if found is None:
            self._note(f"extends {spec!r} of {directory or '.'} not found")
        return found

    # ---- files -----------------------------------------------------------------

    def _reachable(self, path: str) -> bool:
        """Under the run's root, or in a service run under its workspace root."""
        if self.enclosing is not None:
            return not paths.is_outside(paths.join(self.enclosing.folder, path))
        return not paths.is_outside(path)

    def _lookup_folders(self, directory: str) -> list[str]:
        """The folder and each one above it, nearest first, up to the run's root or,
        in a service run, its workspace root."""
        if self.enclosing is None:
            return paths.ancestors(directory)
        outer = paths.join(self.enclosing.folder, directory)
        if paths.is_outside(outer):
            return []
        return [self.enclosing.inner(folder) for folder in paths.ancestors(outer)]

    def _linked(self, folder: str, name: str) -> tuple[str, PackageInfo] | None:
        """The workspace package `<folder>/node_modules/<name>` would link to, and its
        folder as the run names it."""
        if self.workspace is not None and not paths.is_outside(folder):
            found = self.workspace.linked(folder, name)
            if found is not None:
                return found.directory, found
        if self.enclosing is not None:
            outer = paths.join(self.enclosing.folder, folder)
            found = self.enclosing.workspace.linked(outer, name)
            if found is not None:
                return self.enclosing.inner(found.directory), found
        return None

    def _file(self, path: str) -> bool:
        if not self._reachable(path):
            return False
        try:
            return read_config(self.root, path) is not None
        except ConfigReadError as error:
            if error.reason == "not a regular file":
                return False  # a folder: fileExists is false, the folder rules come next
            raise _Stop(error.reason) from None

    def _package(self, folder: str) -> PackageInfo | None:
        if not self._reachable(folder):
            return None
        if folder not in self._packages:
            notes: list[str] = []
            info = read_package(self.root, folder, notes)
            if notes:
                raise _Stop(notes[0].rsplit(" not read ", 1)[-1].strip("()"))
            self._packages[folder] = info
        return self._packages[folder]

    # ---- specifiers ------------------------------------------------------------

    def _locate(self, directory: str, spec: str) -> str | None:
        if spec.startswith(("/", "./", "../")):
            target = paths.join(directory, spec)
            if self._file(target):
                return target
            if not target.endswith(".json") and self._file(target + ".json"):
                return target + ".json"
            return None
        if spec in (".", ".."):
            # A trailing-slash request: the folder rules only (nodeLoadModuleByRelativeName).
            return self._file_or_folder(paths.join(directory, spec), as_file=False)
        if spec.startswith("#"):
            return self._imports(directory, spec)
        if ":" in spec or not spec:
            return None
        name, subpath = package_name_of(spec)
        found = self._self_name(directory, name, subpath)
        if found is not None:
            return found
        for folder in self._lookup_folders(directory):
            if posixpath.basename(folder) == "node_modules":
                continue
            found = self._in_folder(folder, name, subpath)
            if found is not None:
                return found
        return None

    def _in_folder(self, folder: str, name: str, subpath: str) -> str | None:
        """`<folder>/node_modules/<name>`: a workspace link, else an installed package."""
        linked = self._linked(folder, name)
        if linked is not None:
            # `<folder>/node_modules/<name>.json` beside the link is not there either.
            return self._in_package(linked[0], linked[1], subpath, beside=False)
        modules = paths.join(folder, "node_modules")
        if not is_dir(self.root, modules):
            return None
        directory = paths.join(modules, name)
        return self._in_package(directory, self._package(directory), subpath, beside=True)

    def _in_package(
        self, directory: str, package: PackageInfo | None, subpath: str, *, beside: bool
    ) -> str | None:
        if package is not None and package.fields.get("exports"):
            return self._exports(directory, package.fields["exports"], subpath)
        if subpath == ".":
            # The package folder as a file first (`<name>.json` beside it), then as a folder.
            return self._file_or_folder(directory, package, as_file=beside)
        return self._file_or_folder(paths.join(directory, subpath[2:]))

    def _file_or_folder(
        self, candidate: str, package: PackageInfo | None = None, *, as_file: bool = True
    ) -> str | None:
        """`loadModuleFromFile`, then the folder: its `tsconfig` field, else tsconfig.json."""
        found = self._as_file(candidate, implicit=True) if as_file else None
        if found is not None:
            return found
        if package is None:
            package = self._package(candidate)
        entry = package.fields.get("tsconfig") if package is not None else None
        if isinstance(entry, str):
            # The field's file as written, then with `.json`, then its folder's tsconfig.json
            # (the folder's own package.json is not read again: considerPackageJson is false).
            target = paths.join(candidate, entry)
            found = (
                self._as_file(target, implicit=False)
                or self._as_file(target, implicit=True)
                or self._as_file(paths.join(target, "tsconfig"), implicit=True)
            )
            if found is not None:
                return found
        return self._as_file(paths.join(candidate, "tsconfig"), implicit=True)

    def _as_file(self, candidate: str, *, implicit: bool) -> str | None:
        base = posixpath.basename(candidate)
        if "." in base:
            extension = next(
                (e for e in _KNOWN_EXTENSIONS if base.endswith(e)), "." + base.rsplit(".", 1)[1]
            )
            stem = candidate[: -len(extension)]
            if extension in _JSON_AFTER and self._file(stem + ".json"):
                return stem + ".json"
        if implicit and self._file(candidate + ".json"):
            return candidate + ".json"
        return None

    # ---- package.json maps -----------------------------------------------------

    def _scope(self, directory: str) -> PackageInfo | None:
        """The nearest package.json at or above a folder (`getPackageScopeForPath`)."""
        for folder in self._lookup_folders(directory):
            package = self._package(folder)
            if package is not None:
                return package
        return None

    def _self_name(self, directory: str, name: str, subpath: str) -> str | None:
        scope = self._scope(directory)
        if scope is None or scope.name != name or not scope.fields.get("exports"):
            return None
        return self._exports(scope.directory, scope.fields["exports"], subpath)

    def _imports(self, directory: str, spec: str) -> str | None:
        if spec == "#" or spec.startswith("#/"):
            return None
        scope = self._scope(directory)
        imports = scope.fields.get("imports") if scope is not None else None
        if scope is None or not isinstance(imports, dict):
            return None
        return self._lookup(scope.directory, imports, spec)

    def _exports(self, directory: str, exports: Any, subpath: str) -> str | None:
        sugar = isinstance(exports, (str, list)) or (
            isinstance(exports, dict) and not any(str(key).startswith(".") for key in exports)
        )
        if subpath == ".":
            main = exports if sugar else exports.get(".") if isinstance(exports, dict) else None
            return None if main is None else self._target(directory, main, "", False)
        if sugar or not isinstance(exports, dict):
            return None
        return self._lookup(directory, exports, subpath)

    def _lookup(self, directory: str, table: dict[str, Any], key: str) -> str | None:
        """`loadModuleFromExportsOrImports`: an exact key, else the best pattern or folder key."""
        if not key.endswith("/") and "*" not in key and key in table:
            return self._target(directory, table[key], "", False)
        expanding = [k for k in table if k.count("*") == 1 or k.endswith("/")]
        for pattern in sorted(expanding, key=_pattern_order):
            star = pattern.find("*")
            if star >= 0:
                prefix, suffix = pattern[:star], pattern[star + 1 :]
                if key.startswith(prefix) and key.endswith(suffix) and len(key) >= len(pattern) - 1:
                    middle = key[len(prefix) : len(key) - len(suffix)]
                    return self._target(directory, table[pattern], middle, True)
            elif key.startswith(pattern):
                return self._target(directory, table[pattern], key[len(pattern) :], False)
        return None

    def _target(self, directory: str, target: Any, subpath: str, pattern: bool) -> str | None:
        if isinstance(target, str):
            if not pattern and subpath and not target.endswith("/"):
                return None
            if not target.startswith("./"):
                return None  # bare targets of `imports` are not followed: not found
            parts = target[2:].split("/")
            if any(part in ("..", ".", "node_modules") for part in parts[1:]):
                return None
            if any(part in ("..", ".", "node_modules") for part in subpath.split("/")):
                return None
            final = target.replace("*", subpath) if pattern else target + subpath
            path = paths.join(directory, final)
            if path.endswith(".json"):
                return path if self._file(path) else None
            return self._as_file(path, implicit=False)
        if isinstance(target, list):
            for item in target:
                found = self._target(directory, item, subpath, pattern)
                if found is not None:
                    return found
            return None
        if isinstance(target, dict):
            for condition, inner in target.items():
                if condition.startswith("types@"):
                    raise _Stop(f"versioned condition {condition!r}")
                if condition in CONDITIONS:
                    found = self._target(directory, inner, subpath, pattern)
                    if found is not None:
                        return found
        return None


def _pattern_order(key: str) -> tuple[int, int, int]:
    """typescript@5.9.3 comparePatternKeys: longer base first, a pattern before a folder key."""
    star = key.find("*")
    base = len(key) if star < 0 else star + 1
    return (-base, 0 if star >= 0 else 1, -len(key))
