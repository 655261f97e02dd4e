"""Entry points: the graph nodes a framework or platform calls from outside the project's code.

Each node the rules below mark carries `entries` in the snapshot, and
`reach`/`impact` count the non-HTTP kinds under `non-http-entries:`. Test
sources (`__tests__`, `__mocks__`, `*.test.*`, `*.spec.*`) are never marked:
they are separate programs, not entry points of the service.

* route-handler: `symbol.usr` of the route-decl facts the routes producer
  finds (`route_decls`, the one place a new server framework is added);
* scheduled: a GET or ANY route handler whose template matches a
  `vercel.json` `crons[].path` (Vercel invokes crons with GET);
* server-action: the exports of a module whose directive prologue holds
  'use server', and functions whose body's prologue does;
* page, metadata-route, middleware, instrumentation: the exports Next.js
  calls in App Router special files, Pages Router pages, metadata files,
  `proxy`/`middleware` and `instrumentation` files. These are only looked for
  in a Next.js project (`next` declared in package.json, or a next.config
  file), so a `src/pages/` folder of another framework marks nothing.

The export lists were checked against next 16.4.6 (dist/): App Router file
types in build/webpack/loaders/next-app-loader (FILE_TYPES, page, default),
page exports in server/typescript/constant.js (ALLOWED_EXPORTS), metadata
files and their `\\d?` variants in lib/metadata/is-metadata-route.js (robots
and manifest only at the app root), generateSitemaps/generateImageMetadata in
build/webpack/loaders/next-metadata-route-loader.js, proxy/middleware
exports in build/analysis/get-page-static-info.js, `src/` placement in
build/utils.js (isMiddlewareFilename, isInstrumentationHookFilename), and
reportWebVitals of `_app` in client/index.js.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

from tsograph.exchange.limitations import counted_reasons
from tsograph.exchange.templates import canonicalize
from tsograph.exchange.templates import segments_of
from tsograph.producers.graph.model import Graph
from tsograph.producers.lang.facts import FileFacts
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_read import is_function
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.lang.typescript import read_syntax
from tsograph.producers.project.fsread import ConfigReadError
from tsograph.producers.project.fsread import is_dir
from tsograph.producers.project.fsread import read_config
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.packages import root_package
from tsograph.producers.project.walk import SourceSet
from tsograph.producers.routes import nextjs
from tsograph.producers.routes.next_scan import Scan as NextScan
from tsograph.producers.routes.next_settings import config_file
from tsograph.producers.routes.next_settings import settings_from
from tsograph.producers.routes.node.server import ServerScan
from tsograph.producers.routes.node.server import scan_server

# App Router files whose exports Next.js renders or calls (next-app-loader FILE_TYPES,
# page and the parallel-route `default`).
APP_SPECIAL_FILES = frozenset(
    {
        "page",
        "layout",
        "template",
        "default",
        "error",
        "global-error",
        "global-not-found",
        "not-found",
        "forbidden",
        "unauthorized",
        "loading",
    }
)
APP_PAGE_EXPORTS = ("default", "generateMetadata", "generateStaticParams", "generateViewport")
PAGES_EXPORTS = ("default", "getServerSideProps", "getStaticProps", "getStaticPaths")
# Metadata files with code: sitemap, robots, manifest, icon, apple-icon, opengraph-image,
# twitter-image; robots and manifest only directly under app/.
_METADATA_ANYWHERE = re.compile(r"^(sitemap|(?:icon|apple-icon|opengraph-image|twitter-image)\d?)$")
_METADATA_AT_ROOT = frozenset({"robots", "manifest"})
METADATA_EXPORTS = ("default", "generateImageMetadata", "generateSitemaps")
MIDDLEWARE_STEMS = ("proxy", "middleware")
MIDDLEWARE_EXPORTS = ("default", "middleware", "proxy")
INSTRUMENTATION_EXPORTS = ("register", "onRequestError")
CRON_METHODS = frozenset({"GET", "ANY"})

_DIRECTIVE_TEXTS = frozenset({"'use server'", '"use server"'})


@dataclass(frozen=True)
class RouteHandler:
    """A production route handler: its graph id, HTTP method and canonical template."""

    usr: str
    method: str
    channel: str
    # The template starts at the server root and is exact (no unknown basePath, not dynamic).
    exact: bool


@dataclass
class EntryPoints:
    """Entry marks per node id, and what could not be marked (for `entry-points:`)."""

    marks: dict[str, set[str]] = field(default_factory=dict)
    gaps: Counter[str] = field(default_factory=Counter)
    gap_names: set[str] = field(default_factory=set)

    def mark(self, node_id: str, kind: str) -> None:
        self.marks.setdefault(node_id, set()).add(kind)

    def gap(self, reason: str, name: str) -> None:
        self.gaps[reason] += 1
        self.gap_names.add(name)

    def limitations(self) -> list[str]:
        if not self.gaps:
            return []
        return [
            counted_reasons(
                "entry-points:",
                self.gaps,
                "entry point(s) could not be marked",
                names=self.gap_names,
            )
        ]


def route_decls(project: Path, sources: SourceSet | None = None) -> list[dict[str, Any]]:
    """The production route-decl facts of the project, paths relative to `project`.

    Exactly what `tsograph routes --role server` declares (Next.js and Node
    backends), test sources left out. `sources`: the walk of `project` when the
    caller has it (the scan then walks nothing again). The scan is read anew for
    every build and kept for the route labels of that build (`server_scan`).
    """
    model = ProjectModel.load(project) if sources is None else ProjectModel(project, sources)
    scan = _SCANS[project.resolve()] = scan_server(model, None)
    return scan.facts


# The server routes scan of each project folder, as this process last read it: a graph
# build reads it for its entry points, and the route labels of the build (diagrams, query
# answers, a review) reuse that read instead of scanning the folder again.
_SCANS: dict[Path, ServerScan] = {}


def server_scan(project: Path) -> ServerScan:
    """The routes scan the last build of `project` in this process read, else a new one."""
    key = project.resolve()
    found = _SCANS.get(key)
    if found is None:
        found = _SCANS[key] = scan_server(ProjectModel.load(project), None)
    return found


def _route_handlers(
    project: Path, under: Callable[[str], str], found: EntryPoints, sources: SourceSet | None
) -> list[RouteHandler]:
    """Route handlers with ids relative to the source root; a handler without an id is a gap."""
    handlers = []
    for fact in route_decls(project, sources):
        usr = fact["symbol"].get("usr")
        if not usr:
            found.gap("route-handler-without-graph-id", under(fact["location"]["path"]))
            continue
        exact = fact["pathAnchor"] == "root" and not fact["dynamic"]
        handlers.append(RouteHandler(under(usr), fact["method"], fact["channel"], exact))
    return handlers


def find_entry_points(
    root: Path,
    project_rel: str,
    facts: Mapping[str, FileFacts],
    contents: Mapping[str, bytes],
    sources: SourceSet | None = None,
) -> EntryPoints:
    """Entry points of the project at `root/project_rel`; ids and paths relative to `root`.

    package.json and vercel.json are read through fsread, so a cached graph
    is invalidated when one of them changes. `sources`: the walk of `root`, reused
    by the route scan when the project is the root.
    """
    found = EntryPoints()
    project = root / project_rel if project_rel else root

    def under(relative: str) -> str:
        return f"{project_rel}/{relative}" if project_rel else relative

    # next.config.{js,mjs,ts} are sources, so their bytes are in the cache key already.
    _record(root, under("package.json"))
    handlers = _route_handlers(project, under, found, None if project_rel else sources)
    for handler in handlers:
        found.mark(handler.usr, "route-handler")
    _mark_crons(root, under("vercel.json"), handlers, found)
    production = {path: item for path, item in facts.items() if not nextjs.is_test_path(path)}
    _mark_server_actions(production, contents, found)
    if _is_nextjs(project):
        extensions = settings_from(project, NextScan()).extensions
        _mark_next_files(root, project_rel, production, extensions, found)
    return found


def apply_entry_points(graph: Graph, found: EntryPoints) -> None:
    """Set `entries` on the graph's nodes; a mark whose id is not a node becomes a gap."""
    for node_id, kinds in sorted(found.marks.items()):
        node = graph.nodes.get(node_id)
        if node is None:
            found.gap("not-a-graph-node", node_id)
            continue
        graph.nodes[node_id] = replace(node, entries=tuple(sorted({*node.entries, *kinds})))


def _record(root: Path, relative: str) -> None:
    """Read a file only so the graph cache records its bytes as a dependency."""
    # A link, an oversized or unreadable file is recorded as such all the same.
    with suppress(ConfigReadError):
        read_config(root, relative)


def _is_nextjs(project: Path) -> bool:
    """`next` is declared in package.json or a next.config file is present."""
    package = root_package(project)
    return (package.problem is None and "next" in package.dependencies) or config_file(project)[
        0
    ] is not None


# --- scheduled ---------------------------------------------------------------------------


def _mark_crons(
    root: Path, relative: str, handlers: Iterable[RouteHandler], found: EntryPoints
) -> None:
    try:
        data = read_config(root, relative)
    except ConfigReadError as error:
        found.gap(f"vercel-json-{error.reason.replace(' ', '-').lower()}", relative)
        return
    if data is None:
        return
    try:
        config = orjson.loads(data)
    except orjson.JSONDecodeError:
        found.gap("vercel-json-not-json", relative)
        return
    crons = config.get("crons") if isinstance(config, dict) else None
    if crons is None:
        return
    if not isinstance(crons, list):
        found.gap("vercel-json-crons-not-a-list", relative)
        return
    serving = [handler for handler in handlers if handler.method in CRON_METHODS and handler.exact]
    for cron in crons:
        path = cron.get("path") if isinstance(cron, dict) else None
        if not isinstance(path, str) or not path.startswith("/"):
            found.gap("cron-without-path", relative)
            continue
        matched = [handler for handler in serving if cron_path_matches(handler.channel, path)]
        if not matched:
            found.gap("cron-path-without-handler", relative)
        for handler in matched:
            found.mark(handler.usr, "scheduled")


def cron_path_matches(channel: str, path: str) -> bool:
    """Whether a concrete request path (query removed) is served by a canonical template.

    `{}` fills one non-empty segment, `{**}` one or more; a trailing slash is
    ignored on both sides, because Next.js redirects one form to the other.
    """
    concrete = path.split("?", 1)[0].split("#", 1)[0]
    if "{" in concrete or "}" in concrete:
        return False  # braces would read as template holes
    requested = canonicalize(concrete)
    if requested.dynamic:
        return False
    wanted = segments_of(_without_trailing_slash(requested.channel))
    template = segments_of(_without_trailing_slash(channel))
    for index, segment in enumerate(template):
        if segment == "{**}":
            return len(wanted) > index and all(wanted[index:])
        if index >= len(wanted) or not _segment_matches(segment, wanted[index]):
            return False
    return len(wanted) == len(template)


def _without_trailing_slash(channel: str) -> str:
    return channel[:-1] if len(channel) > 1 and channel.endswith("/") else channel


def _segment_matches(segment: str, value: str) -> bool:
    if "{}" not in segment:
        return segment == value
    pattern = "[^/]+".join(re.escape(part) for part in segment.split("{}"))
    return re.fullmatch(pattern, value) is not None


# --- server actions ----------------------------------------------------------------------


def _mark_server_actions(
    facts: Mapping[str, FileFacts], contents: Mapping[str, bytes], found: EntryPoints
) -> None:
    for path, file_facts in facts.items():
        data = contents.get(path)
        if data is None or b"use server" not in data:
            continue  # the directive cannot be there: no parse needed
        file = read_syntax(path, data)
        for statement in file.root.walk():
            if statement.kind != "statement" or not _is_directive(file, statement):
                continue
            string = statement.part("value")
            holder = statement.parent
            if string is None or holder is None or file.text(string) not in _DIRECTIVE_TEXTS:
                continue
            if not _in_prologue(file, statement, holder):
                continue
            if holder.kind == "module":
                for export in file_facts.exports:
                    if export.node and not export.type_only:
                        found.mark(export.node, "server-action")
            elif (
                holder.kind == "block" and holder.parent is not None and is_function(holder.parent)
            ):
                found.mark(file.owner_at(string.start), "server-action")


def _in_prologue(file: SyntaxFile, statement: Node, holder: Node) -> bool:
    """Only directives come before it in its body (comments are not in the tree)."""
    for sibling in holder.items:
        if sibling is statement:
            return True
        if not _is_directive(file, sibling):
            return False
    return False


def _is_directive(file: SyntaxFile, statement: Node) -> bool:
    """A statement of one string literal, as written: `("use server")` is no directive."""
    value = statement.part("value")
    return (
        statement.kind == "statement"
        and value is not None
        and value.kind == "string"
        and value.start == statement.start
    )


# --- Next.js files -----------------------------------------------------------------------


def _mark_next_files(
    root: Path,
    project_rel: str,
    facts: Mapping[str, FileFacts],
    extensions: tuple[str, ...],
    found: EntryPoints,
) -> None:
    prefix = f"{project_rel}/" if project_rel else ""
    # Next.js looks in the project folder first, then in src/ (find-pages-dir).
    app = next((f"{prefix}{p}" for p in ("app", "src/app") if is_dir(root, prefix + p)), None)
    pages = next((f"{prefix}{p}" for p in ("pages", "src/pages") if is_dir(root, prefix + p)), None)
    for path, file_facts in facts.items():
        folder, _, name = path.rpartition("/")
        stemmed = _stem(name, extensions)
        if stemmed is None:
            continue
        if app is not None and path.startswith(app + "/"):
            _mark_app_file(path[len(app) + 1 :].split("/")[:-1], stemmed, file_facts, found)
        elif pages is not None and path.startswith(pages + "/"):
            relative = path[len(pages) + 1 :]
            top = relative == name
            if not relative.startswith("api/") and not (top and stemmed == "api"):
                exports: tuple[str, ...] = PAGES_EXPORTS
                if top and stemmed == "_app":
                    exports = (*PAGES_EXPORTS, "reportWebVitals")
                _mark_exports(file_facts, exports, "page", found)
        if folder in (project_rel, f"{prefix}src"):
            if stemmed in MIDDLEWARE_STEMS:
                _mark_exports(file_facts, MIDDLEWARE_EXPORTS, "middleware", found)
            elif stemmed == "instrumentation":
                _mark_exports(file_facts, INSTRUMENTATION_EXPORTS, "instrumentation", found)


def _mark_app_file(
    folders: list[str], stem: str, file_facts: FileFacts, found: EntryPoints
) -> None:
    if any(folder.startswith("_") for folder in folders):
        return  # a private folder opts out of routing
    if stem in APP_SPECIAL_FILES:
        _mark_exports(file_facts, APP_PAGE_EXPORTS, "page", found)
    elif _METADATA_ANYWHERE.match(stem) or (not folders and stem in _METADATA_AT_ROOT):
        _mark_exports(file_facts, METADATA_EXPORTS, "metadata-route", found)


def _stem(name: str, extensions: Iterable[str]) -> str | None:
    """The name without its page extension (`\\.(ext1|ext2)$`: the longest extension wins)."""
    best: str | None = None
    for extension in extensions:
        if name.endswith("." + extension):
            stem = name[: -len(extension) - 1]
            if best is None or len(stem) < len(best):
                best = stem
    return best


def _mark_exports(
    file_facts: FileFacts, names: Iterable[str], kind: str, found: EntryPoints
) -> None:
    wanted = set(names)
    for export in file_facts.exports:
        if export.name in wanted and export.node and not export.type_only:
            found.mark(export.node, kind)
