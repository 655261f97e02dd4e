"""React Router framework mode (and Remix) route modules: not modeled, so counted as a gap.

In framework mode every route module answers HTTP itself: its `loader`
answers GET (documents and `.data` requests), its `action` the other methods,
and a module without a default export is a resource route (an API endpoint).
`routes --role server` emits no declaration for them, so a project that
declares the framework gets one unscoped `route-coverage:` line counting what
was not read; `check` then treats every request to the service as possibly
answered there (the spec keeps every `route-coverage:` gap unscoped). The
prefix is the one the spec gives unmodeled server frameworks, not a new one:
consumers key their downgrades on the closed list of server-side prefixes.

The rules, read in @react-router/dev@7.18.4 and @react-router/fs-routes@7.18.4:

* a framework-mode app declares `@react-router/dev` (the build that serves
  route modules; `@react-router/fs-routes` only exists for it); Remix v2
  declares `@remix-run/dev`;
* the app folder is `appDirectory` of `react-router.config.{js,jsx,ts,tsx,mjs,mts}`,
  default `app` (read only when the config writes it as one string literal;
  anything else is `unresolved-app-directory`); the route config is
  `<app>/routes.{js,jsx,ts,tsx,mjs,mts}` and
  the root route `<app>/root.<same>` (`findEntry` in dist/vite.js);
* `flatRoutes()` of @react-router/fs-routes (no options) makes a route module
  of every entry directly in `<app>/routes` whose name does not start with a
  dot: each file (whatever its extension), and each folder holding
  `route.<ext>` or `index.<ext>` (ext .js .jsx .ts .tsx .md .mdx). Symbolic
  links are neither files nor folders to its `readdirSync(withFileTypes)`.

Any other route config (options to flatRoutes, `route()` lists, remix-flat-routes,
Remix's own conventions, which were not checked against their packages) is
not evaluated: the line counts that config and the files under `<app>/routes`
that may be route modules.
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from pathlib import Path

from tsograph.exchange.limitations import counted_reasons
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import is_dir
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.model import ProjectModel

FRAMEWORK_PACKAGES = ("@react-router/dev", "@remix-run/dev")
ENTRY_EXTENSIONS = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".mts")
ROUTE_MODULE_EXTENSIONS = (".js", ".jsx", ".ts", ".tsx", ".md", ".mdx")
DEFAULT_APP_DIRECTORY = "app"
# Bounds of the walk that counts candidate files under <app>/routes.
MAX_ENTRIES = 200_000
MAX_DEPTH = 64

# The route config of the framework templates: flatRoutes() with no options, nothing else
# (matched after comments are dropped, whitespace collapsed and quotes made double).
_TYPE_IMPORT = r'import (?:type )?\{ ?(?:type )?RouteConfig ?\} from "@react-router/dev/routes";?'
_FLAT_IMPORT = r'import \{ ?flatRoutes ?\} from "@react-router/fs-routes";?'
_PLAIN_FLAT_ROUTES = re.compile(
    rf"^(?:{_TYPE_IMPORT} )?{_FLAT_IMPORT} (?:{_TYPE_IMPORT} )?"
    r"export default flatRoutes\(\)(?: satisfies RouteConfig)?;?$"
)
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_APP_DIRECTORY = re.compile(r"\bappDirectory\s*:\s*(['\"])([^'\"\\]*)\1")

TEXT = (
    "React Router/Remix route module(s) or route config(s) are not read; the loaders "
    "and actions of route modules answer HTTP requests"
)


def limitation(model: ProjectModel) -> str | None:
    """The one `route-coverage:` line for a framework-mode app, None for any other project."""
    declared = model.root_package.dependencies
    framework = next((name for name in FRAMEWORK_PACKAGES if name in declared), None)
    if framework is None:
        return None
    root = model.root
    gaps: Counter[str] = Counter()
    names: set[str] = set()
    app = _app_directory(root, framework)
    if app is None:
        gaps["unresolved-app-directory"] += 1
        names.add(_entry(root, "react-router.config") or "react-router.config")
        return _line(gaps, names)
    routes = _join(app, "routes")
    if framework == "@remix-run/dev":
        gaps["unmodeled-route-conventions"] += 1
        names.add(app or ".")
    else:
        config = _entry(root, routes)
        if config is not None and _plain_flat_routes(root, config):
            modules = _flat_route_modules(root, routes)
            modules += [found] if (found := _entry(root, _join(app, "root"))) else []
            gaps["route-modules"] += len(modules)
            names.update(modules)
            return _line(gaps, names)
        gaps["unmodeled-route-configs" if config else "route-config-not-found"] += 1
        names.add(config or routes)
    candidates, truncated = _candidate_files(root, routes)
    gaps["files-under-routes-folder"] += candidates
    gaps["scan-cap-entries"] += truncated
    if candidates:
        names.add(routes)
    return _line(gaps, names)


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _line(gaps: Counter[str], names: set[str]) -> str:
    return counted_reasons("route-coverage:", gaps, TEXT, names=names)


def _read_text(root: Path, relative: str) -> str | None:
    try:
        data = read_config(root, relative)
    except ConfigReadError:
        return None
    return None if data is None else data.decode("utf-8", "replace")


def _entry(root: Path, stem: str) -> str | None:
    """`findEntry`: the first of stem.js, .jsx, .ts, .tsx, .mjs, .mts that exists."""
    for extension in ENTRY_EXTENSIONS:
        candidate = stem + extension
        if (root / candidate).is_file():
            return candidate
    return None


def _app_directory(root: Path, framework: str) -> str | None:
    """The app folder, project-relative; None when the config names it in a way not read."""
    if framework != "@react-router/dev":
        return DEFAULT_APP_DIRECTORY  # Remix: its config is not read (see the module text)
    config = _entry(root, "react-router.config")
    if config is None:
        return DEFAULT_APP_DIRECTORY
    text = _read_text(root, config)
    if text is None:
        return None
    if "appDirectory" not in text:
        return DEFAULT_APP_DIRECTORY
    found = _APP_DIRECTORY.findall(text)
    if len(found) != 1 or text.count("appDirectory") != 1:
        return None
    folder = os.path.normpath(found[0][1] or ".").replace(os.sep, "/")
    if folder.startswith("../") or folder == ".." or os.path.isabs(folder):
        return None
    return "" if folder == "." else folder


def _plain_flat_routes(root: Path, config: str) -> bool:
    text = _read_text(root, config)
    if text is None:
        return False
    code = " ".join(_COMMENTS.sub(" ", text).split()).replace("'", '"')
    return _PLAIN_FLAT_ROUTES.match(code) is not None


def _scan(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda entry: entry.name)
    except OSError:
        return []


def _kind(entry: os.DirEntry[str]) -> int:
    try:
        return entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return 0


def _flat_route_modules(root: Path, routes: str) -> list[str]:
    """The route modules `flatRoutes()` finds in the routes folder (see the module text)."""
    if not is_dir(root, routes):
        return []
    modules: list[str] = []
    for entry in _scan(root / routes):
        if entry.name.startswith("."):
            continue
        mode = _kind(entry)
        if stat.S_ISREG(mode):
            modules.append(f"{routes}/{entry.name}")
        elif stat.S_ISDIR(mode):
            inside = {child.name for child in _scan(Path(entry.path))}
            for stem in ("route", "index"):
                found = next(
                    (stem + ext for ext in ROUTE_MODULE_EXTENSIONS if stem + ext in inside), None
                )
                if found is not None:
                    modules.append(f"{routes}/{entry.name}/{found}")
                    break
    return modules


def _candidate_files(root: Path, routes: str) -> tuple[int, bool]:
    """Files with a route module extension anywhere under the routes folder (a bounded walk),
    and whether the bound cut it short."""
    if not is_dir(root, routes):
        return 0, False
    count = 0
    seen = 0
    cut = False
    pending: list[tuple[Path, int]] = [(root / routes, 0)]
    while pending:
        folder, depth = pending.pop()
        for entry in _scan(folder):
            seen += 1
            if seen > MAX_ENTRIES:
                return count, True
            if entry.name.startswith("."):
                continue
            mode = _kind(entry)
            if stat.S_ISDIR(mode):
                cut = cut or depth >= MAX_DEPTH
                if depth < MAX_DEPTH:
                    pending.append((Path(entry.path), depth + 1))
            elif stat.S_ISREG(mode) and entry.name.endswith(ROUTE_MODULE_EXTENSIONS):
                count += 1
    return count, cut
