"""What the Python path dialects (Starlette, Werkzeug, Django) share when they build templates."""

from __future__ import annotations

import re
from collections.abc import Callable

from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import canonicalize_segments
from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.python_server.converters import Converters
from tsograph.producers.routes.python_server.converters import constraint


def append_literal(text: str, segments: list[list[Part]]) -> None:
    """Add literal path text to the segments built so far (a leading `/` opens the path)."""
    pieces = text.split("/")
    if segments == [[]] and pieces and pieces[0] == "":
        pieces = pieces[1:]
    for position, piece in enumerate(pieces):
        if position:
            segments.append([])
        if piece:
            segments[-1].append(piece)


def dynamic_variant(head: str, reason: str) -> PathVariant:
    """A path that is not one template: anything under its literal `head` segments."""
    scope = None
    channel = "/{**}"
    if head.startswith("/") and head != "/":
        prefix = canonicalize_segments([[piece] if piece else [] for piece in head[1:].split("/")])
        if not prefix.dynamic and "{" not in prefix.channel:
            scope = prefix.channel.rstrip("/") or None
            channel = (scope or "") + "/{**}"
    return PathVariant(channel, True, dynamic_scope=scope, reason=reason)


def angle_variants(
    path: str,
    head: str,
    variables: list[re.Match[str]],
    converter: Callable[[re.Match[str]], str | None],
    refused: str,
    table: Converters,
    *,
    closed_tail: bool = False,
) -> list[PathVariant]:
    """The templates of a path whose variables are `<converter:name>` (Werkzeug, Django).

    `converter` names a variable's converter (None: one the framework refuses, with the
    reason `refused`); a `path` converter may fill only the last segment, whole.
    `closed_tail`: a `<` or `>` after the last variable makes the path malformed.
    """
    segments: list[list[Part]] = [[]]
    constraints: list[tuple[int, str, str | None]] = []
    index = 0
    for position, match in enumerate(variables):
        append_literal(path[index : match.start()], segments)
        index = match.end()
        name = converter(match)
        if name is None:
            return [dynamic_variant(head, refused)]
        if name == "path":
            if position != len(variables) - 1 or index != len(path) or segments[-1]:
                return [dynamic_variant(head, "path-converter")]
            template = canonicalize_segments(segments[:-1])
            if template.dynamic:
                return [dynamic_variant(head, template.reason or "malformed-template")]
            channel = template.channel.rstrip("/") + "/{**}"
            return [PathVariant(channel, param_constraints=tuple(constraints))]
        segments[-1].append(PARAM)
        # Every earlier variable was a `{}` (a path variable ends the path), so the
        # position among the variables is the index among the holes.
        constraints.extend(constraint(table, name, position))
    if closed_tail and ("<" in path[index:] or ">" in path[index:]):
        return [dynamic_variant(head, "malformed-template")]
    append_literal(path[index:], segments)
    template = canonicalize_segments(segments)
    if template.dynamic:
        return [PathVariant(template.channel, True, reason=template.reason)]
    return [PathVariant(template.channel, param_constraints=tuple(constraints))]
