"""Facts of one specificity router that answer the same method and path: keep the one it picks.

Path expansions make such pairs: the empty value of `/:id` under the prefix
`/users` is `/users/`, which the static `/` route under that prefix also
serves. find-my-way walks its tree trying, at every node, the static child
before the parametric one before the wildcard, so at the first place two
registrations differ for a request the static one wins, and a parameter that
matched nothing loses to a route that ends there. Checked with Fastify 4.29.1
and 5.12.5 `inject()` (tests/routes/node/test_node_specificity_collisions.py):
`GET /users/` reaches `get('/')`, `/pw/` reaches `/:id` before `/*`, `GET /am/`
reaches `get('/')` while `POST /am/` reaches `all('/:id')`, and two routes of one
shape (`/u/:id`, `/u/:name`) make `ready()` fail.

What cannot be ranked that way (another router's specificity, a pattern this
reader does not split, an `ANY` fact that keeps some methods and loses others,
duplicates the router refuses) is left out and counted: never two handlers for
one request.
"""

from __future__ import annotations

import re
from collections import Counter
from collections import defaultdict
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from tsograph.producers.routes.node.paths.find_my_way import shapes_of
from tsograph.producers.routes.node.paths.model import Opaque
from tsograph.producers.routes.node.paths.model import Param
from tsograph.producers.routes.node.paths.model import Rest
from tsograph.producers.routes.node.paths.model import Shape

# One request position's kind of match, in find-my-way's order of preference.
_END, _STATIC, _PARAM, _WILDCARD = -1, 0, 1, 2
# Stands for a `{}` value in a template: no literal of a registered path contains it.
_HOLE = "\x00"

Rank = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Candidate:
    """A non-dynamic fact of a specificity router, and what it was registered as."""

    fact: dict[str, Any]
    group: int  # the app that receives the requests
    raw: str  # the registered path after its prefixes were joined
    find_my_way_major: int | None  # None: not a find-my-way router


def resolve(candidates: list[Candidate]) -> tuple[set[int], Counter[str]]:
    """The ids of the facts to leave out, and why (reasons of those that are a gap)."""
    dropped: set[int] = set()
    reasons: Counter[str] = Counter()
    # A base-anchored template names another request than the same root one.
    by_path: dict[tuple[int, str, str], list[Candidate]] = defaultdict(list)
    for candidate in candidates:
        fact = candidate.fact
        by_path[(candidate.group, fact["pathAnchor"], fact["channel"])].append(candidate)
    for (_, _, channel), group in sorted(by_path.items(), key=lambda item: item[0][1:]):
        if len({_handler(c) for c in group}) < 2:
            continue
        methods = sorted({c.fact["method"] for c in group} - {"ANY"}) or ["ANY"]
        for method in methods:
            contenders = [c for c in group if c.fact["method"] in (method, "ANY")]
            if len({_handler(c) for c in contenders}) < 2:
                continue
            _decide(channel, method, contenders, dropped, reasons)
    return dropped, reasons


def _decide(
    channel: str,
    method: str,
    contenders: list[Candidate],
    dropped: set[int],
    reasons: Counter[str],
) -> None:
    ranks = [_rank(c, channel) for c in contenders]
    best = _best([rank for rank in ranks if rank is not None]) if None not in ranks else None
    if best is None:
        _drop(contenders, "unranked-collision", dropped, reasons)
        return
    winners = [c for c, rank in zip(contenders, ranks, strict=True) if rank == best]
    if len({_handler(c) for c in winners}) > 1:
        _drop(contenders, "duplicate-registration", dropped, reasons)
        return
    for candidate in contenders:
        if candidate in winners or id(candidate.fact) in dropped:
            continue
        dropped.add(id(candidate.fact))
        if candidate.fact["method"] == "ANY" and method != "ANY":
            # It still answers the other methods, which one ANY fact cannot say.
            reasons["any-route-partly-shadowed"] += 1


def _drop(
    contenders: list[Candidate], reason: str, dropped: set[int], reasons: Counter[str]
) -> None:
    for candidate in contenders:
        if id(candidate.fact) not in dropped:
            dropped.add(id(candidate.fact))
            reasons[reason] += 1


def _handler(candidate: Candidate) -> str:
    symbol = candidate.fact["symbol"]
    return str(symbol.get("usr", symbol["qualifiedName"]))


def _best(ranks: list[Rank]) -> Rank | None:
    """The preferred rank, None when two differ at different request positions."""
    best = ranks[0]
    for rank in ranks[1:]:
        for mine, theirs in zip(best, rank, strict=False):
            if mine == theirs:
                continue
            if mine[0] != theirs[0]:
                return None
            if theirs[1] < mine[1]:
                best = rank
            break
    return best


def _rank(candidate: Candidate, channel: str) -> Rank | None:
    """How the registered path matches the request the channel stands for, per position."""
    if candidate.find_my_way_major is None:
        return None
    request = unquote(channel.replace("{**}", f"{_HOLE}/{_HOLE}").replace("{}", _HOLE))
    shapes = shapes_of(candidate.raw, major=candidate.find_my_way_major)
    if shapes is None:
        return None
    found = [rank for shape in shapes if (rank := _shape_rank(shape, request)) is not None]
    return min(found) if len(found) == 1 else None


def _shape_rank(shape: Shape, request: str) -> Rank | None:
    pattern = ""
    kinds: list[int] = []
    for token in shape:
        if isinstance(token, str):
            pattern += f"({re.escape(token)})"
            kinds.append(_STATIC)
        elif isinstance(token, Param):
            pattern += "([^/]*?)"
            kinds.append(_PARAM)
        elif isinstance(token, Rest):
            pattern += "(.*)"
            kinds.append(_WILDCARD)
        elif isinstance(token, Opaque):
            return None
    match = re.fullmatch(pattern, request, re.DOTALL)
    if match is None:
        return None
    events: list[tuple[int, int]] = []
    for index, kind in enumerate(kinds, start=1):
        start, end = match.span(index)
        if kind == _STATIC:
            events.extend((position, _STATIC) for position in range(start, end))
        else:
            events.append((start, kind))
    events.append((len(request), _END))
    return tuple(events)
