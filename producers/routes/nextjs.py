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
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tsograph.exchange.limitations import counted
from tsograph.exchange.limitations import counted_reasons
from tsograph.producers.lang.facts import Export
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.test_sources import is_test_source
from tsograph.producers.project.walk import UnreadableSource
from tsograph.producers.project.walk import read_source
from tsograph.producers.routes.next_framework_routes import framework_routes
from tsograph.producers.routes.next_paths import is_metadata_file
from tsograph.producers.routes.next_route_facts import emit_route
from tsograph.producers.routes.next_scan import Scan
from tsograph.producers.routes.next_scan import Settings
from tsograph.producers.routes.next_scan import cover
from tsograph.producers.routes.next_scan import exists_following
from tsograph.producers.routes.next_scan import lstat
from tsograph.producers.routes.next_segments import Route
from tsograph.producers.routes.next_segments import route_of
from tsograph.producers.routes.next_settings import config_file
from tsograph.producers.routes.next_settings import settings_from
from tsograph.producers.routes.next_stars import StarExports
from tsograph.producers.routes.node.detect import detect

# next@16.4.6 server/web/http.js HTTP_METHODS; app-route/module.js dispatches on these export
# names only (HEAD and OPTIONS are filled in by helpers/auto-implement-methods.js when absent).
HANDLER_METHODS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH")
BACKEND_FRAMEWORKS = ("hono", "express", "fastify", "koa", "@koa/router", "@nestjs/core")
MAX_ENTRIES = 200_000
MAX_DEPTH = 64
_JS_EXTENSIONS = ("js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts")


def is_test_path(relative: str) -> bool:
    return is_test_source(relative)


def read_package(model: ProjectModel, scan: Scan) -> dict[str, str] | None:
    """Declared dependencies of the root package.json; None when it cannot be read."""
    package = model.root_package
    if package.problem is not None:
        return None
    if package.present:
        scan.read.append(model.root / "package.json")
    return package.dependencies


def is_nextjs(root: Path, deps: dict[str, str] | None) -> bool:
    if deps and "next" in deps:
        return True
    if config_file(root)[0] is not None:
        return True
    return not any(name in (deps or {}) for name in BACKEND_FRAMEWORKS)


def backend_frameworks(deps: dict[str, str] | None) -> list[str]:
    return [name for name in BACKEND_FRAMEWORKS if name in (deps or {})]


def _locate_dir(root: Path, name: str, scan: Scan) -> tuple[str | None, bool]:
    """`name` at the root, then under src/; (relative path, usable).

    next@16.4.6 lib/find-pages-dir.js findDir: the first of `<name>` and `src/<name>` for which
    fs.existsSync holds. existsSync follows links, so a link Next.js would pick stops the
    search (not followed here) while a dangling one does not; any other entry that exists,
    a plain file included, is picked too (and fails the build).
    """
    for relative in (name, f"src/{name}"):
        if relative.startswith("src/"):
            src = lstat(root / "src")
            if src is not None and stat.S_ISLNK(src.st_mode):
                if exists_following(root / relative):
                    cover(scan, "symbolic-link-not-followed", "src")
                    return relative, False
                continue
        info = lstat(root / relative)
        if info is None:
            continue
        if stat.S_ISLNK(info.st_mode):
            if exists_following(root / relative):
                cover(scan, "symbolic-link-not-followed", relative)
                return relative, False
            continue
        if stat.S_ISDIR(info.st_mode):
            return relative, True
        cover(scan, "not-a-folder", relative)
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
                cover(self.scan, "unreadable-folder", folder)
                continue
            for name, entry in items:
                self.entries += 1
                if self.entries > MAX_ENTRIES:
                    cover(self.scan, "scan-cap")
                    return found
                path = f"{folder}/{name}"
                if entry.is_symlink():
                    cover(self.scan, "symbolic-link-not-followed", path)
                elif entry.is_dir(follow_symlinks=False):
                    if depth + 1 >= MAX_DEPTH:
                        cover(self.scan, "scan-cap")
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


def _file_facts(root: Path, path: str, scan: Scan) -> FileFacts | None:
    try:
        data = read_source(root, path)
    except UnreadableSource as error:
        cover(scan, f"unreadable-file-{error.reason}", path)
        return None
    scan.read.append(root / path)
    facts = scan.syntax_files.get(path, data).facts
    if facts.parse_errors:
        # The grammar misses a few valid forms (`tag<T>`...``, `export type *`): exports outside
        # the error still prove their handlers; the file is a gap for what the error hides.
        cover(scan, "syntax-errors", path)
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
            cover(scan, "non-javascript-extension", path)
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
                cover(scan, f"unresolvable-{export.kind}-export", path)
                continue
            if export.name not in HANDLER_METHODS:
                continue
            if export.kind == "reexport" and export.imported == "*":
                # `export * as GET from '…'` exports a module namespace object, no function.
                cover(scan, "namespace-export-named-like-a-method", path)
                continue
            usr = export.node or f"{path}#{export.name}"
            emit_route(scan, settings, service, route, export.name, path, export, usr, test)
        if stars:
            star_model = star_model or StarExports(model, scan.read)
            _star_routes(star_model, scan, settings, service, route, path, facts, stars, test)


def _star_routes(
    model: StarExports,
    scan: Scan,
    settings: Settings,
    service: str | None,
    route: Route,
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
        emit_route(scan, settings, service, route, method, path, place, usr, test)
    if found.ambiguous:
        cover(scan, "ambiguous-star-export", path)
    if found.unresolvable:
        cover(scan, "unresolvable-star-export", path)


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
        info = lstat(root / full)
        if info is not None and stat.S_ISREG(info.st_mode) and _stem(name, settings.extensions):
            stemmed = _stem(name, settings.extensions)
            if stemmed is not None and stemmed[0] == "api":
                candidates.append(full)
    api = lstat(root / folder / "api")
    if api is not None and stat.S_ISLNK(api.st_mode):
        cover(scan, "symbolic-link-not-followed", f"{folder}/api")
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
            cover(scan, "non-javascript-extension", path)
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
            emit_route(scan, settings, service, route, "ANY", path, default, usr, test)
            continue
        commonjs = sorted(
            (export for export in exports if _serves_default(export, facts, root, path)),
            key=lambda export: (export.line, export.column),
        )
        if commonjs:
            emit_route(scan, settings, service, route, "ANY", path, commonjs[0], None, test)
            scan.missing_usrs.append(path)
            continue
        if not facts.parse_errors:  # already a gap: the error may hide the default export
            cover(scan, "api-file-without-default-export", path)


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


def _version(model: ProjectModel, deps: dict[str, str] | None, scan: Scan) -> None:
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
    else:
        # The installed version, as for the Node backends: the lockfile (a service run's
        # workspace root's at its importer, so `catalog:` resolves), else a one-major range.
        found = detect(model, ("next",)).frameworks["next"]
        if found.major == 16:
            return
        if found.major is None:
            reason = (
                f"the declared next range {found.declared!r} is not limited to one major and "
                "no lockfile gives the installed version; Next.js 16 rules assumed"
            )
        else:
            proof = "its declared range" if found.source == "range" else found.source
            reason = (
                f"next {found.major} is installed ({proof}) and only the Next.js 16 rules "
                "are modelled; they were used"
            )
        scan.limitations.append(counted("route-framework-version-unknown:", 1, reason))


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
    _version(model, deps, scan)
    settings = settings_from(root, scan)
    found: list[str] = []
    app, app_ok = _locate_dir(root, "app", scan)
    pages, pages_ok = _locate_dir(root, "pages", scan)
    if app is not None and pages is not None and app.count("/") != pages.count("/"):
        # find-pages-dir: `pages` and `app` under different folders is a build error.
        cover(scan, "app-and-pages-in-different-folders", f"{app}, {pages}")
    if app is not None:
        found.append(app)
        if app_ok:
            app_routes(model, app, settings, service, scan)
    if pages is not None:
        found.append(pages)
        if pages_ok:
            pages_routes(root, pages, settings, service, tests, scan)
    if not found:
        cover(scan, "no-app-or-pages-directory")
    framework_routes(root, settings, found, scan)
    if scan.coverage:
        scan.limitations.append(
            counted_reasons(
                "route-coverage:",
                scan.coverage,
                "route file(s) or folder(s) could not be fully modeled",
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
