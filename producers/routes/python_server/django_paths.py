"""Django URL routes (`path()`, `re_path()`) as contract templates.

Checked against django 5.2.19 (urls/resolvers.py `_route_to_regex`,
`_PATH_PARAMETER_COMPONENT_RE`, urls/converters.py); the oracle recordings
replay it:

* `path()` variables are `<name>` or `<converter:name>`; converters `str`
  `[^/]+` (the default), `int` `[0-9]+`, `slug` `[-a-zA-Z0-9_]+`, `uuid`
  (lower-case 8-4-4-4-12), `path` `.+`; the rest is literal;
* routes are matched against the path without its leading `/`, an included
  route's pattern being a prefix of its children's; so the full template is
  `/` + the routes joined as written;
* `re_path()` is a regular expression: only a literal one (`^about/$`, with
  `\\` escapes of punctuation) is a template; any other is unproven from its
  first non-literal character on (dynamic, scoped to the literal segments
  before it); a literal one ending in `/?$` serves the path with and without
  its final `/` (`trailingSlash: "optional"`).
"""

from __future__ import annotations

import re

from tsograph.producers.routes.node.paths.model import PathVariant
from tsograph.producers.routes.python_server.converters import Converters
from tsograph.producers.routes.python_server.path_segments import angle_variants
from tsograph.producers.values.python.strings import Text

_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<parameter>[^>]+)>")
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
UUID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
# DRF routers' lookup (`[^/.]+`, routers.py SimpleRouter.lookup_value_regex): a converter
# name no URLconf can write (a NUL), used only by the router expansion in django.py.
DRF_LOOKUP = "<\x00drf-lookup:pk>"
LOOKUP_PATTERN = r"^[^/.]+$"
CONSTRAINTS: Converters = {
    "int": ("int", None),
    "slug": ("regex", SLUG_PATTERN),
    "uuid": ("regex", UUID_PATTERN),
    "\x00drf-lookup": ("regex", LOOKUP_PATTERN),
}
_CONVERTERS = ("str", "int", "slug", "uuid", "path", "\x00drf-lookup")
# Regex characters with a meaning; anything else (and these escaped) is literal.
_META = frozenset(".^$*+?{}[]|()\\")


def optional_slash(pattern: str) -> str | None:
    """`^users/?$` as `^users$`: a literal endpoint pattern whose final `/` is optional
    (then both forms are served); None for any other pattern."""
    for end in ("/?$", "/?\\Z"):
        if pattern.endswith(end):
            shorter = pattern[: -len(end)] + end[2:]
            route = regex_route(shorter, True)
            if route.known is not None and route.known and not route.known.endswith("/"):
                return shorter
    return None


def regex_route(pattern: str, endpoint: bool) -> Text:
    """A re_path() pattern as route text: its literal part, None where it stops being literal."""
    body = pattern.removeprefix("^")
    ended = False
    for end in ("\\Z", "$"):
        if body.endswith(end) and not body.endswith("\\" + end):
            body, ended = body[: -len(end)], True
            break
    literal: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body) and not body[index + 1].isalnum():
            literal.append(body[index + 1])
            index += 2
            continue
        if char in _META or not pattern.startswith("^"):
            return Text(("".join(literal), None))
        literal.append(char)
        index += 1
    if endpoint and not ended:
        return Text(("".join(literal), None))  # without `$` it matches any longer path too
    return Text(("".join(literal),))


def django_variants(path: str) -> list[PathVariant]:
    """The templates a full path (`/` + the joined routes) serves."""
    variables = list(_PARAMETER.finditer(path))
    return angle_variants(
        path, _head(path), variables, _converter, "unknown-converter", CONSTRAINTS
    )


def _converter(match: re.Match[str]) -> str | None:
    converter = match.group("converter") or "str"
    if converter not in _CONVERTERS or not match.group("parameter").isidentifier():
        return None
    return converter


def _head(path: str) -> str:
    match = _PARAMETER.search(path)
    return path if match is None else path[: match.start()].rpartition("/")[0]
