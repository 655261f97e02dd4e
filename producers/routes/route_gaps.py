"""What the Node and the Python route emitters count the same way, and its limitation lines.

Both emitters walk routers into facts and keep, besides, the registrations that may
not answer in registration order, the routes under a prefix they could not resolve
and the routes registered only under a condition; each line may carry a scope (the
route templates it bounds) that the exchange validates before it is written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tsograph.exchange.limitations import Place as LinePlace
from tsograph.exchange.limitations import counted
from tsograph.exchange.scopes import static_template_problem
from tsograph.producers.routes.route_scan import Limitations


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
