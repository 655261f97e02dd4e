"""Starlette route paths (FastAPI routes are Starlette routes) as contract templates.

Checked against starlette 1.10.0 (routing.compile_path, convertors.py), the
version fastapi 0.165.0 installs; the oracle recordings replay it:

* a parameter is `{name}` or `{name:convertor}` with a name matching
  `[a-zA-Z_][a-zA-Z0-9_]*`; any other braces are literal text;
* convertors: `str` `[^/]+` (the default), `int` `[0-9]+`, `float`
  `[0-9]+(\\.[0-9]+)?`, `uuid` (8-4-4-4-12 hex digits, dashes optional),
  `path` `.*` (any characters, `/` included, also none); an unknown
  convertor fails when the app starts, and so does a repeated name;
* literal text is matched as written against the percent-decoded path.

A `path` parameter filling the last segment serves `<prefix>/{**}` and, with
an empty value, `<prefix>/`; anywhere else it is dynamic, scoped to the
literal segments before it.
"""

from __future__ import annotations

import re

from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import canonicalize_segments
from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.python_server.converters import Converters
from tsograph.producers.routes.python_server.converters import constraint
from tsograph.producers.routes.python_server.path_segments import dynamic_variant

PARAM_REGEX = re.compile(r"{([a-zA-Z_][a-zA-Z0-9_]*)(:[a-zA-Z_][a-zA-Z0-9_]*)?}")
FLOAT_PATTERN = r"^[0-9]+(\.[0-9]+)?$"
UUID_PATTERN = "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$"
CONSTRAINTS: Converters = {
    "int": ("int", None),
    "float": ("regex", FLOAT_PATTERN),
    "uuid": ("regex", UUID_PATTERN),
}
CONVERTORS = ("str", "path", "int", "float", "uuid")

# A parsed path: literal text, or a parameter's convertor name.
Token = tuple[str, str]  # ("text", literal) or ("param", convertor)


def tokens(path: str) -> list[Token] | None:
    """The literal text and parameters of a path; None when Starlette rejects it."""
    found: list[Token] = []
    names: set[str] = set()
    index = 0
    for match in PARAM_REGEX.finditer(path):
        name, convertor = match.group(1), (match.group(2) or ":str")[1:]
        if convertor not in CONVERTORS or name in names:
            return None
        names.add(name)
        if match.start() > index:
            found.append(("text", path[index : match.start()]))
        found.append(("param", convertor))
        index = match.end()
    if index < len(path):
        found.append(("text", path[index:]))
    return found


def literal_head(path: str) -> str:
    """The whole literal segments before the first parameter (`/a/b{x}` → `/a`)."""
    match = PARAM_REGEX.search(path)
    head = path if match is None else path[: match.start()]
    if match is not None:
        head = head.rpartition("/")[0]
    return head


def starlette_variants(path: str) -> list[PathVariant]:
    """The templates a route registered at the full `path` serves."""
    parsed = tokens(path)
    if parsed is None or not path.startswith("/"):
        return [_dynamic(path, "malformed-template")]
    paths = [index for index, token in enumerate(parsed) if token == ("param", "path")]
    if paths:
        last = paths[-1]
        whole_last = (
            len(paths) == 1
            and last == len(parsed) - 1
            and last > 0
            and parsed[last - 1][0] == "text"
            and parsed[last - 1][1].endswith("/")
        )
        if not whole_last:
            return [_dynamic(path, "path-convertor")]
        head = parsed[:last]
        base = _variant(head)
        if base.dynamic:
            return [_dynamic(path, base.reason or "malformed-template")]
        star = _variant([*head, ("catch-all", "")])
        return [star, base]
    return [_variant(parsed)]


def _variant(parsed: list[Token]) -> PathVariant:
    segments: list[list[Part]] = [[]]
    constraints: list[tuple[int, str, str | None]] = []
    holes = 0
    catch_all = False
    for kind, value in parsed:
        if kind == "text":
            pieces = value.split("/")
            if segments == [[]] and pieces and pieces[0] == "":
                pieces = pieces[1:]  # the leading slash opens the first segment
            for position, piece in enumerate(pieces):
                if position:
                    segments.append([])
                if piece:
                    segments[-1].append(piece)
        elif kind == "catch-all":
            catch_all = True
        else:
            segments[-1].append(PARAM)
            constraints.extend(constraint(CONSTRAINTS, value, holes))
            holes += 1
    template = canonicalize_segments(segments)
    if catch_all:
        channel = template.channel.rstrip("/") + "/{**}"
        return PathVariant(channel, template.dynamic, reason=template.reason)
    if template.dynamic:
        return PathVariant(template.channel, True, reason=template.reason)
    return PathVariant(template.channel, param_constraints=tuple(constraints))


def _dynamic(path: str, reason: str) -> PathVariant:
    return dynamic_variant(literal_head(path) if path.startswith("/") else "", reason)
