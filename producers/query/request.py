"""What a question is and what it answers: the request, the result, a refusal, and the
helpers every question shares (its one target, the traversal mode of its tiers, the floor
of a caller list)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

import orjson

from tsograph.producers.graph.model import EVIDENCE_ORDER
from tsograph.producers.graph.model import MODE_TIERS
from tsograph.producers.query.budget import Budget
from tsograph.producers.query.held import HeldGraph
from tsograph.producers.query.targets import find


class Refused(Exception):
    """The question cannot be answered; `code` names why, the message says it in a line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Request:
    question: str
    target: str | None = None
    to: str | None = None  # path: the second symbol
    file: str | None = None  # narrows a name to one file; unknowns: one file
    depth: int | None = None
    tiers: tuple[str, ...] = EVIDENCE_ORDER
    edges: tuple[str, ...] | None = None  # path: the edge kinds followed
    level: str = "files"  # cycles
    text: str | None = None  # routes: a part of the route label
    base: str | None = None  # impact/changes: the git ref to compare with

    def key(self) -> str:
        """What makes two requests the same question (paging options left out)."""
        return orjson.dumps(
            [
                self.question,
                self.target,
                self.to,
                self.file,
                self.depth,
                list(self.tiers),
                list(self.edges) if self.edges is not None else None,
                self.level,
                self.text,
                # Left out when absent, so the cursors of other questions stay as they were.
                *([self.base] if self.base is not None else []),
            ]
        ).decode()


@dataclass
class Result:
    question: str
    items: list[dict[str, Any]] = field(default_factory=list)
    target: dict[str, Any] | None = None
    candidates: list[dict[str, Any]] | None = None
    tiered: bool = False  # counts by tier make sense for these items
    leads: list[dict[str, Any]] = field(default_factory=list)
    floor: bool = False
    reasons: list[str] = field(default_factory=list)
    unexpanded: list[str] | None = None  # set when the time budget stopped the work
    depth_cut: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def one_target(
    held: HeldGraph, text: str, budget: Budget, result: Result, file: str | None = None
) -> int | None:
    """The symbol a target names; several set the candidates, none refuses."""
    found = find(held, text, budget, file)
    if not found.numbers:
        raise Refused("unknown-symbol", found.reason)
    if len(found.numbers) > 1:
        result.candidates = [held.symbol(number) for number in found.numbers]
        return None
    return found.numbers[0]


def tiered_target(held: HeldGraph, request: Request, budget: Budget, result: Result) -> int | None:
    """The symbol `--target` names (within `--file`), set as the answer's target whose items
    are counted by tier; None when the name is ambiguous (the candidates are set)."""
    start = one_target(held, request.target or "", budget, result, request.file)
    if start is not None:
        result.target = held.symbol(start)
        result.tiered = True
    return start


def mode_of(tiers: Iterable[str]) -> str:
    """The traversal mode whose tiers cover the asked ones."""
    asked = set(tiers)
    for mode, covered in MODE_TIERS.items():
        if asked <= set(covered):
            return mode
    return "candidates"


def floor_for_callers(held: HeldGraph, tiers: tuple[str, ...], result: Result) -> None:
    """Any call the graph could not link may reach any symbol: the list is then a floor."""
    mode = mode_of(tiers)
    result.reasons.extend(held.gap_lines(mode))
    result.floor = bool(result.reasons)
