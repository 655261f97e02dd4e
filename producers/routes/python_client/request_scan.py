"""One pass over a project's Python sources: every requests/httpx/aiohttp/urllib request as a
route-call fact or a count.

Files come from the shared walk (producers/project/walk.py) and are read as
syntax files (the Python front-end, cached by content). The owner of each
fact is `SyntaxFile.owner_at` of the call: the id `tsograph graph --language
python` gives the enclosing code. URLs become targets as for JavaScript
clients (routes/client/urls.py): holes filling a segment are `{}`, partial
segments are dynamic, query and fragment are dropped, a literal authority
names the service the request goes to, secret-looking segments are masked.
A path the library sends with `.` or `..` segments still in it is dynamic:
servers differ in whether they resolve them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from tsograph.producers.lang.syntax_file import paused_collection
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.project.test_sources import is_python_test
from tsograph.producers.routes.call_facts import CallScan
from tsograph.producers.routes.call_facts import CallSite
from tsograph.producers.routes.call_facts import add_call
from tsograph.producers.routes.call_facts import read_sites
from tsograph.producers.routes.call_facts import scan_lines
from tsograph.producers.routes.client.urls import BASE_MARK
from tsograph.producers.routes.python_client import wrappers
from tsograph.producers.routes.python_client.evaluator import Client
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Fn
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.joins import split_url
from tsograph.producers.routes.python_client.libraries import Outcome
from tsograph.producers.routes.python_client.libraries import Request
from tsograph.producers.routes.python_client.libraries import Skipped
from tsograph.producers.routes.python_client.libraries import library_value
from tsograph.producers.routes.python_client.libraries import request_of
from tsograph.producers.routes.python_client.project import PyProject
from tsograph.producers.routes.python_client.scopes import nodes

COMPUTED_ACCESS = "computed-method-access"
INNER_RETAINED = "wrapper-inner-requests-kept"
_DOT_SEGMENT = re.compile(r"(?:^|/)(?:\.|%2e){1,2}(?:/|$)", re.IGNORECASE)


@dataclass
class Scan(CallScan):
    """The Python client requests: the shared call counts (routes/call_facts.py)."""


@dataclass
class Site:
    path: str
    call: Node
    outcome: Outcome
    inner_of: int | None  # the wrapper function (node id) whose forwarded call this is


class Scanner:
    def __init__(self, model: ProjectModel, service: str | None) -> None:
        self.root = model.root
        self.service = service
        self.scan = Scan()
        self.model = model
        self.project = PyProject(model, library_value)
        self.files = [
            path for path in self.project.paths if model.include_tests or not is_python_test(path)
        ]
        self.wrappers = wrappers.Wrappers(self.project)
        self.mutated: frozenset[tuple[str, int]] = frozenset()

    def run(self) -> Scan:
        self.project.preload(self.files)
        self.mutated = self._mutated_bases()
        sites = read_sites(
            self.scan, self.root, self.files, self.project.context, _calls, self._site
        )
        replaced = self.wrappers.replaced()
        for site in sites:
            if site.inner_of is not None and site.inner_of in replaced:
                continue
            if site.inner_of is not None and site.inner_of in self.wrappers.invoked:
                self.scan.caveats[INNER_RETAINED] += 1
            self._emit(site)
        self._limitations()
        return self.scan

    def _site(self, ctx: Context, call: Node) -> Site | None:
        callee_node = call.part("callee")
        if callee_node is None:
            return None
        ev = Evaluator(self.project)
        if _computed_access(ev, ctx, callee_node):
            return Site(ctx.path, call, Skipped(COMPUTED_ACCESS), None)
        outcome = self.outcome(ev, ctx, call, 0)
        if outcome is None:
            return None
        inner = self.wrappers.inner_of(ctx, call)
        return Site(ctx.path, call, outcome, id(inner) if inner is not None else None)

    def outcome(self, ev: Evaluator, ctx: Context, call: Node, depth: int) -> Outcome | None:
        """The request of a call: a library call or a followed wrapper."""
        callee_node = call.part("callee")
        callee = ev.value(ctx, callee_node)
        if isinstance(callee, Fn):
            return self.wrappers.invoke(self.outcome, ev, ctx, call, callee, depth)
        return request_of(ev, ctx, call, callee, self.mutated)

    def _emit(self, site: Site) -> None:
        outcome = site.outcome
        ctx = self.project.context(site.path)
        assert ctx is not None
        site_of = CallSite.at(
            ctx.syntax, site.call, site.call.part("callee"), is_python_test(site.path)
        )
        if isinstance(outcome, Skipped):
            self.scan.skip(outcome.reason, (site.path, site_of.line))
            return
        add_call(
            self.scan,
            site_of,
            outcome.url,
            outcome.method,
            self.service,
            outcome.notes,
            also_dynamic=_has_dot_segments(outcome),
        )

    def _mutated_bases(self) -> frozenset[tuple[str, int]]:
        """Clients whose `base_url` is assigned anywhere (httpx allows it): base not known."""
        found: set[tuple[str, int]] = set()
        for path in self.files:
            data = self.project.data(path)
            if data is None or b"base_url" not in data:
                continue
            ctx = self.project.context(path)
            if ctx is None:
                continue
            for node in nodes(ctx.root):
                if node.kind != "assign":
                    continue
                left = node.part("left")
                prop = left.part("property") if left is not None else None
                if left is None or left.kind != "member" or prop is None:
                    continue
                if prop.value == "base_url":
                    owner = Evaluator(self.project).value(ctx, left.part("object"))
                    if isinstance(owner, Client):
                        found.add(owner.origin)
        return frozenset(found)

    def _limitations(self) -> None:
        scan = self.scan
        model = self.model
        failures = dict(self.project.unreadable)
        reasons = Counter(failures.values())
        scan.limitations.extend(model.sources.limitation_lines(dict(reasons) or None, failures))
        unseen = (
            "calls on receivers not proven to be requests, httpx, aiohttp or urllib.request "
            "are not seen"
        )
        scan_lines(scan, self.project.parse_error_files, unseen)


def _calls(root: Node) -> list[Node]:
    return [node for node in nodes(root) if node.kind == "call"]


def _computed_access(ev: Evaluator, ctx: Context, callee: Node) -> bool:
    """`getattr(requests, method)(url)` / `getattr(client, verb)(url)`: picked at run time."""
    if callee.kind != "call":
        return False
    inner = callee.part("callee")
    if inner is None or inner.kind != "identifier" or inner.value != "getattr":
        return False
    if ctx.scopes.lookup(inner, "getattr") is not None or not callee.items:
        return False
    owner = ev.value(ctx, callee.items[0])
    return isinstance(owner, Client) or (
        isinstance(owner, Lib) and owner.path in (("requests",), ("httpx",))
    )


def _has_dot_segments(outcome: Request) -> bool:
    _, _, rest = split_url(outcome.url.lstrip(BASE_MARK))
    return bool(_DOT_SEGMENT.search(rest.split("?", 1)[0]))


def scan_project(model: ProjectModel, service: str | None) -> Scan:
    """The Python client requests of a project, read through the run's project model."""
    with paused_collection():
        return Scanner(model, service).run()
