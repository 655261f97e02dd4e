"""What the Python path dialects (Starlette, Werkzeug, Django) share when they build templates."""

from __future__ import annotations

from tsograph.exchange.templates import Part, canonicalize_segments
from tsograph.producers.routes.node.paths.model import PathVariant


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
