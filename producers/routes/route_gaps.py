"""What the Node and the Python route emitters write the same way: the route fact's common
part, what they count, and its limitation lines.

Both emitters walk routers into facts and keep, besides, the registrations that may
not answer in registration order, the routes under a prefix they could not resolve
and the routes registered only under a condition; each line may carry a scope (the
route templates it bounds) that the exchange validates before it is written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Protocol

from tsograph.exchange.limitations import Place as LinePlace
from tsograph.exchange.limitations import counted
from tsograph.exchange.scopes import static_template_problem
from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.route_scan import Limitations


class SourcePlace(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...


def route_decl(
    method: str,
    variant: PathVariant,
    place: SourcePlace,
    handler: tuple[str, str | None],
    known: bool,
    service: str | None,
    test: bool,
) -> dict[str, Any]:
    """The route fact every framework writes alike: `handler` is (readable name, graph id
    or None), `known` whether the path is anchored at the root; the framework's own fields
    (trailing slashes, case, order…) are added by its emitter."""
    qualified, usr = handler
    fact: dict[str, Any] = {
        "kind": "route-decl",
        "channel": variant.template,
        "method": method,
        "location": {"path": place.path, "line": place.line, "column": place.column},
        "pathAnchor": "root" if known else "base",
        "dynamic": variant.dynamic,
        "symbol": {"qualifiedName": qualified},
    }
    if usr is not None:
        fact["symbol"]["usr"] = usr
    if variant.dynamic and variant.dynamic_scope:
        fact["dynamicScope"] = variant.dynamic_scope
    if variant.param_constraints:
        fact["paramConstraints"] = [
            {"index": i, "kind": kind, **({"pattern": pattern} if pattern else {})}
            for i, kind, pattern in variant.param_constraints
        ]
    if service is not None:
        fact["service"] = service
    if test:
        fact["testSource"] = True
    return fact


@dataclass
class RouteGaps:
    facts: list[dict[str, Any]] = field(default_factory=list)
    unordered: Counter[str] = field(default_factory=Counter)
    unordered_at: set[LinePlace] = field(default_factory=set)
    unresolved: int = 0
    unresolved_at: set[LinePlace] = field(default_factory=set)
    unresolved_suffixes: list[str] = field(default_factory=list)
    conditional: list[str] = field(default_factory=list)  # templates registered under a condition
    missing_usrs: set[str] = field(default_factory=set)
    other_methods: Counter[str] = field(default_factory=Counter)  # methods outside the contract


def prefix_scope(prefixes: list[str]) -> dict[str, Any] | None:
    """The scope of a limitation over these route prefixes, None when one cannot bound it."""
    if prefixes and all(
        static_template_problem(p) is None and (p == "/" or not p.endswith("/")) for p in prefixes
    ):
        return {"templatePrefixes": prefixes}
    return None


def breakdown_line(
    lines: Limitations,
    prefix: str,
    breakdown: Counter[str],
    what: str,
    *,
    places: set[LinePlace] | None = None,
    scope: dict[str, Any] | None = None,
) -> None:
    """One line counting a breakdown's total by reason, when there is anything to count."""
    if breakdown:
        lines.add(
            counted(prefix, sum(breakdown.values()), what, breakdown=breakdown, places=places),
            scope,
        )


def order_and_prefix_lines(out: RouteGaps, lines: Limitations, unresolved_what: str) -> None:
    """The lines for registrations out of order and routes under unresolved prefixes."""
    breakdown_line(
        lines,
        "route-dispatch-order-unknown:",
        out.unordered,
        "registration(s) may not answer in registration order",
        places=out.unordered_at,
    )
    if out.unresolved:
        suffixes = sorted(set(out.unresolved_suffixes))
        lines.add(
            counted(
                "unresolved-route-prefix:",
                out.unresolved,
                f"route(s) sit under {unresolved_what} tsograph could not resolve",
                places=out.unresolved_at,
            ),
            {"templateSuffixes": suffixes}
            if suffixes and all(static_template_problem(s) is None for s in suffixes)
            else None,
        )


def conditional_line(out: RouteGaps, lines: Limitations) -> None:
    if out.conditional:
        prefixes = sorted(set(out.conditional))
        lines.add(
            counted(
                "route-coverage:",
                len(prefixes),
                "route(s) are registered only under a condition and may not exist",
            ),
            prefix_scope(prefixes),
        )


def other_methods_line(
    out: RouteGaps, lines: Limitations, scope: dict[str, Any] | None = None
) -> None:
    breakdown_line(
        lines,
        "route-coverage:",
        out.other_methods,
        "route(s) answer methods the contract has no name for",
        scope=scope,
    )


def provided_line(lines: Limitations, line: str, prefix: str | None, files: bool) -> None:
    """A route the framework or a package answers itself under `prefix` (None: not
    resolved); `files`: it serves files or pages, which answer GET and HEAD only."""
    scope: dict[str, Any] | None = None
    if prefix:
        scope = {"templatePrefixes": [prefix]}
        if files:
            scope["methods"] = ["GET", "HEAD"]
    lines.add(counted("framework-provided-routes:", 1, line), scope)


def missing_usrs_line(out: RouteGaps, lines: Limitations, why: str) -> None:
    """Handlers without a graph id; `why` says what they are instead."""
    if out.missing_usrs:
        lines.add(
            counted(
                "missing-route-usrs:",
                len(out.missing_usrs),
                f"handler(s) {why} and have no graph id",
                names=out.missing_usrs,
            )
        )
