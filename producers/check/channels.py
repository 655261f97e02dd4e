"""Channel and method matching between two HTTP facts: does a server fact answer a request?

Every answer has three values, because a fact may only be an approximation of
what runs: YES (every request the request side can send is answered), MAYBE
(some could be, or the facts cannot tell) and NO (none is). `check` reports an
error only where every answer is NO; a MAYBE becomes an `-unverified` finding.

The rules, on canonical templates (`exchange.templates`):

* literals compare exactly; a server fact with `caseInsensitive` compares them
  without case, and a literal that differs only in case from a server without
  the flag is MAYBE, since the flag is left out where it is not proven;
* a `{}` stands for one or more characters (every modelled router needs one);
  a whole-segment `{}` on the server answers every non-empty segment; with a
  `paramConstraints` entry only a literal the constraint accepts (`int`: ASCII
  digits) is YES, anything else it cannot judge is MAYBE; a partial segment
  (`{}.json`) answers literals and holes that keep its head and tail;
* a hole on the request side against a server literal is MAYBE: the value the
  client sends may or may not be that literal;
* a trailing `{**}` on the server answers one or more further segments; on the
  request side it can be any number of them, so a fixed server path is MAYBE;
* trailing slash: `trailingSlash: "optional"` answers both spellings;
  `"strict"` only the channel's; when the flag is absent (not proven) the other
  spelling is MAYBE;
* methods (`dispatch=True`, a request reaching a router): the same method, an
  `ANY` server fact, HEAD answered by GET (every modelled router and Next.js
  answer HEAD with the GET handler) and OPTIONS answered by any fact on the
  channel (options-any); a request whose method is unknown (`ANY`) is only
  answered by an `ANY` fact. Without `dispatch` (is an operation listed in a
  contract?) a method must be equal, or `ANY` on either side.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tsograph.exchange.templates import segments_of

_HOLE = "{}"
_CATCH_ALL = "{**}"
_DIGITS = frozenset("0123456789")


class Match(enum.IntEnum):
    """Ordered so that `min` combines parts (all must hold) and `max` alternatives."""

    NO = 0
    MAYBE = 1
    YES = 2


@dataclass(frozen=True)
class Partial:
    """A segment with a hole: any text between `head` and `tail` (`{}` alone: both empty)."""

    head: str
    tail: str
    hole: int  # the index of this `{}` among the template's holes (paramConstraints.index)


Segment = str | Partial


@dataclass(frozen=True)
class Path:
    """A template's segments; `rest` when it ends in `{**}` (left out of `fixed`)."""

    fixed: tuple[Segment, ...]
    rest: bool


def parse(template: str) -> Path:
    texts = segments_of(template)
    rest = texts[-1] == _CATCH_ALL
    if rest:
        texts = texts[:-1]
    holes = 0
    fixed: list[Segment] = []
    for text in texts:
        first = text.find(_HOLE)
        if first < 0:
            fixed.append(text)
            continue
        fixed.append(Partial(text[:first], text[text.rfind(_HOLE) + len(_HOLE) :], holes))
        holes += text.count(_HOLE)
    return Path(tuple(fixed), rest)


def toggled_slash(template: str) -> str | None:
    """The other trailing-slash spelling of a template, None when there is none."""
    if template == "/" or template.endswith("/" + _CATCH_ALL):
        return None
    if template.endswith("/"):
        return template[:-1] or None
    return template + "/"


@dataclass(frozen=True)
class ServerFlags:
    """What a server fact says about how it compares paths."""

    case_insensitive: bool = False
    trailing_slash: str | None = None  # "strict", "optional" or None (not proven)
    constraints: Mapping[int, str] | None = None  # hole index -> constraint kind

    @staticmethod
    def of(fact: Mapping[str, Any]) -> ServerFlags:
        constraints = {
            int(entry["index"]): str(entry["kind"]) for entry in fact.get("paramConstraints", ())
        }
        return ServerFlags(
            case_insensitive=fact.get("caseInsensitive") is True,
            trailing_slash=fact.get("trailingSlash"),
            constraints=constraints or None,
        )


def _fits(literal: str, partial: Partial) -> bool:
    # A parameter value is never empty: every modelled router needs one character.
    return (
        len(literal) > len(partial.head) + len(partial.tail)
        and literal.startswith(partial.head)
        and literal.endswith(partial.tail)
    )


def _literal(server: str, request: str, flags: ServerFlags) -> Match:
    if server == request:
        return Match.YES
    if server.lower() == request.lower():
        return Match.YES if flags.case_insensitive else Match.MAYBE
    return Match.NO


def _constrained(server: Partial, request: Segment, flags: ServerFlags) -> Match:
    kind = (flags.constraints or {}).get(server.hole)
    if kind is None:
        return Match.YES
    if kind == "int" and isinstance(request, str):
        return Match.YES if request and set(request) <= _DIGITS else Match.NO
    return Match.MAYBE


def _segment(server: Segment, request: Segment, flags: ServerFlags) -> Match:
    if isinstance(server, str):
        if isinstance(request, str):
            return _literal(server, request, flags)
        return Match.MAYBE if _fits(server, request) or flags.case_insensitive else Match.NO
    if isinstance(request, str):
        if not request or not _fits(request, server):
            return Match.NO
        return _constrained(server, request, flags)
    if request.head.startswith(server.head) and request.tail.endswith(server.tail):
        return _constrained(server, request, flags)
    heads = request.head.startswith(server.head) or server.head.startswith(request.head)
    tails = request.tail.endswith(server.tail) or server.tail.endswith(request.tail)
    return Match.MAYBE if heads and tails else Match.NO


def _all(parts: Sequence[Match]) -> Match:
    return min(parts, default=Match.YES)


def path_match(server: Path, request: Path, flags: ServerFlags) -> Match:
    """Whether the server path answers the request path, segment by segment."""
    shared = _all(
        [_segment(s, r, flags) for s, r in zip(server.fixed, request.fixed, strict=False)]
    )
    extra = len(request.fixed) - len(server.fixed)
    if server.rest:
        if extra >= 1:
            return shared
        # The request's own {**} may supply the segments the server still needs.
        return min(shared, Match.MAYBE) if request.rest else Match.NO
    if request.rest:
        # The request's {**} is one or more segments of anything.
        return min(shared, Match.MAYBE) if extra < 0 else Match.NO
    return shared if extra == 0 else Match.NO


def channel_match(server_channel: str, flags: ServerFlags, request_channel: str) -> Match:
    """The path rule with trailing slashes: both spellings for "optional", MAYBE when unknown."""
    request = parse(request_channel)
    best = path_match(parse(server_channel), request, flags)
    other = toggled_slash(server_channel)
    if best is Match.YES or other is None or flags.trailing_slash == "strict":
        return best
    toggled = path_match(parse(other), request, flags)
    if flags.trailing_slash == "optional":
        return max(best, toggled)
    return max(best, min(toggled, Match.MAYBE))


def method_match(server: str, request: str, *, dispatch: bool) -> Match:
    if server == request or server == "ANY":
        return Match.YES
    if not dispatch:
        return Match.YES if request == "ANY" else Match.NO
    if request == "ANY":
        return Match.MAYBE
    if (request == "HEAD" and server == "GET") or request == "OPTIONS":
        return Match.YES
    return Match.NO
