"""Closed lists of limitation prefixes and the helper that formats counted limitations.

A limitation is one line: a prefix from a closed list, a count and a short
explanation, optionally followed by details in parentheses:

    <prefix> <count> <text> (<reason>: <n>, …, <name>, … and N more; at <file>:<line>, … and N more)

the breakdown by reason, then names (files, packages, routes), then up to
MAX_LISTED_PLACES example places, the first by path then line, so a user can
open the code that caused the count. Consumers key
their behaviour on the prefix, so an unknown prefix is an invalid document.
Limitations carry counts and project-relative names only: never source text,
never an absolute path.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping

# tsograph openapi (route-contract documents).
CONTRACT_PREFIXES = (
    "contract-coverage:",
    "unresolved-contract-servers:",
    "unsafe-operation-ids:",
    "duplicate-mapping-keys:",
)

# tsograph routes --role server (route-decl documents).
SERVER_ROUTE_PREFIXES = (
    "route-coverage:",
    "unresolved-route-prefix:",
    "framework-provided-routes:",
    "route-framework-version-unknown:",
    "missing-route-usrs:",
    "route-dispatch-order-unknown:",
    "framework-dispatch-unmodeled:",
)

# tsograph routes --role client (route-call documents).
CLIENT_ROUTE_PREFIXES = ("client-call-coverage:",)

# Problems of the source walk, shared by every producer that reads a project.
SOURCE_PREFIXES = (
    "unreadable-sources:",
    "oversized-sources:",
    "parse-errors:",
    "skipped-symlinks:",
    "scan-truncated:",
    "unreadable-module-configs:",
)

# tsograph schema (relation-use documents).
PERSISTENCE_PREFIXES = (
    "prisma-schema-not-found:",
    "unresolved-prisma-config:",
    "missing-prisma-schemas:",
    "schema-outside-project:",
    "non-relational-stores:",
    "prisma-naming-unverified:",
    "prisma-8-surface-unscanned:",
    "unparsed-schema-lines:",
    "unresolved-field-types:",
    "ignored-prisma-elements:",
    "unresolved-generator-outputs:",
    "unresolved-typed-sql:",
    "unsupported-db-packages:",
    "dynamic-relation-names:",
    "skipped-sql-literals:",
    "unresolved-client-receivers:",
    "unresolved-orm-receivers:",
    "orm-naming-unverified:",
    "unreadable-orm-declarations:",
    "provenance-truncated:",
    "missing-relation-usrs:",
    "invalid-relation-names:",
)

# tsograph graph snapshots, and reach/impact documents.
GRAPH_PREFIXES = (
    "unresolved-calls:",
    "partial-dispatch:",
    "bound-dispatch:",
    "candidate-dispatch:",
    "dispatch-budget:",
    "overridden-methods:",
    "missing-dependencies:",
    "unresolved-export-aliases:",
    "graph-config:",
    "entry-points:",
    "non-http-entries:",
    "effect-inventory:",
)
TRAVERSAL_ONLY_PREFIXES = (
    "evidence-approximated:",
    "unresolved-calls-capped:",
    "root-not-found:",
)


def _unique(*groups: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for group in groups:
        for prefix in group:
            seen.setdefault(prefix, None)
    return tuple(seen)


HTTP_PREFIXES = _unique(
    CONTRACT_PREFIXES, SERVER_ROUTE_PREFIXES, CLIENT_ROUTE_PREFIXES, SOURCE_PREFIXES
)
BRIDGE_FACTS_PREFIXES = _unique(HTTP_PREFIXES, PERSISTENCE_PREFIXES)
SNAPSHOT_PREFIXES = _unique(GRAPH_PREFIXES, SOURCE_PREFIXES)
TRAVERSAL_PREFIXES = _unique(SNAPSHOT_PREFIXES, TRAVERSAL_ONLY_PREFIXES)

# How many names a limitation lists before it summarises the rest.
MAX_LISTED_NAMES = 10
# How many example places (`file:line`) a limitation lists after its count.
MAX_LISTED_PLACES = 5

# A project-relative POSIX path and a 1-based line.
Place = tuple[str, int]


def prefix_of(limitation: str) -> str:
    """The prefix of a limitation line, colon included ("" when there is none)."""
    head, sep, _ = limitation.partition(":")
    return head + sep if sep and " " not in head else ""


def has_known_prefix(limitation: str, allowed: Iterable[str]) -> bool:
    prefix = prefix_of(limitation)
    return bool(prefix) and prefix in set(allowed) and limitation.startswith(prefix + " ")


def counted(
    prefix: str,
    count: int,
    text: str,
    *,
    breakdown: Mapping[str, int] | None = None,
    names: Iterable[str] | None = None,
    places: Iterable[Place] | None = None,
) -> str:
    """Format `<prefix> <count> <text>` with an optional `(reason: n, …)`, names and places.

    The breakdown is written in key order so the line is deterministic; names
    are sorted, de-duplicated and cut after MAX_LISTED_NAMES; places are
    de-duplicated, ordered by path then line and cut after MAX_LISTED_PLACES.
    """
    if not prefix.endswith(":"):
        raise ValueError(f"limitation prefix must end with ':': {prefix!r}")
    if count < 0:
        raise ValueError("limitation count must not be negative")
    line = f"{prefix} {count} {text}"
    details: list[str] = []
    if breakdown:
        details.extend(f"{key}: {value}" for key, value in sorted(breakdown.items()) if value)
    if names is not None:
        listed = sorted(set(names))
        details.extend(listed[:MAX_LISTED_NAMES])
        if len(listed) > MAX_LISTED_NAMES:
            details.append(f"and {len(listed) - MAX_LISTED_NAMES} more")
    listed_places = _places(places or ())
    if details or listed_places:
        text_details = ", ".join(details)
        if listed_places:
            text_details += ("; " if details else "") + "at " + listed_places
        line += " (" + text_details + ")"
    return line


def counted_reasons(
    prefix: str,
    reasons: Mapping[str, int],
    text: str,
    *,
    names: Iterable[str] | None = None,
    places: Iterable[Place] | None = None,
) -> str:
    """`counted` of a total made of its reasons: the count is their sum, the breakdown
    lists each one."""
    return counted(
        prefix, sum(reasons.values()), text, breakdown=reasons, names=names, places=places
    )


def _places(places: Iterable[Place]) -> str:
    ordered = sorted(set(places))
    for path, line in ordered:
        if not path or path.startswith("/") or line < 1:
            raise ValueError(f"a limitation place is a project-relative file and line: {path!r}")
    shown = ", ".join(f"{path}:{line}" for path, line in ordered[:MAX_LISTED_PLACES])
    rest = len(ordered) - MAX_LISTED_PLACES
    return f"{shown} and {rest} more" if rest > 0 else shown


class Limitations:
    """Collects counted causes per prefix while a producer runs, then renders them."""

    def __init__(self) -> None:
        self._lines: list[str] = []

    def add(self, line: str) -> None:
        self._lines.append(line)

    def extend(self, lines: Iterable[str]) -> None:
        self._lines.extend(lines)

    def lines(self) -> list[str]:
        """Sorted and de-duplicated, the order every document uses."""
        return sorted(set(self._lines))
