"""Module resolution: which project file (or which outside package) a specifier names.

Statically, from the walked source set and the configs, the way TypeScript's
`bundler` resolution would (with `allowJs`), but never guessing:

* relative specifiers probe TypeScript extensions first (`./x.js` finds
  `x.ts`), then JavaScript, then folder `package.json` entries and `index`;
* bare specifiers try the owning config's `paths` (longest prefix first),
  then `baseUrl`, then workspace packages by name (their `exports` with
  conditions, `types`, `module`, `main`, `index`), then Node built-ins, and
  finally installed packages in a `node_modules` folder on the way up;
* a workspace package entry that names the package's build output (its
  tsconfig's `outDir`, read back through `rootDir`; else `dist` read back as
  `src`) is read from the source it is built from, and so is every path of a
  package the importer links to its build folder (`"x": "link:../x/dist"`):
  the build output is no source of the walk;
* a package that is not installed is `missing` (calls into it are external
  and counted under missing-dependencies:); a project specifier that finds
  no file is `unresolved`, with the reason.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tsograph.producers.project import paths
from tsograph.producers.project.fsread import is_dir
from tsograph.producers.project.fsread import lexists
from tsograph.producers.project.packages import PackageInfo
from tsograph.producers.project.packages import Workspace
from tsograph.producers.project.packages import package_name_of
from tsograph.producers.project.packages import resolve_exports
from tsograph.producers.project.tsconfig import CompilerConfig
from tsograph.producers.project.tsconfig import ConfigSet
from tsograph.producers.project.tsconfig import match_pattern
from tsograph.producers.project.tsconfig import substitute

SOURCE = "source"
DECLARATION = "declaration"
EXTERNAL = "external"
BUILTIN = "builtin"
MISSING = "missing"
ASSET = "asset"
UNRESOLVED = "unresolved"

CODE_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
# What an extensionless specifier tries, in TypeScript's order with allowJs.
PROBE_SUFFIXES = (".ts", ".tsx", ".d.ts", ".js", ".jsx")
# A written JavaScript extension also names the TypeScript file it is compiled from.
EXTENSION_TWINS = {
    ".js": (".ts", ".tsx", ".d.ts", ".js"),
    ".jsx": (".tsx", ".d.ts", ".jsx"),
    ".mjs": (".mts", ".d.mts", ".mjs"),
    ".cjs": (".cts", ".d.cts", ".cjs"),
}
INDEX_SUFFIXES = tuple("index" + suffix for suffix in PROBE_SUFFIXES)
# What a compiler writes into a build folder, longest first: the source has the same stem.
BUILT_SUFFIXES = (".d.mts", ".d.cts", ".d.ts", ".mjs", ".cjs", ".jsx", ".js")
CONDITIONS = ("types", "import", "require", "node", "module")

NODE_BUILTINS = frozenset(
    [
        "assert",
        "async_hooks",
        "buffer",
        "child_process",
        "cluster",
        "console",
        "constants",
        "crypto",
        "dgram",
        "diagnostics_channel",
        "dns",
        "domain",
        "events",
        "fs",
        "http",
        "http2",
        "https",
        "inspector",
        "module",
        "net",
        "os",
        "path",
        "perf_hooks",
        "process",
        "punycode",
        "querystring",
        "readline",
        "repl",
        "stream",
        "string_decoder",
        "sys",
        "timers",
        "tls",
        "trace_events",
        "tty",
        "url",
        "util",
        "v8",
        "vm",
        "wasi",
        "worker_threads",
        "zlib",
        "test",
        "sqlite",
    ]
)


@dataclass(frozen=True)
class Resolution:
    kind: str
    path: str | None = None
    reason: str | None = None
    package: str | None = None


@dataclass(eq=False)
class Resolver:
    root: Path
    sources: set[str]
    declarations: set[str]
    configs: ConfigSet
    workspace: Workspace
    _cache: dict[tuple[str, str, str], Resolution] = field(default_factory=dict, init=False)
    _installed: dict[str, bool] = field(default_factory=dict, init=False)
    _entering: set[str] = field(default_factory=set, init=False)
    _configs: dict[str, CompilerConfig] = field(default_factory=dict, init=False)

    def resolve(self, importer: str, specifier: str) -> Resolution:
        config = self._config_of(importer)
        directory = paths.parent(importer)
        key = (config.file or "", directory, specifier)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._resolve(importer, directory, specifier)
            self._cache[key] = cached
        return cached

    # ---- files -------------------------------------------------------------

    def _found(self, path: str) -> Resolution | None:
        if path in self.sources:
            return Resolution(SOURCE, path)
        if path in self.declarations:
            return Resolution(DECLARATION, path)
        return None

    def probe(self, target: str) -> Resolution | None:
        """A file for a root-relative path written without or with an extension."""
        if paths.is_outside(target):
            return None
        stem, extension = posixpath.splitext(target)
        if extension in EXTENSION_TWINS:
            for suffix in EXTENSION_TWINS[extension]:
                found = self._found(stem + suffix)
                if found:
                    return found
        elif extension in CODE_EXTENSIONS:
            found = self._found(target)
            if found:
                return found
        for suffix in PROBE_SUFFIXES:
            found = self._found(target + suffix)
            if found:
                return found
        return self._folder(target)

    def _folder(self, folder: str) -> Resolution | None:
        package = self.workspace.by_directory.get(folder)
        if package is not None and folder not in self._entering:
            self._entering.add(folder)
            try:
                found = self._package_entry(package)
            finally:
                self._entering.discard(folder)
            if found:
                return found
        for name in INDEX_SUFFIXES:
            found = self._found(paths.join(folder, name))
            if found:
                return found
        return None

    def _package_entry(self, package: PackageInfo) -> Resolution | None:
        # Entries may point at each other's folders; `_entering` stops such loops.
        folder = package.directory
        for field_name in ("types", "typings", "module", "main"):
            entry = package.fields.get(field_name)
            if isinstance(entry, str):
                target = paths.join(folder, entry)
                found = self._entry_file(folder, target) or self._built_entry(package, target)
                if found:
                    return found
        return None

    def _entry_file(self, folder: str, target: str) -> Resolution | None:
        # An entry naming its own folder (`"main": "."`) would probe itself forever.
        if paths.is_outside(target) or target == folder:
            return None
        return self._found(target) or self.probe(target)

    # ---- specifiers --------------------------------------------------------

    def _resolve(self, importer: str, directory: str, specifier: str) -> Resolution:
        if not specifier:
            return Resolution(UNRESOLVED, reason="empty-specifier")
        if specifier.startswith((".", "/")):
            return self._relative(directory, specifier)
        mapped = self._mapped(importer, specifier)
        if mapped is not None:
            return mapped
        if specifier.startswith("node:") or specifier.split("/")[0] in NODE_BUILTINS:
            return Resolution(BUILTIN, package=specifier)
        name, subpath = package_name_of(specifier)
        package = self.workspace.by_name.get(name)
        if package is not None:
            if self._links_build_folder(importer, package):
                return self._built_package(package, subpath)
            return self._workspace_package(package, subpath)
        if self._installed_near(directory, name):
            return Resolution(EXTERNAL, package=name)
        return Resolution(MISSING, package=name)

    def _relative(self, directory: str, specifier: str) -> Resolution:
        if specifier.startswith("/"):
            return Resolution(UNRESOLVED, reason="absolute-specifier")
        target = paths.join(directory, specifier)
        if paths.is_outside(target):
            return Resolution(UNRESOLVED, reason="outside-project")
        found = self.probe(target)
        if found:
            return found
        extension = posixpath.splitext(target)[1]
        if extension and extension not in CODE_EXTENSIONS:
            return Resolution(ASSET, target)
        return Resolution(UNRESOLVED, reason="file-not-found")

    def _config_of(self, importer: str) -> CompilerConfig:
        config = self._configs.get(importer)
        if config is None:
            config = self.configs.for_file(importer)
            self._configs[importer] = config
        return config

    def _mapped(self, importer: str, specifier: str) -> Resolution | None:
        config = self._config_of(importer)
        candidates = []
        for mapping in config.mappings:
            star = match_pattern(mapping.pattern, specifier)
            if star is not None:
                candidates.append((len(mapping.pattern.split("*")[0]), mapping, star))
        # The longest prefix wins, as in TypeScript.
        for _, mapping, star in sorted(candidates, key=lambda item: -item[0]):
            for target in mapping.targets:
                found = self.probe(substitute(target, star))
                if found:
                    return found
        if config.base_url is not None:
            found = self.probe(paths.join(config.base_url, specifier))
            if found:
                return found
        if candidates and not self.workspace.by_name.get(package_name_of(specifier)[0]):
            # A paths pattern claimed the specifier but no file exists: a project gap.
            return Resolution(UNRESOLVED, reason="path-alias-not-found")
        return None

    def _workspace_package(self, package: PackageInfo, subpath: str) -> Resolution:
        folder = package.directory
        exports = package.fields.get("exports")
        conditions = (*CONDITIONS, *self.configs.root.custom_conditions)
        if exports is not None:
            for target in resolve_exports(exports, subpath, conditions):
                found = self._entry_file(folder, paths.join(folder, target))
                found = found or self._built_entry(package, paths.join(folder, target))
                if found:
                    return found
            return Resolution(UNRESOLVED, reason="workspace-entry-not-found", package=package.name)
        found = self._folder(folder) if subpath == "." else self.probe(paths.join(folder, subpath))
        if found:
            return found
        return Resolution(UNRESOLVED, reason="workspace-entry-not-found", package=package.name)

    # ---- build output read back as sources -----------------------------------

    def build_folders(self, package: PackageInfo) -> tuple[str, str]:
        """(output folder, source folder) of a workspace package, root-relative.

        The package's own tsconfig's outDir and rootDir when it sets both; else
        `dist` and `src`, the layout the spec names for packages without them.
        """
        folder = package.directory
        for config in (self.configs.root, *self.configs.packages):
            if config.directory == folder and config.out_dir and config.root_dir:
                return config.out_dir, config.root_dir
        return paths.join(folder, "dist"), paths.join(folder, "src")

    def _built_entry(self, package: PackageInfo, target: str) -> Resolution | None:
        """The source a built entry (`pkg/dist/index.js`) is compiled from."""
        out, source = self.build_folders(package)
        if not target.startswith(out + "/"):
            return None
        return self._source_of_built(paths.join(source, target[len(out) + 1 :]))

    def _source_of_built(self, target: str) -> Resolution | None:
        for suffix in BUILT_SUFFIXES:
            if target.endswith(suffix):
                return self.probe(target[: -len(suffix)])
        return self.probe(target)

    def _links_build_folder(self, importer: str, package: PackageInfo) -> bool:
        """Whether the package installed where the importer finds it is its build folder.

        Node looks for `node_modules/<name>` in the importer's folder and each one
        above, so the nearest package folder on the way up that declares the
        dependency decides. Its declaration links the build folder when it is a
        `link:` or `file:` path there (relative to the declaring package, as pnpm
        and npm read it), or a `workspace:` path declared by the root package
        (drizzle-orm's root: `"drizzle-orm": "workspace:./drizzle-orm/dist"`,
        installed as `link:drizzle-orm/dist` in its pnpm-lock.yaml); a `workspace:`
        path in any other package is not read, since where it leads was not checked.
        """
        for folder in paths.ancestors(paths.parent(importer)):
            holder = self.workspace.by_directory.get(folder)
            declared = holder.dependencies.get(package.name or "") if holder else None
            if holder is None or declared is None:
                continue
            protocol, _, target = declared.partition(":")
            root_path = protocol == "workspace" and folder == "" and target.startswith(".")
            if protocol in ("link", "file") or root_path:
                return paths.join(folder, target) == self.build_folders(package)[0]
            return False
        return False

    def _built_package(self, package: PackageInfo, subpath: str) -> Resolution:
        """A package installed from its build folder: its manifest's entries and its
        subpaths are read in the source folder (`main: ./index.cjs` → `src/index.ts`)."""
        source = self.build_folders(package)[1]
        if subpath != ".":
            found = self._source_of_built(paths.join(source, subpath))
        else:
            found = None
            for field_name in ("types", "typings", "module", "main"):
                entry = package.fields.get(field_name)
                if isinstance(entry, str) and not found:
                    found = self._source_of_built(paths.join(source, entry))
            found = found or self._folder(source)
        if found:
            return found
        return Resolution(UNRESOLVED, reason="workspace-entry-not-found", package=package.name)

    def _installed_near(self, directory: str, name: str) -> bool:
        for folder in paths.ancestors(directory):
            key = f"{folder}\0{name}"
            if key not in self._installed:
                base = paths.join(folder, "node_modules")
                self._installed[key] = is_dir(self.root, base) and (
                    lexists(self.root, paths.join(base, name))
                    or lexists(self.root, paths.join(base, "@types/" + _types_name(name)))
                )
            if self._installed[key]:
                return True
        return False


def _types_name(name: str) -> str:
    """`@scope/pkg` is typed by `@types/scope__pkg`."""
    return name[1:].replace("/", "__") if name.startswith("@") else name
