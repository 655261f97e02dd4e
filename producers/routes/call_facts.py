"""Route-call facts from a request's URL and method: one reading for the JS and Python clients.

Both client scans find a request (library, URL text with `{}` holes, method) their own
way; from there the URL becomes a target (routes/client/urls.py) or a counted skip, and
the fact is written the same: the literal authority names the service the request goes
to, else `--service` names the one relative calls and unknown bases reach.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import Protocol
from typing import TypeVar

from tsograph.exchange.limitations import Place
from tsograph.exchange.limitations import counted
from tsograph.producers import progress
from tsograph.producers.lang.syntax_file import SyntaxFile
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.origins import Rejected
from tsograph.producers.routes.client.origins import Unconverted
from tsograph.producers.routes.client.requests import NOT_HTTP
from tsograph.producers.routes.client.requests import THROWS
from tsograph.producers.routes.client.requests import UNCONVERTED_ORIGIN
from tsograph.producers.routes.client.urls import NotHttp
from tsograph.producers.routes.client.urls import target_of


@dataclass
class CallScan:
    facts: list[dict[str, Any]] = field(default_factory=list)
    limitations: list[str] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)
    caveats: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    # Where the skipped requests are, for the limitation's example places.
    skipped_at: set[Place] = field(default_factory=set)
    masked: int = 0

    def skip(self, reason: str, place: Place) -> None:
        self.skipped[reason] += 1
        self.skipped_at.add(place)


class FileContext(Protocol):
    """A file as a client scan's evaluator reads it."""

    @property
    def root(self) -> Node: ...


ContextT = TypeVar("ContextT", bound=FileContext)
SiteT = TypeVar("SiteT")


def read_sites(
    scan: CallScan,
    root: Path,
    files: list[str],
    context: Callable[[str], ContextT | None],
    calls: Callable[[Node], Iterable[Node]],
    site: Callable[[ContextT, Node], SiteT | None],
) -> list[SiteT]:
    """Every request site of the files, in file and source order; the files read are
    recorded in the scan (a file that cannot be read has no context and is left out)."""
    sites: list[SiteT] = []
    progress.phase("reading requests", len(files))
    for path in files:
        progress.advance()
        ctx = context(path)
        if ctx is None:
            continue
        scan.read.append(root / path)
        for call in calls(ctx.root):
            found = site(ctx, call)
            if found is not None:
                sites.append(found)
    return sites


def name_offset(call: Node, callee: Node | None) -> int:
    """Where a request is located: its callee's last name (`get` in `api.get(…)`)."""
    if callee is None:
        return call.start
    if callee.kind == "member":
        prop = callee.part("property")
        if prop is not None:
            return prop.start
    return callee.start


@dataclass(frozen=True)
class CallSite:
    path: str
    line: int
    column: int
    usr: str
    test: bool

    @staticmethod
    def at(syntax: SyntaxFile, call: Node, callee: Node | None, test: bool) -> CallSite:
        """Where a request stands (its callee's last name) and the code that owns it, by
        the id the graph gives that code."""
        line, column = syntax.location(name_offset(call, callee))
        return CallSite(syntax.path, line, column, syntax.owner_at(call.start), test)


def add_call(
    scan: CallScan,
    site: CallSite,
    url: str,
    method: str | None,
    service: str | None,
    notes: Iterable[str],
    also_dynamic: bool = False,
) -> None:
    """The request's fact, or its skip when the URL is not one a fact can hold."""
    try:
        target = target_of(url)
    except NotHttp:
        scan.skip(NOT_HTTP, (site.path, site.line))
        return
    except Rejected:
        scan.skip(THROWS, (site.path, site.line))
        return
    except Unconverted:
        scan.skip(UNCONVERTED_ORIGIN, (site.path, site.line))
        return
    fact: dict[str, Any] = {
        "kind": "route-call",
        "channel": target.channel,
        "method": method or "ANY",
        "location": {"path": site.path, "line": site.line, "column": site.column},
        "pathAnchor": target.anchor,
        "dynamic": target.dynamic or also_dynamic,
        "symbol": {"usr": site.usr},
    }
    if method is None:
        fact["methodDynamic"] = True
    chosen = target.origin if target.origin is not None else service
    if chosen is not None:
        fact["service"] = chosen
    if site.test:
        fact["testSource"] = True
    for note in notes:
        scan.caveats[note] += 1
    scan.masked += target.masked
    scan.facts.append(fact)


def parse_error_line(scan: CallScan, files: list[str]) -> None:
    if files:
        scan.limitations.append(
            counted(
                "parse-errors:",
                len(files),
                "file(s) hold syntax the parser could not read; requests in the rest are kept",
                names=files,
            )
        )


def coverage_line(scan: CallScan, unseen: str) -> None:
    """The requests not represented as facts, and which calls are not seen at all."""
    skipped = sum(scan.skipped.values())
    if skipped:
        scan.limitations.append(
            counted(
                "client-call-coverage:",
                skipped,
                f"request(s) not represented as facts; {unseen}",
                breakdown=scan.skipped,
                places=scan.skipped_at,
            )
        )
    else:
        # The scope stays stated (zero facts prove nothing), but a zero count
        # would read as an alarm about requests that do not exist.
        scan.limitations.append(f"client-call-coverage: {unseen}")


def caveat_line(scan: CallScan) -> None:
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


def scan_lines(scan: CallScan, parse_error_files: list[str], unseen: str) -> None:
    """The lines every client scan ends with: the files that did not parse, the requests
    not represented as facts (`unseen`: which calls are not seen at all), the caveats."""
    parse_error_line(scan, parse_error_files)
    coverage_line(scan, unseen)
    caveat_line(scan)
