"""Next.js route handlers (App Router) and API routes (Pages Router) as route-decl facts.

Route files are read with the TypeScript front end only; nothing is executed.
The rules follow the `tsograph routes --role server` section of the spec,
re-checked against next@16.4.6: each rule names the file of `next/dist` it
comes from, and oracle/next/record.js runs those very functions (loadConfig,
findPagesDir, discoverRoutes, the redirect rules, getSortedRoutes and the route
regexes) over fixtures/routes/next/; tests/routes/test_next_oracle.py replays
the recordings against the goldens.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tsograph.exchange.limitations import counted
from tsograph.exchange.scopes import validate_dynamic_scope, validate_scope
from tsograph.exchange.templates import CATCH_ALL, PARAM, Part, canonicalize_segments
from tsograph.producers.lang.facts import Export, FileFacts
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.syntax_cache import SyntaxFiles, uncached_syntax_files
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.project.walk import UnreadableSource, read_source
from tsograph.producers.routes.next_config import (
    CONFIG_FILES,
    DEFAULT_PAGE_EXTENSIONS,
    ROUTE_KEYS,
    UNKNOWN,
    NextConfig,
    accepted_base_path,
    read_next_config,
)
from tsograph.producers.routes.next_paths import is_metadata_file, slash_redirect
from tsograph.producers.routes.next_stars import StarExports

# next@16.4.6 server/web/http.js HTTP_METHODS; app-route/module.js dispatches on these export
# names only (HEAD and OPTIONS are filled in by helpers/auto-implement-methods.js when absent).
HANDLER_METHODS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH")
BACKEND_FRAMEWORKS = ("hono", "express", "fastify", "koa", "@koa/router", "@nestjs/core")
MAX_ENTRIES = 200_000
MAX_DEPTH = 64
_JS_EXTENSIONS = ("js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts")
_MAJOR_16 = re.compile(r"^\s*[\^~=v]?\s*16(\.(\d+|x|\*)){0,2}(-[0-9A-Za-z.-]+)?\s*$")
_NON_WORD = re.compile(r"\W", re.ASCII)  # JavaScript's \W, as sorted-routes.js compares names
_FORBIDDEN_NAME = re.compile("[\x00-\x1f\x7f\\\\?#]")


@dataclass
class Scan:
    """What one run found: facts, limitation lines and their scopes, files read."""

    facts: list[dict[str, Any]] = field(default_factory=list)
    limitations: list[str] = field(default_factory=list)
    scopes: list[dict[str, Any]] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)
    coverage: Counter[str] = field(default_factory=Counter)
    coverage_names: set[str] = field(default_factory=set)
    missing_usrs: list[str] = field(default_factory=list)
    metadata: int = 0
    # Route files and the config are read through the run's syntax cache.
    syntax_files: SyntaxFiles = field(default_factory=uncached_syntax_files)


@dataclass(frozen=True)
class Settings:
    base_path: str  # "" when none
    base_known: bool
    trailing_slash: bool | None  # None: not a literal
    skip_redirect: bool | None
    extensions: tuple[str, ...]
    resolved: bool
    i18n: bool
    asset_prefix: bool


def is_test_path(relative: str) -> bool:
    return is_test_source(relative)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None


def _exists_following(path: Path) -> bool:
    return os.path.exists(path)


def read_package(model: ProjectModel, scan: Scan) -> dict[str, str] | None:
    """Declared dependencies of the root package.json; None when it cannot be read."""
    package = model.root_package
    if package.problem is not None:
        return None
    if package.present:
        scan.read.append(model.root / "package.json")
    return package.dependencies


def config_file(root: Path) -> tuple[str | None, bool]:
    """The config file Next.js would load, and whether it is a symbolic link.

    next@16.4.6 server/config.js loadConfig: find-up of CONFIG_FILES in order, by existence
    (a dangling link is absent); only the project root is looked at here (spec decision).
    """
    for name in CONFIG_FILES:
        info = _lstat(root / name)
        if info is None:
            continue
        if stat.S_ISLNK(info.st_mode):
            if not _exists_following(root / name):
                continue  # a dangling link is absent, like existsSync
            return name, True
        return name, False
    return None, False


def is_nextjs(root: Path, deps: dict[str, str] | None) -> bool:
    if deps and "next" in deps:
        return True
    if config_file(root)[0] is not None:
        return True
    return not any(name in (deps or {}) for name in BACKEND_FRAMEWORKS)


def backend_frameworks(deps: dict[str, str] | None) -> list[str]:
    return [name for name in BACKEND_FRAMEWORKS if name in (deps or {})]


def settings_from(root: Path, scan: Scan) -> Settings:
    name, linked = config_file(root)
    unresolved: list[str] = []
    config = NextConfig()
    if name is not None and linked:
        unresolved.append(f"{name} is a symbolic link and was not read")
    elif name is not None:
        try:
            data = read_source(root, name)
        except UnreadableSource:
            unresolved.append(f"{name} could not be read")
        else:
            scan.read.append(root / name)
            config = read_next_config(scan.syntax_files.get(name, data))
            if config.problems:
                unresolved.append(f"{name} could not be read statically ({config.problems[0]})")
    values = config.values
    if config.unresolved_spread:
        unresolved.append(f"{name} has spreads or members tsograph cannot resolve")
    base_known = not unresolved
    base_path = ""
    raw_base = values.get("basePath", "")
    if raw_base is UNKNOWN or not isinstance(raw_base, str):
        base_known = False
        unresolved.append(f"basePath in {name} is not a string literal")
    elif not accepted_base_path(raw_base):
        base_known = False
        unresolved.append(f"basePath in {name} is a value Next.js rejects")
    else:
        base_path = raw_base
    if config.wrapped:
        unresolved.append(f"{name} passes its config through wrapper calls")
    for line in unresolved:
        scan.limitations.append(counted("unresolved-route-prefix:", 1, line))
    extensions: tuple[str, ...] = DEFAULT_PAGE_EXTENSIONS
    raw_extensions = values.get("pageExtensions", None)
    if raw_extensions is not None:
        if (
            isinstance(raw_extensions, list)
            and raw_extensions
            and all(isinstance(item, str) and item for item in raw_extensions)
        ):
            extensions = tuple(raw_extensions)
        else:
            _cover(scan, "page-extensions-not-literal", name)
    route_keys = sorted(key for key in ROUTE_KEYS if key in values)
    if route_keys:
        scan.limitations.append(
            counted(
                "framework-provided-routes:",
                len(route_keys),
                f"config key(s) in {name} add or move routes tsograph does not enumerate",
                names=route_keys,
            )
        )
    trailing = values.get("trailingSlash", False)
    skip = values.get("skipTrailingSlashRedirect", False)
    return Settings(
        base_path=base_path,
        base_known=base_known,
        trailing_slash=trailing if isinstance(trailing, bool) and base_known else None,
        skip_redirect=skip if isinstance(skip, bool) else None,
        extensions=extensions,
        resolved=base_known and not config.wrapped and not route_keys,
        i18n="i18n" in values,
        asset_prefix="assetPrefix" in values and values["assetPrefix"] not in ("", None),
    )


def _cover(scan: Scan, reason: str, name: str | None = None) -> None:
    scan.coverage[reason] += 1
    if name:
        scan.coverage_names.add(name)


def _locate_dir(root: Path, name: str, scan: Scan) -> tuple[str | None, bool]:
    """`name` at the root, then under src/; (relative path, usable).

    next@16.4.6 lib/find-pages-dir.js findDir: the first of `<name>` and `src/<name>` for which
    fs.existsSync holds. existsSync follows links, so a link Next.js would pick stops the
    search (not followed here) while a dangling one does not; any other entry that exists,
    a plain file included, is picked too (and fails the build).
    """
    for relative in (name, f"src/{name}"):
        if relative.startswith("src/"):
            src = _lstat(root / "src")
            if src is not None and stat.S_ISLNK(src.st_mode):
                if _exists_following(root / relative):
                    _cover(scan, "symbolic-link-not-followed", "src")
                    return relative, False
                continue
        info = _lstat(root / relative)
        if info is None:
            continue
        if stat.S_ISLNK(info.st_mode):
            if _exists_following(root / relative):
                _cover(scan, "symbolic-link-not-followed", relative)
                return relative, False
            continue
        if stat.S_ISDIR(info.st_mode):
            return relative, True
        _cover(scan, "not-a-folder", relative)
        return relative, False
    return None, False


@dataclass
class _Walker:
    root: Path
    scan: Scan
    entries: int = 0

    def files(self, relative: str) -> list[str]:
        """Regular files under a folder, links not followed, within the caps."""
        found: list[str] = []
        stack: list[tuple[str, int]] = [(relative, 0)]
        while stack:
            folder, depth = stack.pop()
            try:
                with os.scandir(self.root / folder) as listing:
                    items = sorted((entry.name, entry) for entry in listing)
            except OSError:
                _cover(self.scan, "unreadable-folder", folder)
                continue
            for name, entry in items:
                self.entries += 1
                if self.entries > MAX_ENTRIES:
                    _cover(self.scan, "scan-cap")
                    return found
                path = f"{folder}/{name}"
                if entry.is_symlink():
                    _cover(self.scan, "symbolic-link-not-followed", path)
                elif entry.is_dir(follow_symlinks=False):
                    if depth + 1 >= MAX_DEPTH:
                        _cover(self.scan, "scan-cap")
                    else:
                        stack.append((path, depth + 1))
                elif entry.is_file(follow_symlinks=False):
                    found.append(path)
        return sorted(found)


def _stem(name: str, extensions: Iterable[str]) -> tuple[str, str] | None:
    """(stem, extension), the longest matching extension first.

    next@16.4.6 build/route-discovery.js getPageFromPath sorts pageExtensions by length, and
    server/lib/find-page-file.js matches `route\\.(?:ext1|ext2)$`: `route.page.ts` with
    ["ts", "page.ts"] is the handler `route`.
    """
    best: tuple[str, str] | None = None
    for extension in extensions:
        if name.endswith("." + extension):
            stem = name[: -len(extension) - 1]
            if best is None or len(stem) < len(best[0]):
                best = (stem, extension)
    return best


@dataclass
class _Route:
    segments: list[list[Part]]
    optional_catch_all: bool = False
    mixed: bool = False


def _segment(name: str, *, last: bool, seen: list[str]) -> tuple[list[Part], str] | str:
    r"""A folder name as template parts and its kind, or the reason Next.js rejects it.

    next@16.4.6 shared/lib/router/utils/sorted-routes.js (UrlNode._insert), which fails the
    build, for whole `[...]` segments; any other bracket text is "mixed": is-dynamic.js's
    strict `/\[[^/]+\](?=/|$)` then serves it as a literal while route-regex.js would read a
    parameter, so tsograph keeps it dynamic (the oracle vectors record both readings).
    """
    if not (name.startswith("[") and name.endswith("]")):
        if "[" in name or "]" in name:
            return "mixed"
        if not name.isascii():
            # next@16.4.6 builds app/café/route.ts and lists it in its manifests, yet
            # `next start` answers 404 to every spelling of /café (oracle/next live-*):
            # a route nobody can reach is a coverage gap, not a declaration.
            return "unreachable-non-ascii"
        return [name], "static"
    param, optional = name[1:-1], False
    if param.startswith("[") and param.endswith("]"):
        param, optional = param[1:-1], True
    if param.startswith("\u2026"):
        return "three-dot-character"
    catch_all = param.startswith("...")
    if catch_all:
        param = param[3:]
    if param.startswith((".", "[")) or param.endswith("]"):
        return "invalid-parameter-name"
    if optional and not catch_all:
        return "optional-non-catch-all"
    if "[" in param or "]" in param or not (param or catch_all):
        return "mixed"
    if any(slug == param or _NON_WORD.sub("", slug) == _NON_WORD.sub("", name) for slug in seen):
        return "repeated-parameter-name"
    seen.append(param)
    if catch_all and not last:
        return "catch-all-not-last"
    if catch_all:
        return [CATCH_ALL], "optional-catch-all" if optional else "catch-all"
    return [PARAM], "param"


def route_of(folders: list[str], app_router: bool, scan: Scan, path: str) -> _Route | None:
    """The route of a file from its folder names under app/ or pages/ (None: no route).

    App Router, next@16.4.6: `(group)` and `@slot` folders leave the path
    (shared/lib/router/utils/app-paths.js normalizeAppPath); `_` folders are never scanned
    (build/route-discovery.js collectAppFiles ignorePartFilter) and `%5F` is decoded to `_`
    afterwards (createPagesMapping); `(.)x` interception folders are not modeled.
    """
    segments: list[list[Part]] = []
    route = _Route(segments)
    seen: list[str] = []
    for index, name in enumerate(folders):
        last = index == len(folders) - 1
        if app_router:
            if name.startswith("(") and name.endswith(")") and not name.startswith("(."):
                continue
            if name.startswith("@"):
                _cover(scan, "parallel-route-slot", path)
                continue
            if name.startswith("(."):
                _cover(scan, "intercepting-route", path)
                return None
            if name.startswith("_"):
                return None
        if _FORBIDDEN_NAME.search(name) or name in (".", ".."):
            _cover(scan, "forbidden-characters", path)
            return None
        parsed = _segment(name, last=last, seen=seen)
        if isinstance(parsed, str):
            if parsed == "mixed":
                route.mixed = True
                segments.append(_mixed_parts(name))
                continue
            unserved = parsed == "unreachable-non-ascii"
            _cover(scan, parsed if unserved else "segment-name-rejected-by-nextjs", path)
            return None
        parts, kind = parsed
        if kind == "optional-catch-all":
            route.optional_catch_all = True
        segments.append(parts)
    if route.mixed:
        _cover(scan, "mixed-dynamic-segment", path)
    return route


def _mixed_parts(name: str) -> list[Part]:
    """The best-effort parts of `v[id]`: each bracketed name is a parameter hole."""
    parts: list[Part] = []
    for index, piece in enumerate(re.split(r"\[[^\]]*\]", name)):
        if index:
            parts.append(PARAM)
        text = piece.replace("[", "").replace("]", "")
        if text:
            parts.append(text)
    return parts


def _trailing(
    settings: Settings, full: list[list[Part]], route_segments: int, channel: str
) -> tuple[str, str | None]:
    """The channel's trailing-slash form and the trailingSlash value (None: omitted).

    next@16.4.6 lib/load-custom-routes.js: trailingSlash false redirects `/:path+/` (and
    `<basePath>/`) to the form without the slash; true redirects by the last segment (see
    next_paths.slash_redirect) and `<basePath>` to `<basePath>/`; skipTrailingSlashRedirect
    drops the redirects and server/lib/router-utils/filesystem.js matches both forms.
    """
    if settings.trailing_slash is None or settings.skip_redirect is None:
        return channel, None
    if settings.skip_redirect:
        return channel, "optional"
    if not settings.trailing_slash or not full:
        return channel, "strict"
    if not route_segments:
        return channel + "/", "strict"  # the `<basePath>` -> `<basePath>/` redirect
    form = slash_redirect(full)
    if form is None:
        return channel, None
    if form == "none":
        return channel, "optional"
    return (channel + "/" if form == "slash" else channel), "strict"


def _channel(
    settings: Settings, segments: list[list[Part]], mixed: bool
) -> tuple[str, bool, str | None]:
    base: list[list[Part]] = (
        [[part] for part in settings.base_path.split("/")[1:]] if settings.base_path else []
    )
    full: list[list[Part]] = [*base, *segments]
    template = canonicalize_segments(full)
    channel, trailing = _trailing(settings, full, len(segments), template.channel)
    return channel, template.dynamic or mixed, trailing


def _fact(
    settings: Settings,
    service: str | None,
    channel: str,
    dynamic: bool,
    trailing: str | None,
    method: str,
    path: str,
    line: int,
    column: int,
    qualified: str,
    usr: str | None,
    test: bool,
) -> dict[str, Any]:
    fact: dict[str, Any] = {
        "kind": "route-decl",
        "channel": channel,
        "method": method,
        "location": {"path": path, "line": line, "column": column},
        "pathAnchor": "root" if settings.base_known else "base",
        "dynamic": dynamic,
        "symbol": {"qualifiedName": qualified, **({"usr": usr} if usr else {})},
    }
    if service is not None:
        fact["service"] = service
    if trailing is not None:
        fact["trailingSlash"] = trailing
    if test:
        fact["testSource"] = True
    return fact


def _emit(
    scan: Scan,
    settings: Settings,
    service: str | None,
    route: _Route,
    method: str,
    path: str,
    export: Export,
    usr: str | None,
    test: bool,
) -> None:
    name = "default" if export.kind in ("equals", "commonjs") else export.name
    qualified = f"{path}#{name}"
    channel, dynamic, trailing = _channel(settings, route.segments, route.mixed)
    args = (method, path, export.line, export.column, qualified, usr, test)
    scan.facts.append(
        _scoped(settings, route, _fact(settings, service, channel, dynamic, trailing, *args))
    )
    if route.optional_catch_all:
        prefix_channel, prefix_dynamic, prefix_trailing = _channel(
            settings, route.segments[:-1], route.mixed
        )
        fact = _fact(settings, service, prefix_channel, prefix_dynamic, prefix_trailing, *args)
        if usr:
            fact["catchAllPrefix"] = True
        scan.facts.append(_scoped(settings, route, fact))


def _scoped(settings: Settings, route: _Route, fact: dict[str, Any]) -> dict[str, Any]:
    """A dynamic fact with the literal segments before its first hole as its dynamicScope.

    A Next.js route only answers below its folder path, so basePath plus the literal
    folders in front of the mixed segment bound what it can serve.
    """
    if not fact["dynamic"]:
        return fact
    literal: list[list[Part]] = [[part] for part in settings.base_path.split("/")[1:] if part]
    for segment in route.segments:
        if not all(isinstance(part, str) for part in segment):
            break
        literal.append(segment)
    if literal:
        scope = canonicalize_segments(literal)
        candidate = {**fact, "dynamicScope": scope.channel}
        if not scope.dynamic and validate_dynamic_scope(candidate) is None:
            return candidate
    return fact


def _file_facts(root: Path, path: str, scan: Scan) -> FileFacts | None:
    try:
        data = read_source(root, path)
    except UnreadableSource as error:
        _cover(scan, f"unreadable-file-{error.reason}", path)
        return None
    scan.read.append(root / path)
    facts = scan.syntax_files.get(path, data).facts
    if facts.parse_errors:
        # The grammar misses a few valid forms (`tag<T>`...``, `export type *`): exports outside
        # the error still prove their handlers; the file is a gap for what the error hides.
        _cover(scan, "syntax-errors", path)
    return facts


def app_routes(
    model: ProjectModel, folder: str, settings: Settings, service: str | None, scan: Scan
) -> None:
    root, tests = model.root, model.include_tests
    star_model: StarExports | None = None
    for path in _Walker(root, scan).files(folder):
        relative = path[len(folder) + 1 :]
        parts = relative.split("/")
        stemmed = _stem(parts[-1], settings.extensions)
        if stemmed is None or stemmed[0] != "route":
            _metadata(relative, settings, scan)
            continue
        extension = stemmed[1]
        if is_test_path(relative) and not tests:
            continue
        route = route_of(parts[:-1], True, scan, path)
        if route is None:
            continue
        if extension.rsplit(".", 1)[-1] not in _JS_EXTENSIONS or path.endswith(".d.ts"):
            _cover(scan, "non-javascript-extension", path)
            continue
        facts = _file_facts(root, path, scan)
        if facts is None:
            continue
        test = is_test_path(relative)
        stars: list[Export] = []
        for export in facts.exports:
            if export.type_only:
                continue
            if export.kind == "star":
                stars.append(export)
                continue
            if export.kind in ("equals", "commonjs"):
                _cover(scan, f"unresolvable-{export.kind}-export", path)
                continue
            if export.name not in HANDLER_METHODS:
                continue
            if export.kind == "reexport" and export.imported == "*":
                # `export * as GET from '…'` exports a module namespace object, no function.
                _cover(scan, "namespace-export-named-like-a-method", path)
                continue
            usr = export.node or f"{path}#{export.name}"
            _emit(scan, settings, service, route, export.name, path, export, usr, test)
        if stars:
            star_model = star_model or StarExports(model, scan.read)
            _star_routes(star_model, scan, settings, service, route, path, facts, stars, test)


def _star_routes(
    model: StarExports,
    scan: Scan,
    settings: Settings,
    service: str | None,
    route: _Route,
    path: str,
    facts: FileFacts,
    stars: list[Export],
    test: bool,
) -> None:
    """Handlers that arrive through `export *`: located at the first star, named by method."""
    own = {export.name for export in facts.exports if export.kind != "star"}
    found = model.handlers(path, facts, [m for m in HANDLER_METHODS if m not in own])
    for method, usr in found.usrs.items():
        place = dataclasses.replace(stars[0], name=method)
        _emit(scan, settings, service, route, method, path, place, usr, test)
    if found.ambiguous:
        _cover(scan, "ambiguous-star-export", path)
    if found.unresolvable:
        _cover(scan, "unresolvable-star-export", path)


def _metadata(relative: str, settings: Settings, scan: Scan) -> None:
    # `_` folders are skipped by the App Router scan (route-discovery.js ignorePartFilter).
    private = any(part.startswith("_") for part in relative.split("/")[:-1])
    if not private and is_metadata_file("/" + relative, settings.extensions):
        scan.metadata += 1


# next@16.4.6 lib/is-api-route.js (`/api` and `/api/...`) over build/route-discovery.js
# collectPagesFiles: every page-extension file under pages/api, `.d.ts` left out, `_` names kept.
def pages_routes(
    root: Path, folder: str, settings: Settings, service: str | None, tests: bool, scan: Scan
) -> None:
    candidates: list[str] = []
    for name in sorted(os.listdir(root / folder)) if (root / folder).is_dir() else []:
        full = f"{folder}/{name}"
        info = _lstat(root / full)
        if info is not None and stat.S_ISREG(info.st_mode) and _stem(name, settings.extensions):
            stemmed = _stem(name, settings.extensions)
            if stemmed is not None and stemmed[0] == "api":
                candidates.append(full)
    api = _lstat(root / folder / "api")
    if api is not None and stat.S_ISLNK(api.st_mode):
        _cover(scan, "symbolic-link-not-followed", f"{folder}/api")
    elif api is not None and stat.S_ISDIR(api.st_mode):
        candidates.extend(_Walker(root, scan).files(f"{folder}/api"))
    for path in candidates:
        relative = path[len(folder) + 1 :]
        parts = relative.split("/")
        stemmed = _stem(parts[-1], settings.extensions)
        if stemmed is None or path.endswith(".d.ts"):
            continue
        stem, extension = stemmed
        test = is_test_path(relative)
        if test and not tests:
            continue
        folders = parts[:-1] + ([] if stem == "index" else [stem])
        route = route_of(folders, False, scan, path)
        if route is None:
            continue
        if extension.rsplit(".", 1)[-1] not in _JS_EXTENSIONS:
            _cover(scan, "non-javascript-extension", path)
            continue
        facts = _file_facts(root, path, scan)
        if facts is None:
            continue
        exports = [export for export in facts.exports if not export.type_only]
        default = next(
            (
                export
                for export in exports
                if export.name == "default" and export.kind in ("local", "reexport")
            ),
            None,
        )
        if default is not None:
            usr = default.node or f"{path}#default"
            _emit(scan, settings, service, route, "ANY", path, default, usr, test)
            continue
        commonjs = sorted(
            (export for export in exports if _serves_default(export, facts, root, path)),
            key=lambda export: (export.line, export.column),
        )
        if commonjs:
            _emit(scan, settings, service, route, "ANY", path, commonjs[0], None, test)
            scan.missing_usrs.append(path)
            continue
        if not facts.parse_errors:  # already a gap: the error may hide the default export
            _cover(scan, "api-file-without-default-export", path)


def _serves_default(export: Export, facts: FileFacts, root: Path, path: str) -> bool:
    """Whether a CommonJS export gives Next.js the default function of an API route.

    next@16.4.6 interops a CommonJS module without `__esModule` as `{ default:
    module.exports }` (oracle/next live-pages-router: `exports.default = fn` alone
    answers 500, "does not export a default function"). So `module.exports = fn`
    serves, `module.exports = { … }` does not, and `exports.default = fn` serves
    only next to the `__esModule` marker compilers write.
    """
    if export.kind == "equals":
        holder = next((item for item in facts.declarations if item.id == f"{path}#default"), None)
        return holder is None or holder.kind != "variable"
    if export.kind != "commonjs" or export.name != "default":
        return False
    try:
        return b"__esModule" in read_source(root, path)
    except UnreadableSource:
        return False


def _version(deps: dict[str, str] | None, scan: Scan) -> None:
    if deps is None:
        scan.limitations.append(
            counted(
                "route-framework-version-unknown:",
                1,
                "package.json is a symbolic link or could not be read; Next.js 16 rules assumed",
            )
        )
    elif "next" not in deps:
        scan.limitations.append(
            counted(
                "route-framework-version-unknown:",
                1,
                "package.json does not declare next; Next.js 16 rules assumed",
            )
        )
    elif not _MAJOR_16.match(deps["next"]):
        scan.limitations.append(
            counted(
                "route-framework-version-unknown:",
                1,
                "the declared next range is not limited to major 16; Next.js 16 rules assumed",
            )
        )


def _nonempty_folder(root: Path, name: str) -> tuple[bool, bool]:
    """(exists with content or is a link, is a link)."""
    info = _lstat(root / name)
    if info is None:
        return False, False
    if stat.S_ISLNK(info.st_mode):
        return True, True
    if not stat.S_ISDIR(info.st_mode):
        return False, False
    try:
        with os.scandir(root / name) as listing:
            return any(True for _ in listing), False
    except OSError:
        return True, False


# next@16.4.6 server/lib/router-utils/filesystem.js getItem: public/ at the root, static/ under
# /static, /_next/static, /_next/image, /_next/data, all after basePath and only GET/HEAD for
# files (server/lib/router-server.js answers 405 otherwise); i18n adds default-locale lookups
# and a path assetPrefix a rewrite (lib/load-custom-routes.js), so the scopes drop then.
# proxy/middleware: lib/constants.js PROXY_FILENAME / MIDDLEWARE_FILENAME next to app/pages.
def _framework_routes(root: Path, settings: Settings, found_dirs: list[str], scan: Scan) -> None:
    base = settings.base_path if settings.base_known else "<basePath>"
    scoped = settings.resolved

    def add(line: str, scope: dict[str, Any] | None) -> None:
        scan.limitations.append(line)
        if scope is not None:
            entry = {"limitation": line, **scope}
            if validate_scope(entry, [line]) is None:
                scan.scopes.append(entry)

    present, linked = _nonempty_folder(root, "public")
    if present:
        note = " (a symbolic link, not read)" if linked else ""
        add(
            counted(
                "framework-provided-routes:",
                1,
                f"public/ is served at {base or '/'} for GET and HEAD{note}",
            ),
            {"templatePrefixes": [base or "/"], "methods": ["GET", "HEAD"]} if scoped else None,
        )
    present, linked = _nonempty_folder(root, "static")
    if present:
        note = " (a symbolic link, not read)" if linked else ""
        add(
            counted(
                "framework-provided-routes:",
                1,
                f"the legacy static/ folder is served at {base}/static for GET and HEAD{note}",
            ),
            {"templatePrefixes": [f"{base}/static"], "methods": ["GET", "HEAD"]}
            if scoped and not settings.i18n
            else None,
        )
    if found_dirs:
        add(
            counted(
                "framework-provided-routes:",
                1,
                "Next.js serves build assets, the image optimizer and page data "
                f"under {base}/_next",
            ),
            {"templatePrefixes": [f"{base}/_next"]}
            if scoped and not settings.i18n and not settings.asset_prefix
            else None,
        )
    handlers: list[str] = []
    places = sorted({folder.rpartition("/")[0] for folder in found_dirs}) or [""]
    for place in places:
        for stem in ("middleware", "proxy"):
            for extension in settings.extensions:
                name = f"{place}/{stem}.{extension}" if place else f"{stem}.{extension}"
                if _lstat(root / name) is not None:
                    handlers.append(name)
    if handlers:
        scan.limitations.append(
            counted(
                "framework-provided-routes:",
                len(handlers),
                "proxy/middleware file(s) can answer or rewrite any request",
                names=handlers,
            )
        )
    if scan.metadata:
        scan.limitations.append(
            counted(
                "framework-provided-routes:",
                scan.metadata,
                "metadata file(s) (sitemap, robots, manifest, icons, images) "
                "create framework routes",
            )
        )


def scan_project(model: ProjectModel, service: str | None) -> Scan:
    root, tests = model.root, model.include_tests
    scan = Scan(syntax_files=model.syntax_files)
    deps = read_package(model, scan)
    frameworks = backend_frameworks(deps)
    if not is_nextjs(root, deps):
        scan.limitations.append(
            counted(
                "route-coverage:",
                len(frameworks),
                "Node backend framework(s) detected but not scanned yet",
                names=frameworks,
            )
        )
        return scan
    _version(deps, scan)
    settings = settings_from(root, scan)
    found: list[str] = []
    app, app_ok = _locate_dir(root, "app", scan)
    pages, pages_ok = _locate_dir(root, "pages", scan)
    if app is not None and pages is not None and app.count("/") != pages.count("/"):
        # find-pages-dir: `pages` and `app` under different folders is a build error.
        _cover(scan, "app-and-pages-in-different-folders", f"{app}, {pages}")
    if app is not None:
        found.append(app)
        if app_ok:
            app_routes(model, app, settings, service, scan)
    if pages is not None:
        found.append(pages)
        if pages_ok:
            pages_routes(root, pages, settings, service, tests, scan)
    if not found:
        _cover(scan, "no-app-or-pages-directory")
    _framework_routes(root, settings, found, scan)
    if scan.coverage:
        scan.limitations.append(
            counted(
                "route-coverage:",
                sum(scan.coverage.values()),
                "route file(s) or folder(s) could not be fully modeled",
                breakdown=dict(scan.coverage),
                names=scan.coverage_names,
            )
        )
    if scan.missing_usrs:
        scan.limitations.append(
            counted(
                "missing-route-usrs:",
                len(scan.missing_usrs),
                "handler(s) exported through CommonJS have no graph id",
                names=scan.missing_usrs,
            )
        )
    return scan
