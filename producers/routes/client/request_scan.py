"""One pass over a project's sources: every fetch/axios/ky request as a route-call fact or a count.

The walk and its limits are the shared source walk (producers/project/walk.py);
test sources follow the Next.js producer's test-path rules. Each file is
read once as a `SyntaxFile` (its neutral syntax tree, cached by content
under --cache-dir, so a warm run parses nothing); values cross files through
the project's module resolution. The owner of each fact is
`SyntaxFile.owner_at` of the call, the same graph id `tsograph graph` gives
the enclosing code.

Project wrappers are followed as the spec proves them (wrappers.py); the
inner request of a wrapper is kept as its own (dynamic) fact unless every use
of the wrapper is an invocation that became a fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tsograph.exchange.limitations import counted
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_file import paused_collection
from tsograph.producers.lang.syntax_read import chain
from tsograph.producers.lang.syntax_read import find_all
from tsograph.producers.lang.syntax_read import unwrap
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.packages import Workspace
from tsograph.producers.project.resolve import SOURCE
from tsograph.producers.routes.call_facts import CallScan
from tsograph.producers.routes.call_facts import CallSite
from tsograph.producers.routes.call_facts import add_call
from tsograph.producers.routes.call_facts import read_sites
from tsograph.producers.routes.call_facts import scan_lines
from tsograph.producers.routes.client import heyapi
from tsograph.producers.routes.client import wrappers
from tsograph.producers.routes.client.requests import KyDialect
from tsograph.producers.routes.client.requests import Outcome
from tsograph.producers.routes.client.requests import Situation
from tsograph.producers.routes.client.requests import Skipped
from tsograph.producers.routes.client.requests import request_of
from tsograph.producers.routes.client.static_values import Client
from tsograph.producers.routes.client.static_values import Context
from tsograph.producers.routes.client.static_values import Evaluator
from tsograph.producers.routes.client.static_values import Fn
from tsograph.producers.routes.client.static_values import ProjectView
from tsograph.producers.routes.client.static_values import Value
from tsograph.producers.routes.client.static_values import callee_of
from tsograph.producers.routes.client.static_values import is_call
from tsograph.producers.routes.client.transport_model import ClientModel
from tsograph.producers.routes.client.transport_model import model_request
from tsograph.producers.routes.nextjs import is_test_path

_MAJOR = re.compile(r"^\s*(?:\^|~|=|v)?\s*(\d+)(?:\.(?:\d+|x|\*)){0,2}(?:-[0-9A-Za-z.-]+)?\s*$")
_RUNTIME_CHANGES = (b"interceptors", b".defaults", b"fetch")
INNER_RETAINED = "wrapper-inner-requests-kept"
COMPUTED_ACCESS = "computed-method-access"
IMPORTED_FETCH = "imported-fetch"
_CALLS = ("call", "tagged")


@dataclass
class Scan(CallScan):
    fetch_replaced: int = 0


@dataclass
class Site:
    """A request found at a call, waiting for the wrapper verdicts."""

    path: str
    call: Node
    outcome: Outcome
    inner_of: tuple[str, int] | None


class Project(ProjectView):
    def __init__(self, model: ProjectModel) -> None:
        self.model = model
        self.root = model.root
        self.workspace: Workspace = model.workspace
        self.configs = model.configs
        self.resolver = model.resolver
        self.syntax = model.syntax_files
        self.files: dict[str, SyntaxFile] = {}
        self.contexts: dict[str, Context] = {}
        self.parse_error_files: list[str] = []

    def read(self, path: str) -> bytes | None:
        return self.model.data(path)

    def preload(self, paths: list[str]) -> None:
        """Read the syntax files of many sources at once (the parses run in parallel)."""
        jobs = []
        for path in paths:
            data = self.read(path)
            if data is not None:
                jobs.append((path, data))
        self.syntax.preload(jobs)

    def context(self, path: str) -> Context | None:
        """What evaluating the code of a file needs: its syntax tree and scopes."""
        if path not in self.contexts:
            data = self.read(path)
            if data is None:
                return None
            syntax = self.syntax.get(path, data)
            if syntax.facts.parse_errors:
                self.parse_error_files.append(path)
            self.files[path] = syntax
            self.contexts[path] = Context(path, syntax.root, self)
        return self.contexts.get(path)

    def syntax_file(self, path: str) -> SyntaxFile:
        """The file a context was made from, for owner ids and locations of its facts."""
        return self.files[path]

    def resolve(self, importer: str, specifier: str) -> str | None:
        resolution = self.resolver.resolve(importer, specifier)
        return resolution.path if resolution.kind == SOURCE else None


def calls_of(root: Node) -> list[Node]:
    """Every call and tagged template of a file, in source order (outer calls first)."""
    return find_all(root, _CALLS)


def ky_dialect(project: Project, path: str) -> KyDialect:
    """The ky major version the nearest package.json declares, when it is one major."""
    declared = project.workspace.declared(path, "ky")
    match = None if declared is None else _MAJOR.match(declared)
    if match and match.group(1) in ("1", "2"):
        return 1 if match.group(1) == "1" else 2
    return None


class Scanner:
    def __init__(
        self, project: ProjectModel, service: str | None, model: ClientModel | None
    ) -> None:
        self.root = project.root
        self.service = service
        self.model = model
        self.scan = Scan()
        self.walked = project.sources
        self.project = Project(project)
        self.files = [
            item.path
            for item in project.sources.sources
            if project.include_tests or not is_test_path(item.path)
        ]
        self.situation = Situation()
        self.situations: dict[str, Situation] = {}
        self.wrappers = wrappers.Wrappers(self.project)
        self.sdks = heyapi.Sdks(project.workspace)
        self.generated: set[str] = set()  # the files @hey-api/openapi-ts wrote

    def run(self) -> Scan:
        self.project.preload(self.files)
        self._runtime_changes()
        self.generated = self._generated_sdks()
        sites = read_sites(
            self.scan, self.root, self.files, self.project.context, calls_of, self._site
        )
        self._uncalled_operations()
        retained = self.wrappers.retained()
        for site in sites:
            if site.inner_of is not None and site.inner_of not in retained:
                continue
            if site.inner_of is not None:
                self.scan.caveats[INNER_RETAINED] += 1
            self._emit(site)
        self._limitations()
        return self.scan

    def _generated_sdks(self) -> set[str]:
        """The files @hey-api/openapi-ts generated; the names of their SDK operations."""
        generated: set[str] = set()
        for path in self.files:
            data = self.project.read(path)
            if not heyapi.generated(data):
                continue
            generated.add(path)
            ctx = self.project.context(path)
            if ctx is not None and heyapi.is_sdk_file(path, data):
                self.sdks.learn(ctx.root)
        return generated

    def _uncalled_operations(self) -> None:
        """SDK operations used other than by a direct call: each use is a request that
        may be sent and is not represented."""
        if not self.sdks.names:
            return
        for path in self.files:
            ctx = self.project.context(path)
            if path in self.generated or ctx is None:
                continue
            syntax = self.project.syntax_file(path)
            namespaces = {
                entry.local
                for entry in syntax.facts.imports
                if entry.kind == "namespace" and self._sdk_module(path, entry.specifier)
            }
            for use in self.sdks.uncalled(ctx, namespaces):
                self.scan.skip(heyapi.NOT_CALLED, (path, syntax.location(use.start)[0]))

    def _sdk_module(self, importer: str, specifier: str) -> bool:
        target = self.project.resolve(importer, specifier)
        return target is not None and heyapi.is_sdk_file(target, self.project.read(target))

    def _situation_for(self, path: str) -> Situation:
        situation = self.situations.get(path)
        if situation is None:
            situation = Situation(
                ky_dialect(self.project, path), self.situation.intercepted, self.situation.mutated
            )
            self.situations[path] = situation
        return situation

    def _site(self, ctx: Context, call: Node) -> Site | None:
        callee_node = callee_of(call)
        if callee_node is None:
            return None
        ev = Evaluator()
        if self.sdks.names:
            operation = self.sdks.of(ctx, callee_node)
            if operation is not None and ctx.path in self.generated:
                # A generated helper (the TanStack Query plugin's queryFn) calls it: the
                # request is sent only if project code uses that helper.
                return Site(ctx.path, call, Skipped(heyapi.GENERATED_CALLER), None)
            if operation is not None:
                return Site(ctx.path, call, heyapi.call_outcome(ev, ctx, call, operation), None)
        if callee_node.kind == "index":
            # `api[method](…)`: a request whose method is picked at run time.
            owner = ev.value(ctx, callee_node.part("object"))
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
            return self.wrappers.invoke(self.outcome, ev, ctx, call, callee, depth)
        found = request_of(ev, ctx, call, callee, self._situation_for(ctx.path))
        if found is None and self.model is not None:
            found = model_request(self.model, ev, ctx, call)
        return found

    def _emit(self, site: Site) -> None:
        outcome = site.outcome
        syntax = self.project.syntax_file(site.path)
        where = CallSite.at(syntax, site.call, callee_of(site.call), is_test_path(site.path))
        if isinstance(outcome, Skipped):
            self.scan.skip(outcome.reason, (site.path, where.line))
            return
        # A URL with a literal authority names the service it goes to; --service
        # names the one that relative calls and unknown bases reach.
        add_call(self.scan, where, outcome.url, outcome.method, self.service, outcome.notes)

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
            for node in find_all(ctx.root, ("call", "tagged", "assign")):
                if is_call(node):
                    callee = callee_of(node)
                    names = chain(callee) if callee is not None else None
                    if names is not None and names[1:] == ("interceptors", "request", "use"):
                        intercepted.update(_origins(ctx, callee))
                elif node.kind == "assign" and node.value == "=":
                    left = node.part("left")
                    names = chain(left) if left is not None else None
                    if left is None or names is None:
                        continue
                    if "defaults" in names[1:2]:
                        mutated.update(_origins(ctx, left))
                    elif names[-1] == "fetch" and _global_head(ctx, left, names):
                        self.scan.fetch_replaced += 1
        self.situation = Situation(None, frozenset(intercepted), frozenset(mutated))

    def _limitations(self) -> None:
        scan = self.scan
        model = self.project.model
        walk_lines = self.walked.limitation_lines(dict(model.unreadable) or None, model.failures)
        scan.limitations.extend(walk_lines)
        # The ky dialect and cross-file values depend on these files.
        configs = self.project.model.config_limitation()
        if configs is not None:
            scan.limitations.append(configs)
        if scan.fetch_replaced:
            scan.limitations.append(
                counted(
                    "client-call-coverage:",
                    scan.fetch_replaced,
                    "assignment(s) replace the global fetch; fetch facts assume the standard one",
                )
            )
        unseen = "calls on receivers not proven to be fetch, axios, ky or a modelled transport"
        scan_lines(scan, self.project.parse_error_files, f"{unseen} are not seen")


def _imported_fetch(ctx: Context, callee: Node) -> bool:
    if callee.kind != "identifier" or callee.value != "fetch":
        return False
    binding = ctx.scopes.lookup(callee, "fetch")
    return binding is not None and binding.kind == "import"


def _head(node: Node) -> Node:
    """The start of a member chain (`api` in `api.interceptors.request`), through casts."""
    node = unwrap(node)
    while node.kind == "member":
        inner = node.part("object")
        if inner is None:
            break
        node = unwrap(inner)
    return node


def _origins(ctx: Context, member_chain: Node | None) -> list[tuple[str, int]]:
    """The creation site of the client a member chain (`api.interceptors…`) starts from."""
    if member_chain is None:
        return []
    value = Evaluator().value(ctx, _head(member_chain))
    return list(value.origins[-1:]) if isinstance(value, Client) else []


def _global_head(ctx: Context, left: Node, names: tuple[str, ...]) -> bool:
    head = _head(left)
    if len(names) == 1:
        return names[0] == "fetch" and ctx.scopes.lookup(head, "fetch") is None
    return (
        names[0] in ("window", "globalThis", "self") and ctx.scopes.lookup(head, names[0]) is None
    )


def scan_project(project: ProjectModel, service: str | None, model: ClientModel | None) -> Scan:
    """The client requests of a project: its model is the run's (walk, syntax files, the
    workspace root of a service run), `model` the --client-model transports."""
    # Every tree stays alive until the scan ends (values cross files): cyclic
    # collections would only walk them again and again (measured: half the
    # CPU time of a warm run on documenso/apps/remix).
    with paused_collection():
        return Scanner(project, service, model).run()
