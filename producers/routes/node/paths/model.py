r"""The router-independent middle of the path translation: shapes and their rendering.

Each dialect parser turns a registered path into one or more *shapes*: the
sequences of literal text, parameters and rest-of-path wildcards that the
router's own pattern matches. A shape is rendered into a contract template
here, so every dialect shares one notion of what `{}` and `{**}` mean:

* `{}` matches one non-empty segment, any characters but `/`;
* `{**}` matches the rest of the path when it is not empty;
* anything else (a parameter that can hold `/`, a wildcard inside a segment,
  an opaque regular expression) cannot be written in the contract grammar, so
  the shape becomes dynamic, bounded by its leading literal segments.

A dynamic scope is proven only from whole literal segments that every
request of the variant has before at least one more segment. Routers that
ignore letter case (Express and Koa by default) prove it only up to case;
the fact's `caseInsensitive` says so. Constraint patterns are JavaScript
regular expressions as the route wrote them; those routers also apply them
without regard to case. `int` is a pattern for one or more ASCII digits
(`\d+`, `[0-9]+`, …); `slug` is never produced, because no router
spells one and its exact alphabet is not pinned anywhere this code can check.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from typing import Literal

from tsograph.exchange.templates import CATCH_ALL
from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import canonicalize
from tsograph.exchange.templates import canonicalize_segments
from tsograph.exchange.templates import encode_literal

from .regex import REST_PATTERNS
from .regex import RegexFacts
from .regex import analyze

Dialect = Literal[
    "hono", "path-to-regexp-0.1", "path-to-regexp-6", "path-to-regexp-8", "find-my-way"
]
DIALECTS: tuple[Dialect, ...] = (
    "hono",
    "path-to-regexp-0.1",
    "path-to-regexp-6",
    "path-to-regexp-8",
    "find-my-way",
)

ConstraintKind = Literal["int", "slug", "regex"]

# Reasons a variant is dynamic, beyond the canonicalizer's own.
OPAQUE = "opaque-pattern"
CROSSES_SEGMENTS = "parameter-crosses-segments"
INVALID = "router-rejects-path"
UNDECODED = "undecoded-literal"
TOO_MANY = "too-many-variants"

MAX_VARIANTS = 64
# Optional parts multiply the shapes; past this many the path is one dynamic variant.
MAX_SHAPES = 256


class PathRejected(Exception):
    """Raised by a dialect's parser where its router throws on the path at registration."""


class TooManyShapes(Exception):
    """Raised by `branch` when a path has more alternatives than `MAX_SHAPES`."""

    def __init__(self, shapes: Sequence[Shape]) -> None:
        super().__init__("too many alternatives")
        self.shapes = shapes


@dataclass(frozen=True, slots=True)
class PathVariant:
    """One contract template a registered path serves.

    `template` is the canonical template (`exchange.templates`); for a dynamic
    variant it is the canonicalizer's best-effort channel. `dynamic_scope` is
    the literal segment prefix every request of a dynamic variant starts with,
    when one is proven (never `/`). `catch_all_prefix` marks the zero-segment
    match of a catch-all (the contract's `catchAllPrefix`).
    `param_constraints` holds `(index, kind, pattern)` for the `index`-th `{}`
    of the template (0-based, in template order); `pattern` is the JavaScript
    regular expression the parameter value must match whole, set only for
    kind `regex`. `reason` says why a variant is dynamic.
    `trailing_slash_strict` marks a template whose final `/` the router never
    drops, even when it treats the trailing slash as optional otherwise (the
    empty match of Express 4's `/files/*` is `/files/`, and `/files` is not
    served); the fact then says `trailingSlash: "strict"` whatever the
    router's option.
    """

    template: str
    dynamic: bool = False
    dynamic_scope: str | None = None
    catch_all_prefix: bool = False
    param_constraints: tuple[tuple[int, str, str | None], ...] = ()
    reason: str | None = None
    trailing_slash_strict: bool = False

    def fact_fields(self) -> dict[str, object]:
        """The route-decl fields this variant sets, spelled as bridge-facts v1 spells them."""
        fields: dict[str, object] = {"channel": self.template, "dynamic": self.dynamic}
        if self.dynamic_scope is not None:
            fields["dynamicScope"] = self.dynamic_scope
        if self.catch_all_prefix:
            fields["catchAllPrefix"] = True
        if self.trailing_slash_strict:
            fields["trailingSlash"] = "strict"
        if self.param_constraints:
            fields["paramConstraints"] = [
                {"index": index, "kind": kind}
                if pattern is None
                else {"index": index, "kind": kind, "pattern": pattern}
                for index, kind, pattern in self.param_constraints
            ]
        return fields


@dataclass(frozen=True, slots=True)
class Param:
    """A router parameter; `pattern` is the value's regex (None: any text but `/`)."""

    pattern: str | None = None
    may_be_empty: bool = False
    # find-my-way cuts the value at the next `/` before its regex runs, so a
    # pattern like `.*` still stays inside one segment.
    within_segment: bool = False


@dataclass(frozen=True, slots=True)
class Rest:
    """Any text, slashes included (`*` in most routers)."""

    may_be_empty: bool = True


@dataclass(frozen=True, slots=True)
class Opaque:
    """Something the contract grammar cannot say (a raw regex, a repeated group)."""

    reason: str = OPAQUE


Token = str | Param | Rest | Opaque
Shape = tuple[Token, ...]


def rejected(path: str) -> tuple[PathVariant, ...]:
    """The translation of a path the router throws on at registration.

    The application fails to start, so the variant bounds nothing (no scope);
    its template is the canonicalizer's best-effort reading of the text.
    """
    return (PathVariant(template=canonicalize(path).channel, dynamic=True, reason=INVALID),)


def unbounded(path: str) -> tuple[PathVariant, ...]:
    """A path whose pattern can match anywhere (a top-level regex `|`): dynamic, no scope."""
    return (PathVariant(template=canonicalize(path).channel, dynamic=True, reason=OPAQUE),)


def branch(shapes: Sequence[Shape], options: Sequence[Sequence[Token]]) -> list[Shape]:
    """Every shape followed by every option, options outermost (the routers' own order)."""
    result = [(*shape, *option) for option in options for shape in shapes]
    if len(result) > MAX_SHAPES:
        raise TooManyShapes(result)
    return result


def too_many(shapes: Sequence[Shape]) -> tuple[PathVariant, ...]:
    """The one dynamic variant of a path with too many alternatives."""
    return (_as_dynamic(shapes, TOO_MANY),)


def rooted(shapes: Sequence[Shape]) -> list[Shape]:
    """The shapes that can match a request path, which always starts with `/`.

    A shape opening with other literal text never matches; one opening with a
    parameter or wildcard might, but not as a template, so it becomes opaque.
    An empty shape is the root.
    """
    kept: list[Shape] = []
    for shape in shapes:
        first = next((token for token in shape if token != ""), None)
        if first is None or (isinstance(first, str) and first.startswith("/")):
            kept.append(shape)
        elif not isinstance(first, str):
            kept.append((Opaque(),))
    return kept


def render_all(shapes: Sequence[Shape], *, raw: bool = False) -> tuple[PathVariant, ...]:
    """Variants of every shape, in order, without duplicates.

    `raw` is for routers that match the undecoded request path (Express, Koa):
    a literal only means what its canonical form means when it already is in
    that form, because `/café` or `/%41` never equals what a client sends.
    """
    seen: dict[PathVariant, None] = {}
    for shape in shapes:
        for variant in render(shape, raw=raw):
            seen.setdefault(variant, None)
    variants = _mark_catch_all_prefixes(tuple(seen))
    if len(variants) > MAX_VARIANTS:
        # Bounded output for patterns like `/:a?/:b?/…`; one dynamic fact keeps
        # the route visible without a combinatorial blow-up.
        return (_as_dynamic(shapes, TOO_MANY),)
    return variants


def render(shape: Shape, *, raw: bool = False) -> tuple[PathVariant, ...]:
    """Expand empty-able parts, then write each expansion as a template."""
    shape = _final_rest(shape)
    expansions: list[Shape] = [()]
    for token in shape:
        options: list[Token | None] = [token]
        if isinstance(token, Param) and _param_may_be_empty(token):
            options = [None, token]
        elif isinstance(token, Rest) and token.may_be_empty:
            options = [None, Rest(may_be_empty=False)]
        expansions = [
            (*done, option) if option is not None else done
            for done in expansions
            for option in options
        ]
        if len(expansions) > MAX_VARIANTS:
            return (_as_dynamic([shape], TOO_MANY),)
    return tuple(_write(expansion, raw=raw) for expansion in expansions)


def _final_rest(shape: Shape) -> Shape:
    """A last parameter that takes any text after a `/` is a catch-all (`/files/:p(.*)`)."""
    end = len(shape)
    while end and shape[end - 1] == "":
        end -= 1
    if end < 2:
        return shape
    last, before = shape[end - 1], shape[end - 2]
    if not (isinstance(last, Param) and isinstance(before, str) and before.endswith("/")):
        return shape
    if last.pattern not in REST_PATTERNS or last.within_segment:
        return shape
    return (*shape[: end - 1], Rest(may_be_empty=REST_PATTERNS[last.pattern] or last.may_be_empty))


def _param_may_be_empty(param: Param) -> bool:
    if param.may_be_empty:
        return True
    if param.pattern is None:
        return False
    facts = analyze(param.pattern)
    return facts is None or facts.min_length == 0


def translation(
    path: str,
    shapes_of: Callable[[], Sequence[Shape]],
    *,
    undecoded: bool,
    keeps_written_slash: bool = False,
) -> tuple[PathVariant, ...]:
    """Every template of `path`, from the shapes its router registers (`shapes_of`).

    A path the router rejects (`PathRejected`) or one with too many alternatives
    (`TooManyShapes`) gives its one dynamic variant. `undecoded` is for the
    path-to-regexp routers (Express, Koa): they match the undecoded request path,
    only shapes from the root can match, and they append an optional `/`
    (`mark_added_slash`); find-my-way's shapes are rendered as registered.
    """
    try:
        shapes = shapes_of()
    except PathRejected:
        return rejected(path)
    except TooManyShapes as error:
        return too_many(error.shapes)
    if not undecoded:
        return render_all(shapes)
    variants = render_all(rooted(shapes), raw=True)
    return mark_added_slash(variants, keeps_written_slash=keeps_written_slash)


def mark_added_slash(
    variants: tuple[PathVariant, ...], *, keeps_written_slash: bool
) -> tuple[PathVariant, ...]:
    """Spell out the optional trailing slash the path-to-regexp family appends.

    Non-strict, these routers match the pattern followed by an optional `/`.
    For a template without a final `/` that is the contract's optional
    trailing slash. A template that ends in `/` is served as written and with
    one more `/`, never without it, so both forms become strict variants,
    unless `keeps_written_slash` (path-to-regexp 0.1 makes a written final `/`
    itself optional, which is the contract's toggle again).
    """
    if keeps_written_slash:
        return variants
    catch_alls = {v.template[: -len("{**}")] for v in variants if v.template.endswith("/{**}")}
    out: dict[PathVariant, None] = {}
    for variant in variants:
        if variant.dynamic or variant.trailing_slash_strict or not variant.template.endswith("/"):
            out.setdefault(variant, None)
            continue
        out.setdefault(replace(variant, trailing_slash_strict=True), None)
        if variant.template not in catch_alls:
            doubled = canonicalize(variant.template + "/").channel
            out.setdefault(
                replace(
                    variant, template=doubled, trailing_slash_strict=True, catch_all_prefix=False
                ),
                None,
            )
    return tuple(out)


def strict_variants(variants: Sequence[PathVariant]) -> list[PathVariant]:
    """The variants a strict path-to-regexp router serves: no optional trailing `/`.

    `mark_added_slash` adds the `x//` form of every `x/` template for the
    optional delimiter a non-strict router appends; a strict one (Express
    `strict routing` / `Router({ strict: true })`, @koa/router `strict`) has
    none, so that form is not served (@koa/router 13.1.1 and Express 5.2.1
    answered 404, conformance/node-paths-joins.json).
    """
    templates = {variant.template for variant in variants}
    return [
        variant
        for variant in variants
        if not (
            variant.template != "/"
            and variant.template.endswith("/")
            and variant.template[:-1] in templates
        )
    ]


def _mark_catch_all_prefixes(variants: tuple[PathVariant, ...]) -> tuple[PathVariant, ...]:
    """Flag the zero-segment matches of a catch-all the same path also serves.

    `/files` and `/files/` are what `/files/{**}` becomes when its rest is
    empty, however the router spells that (an optional group, a wildcard that
    may be empty, an optional parameter).
    """
    catch_alls = {
        variant.template[: -len("{**}")]
        for variant in variants
        if not variant.dynamic and variant.template.endswith("/{**}")
    }
    marked: dict[PathVariant, None] = {}
    for variant in variants:
        zero = variant.template in catch_alls or variant.template + "/" in catch_alls
        if zero and not variant.dynamic:
            variant = replace(variant, catch_all_prefix=True)
        marked.setdefault(variant, None)
    return tuple(marked)


def _as_dynamic(shapes: Sequence[Shape], reason: str) -> PathVariant:
    """One dynamic variant for all shapes, scoped by the literal text they all start with."""
    leads: list[str] = []
    for shape in shapes:
        lead = ""
        for token in shape:
            if not isinstance(token, str):
                break
            lead += token
        leads.append(lead)
    return _write((_common_prefix(leads), Opaque(reason)))


def _common_prefix(texts: Sequence[str]) -> str:
    """The characters every text starts with; the scope drops a cut segment later."""
    low, high = min(texts, default=""), max(texts, default="")
    size = 0
    while size < min(len(low), len(high)) and low[size] == high[size]:
        size += 1
    return low[:size]


def _write(shape: Shape, *, raw: bool = False) -> PathVariant:
    segments: list[list[Part]] = [[]]
    constraints: list[tuple[int, str, str | None]] = []
    holes = 0
    reason: str | None = None
    for token in shape:
        if isinstance(token, str):
            if raw and any(encode_literal(piece) != piece for piece in token.split("/")):
                reason = reason or UNDECODED
            pieces = token.split("/")
            _append_literal(segments[-1], pieces[0])
            for piece in pieces[1:]:
                segments.append([])
                _append_literal(segments[-1], piece)
            continue
        if isinstance(token, Opaque):
            reason = reason or token.reason
            segments[-1].append(CATCH_ALL)
            break
        if isinstance(token, Rest):
            # Only a whole final segment is a catch-all; the canonicalizer
            # judges that and reports anything else as malformed.
            segments[-1].append(CATCH_ALL)
            continue
        facts = analyze(token.pattern) if token.pattern is not None else _PLAIN
        if facts is not None and token.within_segment:
            facts = RegexFacts(facts.min_length, crosses_slash=False, kind=facts.kind)
        if facts is None or facts.crosses_slash:
            reason = reason or (OPAQUE if facts is None else CROSSES_SEGMENTS)
            segments[-1].append(CATCH_ALL)
            break
        within_any = token.within_segment and token.pattern in REST_PATTERNS
        constraint = None if within_any else _constraint(token.pattern, facts)
        if constraint is not None and not _writable(constraint[1]):
            reason = reason or OPAQUE
            segments[-1].append(CATCH_ALL)
            break
        if constraint is not None:
            constraints.append((holes, *constraint))
        holes += 1
        segments[-1].append(PARAM)
    if segments and segments[0] == []:
        segments = segments[1:]
    else:
        reason = reason or INVALID
    result = canonicalize_segments(segments)
    dynamic = result.dynamic or reason is not None
    # An expansion with no text at all is the empty path: the router's own
    # optional trailing slash turns it into `/`, and nothing more.
    empty = all(token == "" for token in shape)
    if dynamic:
        return PathVariant(
            template=result.channel,
            dynamic=True,
            dynamic_scope=_scope(segments),
            reason=reason or result.reason,
        )
    return PathVariant(
        template=result.channel,
        param_constraints=tuple(constraints),
        trailing_slash_strict=empty,
    )


_PLAIN = RegexFacts(min_length=1, crosses_slash=False)


def _append_literal(segment: list[Part], text: str) -> None:
    if text:
        segment.append(text)


def _constraint(pattern: str | None, facts: RegexFacts) -> tuple[ConstraintKind, str | None] | None:
    if pattern is None:
        return None
    if facts.kind == "int":
        return ("int", None)
    if facts.kind == "any":
        return None
    return ("regex", pattern)


# bridge-facts v1 paramConstraints[].pattern: 1 to 1,024 characters, no control
# characters or line separators.
_UNWRITABLE = re.compile("[\u0000-\u001f\u007f-\u009f\u2028\u2029]")


def _writable(pattern: str | None) -> bool:
    return pattern is None or (len(pattern) <= 1024 and not _UNWRITABLE.search(pattern))


def _scope(segments: Sequence[Sequence[Part]]) -> str | None:
    """The literal segments before the first one that holds anything else."""
    literal: list[str] = []
    # The last segment is never part of the scope: a scope bounds what comes
    # after it, and a final literal of a dynamic shape may be cut short.
    for segment in segments[:-1]:
        if any(not isinstance(part, str) for part in segment) or not segment:
            break
        text = encode_literal("".join(part for part in segment if isinstance(part, str)))
        if text.replace("%2E", ".") in (".", ".."):
            break
        literal.append(text)
    if not literal:
        return None
    scope = "/" + "/".join(literal)
    return scope if len(scope) <= 1024 else None
