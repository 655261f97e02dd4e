"""Hono 4.x route paths (read from hono 4.13.12: utils/url.js, router/reg-exp-router, smart-router).

Every route path is first joined to the app's base path with `mergePath`,
which also gives a bare `users` its leading `/`. A path that ends in `?`
and holds a `:` is expanded by `checkOptionalParameter` (the only optional
syntax). Then, segment by segment:

* `:name` is one non-empty segment; everything up to the next `/` is the
  name, so `:a.:b` and `:name.json` are single parameters;
* `:name{re}` constrains the parameter by `re`, which may also span `/`;
* a final `/*` is `(?:|/.*)`: nothing, `/`, or any rest; `*` alone is every
  path; a `*` segment elsewhere is one non-empty segment;
* text and a parameter in one segment (`u-:id`) are not matched by the
  default SmartRouter and a `*` inside text is a wildcard, so both are dynamic.

Hono decodes the request path with `decodeURI` before matching, so a literal
is compared in its canonical form; a literal `%` never matches (`%25` stays
encoded) and makes the path dynamic. Matching is case-sensitive and strict
about the trailing slash unless the app sets `strict: false` (then one
trailing `/` is removed from the request path, `getPathNoStrict`).
"""

from __future__ import annotations

import re

from .model import UNDECODED
from .model import Opaque
from .model import Param
from .model import PathVariant
from .model import Rest
from .model import Shape
from .model import Token
from .model import render_all

_GROUP = re.compile(r"\{[^}]+\}")
_LABEL = re.compile(r"^:([^{}]+)(?:\{(.+)\})?$", re.DOTALL)


def translate(path: str) -> tuple[PathVariant, ...]:
    path = merge_path("/", path)
    shapes: list[Shape] = []
    for expanded in _check_optional_parameter(path) or [path]:
        shape = _shape(expanded)
        if shape and shape[-1] is _OPTIONAL_TAIL:
            shapes.append(shape[:-1] or ("/",))
            shapes.append((*shape[:-1], "/", Rest()))
        else:
            shapes.append(shape)
    return render_all(shapes)


def _shape(path: str) -> Shape:
    if path in ("*", "/*"):
        return ("/", Rest())
    segments = _split_routing_path(path)
    tokens: list[Token] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "*" and last:
            # `(?:|/.*)`: the `/` before the wildcard is optional too.
            return (*tokens, _OPTIONAL_TAIL)
        tokens.append("/")
        tokens.extend(_segment(segment))
    return tuple(tokens)


# A marker the renderer never sees: `translate` expands it.
_OPTIONAL_TAIL = Opaque("optional-tail")


def _segment(segment: str) -> list[Token]:
    if segment == "*":
        return [Param()]
    if segment.startswith(":"):
        label = _LABEL.match(segment)
        if label is None:
            return [Opaque()]
        pattern = label.group(2)
        if pattern is None:
            return [Param()]
        # The TrieRouter fallback compiles `^${re}$` without a group, so a
        # top-level `|` would mean something else there.
        return [Opaque()] if "|" in pattern else [Param(pattern=pattern)]
    if ":" in segment or "*" in segment:
        return [re.split(r"[:*]", segment, maxsplit=1)[0], Opaque()]
    if "%" in segment:
        return [Opaque(UNDECODED)]
    if "?" in segment or "#" in segment:
        # A request path holds these only encoded, and decodeURI keeps them so.
        return [segment.split("?")[0].split("#")[0], Opaque()]
    return [segment]


def _split_routing_path(path: str) -> list[str]:
    """utils/url.js splitRoutingPath: split on `/` outside `{…}` groups."""
    groups: list[tuple[str, str]] = []

    def mark(found: re.Match[str]) -> str:
        marker = f"@{found.start()}"
        groups.append((marker, found.group(0)))
        return marker

    marked = _GROUP.sub(mark, path)
    parts = marked.split("/")
    if parts and parts[0] == "":
        parts = parts[1:]
    for marker, text in reversed(groups):
        for j in range(len(parts) - 1, -1, -1):
            if marker in parts[j]:
                parts[j] = parts[j].replace(marker, text, 1)
                break
    return parts


def _check_optional_parameter(path: str) -> list[str] | None:
    """utils/url.js checkOptionalParameter, which only applies to a path ending in `?`."""
    if not path.endswith("?") or ":" not in path:
        return None
    results: list[str] = []
    base = ""
    for segment in path.split("/"):
        if segment != "" and ":" not in segment:
            base += "/" + segment
        elif ":" in segment:
            if segment.endswith("?"):
                results.append("/" if not results and base == "" else base)
                base += "/" + segment[:-1]
                results.append(base)
            else:
                base += "/" + segment
    return list(dict.fromkeys(results))


def merge_path(base: str, sub: str) -> str:
    """utils/url.js mergePath(base, sub): how `basePath()`, `route()` and every route join."""
    head = "" if base.startswith("/") else "/"
    if sub == "/":
        return f"{head}{base}"
    middle = "" if base.endswith("/") else "/"
    return f"{head}{base}{middle}{sub[1:] if sub.startswith('/') else sub}"
