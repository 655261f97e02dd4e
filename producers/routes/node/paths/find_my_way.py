"""find-my-way route paths: Fastify 4 (find-my-way 8.2.2) and Fastify 5 (9.x, read from 9.9.0).

`Router.prototype.on` / `_on` in index.js:

* a path must start with `/` or `*`; `*` is a wildcard that takes the rest
  of the path, empty included, and must be the last character;
* `:name` runs to the next `(`, `-`, `.` or `/`; `(re)` constrains it (a
  leading `^` and trailing `$` are dropped); the text after it up to the
  next `/` or `:` belongs to the same node; `::` is a literal `:`;
* a parameter takes everything up to the next `/` and may be empty, so
  `/users/:id` also serves `/users/`; its regex sees that one segment only;
* one optional parameter `/:name?` may end the path: the path is registered
  with and without it.

find-my-way 8 has a bug 9 fixed: a parameter node with a regex and no text
after it also accepts the empty value. find-my-way decodes the request path
before matching, so literals compare in their canonical form; a literal `%`
is stored as `%25` and makes the path dynamic here. Fastify's defaults are
case-sensitive and strict about the trailing slash (`caseSensitive`,
`ignoreTrailingSlash`, `ignoreDuplicateSlashes` change that).
"""

from __future__ import annotations

import re

from .model import UNDECODED
from .model import Opaque
from .model import Param
from .model import PathRejected
from .model import PathVariant
from .model import Rest
from .model import Shape
from .model import Token
from .model import TooManyShapes
from .model import branch
from .model import translation
from .regex import analyze

_OPTIONAL_PARAM = re.compile(r"(/:[^/()]*?)\?(/?)")
_NAME_END = frozenset("(-./")
DEFAULT_MAJOR = 9


def translate(path: str, *, major: int = DEFAULT_MAJOR) -> tuple[PathVariant, ...]:
    """The templates of `path`; `major` is find-my-way's (8 for Fastify 4, 9 for Fastify 5)."""
    return translation(path, lambda: _registered(path, major), undecoded=False)


def shapes_of(path: str, *, major: int = DEFAULT_MAJOR) -> list[Shape] | None:
    """The shapes find-my-way registers for `path`, None when it rejects the path."""
    try:
        return _registered(path, major)
    except (PathRejected, TooManyShapes):
        return None


def _registered(path: str, major: int) -> list[Shape]:
    return [
        shape for registered in _expand_optional(path) for shape in _shapes(registered, major=major)
    ]


def _expand_optional(path: str) -> list[str]:
    if not path or path[0] not in "/*":
        raise PathRejected("the first character of a path should be / or *")
    found = _OPTIONAL_PARAM.search(path)
    if found is None:
        return [path]
    if found.end() != len(path):
        raise PathRejected("optional parameter needs to be the last parameter of the path")
    full = path[: found.start()] + found.group(1) + found.group(2)
    optional = (path[: found.start()] + found.group(2)) or "/"
    return [*_expand_optional(full), *_expand_optional(optional)]


def _literal(text: str) -> list[Token]:
    text = text.replace("::", ":")
    if "%" in text:
        return [Opaque(UNDECODED)]
    if "?" in text or "#" in text:
        # Only an encoded `%3F`/`%23` could match, and whether the router
        # decodes it before matching is not modelled.
        return [Opaque()]
    return [text] if text else []


def _shapes(path: str, *, major: int) -> list[Shape]:
    if path == "*":
        return [("/", Rest())]
    shapes: list[Shape] = [()]
    start = 0
    i = 0
    while i <= len(path):
        if path.startswith("::", i):
            i += 2
            continue
        if i < len(path) and path[i] == "*":
            if i != len(path) - 1:
                raise PathRejected("wildcard must be the last character in the route")
            tail = (*_literal(path[start:i]), Rest())
            return [(*shape, *tail) for shape in shapes]
        if i < len(path) and path[i] == ":":
            literal = _literal(path[start:i])
            options, i = _parametric_node(path, i + 1, major=major)
            shapes = branch(shapes, [[*literal, *option] for option in options])
            start = i
            continue
        i += 1
    literal = _literal(path[start:])
    return [(*shape, *literal) for shape in shapes]


def _parametric_node(path: str, j: int, *, major: int) -> tuple[list[list[Token]], int]:
    """One parametric node from just after its `:`: its alternatives and where it ends."""
    params: list[str | None] = []
    statics: list[str] = []
    while True:
        while j < len(path) and path[j] not in _NAME_END:
            j += 1
        pattern: str | None = None
        if j < len(path) and path[j] == "(":
            close = _closing_parenthesis(path, j)
            pattern = _trim_anchors(path[j : close + 1])[1:-1]
            _check_safe(pattern)
            j = close + 1
        params.append(pattern)
        static_start = j
        while j < len(path) and path[j] != "/":
            if path[j] == ":":
                if path.startswith("::", j):
                    j += 2
                    continue
                break
            j += 1
        statics.append(path[static_start:j])
        if j >= len(path) or path[j] == "/":
            break
        j += 1  # past the `:` of the next parameter in the same node
    return _node_tokens(params, statics, major=major), j


def _node_tokens(params: list[str | None], statics: list[str], *, major: int) -> list[list[Token]]:
    node = _node(params, statics)
    regex_node = any(pattern is not None for pattern in params) or len(params) > 1
    if major < 9 and regex_node:
        # find-my-way 8: when a regex node fails on an empty value its lookup
        # falls through to the node's handler, so the node may match nothing.
        return [node, []]
    return [node]


def _node(params: list[str | None], statics: list[str]) -> list[Token]:
    if len(params) > 1:
        # Several parameters share one segment; no template says where one ends.
        return [Opaque()]
    pattern = params[0]
    suffix = _literal(statics[0])
    if pattern is None:
        # `:id` alone, or `(.*?)` followed by the text: any value, empty included.
        return [Param(may_be_empty=True), *suffix]
    return [Param(pattern=pattern, within_segment=True), *suffix]


def _closing_parenthesis(path: str, index: int) -> int:
    """getClosingParenthensePosition: the `)` that closes the `(` at `index`."""
    depth = 1
    while index < len(path):
        index += 1
        if index < len(path) and path[index] == "\\":
            index += 1
            continue
        if index < len(path) and path[index] == ")":
            depth -= 1
        elif index < len(path) and path[index] == "(":
            depth += 1
        if depth == 0:
            return index
    raise PathRejected("invalid regexp expression")


def _trim_anchors(group: str) -> str:
    """trimRegExpStartAndEnd: `(^re$)` -> `(re)`."""
    if group[1:2] == "^":
        group = group[:1] + group[2:]
    if group[-2:-1] == "$":
        group = group[:-2] + group[-1:]
    return group


def _check_safe(pattern: str) -> None:
    # safe-regex2 rejects nested quantifiers (star height above one); a
    # pattern this reader cannot follow is not guessed at either.
    if analyze(pattern) is None or re.search(r"[*+}]\)*[*+{]", pattern):
        raise PathRejected("unsafe or unsupported regex")


def fastify_route_paths(
    prefix: str,
    path: str,
    *,
    prefix_trailing_slash: str = "both",
    ignore_trailing_slash: bool = False,
    ignore_duplicate_slashes: bool = False,
) -> tuple[str, ...]:
    """Every path Fastify registers for a route (fastify 4.29.1 / 5.12.5 lib/route.js).

    A `/` route under a prefix becomes the bare prefix, plus `prefix/` unless
    `prefixTrailingSlash` says otherwise or the trailing slash is ignored; a
    prefix ending in `/` drops the route's leading `/`.
    """
    if path == "/" and prefix:
        if prefix_trailing_slash == "slash":
            return (prefix + path,)
        if prefix_trailing_slash == "no-slash":
            return (prefix,)
        if not ignore_trailing_slash and (not ignore_duplicate_slashes or not prefix.endswith("/")):
            return (prefix, prefix + path)
        return (prefix,)
    if path.startswith("/") and prefix.endswith("/"):
        return (prefix + path[1:],)
    return (prefix + path,)


def fastify_plugin_prefix(instance_prefix: str, plugin_prefix: str, *, fastify_major: int) -> str:
    """buildRoutePrefix: the prefix a plugin registered with `{ prefix }` gets.

    Fastify 5 (lib/plugin-override.js) adds a `/` between the two only when
    neither side has one; Fastify 4 (lib/pluginOverride.js) adds one whenever
    the plugin prefix lacks it, even after an instance prefix ending in `/`.
    """
    if not plugin_prefix:
        return instance_prefix
    if instance_prefix.endswith("/") and plugin_prefix.startswith("/"):
        plugin_prefix = plugin_prefix[1:]
    elif not plugin_prefix.startswith("/") and (
        fastify_major < 5 or not instance_prefix.endswith("/")
    ):
        plugin_prefix = "/" + plugin_prefix
    return instance_prefix + plugin_prefix
