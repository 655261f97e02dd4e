"""TypeScript/JavaScript compiler configuration, read statically.

The root config is the project's `tsconfig.json`, else its `jsconfig.json`,
else bundler-style defaults; `--tsconfig` names another file relative to the
project (an explicit config that cannot be read is an error, never a silent
fallback). `extends` chains are followed (relative files, packages in
`node_modules` and workspace packages, found as tsconfig_extends describes; a
string or a list, at most MAX_EXTENDS configs, cycles reported), options merge
as TypeScript merges them, and `references` of a solution-style config are
loaded so that each file is resolved with the paths of the config that owns it.

Only what module resolution needs is kept: `baseUrl`, `paths` (with the folder
their targets are relative to), `moduleResolution`, `customConditions`,
`include` / `exclude` / `files`, and `outDir` / `rootDir` (a workspace package
whose entries name its build output is read from its sources). Problems become
`graph-config:` notes.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any

from tsograph.exchange.errors import InputError
from tsograph.producers.command_args import shown
from tsograph.producers.project import paths
from tsograph.producers.project.enclosing import Enclosing
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.jsonc import JsoncError
from tsograph.producers.project.jsonc import loads
from tsograph.producers.project.packages import Workspace
from tsograph.producers.project.tsconfig_extends import ExtendsLocator

MAX_EXTENDS = 16
MAX_REFERENCES = 64

DEFAULT_EXCLUDES = ("node_modules", "bower_components", "jspm_packages")


@dataclass(frozen=True)
class PathMapping:
    """One `paths` entry: a pattern with at most one `*` and its ordered targets."""

    pattern: str
    targets: tuple[str, ...]  # root-relative once anchored, each with at most one `*`


@dataclass
class CompilerConfig:
    """The merged options of one config file (or the defaults when `file` is None)."""

    file: str | None
    directory: str
    base_url: str | None = None
    # `paths` as written, and the folder of the config that wrote them.
    raw_paths: tuple[PathMapping, ...] = ()
    paths_dir: str = ""
    module_resolution: str = "bundler"
    custom_conditions: tuple[str, ...] = ()
    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    files: tuple[str, ...] | None = None
    out_dir: str | None = None
    root_dir: str | None = None
    references: tuple[str, ...] = ()
    # Options this file or its bases set; only those override in a merge.
    explicit: set[str] = field(default_factory=set)

    @cached_property
    def mappings(self) -> tuple[PathMapping, ...]:
        """`paths` targets anchored at baseUrl when one is in force, else at their config."""
        anchor = self.base_url if self.base_url is not None else self.paths_dir
        return tuple(
            PathMapping(m.pattern, tuple(paths.join(anchor, t) for t in m.targets))
            for m in self.raw_paths
        )

    @cached_property
    def _matchers(self) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        include = self.include
        if include is None and self.files is None:
            include = (paths.join(self.directory, "**/*"),)
        excludes = self.exclude
        if excludes is None:
            excludes = tuple(paths.join(self.directory, name) for name in DEFAULT_EXCLUDES)
            if self.out_dir is not None:
                excludes += (self.out_dir,)
        return (_compile_globs(include or ()), _compile_globs(excludes))

    def owns(self, path: str) -> bool:
        """Whether the config's `files` / `include` / `exclude` select this source."""
        if self.files is not None and path in self.files:
            return True
        include, exclude = self._matchers
        if include is None or not include.fullmatch(path):
            return False
        return exclude is None or not exclude.fullmatch(path)


@dataclass
class ConfigSet:
    """The root config, the configs it references, and the configs of nested folders.

    A file takes the first referenced config that owns it, else the config of
    the nearest folder holding it that has one (a workspace package's, or any
    folder's with its own tsconfig.json or jsconfig.json: the one an editor
    opens for that file, so `@/…` aliases of a nested app resolve when the
    scan starts at the repository root), else the root config.
    """

    root: CompilerConfig
    referenced: list[CompilerConfig] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    packages: list[CompilerConfig] = field(default_factory=list)

    def for_file(self, path: str) -> CompilerConfig:
        for config in self.referenced:
            if config.owns(path):
                return config
        by_folder = self._by_folder
        for folder in paths.ancestors(paths.parent(path)):
            nested = by_folder.get(folder)
            if nested is not None and nested.owns(path):
                return nested
            if folder == self.root.directory:
                break
        return self.root

    @cached_property
    def _by_folder(self) -> dict[str, CompilerConfig]:
        found: dict[str, CompilerConfig] = {}
        for config in self.packages:
            found.setdefault(config.directory, config)
        return found


def _glob_to_regex(pattern: str) -> str:
    """TypeScript wildcards: `*` and `?` stay in one segment, `**/` spans folders.

    A last segment without a wildcard or an extension names a folder and
    selects everything below it.
    """
    last = pattern.rsplit("/", 1)[-1]
    if "*" not in last and "?" not in last and "." not in last:
        pattern = pattern.rstrip("/") + "/**/*"
    return paths.glob_regex(pattern)


def _compile_globs(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{_glob_to_regex(p)})" for p in patterns))


class _Loader:
    """Reads one config with its extends chain; collects notes instead of failing."""

    def __init__(
        self, root: Path, workspace: Workspace | None = None, enclosing: Enclosing | None = None
    ) -> None:
        self.root = root
        self.notes: list[str] = []
        self.extends = ExtendsLocator(root, workspace, self.note, enclosing)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def read_json(self, path: str) -> dict[str, Any] | None:
        try:
            data = read_config(self.root, path)
        except ConfigReadError as error:
            self.note(f"{path} not read ({error.reason})")
            return None
        if data is None:
            return None
        try:
            value = loads(data)
        except JsoncError as error:
            self.note(f"{path} not read ({error})")
            return None
        if not isinstance(value, dict):
            self.note(f"{path} not read (not a JSON object)")
            return None
        return value

    def load(self, path: str, chain: tuple[str, ...] = ()) -> CompilerConfig | None:
        if path in chain:
            self.note(f"extends cycle through {path}")
            return None
        if len(chain) >= MAX_EXTENDS:
            self.note(f"extends chain longer than {MAX_EXTENDS} at {path}")
            return None
        raw = self.read_json(path)
        if raw is None:
            return None
        directory = paths.parent(path)
        merged = CompilerConfig(file=path, directory=directory)
        extends = raw.get("extends")
        bases = [extends] if isinstance(extends, str) else extends
        if not isinstance(bases, list):
            bases = []
        for spec in bases:
            if not isinstance(spec, str):
                continue
            located = self.extends.locate(directory, spec)
            base = self.load(located, (*chain, path)) if located else None
            if base is not None:
                _inherit(merged, base)
        _apply(merged, raw, directory, self.note)
        return merged


def _inherit(target: CompilerConfig, base: CompilerConfig) -> None:
    for name in base.explicit:
        setattr(target, name, getattr(base, name))
    target.explicit |= base.explicit


def _set(config: CompilerConfig, name: str, value: Any) -> None:
    setattr(config, name, value)
    config.explicit.add(name)


def _string_list(value: Any, directory: str) -> tuple[str, ...] | None:
    if not isinstance(value, list):
        return None
    return tuple(paths.join(directory, item) for item in value if isinstance(item, str))


def _apply(config: CompilerConfig, raw: Mapping[str, Any], directory: str, note: Any) -> None:
    options = raw.get("compilerOptions")
    options = options if isinstance(options, dict) else {}
    if isinstance(options.get("baseUrl"), str):
        _set(config, "base_url", paths.join(directory, options["baseUrl"]))
    if isinstance(options.get("paths"), dict):
        mappings = []
        for pattern, targets in options["paths"].items():
            if not isinstance(targets, list) or pattern.count("*") > 1:
                note(f"{config.file}: paths entry {pattern!r} ignored")
                continue
            kept = tuple(t for t in targets if isinstance(t, str) and t.count("*") <= 1)
            mappings.append(PathMapping(pattern, kept))
        _set(config, "raw_paths", tuple(mappings))
        _set(config, "paths_dir", directory)
    if isinstance(options.get("moduleResolution"), str):
        _set(config, "module_resolution", options["moduleResolution"].lower())
    if isinstance(options.get("customConditions"), list):
        conditions = options["customConditions"]
        _set(config, "custom_conditions", tuple(c for c in conditions if isinstance(c, str)))
    if isinstance(options.get("outDir"), str):
        _set(config, "out_dir", paths.join(directory, options["outDir"]))
    if isinstance(options.get("rootDir"), str):
        _set(config, "root_dir", paths.join(directory, options["rootDir"]))
    for key in ("include", "exclude", "files"):
        if key in raw:
            _set(config, key, _string_list(raw[key], directory))
    references = raw.get("references")
    if isinstance(references, list):
        found = []
        for item in references[:MAX_REFERENCES]:
            if isinstance(item, dict) and isinstance(item.get("path"), str):
                target = paths.join(directory, item["path"])
                if not target.endswith(".json"):
                    target = paths.join(target, "tsconfig.json")
                found.append(target)
        config.references = tuple(found)


def load_configs(
    root: Path,
    project: str,
    explicit: str | None = None,
    package_folders: Iterable[str] = (),
    workspace: Workspace | None = None,
    enclosing: Enclosing | None = None,
) -> ConfigSet:
    """The config set of a project folder (root-relative) under the source root.

    `explicit` is the `--tsconfig` value, relative to the project folder;
    `package_folders` are the folders (workspace packages, folders holding a
    config) whose own configs apply to the files under them (the workspace's
    packages when only `workspace` is
    given); `workspace` also stands in for the `node_modules` links its
    package manager would create when an `extends` names a workspace package;
    `enclosing`, in a service run, the workspace root above the project.
    """
    if workspace is not None and not package_folders:
        package_folders = workspace.by_directory
    loader = _Loader(root, workspace, enclosing)
    if explicit is not None:
        path = paths.join(project, explicit)
        label = f"--tsconfig {shown(explicit)}"
        if paths.is_outside(path):
            raise InputError(
                f"{label}: lies outside the project; pass a config path relative to --project"
            )
        config = loader.load(path)
        if config is None:
            # The loader notes why it refused a file; an absent file leaves no note.
            cause = "; ".join(loader.notes) or "no such file in the project"
            raise InputError(
                f"{label}: cannot be read ({cause}); pass a config path relative to "
                "--project, or leave --tsconfig out"
            )
    else:
        config = _folder_config(root, project, loader) or CompilerConfig(
            file=None, directory=project
        )
    referenced = []
    for reference in config.references:
        loaded = loader.load(reference)
        if loaded is not None:
            referenced.append(loaded)
    packages = [
        found
        for folder in package_folders
        if folder != project and not paths.is_outside(folder)
        for found in (_folder_config(root, folder, loader),)
        if found is not None
    ]
    return ConfigSet(
        root=config,
        referenced=referenced,
        notes=sorted(set(loader.notes)),
        packages=packages,
    )


def _folder_config(root: Path, folder: str, loader: _Loader) -> CompilerConfig | None:
    """The tsconfig.json (or jsconfig.json) of a folder, when it has one."""
    for name in ("tsconfig.json", "jsconfig.json"):
        candidate = paths.join(folder, name)
        try:
            present = read_config(root, candidate) is not None
        except ConfigReadError as error:
            loader.note(f"{candidate} not read ({error.reason})")
            continue
        if present:
            return loader.load(candidate)
    return None


def match_pattern(pattern: str, specifier: str) -> str | None:
    """The text `*` stands for when the specifier matches a paths pattern, else None."""
    if "*" not in pattern:
        return "" if pattern == specifier else None
    prefix, suffix = pattern.split("*", 1)
    fits = len(specifier) >= len(prefix) + len(suffix)
    if fits and specifier.startswith(prefix) and specifier.endswith(suffix):
        return specifier[len(prefix) : len(specifier) - len(suffix)]
    return None


def substitute(target: str, star: str) -> str:
    return posixpath.normpath(target.replace("*", star, 1)) if "*" in target else target
