"""One pass over a project's sources: every fetch/axios/ky request as a route-call fact or a count.

The walk and its limits are the shared source walk (producers/project/walk.py);
test sources follow the Next.js producer's test-path rules. Each file is
parsed once with the TypeScript front end; values cross files through the
project's module resolution. The owner of each fact is `ParsedFile.owner_at`
of the call, the same graph id `tsograph graph` gives the enclosing code.

Project wrappers are followed as the spec proves them (wrappers.py); the
inner request of a wrapper is kept as its own (dynamic) fact unless every use
of the wrapper is an invocation that became a fact.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tree_sitter import Node, Query, QueryCursor
from tree_sitter_language_pack import get_language

from tsograph.exchange.limitations import counted
from tsograph.producers import progress
from tsograph.producers.lang.typescript import ParsedFile, parse_file, syntax_tree
from tsograph.producers.lang.typescript.grammar import grammar_for
from tsograph.producers.project.packages import Workspace, load_workspace
from tsograph.producers.project.resolve import SOURCE, Resolver
from tsograph.producers.project.tsconfig import load_configs
from tsograph.producers.project.walk import UnreadableSource, read_source, walk
from tsograph.producers.routes.client import wrappers
from tsograph.producers.routes.client.model import ClientModel, model_request
from tsograph.producers.routes.client.origins import Rejected, Unconverted
from tsograph.producers.routes.client.requests import (
    NOT_HTTP,
    THROWS,
    UNCONVERTED_ORIGIN,
    KyDialect,
    Outcome,
    Situation,
    Skipped,
    request_of,
)
from tsograph.producers.routes.client.scopes import text
from tsograph.producers.routes.client.urls import NotHttp, target_of
from tsograph.producers.routes.client.values import (
    Client,
    Context,
    Evaluator,
    Fn,
    ProjectView,
    Value,
)
from tsograph.producers.routes.nextjs import is_test_path

_MAJOR = re.compile(r"^\s*(?:\^|~|=|v)?\s*(\d+)(?:\.(?:\d+|x|\*)){0,2}(?:-[0-9A-Za-z.-]+)?\s*$")
_RUNTIME_CHANGES = (b"interceptors", b".defaults", b"fetch")
INNER_RETAINED = "wrapper-inner-requests-kept"
COMPUTED_ACCESS = "computed-method-access"
IMPORTED_FETCH = "imported-fetch"


@dataclass
class Scan:
    facts: list[dict[str, Any]] = field(default_factory=list)
    limitations: list[str] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)
    caveats: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    masked: int = 0
    fetch_replaced: int = 0


@dataclass
class Site:
    """A request found at a call, waiting for the wrapper verdicts."""

    path: str
    call: Node
    outcome: Outcome
    inner_of: tuple[str, int] | None


class Project(ProjectView):
    def __init__(self, root: Path, sources: set[str], declarations: set[str]) -> None:
        self.root = root
        self.workspace: Workspace = load_workspace(root)
        self.configs = load_configs(root, "", workspace=self.workspace)
        self.resolver = Resolver(root, sources, declarations, self.configs, self.workspace)
        self.data: dict[str, bytes | None] = {}
        self.parsed: dict[str, ParsedFile] = {}
        self.contexts: dict[str, Context] = {}
        self.unreadable: Counter[str] = Counter()
        self.parse_error_files: list[str] = []

    def read(self, path: str) -> bytes | None:
        if path not in self.data:
            try:
                self.data[path] = read_source(self.root, path)
            except UnreadableSource as error:
                self.unreadable[error.reason] += 1
                self.data[path] = None
        return self.data[path]

    def context(self, path: str) -> Context | None:
        """The syntax tree of a file alone: reading values needs no per-file facts."""
        if path not in self.contexts:
            data = self.read(path)
            if data is None:
                return None
            # Node offsets are those of `data`: the repair only blanks type arguments.
            root, _ = syntax_tree(grammar_for(path), data)
            if root.has_error:
                self.parse_error_files.append(path)
            self.contexts[path] = Context(path, root, self)
        return self.contexts.get(path)

    def parsed_file(self, path: str) -> ParsedFile:
        """The full front-end parse, for owner ids and locations of the facts of a file."""
        if path not in self.parsed:
            data = self.data[path]
            assert data is not None
            self.parsed[path] = parse_file(path, data)
        return self.parsed[path]

    def resolve(self, importer: str, specifier: str) -> str | None:
        resolution = self.resolver.resolve(importer, specifier)
        return resolution.path if resolution.kind == SOURCE else None


@cache
def _query(grammar: str, source: str) -> Query:
    return Query(get_language(grammar), source)  # type: ignore[arg-type]


def nodes_of(path: str, root: Node, kind: str) -> list[Node]:
    query = _query(grammar_for(path), f"({kind}) @n")
    found = QueryCursor(query).captures(root).get("n", [])
    return sorted(found, key=lambda node: node.start_byte)


def ky_dialect(project: Project, path: str) -> KyDialect:
    """The ky major version the nearest package.json declares, when it is one major."""
    owner = project.workspace.owner(path)
    packages = [owner] if owner is not None else []
    root = project.workspace.by_directory.get("")
    if root is not None and root is not owner:
        packages.append(root)
    for package in packages:
        declared = package.dependencies.get("ky")
        if declared is None:
            continue
        match = _MAJOR.match(declared)
        if match and match.group(1) in ("1", "2"):
            return 1 if match.group(1) == "1" else 2
        return None
    return None


class Scanner:
    def __init__(
        self, root: Path, service: str | None, include_tests: bool, model: ClientModel | None
    ) -> None:
        self.root = root
        self.service = service
        self.include_tests = include_tests
        self.model = model
        self.scan = Scan()
        sources = walk(root)
        self.walked = sources
        self.project = Project(
            root,
            {item.path for item in sources.sources},
            {item.path for item in sources.declaration_files},
        )
        self.files = [
            item.path for item in sources.sources if include_tests or not is_test_path(item.path)
        ]
        self.situation = Situation()
        self.situations: dict[str, Situation] = {}
        self.wrappers = wrappers.Wrappers(self.project)

    def run(self) -> Scan:
        self._runtime_changes()
        sites: list[Site] = []
        progress.phase("reading requests", len(self.files))
        for path in self.files:
            progress.advance()
            ctx = self.project.context(path)
            if ctx is None:
                continue
            self.scan.read.append(self.root / path)
            for call in nodes_of(path, ctx.root, "call_expression"):
                site = self._site(ctx, call)
                if site is not None:
                    sites.append(site)
        retained = self.wrappers.retained()
        for site in sites:
            if site.inner_of is not None and site.inner_of not in retained:
                continue
            if site.inner_of is not None:
                self.scan.caveats[INNER_RETAINED] += 1
            self._emit(site)
        self._limitations()
        return self.scan

    def _situation_for(self, path: str) -> Situation:
        situation = self.situations.get(path)
        if situation is None:
            situation = Situation(
                ky_dialect(self.project, path), self.situation.intercepted, self.situation.mutated
            )
            self.situations[path] = situation
        return situation

    def _site(self, ctx: Context, call: Node) -> Site | None:
        callee_node = call.child_by_field_name("function")
        if callee_node is None:
            return None
        ev = Evaluator()
        if callee_node.type == "subscript_expression":
            # `api[method](…)`: a request whose method is picked at run time.
            owner = ev.value(ctx, callee_node.child_by_field_name("object"))
            if isinstance(owner, Client):
                return Site(ctx.path, call, Skipped(COMPUTED_ACCESS), None)
            return None
        callee = ev.value(ctx, callee_node)
        outcome = self.outcome(ev, ctx, call, callee, 0)
        if outcome is None and _imported_fetch(ctx, callee_node):
            # `import fetch from "node-fetch"` or a project function named fetch
            # that is not a proven wrapper: a request, but not one tsograph models.
            outcome = Skipped(IMPORTED_FETCH)
        if outcome is None:
            return None
        return Site(ctx.path, call, outcome, self.wrappers.inner_of(ctx, call))

    def outcome(
        self, ev: Evaluator, ctx: Context, call: Node, callee: Value, depth: int
    ) -> Outcome | None:
        """The request of a call: a library call, a model transport, or a followed wrapper."""
        if isinstance(callee, Fn):
            return self.wrappers.invoke(self, ev, ctx, call, callee, depth)
        found = request_of(ev, ctx, call, callee, self._situation_for(ctx.path))
        if found is None and self.model is not None:
            found = model_request(self.model, ev, ctx, call)
        return found

    def _emit(self, site: Site) -> None:
        outcome = site.outcome
        if isinstance(outcome, Skipped):
            self.scan.skipped[outcome.reason] += 1
            return
        try:
            target = target_of(outcome.url)
        except NotHttp:
            self.scan.skipped[NOT_HTTP] += 1
            return
        except Rejected:
            self.scan.skipped[THROWS] += 1
            return
        except Unconverted:
            self.scan.skipped[UNCONVERTED_ORIGIN] += 1
            return
        parsed = self.project.parsed_file(site.path)
        offset = _name_offset(site.call)
        line, column = parsed.location(offset)
        fact: dict[str, Any] = {
            "kind": "route-call",
            "channel": target.channel,
            "method": outcome.method or "ANY",
            "location": {"path": site.path, "line": line, "column": column},
            "pathAnchor": target.anchor,
            "dynamic": target.dynamic,
            "symbol": {"usr": parsed.owner_at(site.call.start_byte)},
        }
        if outcome.method is None:
            fact["methodDynamic"] = True
        # A URL with a literal authority names the service it goes to; --service
        # names the one that relative calls and unknown bases reach.
        service = target.origin if target.origin is not None else self.service
        if service is not None:
            fact["service"] = service
        if is_test_path(site.path):
            fact["testSource"] = True
        for note in outcome.notes:
            self.scan.caveats[note] += 1
        self.scan.masked += target.masked
        self.scan.facts.append(fact)

    def _runtime_changes(self) -> None:
        """Interceptors, mutated defaults and a replaced global fetch, anywhere in the project."""
        intercepted: set[tuple[str, int]] = set()
        mutated: set[tuple[str, int]] = set()
        for path in self.files:
            data = self.project.read(path)
            if data is None or not any(word in data for word in _RUNTIME_CHANGES):
                continue
            ctx = self.project.context(path)
            assert ctx is not None
            for call in nodes_of(path, ctx.root, "call_expression"):
                chain = _chain(call.child_by_field_name("function"))
                if chain is not None and chain[1:] == ["interceptors", "request", "use"]:
                    intercepted.update(_origins(ctx, call.child_by_field_name("function")))
            for assignment in nodes_of(path, ctx.root, "assignment_expression"):
                left = assignment.child_by_field_name("left")
                chain = _chain(left)
                if left is None or chain is None:
                    continue
                if "defaults" in chain[1:2]:
                    mutated.update(_origins(ctx, left))
                elif chain[-1] == "fetch" and _global_head(ctx, left, chain):
                    self.scan.fetch_replaced += 1
        self.situation = Situation(None, frozenset(intercepted), frozenset(mutated))

    def _limitations(self) -> None:
        scan = self.scan
        walk_lines = self.walked.limitation_lines(dict(self.project.unreadable) or None)
        scan.limitations.extend(walk_lines)
        if self.project.parse_error_files:
            scan.limitations.append(
                counted(
                    "parse-errors:",
                    len(self.project.parse_error_files),
                    "file(s) hold syntax the parser could not read; requests in the rest are kept",
                    names=self.project.parse_error_files,
                )
            )
        notes = [*self.project.configs.notes, *self.project.workspace.notes]
        if notes:
            # The ky dialect and cross-file values depend on these files.
            scan.limitations.append(
                counted(
                    "unreadable-module-configs:",
                    len(notes),
                    "tsconfig/jsconfig/package.json file(s) could not be read",
                    names=[note.partition(" ")[0] for note in notes],
                )
            )
        unseen = "calls on receivers not proven to be fetch, axios, ky or a modelled transport"
        skipped = sum(scan.skipped.values())
        if skipped:
            scan.limitations.append(
                counted(
                    "client-call-coverage:",
                    skipped,
                    f"request(s) not represented as facts; {unseen} are not seen",
                    breakdown=scan.skipped,
                )
            )
        else:
            # The scope stays stated (zero facts prove nothing), but a zero count
            # would read as an alarm about requests that do not exist.
            scan.limitations.append(f"client-call-coverage: {unseen} are not seen")
        if scan.fetch_replaced:
            scan.limitations.append(
                counted(
                    "client-call-coverage:",
                    scan.fetch_replaced,
                    "assignment(s) replace the global fetch; fetch facts assume the standard one",
                )
            )
        caveats = Counter(scan.caveats)
        if scan.masked:
            caveats["masked-secret-segments"] = scan.masked
        if caveats:
            scan.limitations.append(
                counted(
                    "client-call-coverage:",
                    sum(caveats.values()),
                    "fact(s) whose request may be changed at run time or was only partly proven",
                    breakdown=caveats,
                )
            )


def _imported_fetch(ctx: Context, callee: Node) -> bool:
    if callee.type != "identifier" or text(callee) != "fetch":
        return False
    binding = ctx.scopes.lookup(callee, "fetch")
    return binding is not None and binding.kind == "import"


def _origins(ctx: Context, chain: Node | None) -> list[tuple[str, int]]:
    """The creation site of the client a member chain (`api.interceptors…`) starts from."""
    head = chain
    while head is not None and head.type == "member_expression":
        head = head.child_by_field_name("object")
    value = Evaluator().value(ctx, head)
    return list(value.origins[-1:]) if isinstance(value, Client) else []


def _name_offset(call: Node) -> int:
    """Where a call is located: its callee's last name (`get` in `api.get(…)`)."""
    callee = call.child_by_field_name("function")
    if callee is None:
        return call.start_byte
    if callee.type == "member_expression":
        prop = callee.child_by_field_name("property")
        if prop is not None:
            return prop.start_byte
    return callee.start_byte


def _chain(node: Node | None) -> list[str] | None:
    names: list[str] = []
    while node is not None and node.type == "member_expression":
        prop = node.child_by_field_name("property")
        if prop is None:
            return None
        names.append(text(prop))
        node = node.child_by_field_name("object")
    if node is None or node.type not in ("identifier", "this"):
        return None
    names.append(text(node))
    names.reverse()
    return names


def _global_head(ctx: Context, left: Node, chain: list[str]) -> bool:
    head = left
    while head.type == "member_expression":
        obj = head.child_by_field_name("object")
        if obj is None:
            return False
        head = obj
    if len(chain) == 1:
        return chain[0] == "fetch" and ctx.scopes.lookup(head, "fetch") is None
    return (
        chain[0] in ("window", "globalThis", "self") and ctx.scopes.lookup(head, chain[0]) is None
    )


def scan_project(
    root: Path, service: str | None, include_tests: bool, model: ClientModel | None = None
) -> Scan:
    return Scanner(root, service, include_tests, model).run()
