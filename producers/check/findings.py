"""The verdicts `check` reports, their severities, and one finding as the report holds it.

Errors are the disagreements the documents prove: a call no declaration
answers, a relation the declarations do not have. Every other verdict, and
every `-unverified` form (a gap on the other side means it may exist unseen),
is a warning. `--fail-on warning` turns warnings into a failing run too.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

ERROR, WARNING = "error", "warning"

# verdict -> (severity, one-line description for reports and SARIF rules)
VERDICTS: dict[str, tuple[str, str]] = {
    "route-call-without-decl": (ERROR, "a client call that no route declaration answers"),
    "route-call-without-decl-unverified": (
        WARNING,
        "a call no declaration is proven to answer; a gap on the server side may hide one",
    ),
    "route-decl-without-contract": (WARNING, "a route the OpenAPI contract does not list"),
    "route-decl-without-contract-unverified": (
        WARNING,
        "a route no contract operation is proven to list; the contract has gaps",
    ),
    "route-contract-without-decl": (WARNING, "a contract operation no route declaration serves"),
    "route-contract-without-decl-unverified": (
        WARNING,
        "a contract operation no declaration is proven to serve; the server side has gaps",
    ),
    "route-decl-shadowed": (
        WARNING,
        "a route no request reaches: an earlier registration answers all of its requests",
    ),
    "route-decl-shadowed-unverified": (
        WARNING,
        "a route an earlier registration answers unless its constraints or filters refuse",
    ),
    "relation-use-without-decl": (ERROR, "a table or column the declarations do not have"),
    "relation-use-without-decl-unverified": (
        WARNING,
        "a table or column no declaration is proven to match; the name or the declarations "
        "are not certain",
    ),
    "relation-decl-without-use": (WARNING, "a declared table the code never uses"),
    "relation-decl-without-use-unverified": (
        WARNING,
        "a declared table no use is proven; the code side has gaps that may hide one",
    ),
}


def severity_of(verdict: str) -> str:
    return VERDICTS[verdict][0]


@dataclass(frozen=True)
class Side:
    """One located fact of an input document, as a finding names it."""

    file: str
    location: Mapping[str, Any]
    method: str | None = None
    channel: str | None = None
    column: str | None = None

    @staticmethod
    def of(file: str, fact: Mapping[str, Any]) -> Side:
        if fact["kind"] == "relation-use":
            # A relation's `method` is its column, not an HTTP method.
            return Side(file, fact["location"], None, fact["channel"], fact.get("method"))
        return Side(file, fact["location"], fact.get("method"), fact.get("channel"))

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {"file": self.file, "location": dict(self.location)}
        for key in ("method", "channel", "column"):
            if getattr(self, key) is not None:
                value[key] = getattr(self, key)
        return value

    def sort_key(self) -> tuple[Any, ...]:
        where = self.location
        return (where["path"], where["line"], where["column"], self.file)


@dataclass
class Finding:
    verdict: str
    subject: Side
    service: str | None = None
    reasons: list[str] = field(default_factory=list)
    related: list[Side] = field(default_factory=list)

    @property
    def severity(self) -> str:
        return severity_of(self.verdict)

    def sort_key(self) -> tuple[Any, ...]:
        return (
            self.severity != ERROR,
            self.verdict,
            self.service or "",
            self.subject.channel or "",
            self.subject.method or "",
            self.subject.column or "",
            self.subject.sort_key(),
        )

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {
            "verdict": self.verdict,
            "severity": self.severity,
            **self.subject.to_json(),
            "reasons": sorted(set(self.reasons)),
            "related": [side.to_json() for side in _sorted_sides(self.related)],
        }
        if self.service is not None:
            value["service"] = self.service
        return value


def _sorted_sides(sides: Sequence[Side]) -> list[Side]:
    unique = {
        (side.sort_key(), side.method or "", side.channel or "", side.column or ""): side
        for side in sides
    }
    return [unique[key] for key in sorted(unique)]


def sorted_findings(findings: Sequence[Finding]) -> list[Finding]:
    return sorted(findings, key=Finding.sort_key)
