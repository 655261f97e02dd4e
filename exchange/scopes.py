"""Limitation scopes, registration order and dynamic scopes: their rules and their matching.

A limitation normally covers every call of a document. A limitationScopes
entry narrows one limitation line to the calls that could reach what the gap
hides, so a consumer only downgrades those calls. Producers check each entry
with `validate_scope` before writing it; `tsograph validate` runs the same
rules through `exchange.semantics`.

Rules for a scope entry (`validate_scope`):

* only the keys `limitation`, `templatePrefixes`, `templateSuffixes`, `methods`;
* `limitation` is, character for character, a line of the document's
  limitations, and its prefix is a server-side HTTP gap (contract, route or
  source-walk prefix); client coverage and persistence gaps hide no route, so
  a template bound means nothing for them;
* at least one of `templatePrefixes` and `templateSuffixes`; each present list
  is non-empty with distinct entries;
* every template is canonical and static: `templates.canonicalize` returns it
  unchanged and not dynamic. That puts `{**}` only as a whole last segment,
  forbids dot segments and fixes the spelling of escapes;
* a prefix other than `/` does not end in `/`: matched by segments,
  `/static/` would cover `/static/` but never `/static/x`, which is not what a
  producer means;
* `methods`, when present, is a non-empty list of distinct contract methods
  without `ANY`: leaving the field out is the one way to say "every method".

Matching (`scope_applies`) works on segments and over-approximates, because a
scope only ever downgrades findings: a call is inside when some concrete
request it could send is inside.

* `/` as a prefix or suffix has no segments and so matches every call; as a
  call, `/` is a single empty segment.
* A prefix matches the call's leading segments, a suffix its trailing ones;
  several of either form a union. With both, the call needs one matching
  prefix and one matching suffix: a router mounted at an unknown place under
  a known prefix is bounded from both ends.
* Two segments may be equal when some text fits both: literals compare
  exactly (escapes are canonical on both sides), a `{}` stands for any text,
  possibly empty, so `a{}.json` and `{}.json` can meet, while `a{}` and `b{}`
  cannot. A segment with several holes keeps only its outer skeleton.
* `{**}` is one or more segments of anything. In the call it can continue
  with whatever the scope needs; in the scope it needs at least one more call
  segment (a literal one, even empty, or the call's own `{**}`).
* Methods are exact (a producer lists HEAD beside GET when it serves both);
  a call whose method is `ANY` may be any method and is inside as soon as the
  scope lists one.

Registration order (`validate_order`): `order` appears only on route-decl
facts of a `registration-order` document; facts sharing a (group, index) pair
come from one registration, so they share location and symbol; the indexes of
each group are 0, 1, 2, … without gaps.

Dynamic scopes (`validate_dynamic_scope`): only on a dynamic route-decl; a
canonical static template with neither `{}` nor `{**}`, not `/` (which proves
nothing) and without a trailing `/`; segment by segment it must be able to equal
the fact's best-effort channel: a canonical literal there must be the same
text, a segment with holes must admit it; a `{**}`, a dot segment or other
text that is not canonical ends the comparison, since nothing is known past
it. The scope cannot have more segments than the channel.
`dynamic_scope_applies` is prefix matching as above.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tsograph.exchange.limitations import CLIENT_ROUTE_PREFIXES
from tsograph.exchange.limitations import HTTP_PREFIXES
from tsograph.exchange.limitations import prefix_of
from tsograph.exchange.templates import canonicalize
from tsograph.exchange.templates import encode_literal
from tsograph.exchange.templates import segments_of

PREFIXES = "templatePrefixes"
SUFFIXES = "templateSuffixes"
SCOPE_KEYS = frozenset({"limitation", PREFIXES, SUFFIXES, "methods"})
CONTRACT_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")
ANY_METHOD = "ANY"
REGISTRATION_ORDER = "registration-order"
SCOPABLE_PREFIXES = frozenset(HTTP_PREFIXES) - frozenset(CLIENT_ROUTE_PREFIXES)

_HOLE = "{}"
_CATCH_ALL = "{**}"
_QUOTED_CHARS = 80


@dataclass(frozen=True)
class _Partial:
    """A segment with a hole: any text between `head` and `tail`."""

    head: str
    tail: str


_Segment = str | _Partial


@dataclass(frozen=True)
class _Path:
    """A template's segments; `rest` when it ends in `{**}` (left out of `fixed`)."""

    fixed: Sequence[_Segment]
    rest: bool


def _quoted(template: str) -> str:
    """A template for a message, cut so a 2,048-character one stays readable."""
    if len(template) > _QUOTED_CHARS:
        template = template[:_QUOTED_CHARS] + "…"
    return f'"{template}"'


def _scope_path(template: str) -> _Path:
    # A scope of "/" has no segments, so it bounds nothing; as a call, "/" is
    # one empty segment like the end of any path with a trailing slash.
    return _Path((), rest=False) if template == "/" else _parse(template)


def _parse(template: str) -> _Path:
    texts = segments_of(template)
    if texts[-1] == _CATCH_ALL:
        return _Path(tuple(_segment(text) for text in texts[:-1]), rest=True)
    return _Path(tuple(_segment(text) for text in texts), rest=False)


def _segment(text: str) -> _Segment:
    first = text.find(_HOLE)
    if first < 0:
        return text
    return _Partial(text[:first], text[text.rfind(_HOLE) + len(_HOLE) :])


def _could_equal(left: _Segment, right: _Segment) -> bool:
    if isinstance(left, str):
        return left == right if isinstance(right, str) else _fits(left, right)
    if isinstance(right, str):
        return _fits(right, left)
    heads = left.head.startswith(right.head) or right.head.startswith(left.head)
    tails = left.tail.endswith(right.tail) or right.tail.endswith(left.tail)
    return heads and tails


def _fits(literal: str, partial: _Partial) -> bool:
    return (
        len(literal) >= len(partial.head) + len(partial.tail)
        and literal.startswith(partial.head)
        and literal.endswith(partial.tail)
    )


def _prefix_matches(prefix: _Path, call: _Path) -> bool:
    if not all(_could_equal(p, c) for p, c in zip(prefix.fixed, call.fixed, strict=False)):
        return False
    if len(prefix.fixed) > len(call.fixed):
        # Only the call's own {**} can supply the segments the prefix still needs.
        return call.rest
    # A prefix ending in {**} needs one more segment after its fixed part.
    return not prefix.rest or call.rest or len(call.fixed) > len(prefix.fixed)


def _suffix_matches(suffix: _Path, call: _Path) -> bool:
    if call.rest:
        # The call's {**} can end in any segments, the suffix's among them.
        return True
    if not suffix.rest:
        return _ends_with(call.fixed, suffix.fixed)
    # The suffix's {**} swallows k >= 1 trailing call segments; try every k.
    longest = len(call.fixed) - len(suffix.fixed)
    return any(
        _ends_with(call.fixed[: len(call.fixed) - k], suffix.fixed) for k in range(1, longest + 1)
    )


def _ends_with(call: Sequence[_Segment], suffix: Sequence[_Segment]) -> bool:
    if len(suffix) > len(call):
        return False
    return all(
        _could_equal(s, c) for s, c in zip(suffix, call[len(call) - len(suffix) :], strict=True)
    )


def _method_applies(methods: Collection[str] | None, method: str) -> bool:
    return methods is None or method == ANY_METHOD or method in methods


def _any_template(
    templates: Iterable[str] | None, call: _Path, matches: Callable[[_Path, _Path], bool]
) -> bool:
    return templates is None or any(matches(_scope_path(t), call) for t in templates)


def scope_applies(scope: Mapping[str, Any], method: str, template: str) -> bool:
    """Whether a call (method, canonical template) could fall inside a valid scope."""
    call = _parse(template)
    return (
        _method_applies(scope.get("methods"), method)
        and _any_template(scope.get(PREFIXES), call, _prefix_matches)
        and _any_template(scope.get(SUFFIXES), call, _suffix_matches)
    )


def dynamic_scope_applies(scope_template: str, template: str) -> bool:
    """Whether a call template could start with a dynamic declaration's scope."""
    return _prefix_matches(_scope_path(scope_template), _parse(template))


def validate_scope(scope: Mapping[str, Any], limitations: Collection[str]) -> str | None:
    """The first broken rule of a limitationScopes entry, or None when it is valid."""
    return (
        _keys_problem(scope)
        or _limitation_problem(scope.get("limitation"), limitations)
        or _templates_problem(scope)
        or _methods_problem(scope)
    )


def _keys_problem(scope: Mapping[str, Any]) -> str | None:
    unknown = sorted(set(scope) - SCOPE_KEYS)
    return f'"{unknown[0]}" is not a scope field' if unknown else None


def _limitation_problem(limitation: Any, limitations: Collection[str]) -> str | None:
    if not isinstance(limitation, str) or limitation not in limitations:
        return "the limitation is not one of the document's limitations"
    if prefix_of(limitation) not in SCOPABLE_PREFIXES:
        return f'"{prefix_of(limitation)}" is not a server-side HTTP gap and cannot be scoped'
    return None


def _templates_problem(scope: Mapping[str, Any]) -> str | None:
    present = [key for key in (PREFIXES, SUFFIXES) if key in scope]
    if not present:
        return f"a scope needs {PREFIXES} or {SUFFIXES}"
    for key in present:
        problem = _list_problem(key, scope[key]) or _each_template_problem(key, scope[key])
        if problem:
            return problem
    return None


def _list_problem(key: str, values: Any) -> str | None:
    if not isinstance(values, list) or not values:
        return f"{key} must be a non-empty list"
    if not all(isinstance(value, str) for value in values):
        return f"{key} must hold strings"
    if len(set(values)) != len(values):
        return f"{key} repeats an entry"
    return None


def _each_template_problem(key: str, templates: list[str]) -> str | None:
    for template in templates:
        problem = static_template_problem(template)
        if problem is None and key == PREFIXES:
            problem = _trailing_slash_problem(template)
        if problem:
            return problem
    return None


def static_template_problem(template: str) -> str | None:
    """Why a template is not canonical and static, or None when it is."""
    canonical = canonicalize(template)
    if canonical.dynamic:
        return f"{_quoted(template)} is dynamic ({canonical.reason})"
    if canonical.channel != template:
        return f"{_quoted(template)} is not canonical (expected {_quoted(canonical.channel)})"
    return None


def _trailing_slash_problem(template: str) -> str | None:
    if template != "/" and template.endswith("/"):
        return f'{_quoted(template)} ends in "/", so it would match no segment below it'
    return None


def _methods_problem(scope: Mapping[str, Any]) -> str | None:
    if "methods" not in scope:
        return None
    methods = scope["methods"]
    problem = _list_problem("methods", methods)
    if problem:
        return problem
    if ANY_METHOD in methods:
        return "leave methods out instead of listing ANY"
    unknown = [method for method in methods if method not in CONTRACT_METHODS]
    return f'"{unknown[0]}" is not a contract method' if unknown else None


def validate_order(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(pointer, message) for every broken registration-order rule of a document."""
    errors: list[tuple[str, str]] = []
    registrations: dict[tuple[str, int], int] = {}
    for index, fact in enumerate(document.get("facts", ())):
        if "order" not in fact:
            continue
        problem = _order_problem(document, fact) or _registration_problem(
            document, registrations, index, fact
        )
        if problem:
            errors.append((_order_pointer(index), problem))
    errors.extend(_gap_errors(registrations))
    return errors


def _order_pointer(fact_index: int) -> str:
    # Built by hand: `exchange.validation.pointer` would make this module import
    # validation, which loads the semantic checks that import this module. The
    # parts are fixed keys and an index, which need no RFC 6901 escaping.
    return f"/facts/{fact_index}/order"


def _order_problem(document: Mapping[str, Any], fact: Mapping[str, Any]) -> str | None:
    order = fact["order"]
    if fact.get("kind") != "route-decl":
        return "only a route-decl fact has a registration order"
    if document.get("dispatch") != REGISTRATION_ORDER:
        return f'order needs a document with dispatch "{REGISTRATION_ORDER}"'
    if not isinstance(order, Mapping) or set(order) != {"group", "index"}:
        return "order must be exactly {group, index}"
    group, position = order["group"], order["index"]
    if not isinstance(group, str) or not group:
        return "order.group must be a non-empty string"
    if isinstance(position, bool) or not isinstance(position, int) or position < 0:
        return "order.index must be an integer from 0"
    return None


def _registration_problem(
    document: Mapping[str, Any],
    registrations: dict[tuple[str, int], int],
    index: int,
    fact: Mapping[str, Any],
) -> str | None:
    group, position = fact["order"]["group"], fact["order"]["index"]
    first = registrations.setdefault((group, position), index)
    earlier = document["facts"][first]
    same_place = earlier.get("location") == fact.get("location")
    if same_place and earlier.get("symbol") == fact.get("symbol"):
        return None
    return (
        f'shares group "{group}" index {position} with fact {first} but not its location and symbol'
    )


def _gap_errors(registrations: Mapping[tuple[str, int], int]) -> list[tuple[str, str]]:
    by_group: dict[str, dict[int, int]] = {}
    for (group, position), fact_index in registrations.items():
        by_group.setdefault(group, {})[position] = fact_index
    errors: list[tuple[str, str]] = []
    for group, positions in sorted(by_group.items()):
        missing = next(
            (
                expected
                for expected, position in enumerate(sorted(positions))
                if position != expected
            ),
            None,
        )
        if missing is not None:
            after = min(position for position in positions if position > missing)
            message = f'group "{group}" has index {after} but no index {missing}'
            errors.append((_order_pointer(positions[after]), message))
    return errors


def validate_dynamic_scope(fact: Mapping[str, Any]) -> str | None:
    """Why a fact's dynamicScope is wrong, or None when it is fine or absent."""
    if "dynamicScope" not in fact:
        return None
    if fact.get("kind") != "route-decl" or fact.get("dynamic") is not True:
        return "dynamicScope belongs only on a dynamic route-decl fact"
    scope = fact["dynamicScope"]
    if not isinstance(scope, str):
        return "dynamicScope must be a template"
    return (
        static_template_problem(scope)
        or _root_problem(scope)
        or _hole_problem(scope)
        or _trailing_slash_problem(scope)
        or _channel_problem(scope, fact.get("channel"))
    )


def _root_problem(scope: str) -> str | None:
    return 'a dynamicScope of "/" bounds nothing; leave the field out' if scope == "/" else None


def _hole_problem(scope: str) -> str | None:
    if "{" in scope:
        return f"{_quoted(scope)} has a hole; a dynamicScope is literal segments only"
    return None


def _channel_problem(scope: str, channel: Any) -> str | None:
    if not isinstance(channel, str):
        return "the fact has no channel to compare the dynamicScope with"
    written = segments_of(channel) if channel != "/" else []
    for position, segment in enumerate(segments_of(scope)):
        if position >= len(written):
            return f"{_quoted(scope)} is longer than the channel {_quoted(channel)}"
        agrees = _channel_segment_agrees(written[position], segment)
        if agrees is None:
            return None
        if not agrees:
            return f"{_quoted(scope)} is not a prefix of the channel {_quoted(channel)}"
    return None


def _channel_segment_agrees(written: str, literal: str) -> bool | None:
    """Whether a channel segment can be the scope's literal; None when it cannot tell.

    A dynamic channel is best effort: canonical literals and hole skeletons
    are trusted, anything else (a catch-all, a dot segment, raw text) leaves
    the rest of the channel unknown.
    """
    if written == _CATCH_ALL or written in (".", ".."):
        return None
    if _HOLE in written:
        return _could_equal(literal, _segment(written))
    return written == literal if encode_literal(written) == written else None
