"""The graph's counted lines about calls: unresolved calls and the two dispatch tiers."""

from __future__ import annotations

from collections import Counter

from tsograph.exchange.limitations import counted


def unresolved_line(reasons: Counter[str]) -> list[str]:
    """The `unresolved-calls:` line of the calls left unlinked, by reason (none when none)."""
    total = sum(reasons.values())
    if not total:
        return []
    return [
        counted(
            "unresolved-calls:",
            total,
            "call(s) could not be linked to a project declaration and were not guessed",
            breakdown=reasons,
        )
    ]


def dispatch_lines(
    libraries: int, incomplete: bool, bound_total: int, candidate_total: int, exhausted: int
) -> dict[str, list[str]]:
    """The bound and candidate modes' dispatch lines; `libraries` counts the library
    packages open to outside callers, `incomplete` says the scan skipped sources."""
    bound_text = (
        "call(s) are linked by bound edges: every value observed flowing into the "
        "receiver or callee is a project implementation (whole-program assumption)"
    )
    if libraries:
        bound_text += (
            f"; {libraries} library package(s) (a package.json with main, exports, … "
            'and no "private": true) can be imported from outside the scan, so '
            "their exported functions, classes and objects are open to outside callers"
        )
    if incomplete:
        bound_text += (
            "; the scan is incomplete (skipped or unparsable sources), so every "
            "exported function, class and object is open to outside callers"
        )
    lines = {
        "bound": [counted("bound-dispatch:", bound_total, bound_text)],
        "candidates": [
            counted(
                "candidate-dispatch:",
                candidate_total - bound_total,
                "interface call(s) are linked to every project class or object literal "
                "that could implement them (by implements clauses and member names: an "
                "over-approximation)",
            )
        ],
    }
    if exhausted:
        budget = counted(
            "dispatch-budget:",
            exhausted,
            "value-flow query(ies) went over their budget and were treated as unknown",
        )
        lines["bound"].append(budget)
        lines["candidates"].append(budget)
    return lines
