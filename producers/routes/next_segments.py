"""Folder names under app/ or pages/ as route templates, or the reason Next.js rejects them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tsograph.exchange.templates import CATCH_ALL
from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.producers.routes.next_scan import Scan
from tsograph.producers.routes.next_scan import cover

_NON_WORD = re.compile(r"\W", re.ASCII)  # JavaScript's \W, as sorted-routes.js compares names
_FORBIDDEN_NAME = re.compile("[\x00-\x1f\x7f\\\\?#]")


@dataclass
class Route:
    segments: list[list[Part]]
    optional_catch_all: bool = False
    mixed: bool = False


def _segment(name: str, *, last: bool, seen: list[str]) -> tuple[list[Part], str] | str:
    r"""A folder name as template parts and its kind, or the reason Next.js rejects it.

    next@16.4.6 shared/lib/router/utils/sorted-routes.js (UrlNode._insert), which fails the
    build, for whole `[...]` segments; any other bracket text is "mixed": is-dynamic.js's
    strict `/\[[^/]+\](?=/|$)` then serves it as a literal while route-regex.js would read a
    parameter, so tsograph keeps it dynamic (the oracle vectors record both readings).
    """
    if not (name.startswith("[") and name.endswith("]")):
        if "[" in name or "]" in name:
            return "mixed"
        if not name.isascii():
            # next@16.4.6 builds app/café/route.ts and lists it in its manifests, yet
            # `next start` answers 404 to every spelling of /café (oracle/next live-*):
            # a route nobody can reach is a coverage gap, not a declaration.
            return "unreachable-non-ascii"
        return [name], "static"
    param, optional = name[1:-1], False
    if param.startswith("[") and param.endswith("]"):
        param, optional = param[1:-1], True
    if param.startswith("\u2026"):
        return "three-dot-character"
    catch_all = param.startswith("...")
    if catch_all:
        param = param[3:]
    if param.startswith((".", "[")) or param.endswith("]"):
        return "invalid-parameter-name"
    if optional and not catch_all:
        return "optional-non-catch-all"
    if "[" in param or "]" in param or not (param or catch_all):
        return "mixed"
    if any(slug == param or _NON_WORD.sub("", slug) == _NON_WORD.sub("", name) for slug in seen):
        return "repeated-parameter-name"
    seen.append(param)
    if catch_all and not last:
        return "catch-all-not-last"
    if catch_all:
        return [CATCH_ALL], "optional-catch-all" if optional else "catch-all"
    return [PARAM], "param"


def route_of(folders: list[str], app_router: bool, scan: Scan, path: str) -> Route | None:
    """The route of a file from its folder names under app/ or pages/ (None: no route).

    App Router, next@16.4.6: `(group)` and `@slot` folders leave the path
    (shared/lib/router/utils/app-paths.js normalizeAppPath); `_` folders are never scanned
    (build/route-discovery.js collectAppFiles ignorePartFilter) and `%5F` is decoded to `_`
    afterwards (createPagesMapping); `(.)x` interception folders are not modeled.
    """
    segments: list[list[Part]] = []
    route = Route(segments)
    seen: list[str] = []
    for index, name in enumerate(folders):
        last = index == len(folders) - 1
        if app_router:
            if name.startswith("(") and name.endswith(")") and not name.startswith("(."):
                continue
            if name.startswith("@"):
                cover(scan, "parallel-route-slot", path)
                continue
            if name.startswith("(."):
                cover(scan, "intercepting-route", path)
                return None
            if name.startswith("_"):
                return None
        if _FORBIDDEN_NAME.search(name) or name in (".", ".."):
            cover(scan, "forbidden-characters", path)
            return None
        parsed = _segment(name, last=last, seen=seen)
        if isinstance(parsed, str):
            if parsed == "mixed":
                route.mixed = True
                segments.append(_mixed_parts(name))
                continue
            unserved = parsed == "unreachable-non-ascii"
            cover(scan, parsed if unserved else "segment-name-rejected-by-nextjs", path)
            return None
        parts, kind = parsed
        if kind == "optional-catch-all":
            route.optional_catch_all = True
        segments.append(parts)
    if route.mixed:
        cover(scan, "mixed-dynamic-segment", path)
    return route


def _mixed_parts(name: str) -> list[Part]:
    """The best-effort parts of `v[id]`: each bracketed name is a parameter hole."""
    parts: list[Part] = []
    for index, piece in enumerate(re.split(r"\[[^\]]*\]", name)):
        if index:
            parts.append(PARAM)
        text = piece.replace("[", "").replace("]", "")
        if text:
            parts.append(text)
    return parts
