"""Path prefixes from OpenAPI 3.x server URLs and the Swagger 2.0 `basePath`.

The scheme, host and port of a server URL never reach a fact; only its path
does, prepended to every path key. A prefix is `root` when the spec proves it
and `base` when it does not; a base prefix keeps only the literal path that
follows the last unprovable part, which is still a true suffix of the real
path. Every base outcome names a cause for `unresolved-contract-servers:`.

A variable with an enum is expanded into each of its values (at most
MAX_COMBINATIONS combinations per server). A variable with only a default is
open: clients may substitute anything, so it is proven harmless only when it
sits inside the host, away from the port and the path, with a default that
cannot reach either. Relative URLs and spellings that URL parsers disagree on
(dot segments, backslashes, whitespace and control characters) are base.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from tsograph.producers.openapi.tree import SpecMap
from tsograph.producers.openapi.tree import is_null
from tsograph.producers.openapi.tree import scalar_text

ROOT = "root"
BASE = "base"

MAX_COMBINATIONS = 256
# Work allowed per spec. Each evaluated combination is charged a fixed share
# plus one unit per 64 URL characters and per variable. Specs repeat the same
# few servers, which are resolved once; the cap keeps a spec made of many
# distinct enum-heavy or huge server URLs from taking more than a fraction of
# a second (a unit is roughly 1.5 µs here).
MAX_WORK = 250_000

# Causes, the breakdown keys of `unresolved-contract-servers:`.
OPEN_VARIABLE = "open-path-variable"
LEADING_VARIABLE = "leading-variable"
SCHEME_VARIABLE = "scheme-variable"
USERINFO_VARIABLE = "userinfo-variable"
PORT_VARIABLE = "port-variable"
HOST_VARIABLE = "host-variable"
RELATIVE_URL = "relative-url"
AMBIGUOUS_SPELLING = "ambiguous-spelling"
TOO_MANY_COMBINATIONS = "too-many-combinations"
EVALUATION_BUDGET = "server-work-budget"
MALFORMED_SERVER = "malformed-server"
BASE_PATH = "base-path"


@dataclass(frozen=True, slots=True)
class Prefix:
    anchor: str
    segments: tuple[str, ...]


DEFAULT_PREFIX = Prefix(ROOT, ())
UNKNOWN_BASE = Prefix(BASE, ())


@dataclass(frozen=True, slots=True)
class Resolved:
    """The distinct prefixes of one server (or basePath), and why any is base."""

    prefixes: tuple[Prefix, ...]
    cause: str | None


@dataclass(frozen=True, slots=True)
class _Variable:
    enum: tuple[str, ...] | None
    default: str | None


# An open variable in the URL text; it cannot occur in a literal because
# control characters make the URL ambiguous before this is used.
_HOLE = "\0"
# Characters WHATWG and RFC 3986 parsers treat differently (they strip, ignore
# or reinterpret them): control characters, backslash, and space.
_AMBIGUOUS = re.compile(r"[\x00-\x20\x7f\\]")
_SCHEME = re.compile(r"([^:/?#]*)://")
# `http:/api` or `localhost:8080/api`: WHATWG and RFC 3986 read these differently.
_SCHEME_WITHOUT_AUTHORITY = re.compile(r"[^:/?#]*:")
_SCHEME_NAME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_AUTHORITY_END = re.compile(r"[/?#]")
_PATH_END = re.compile(r"[?#]")
_TEMPLATE_VARIABLE = re.compile(r"\{([^{}]*)\}")
# What a host variable's default may not contain to stay inside the host.
_LEAVES_HOST = frozenset("/@:[]?#")
_CUTS_PATH = frozenset("?#")


def _is_dot_segment(segment: str) -> bool:
    return segment.replace("%2E", ".").replace("%2e", ".") in (".", "..")


def _segments(path: str) -> tuple[str, ...] | None:
    """Segments of an absolute path, one trailing slash dropped; None for dot segments.

    OpenAPI appends path keys, which start with `/`, to the server URL, so a
    server ending in `/` would otherwise double the slash no client sends.
    """
    if path.endswith("/"):
        path = path[:-1]
    if not path:
        return ()
    segments = tuple(path[1:].split("/"))
    return None if any(_is_dot_segment(segment) for segment in segments) else segments


def _path_of(text: str) -> str:
    """`text` up to its query or fragment."""
    match = _PATH_END.search(text)
    return text[: match.start()] if match else text


def _tail(text: str) -> Prefix:
    """The base prefix made of the literal path in `text`, from its first slash on."""
    path = _path_of(text)
    slash = path.find("/")
    if slash < 0:
        return UNKNOWN_BASE
    segments = _segments(path[slash:])
    return UNKNOWN_BASE if segments is None else Prefix(BASE, segments)


class _Url:
    """One server URL after enum substitution; open variables are holes."""

    def __init__(self, text: str, holes: list[str], variables: dict[str, _Variable]) -> None:
        self.text = text
        self.variables = variables
        # The variable name at each hole's position in the text.
        self._names: dict[int, str] = {}
        position = -1
        for name in holes:
            position = text.find(_HOLE, position + 1)
            self._names[position] = name

    def _default(self, position: int) -> str | None:
        variable = self.variables.get(self._names[position])
        return None if variable is None else variable.default

    def _cuts_path(self, start: int, end: int) -> bool:
        """Whether an open variable in text[start:end] may hold `?` or `#`."""
        position = self.text.find(_HOLE, start, end)
        while position >= 0:
            default = self._default(position)
            if default is None or not _CUTS_PATH.isdisjoint(default):
                return True
            position = self.text.find(_HOLE, position + 1, end)
        return False

    def classify(self) -> tuple[Prefix, str | None]:
        text = self.text
        scheme = _SCHEME.match(text)
        if scheme is not None or text.startswith("//"):
            start = scheme.end() if scheme is not None else 2
            match = _AUTHORITY_END.search(text, start)
            end = match.start() if match else len(text)
            cause = None
            if scheme is not None and _HOLE in scheme.group(1):
                cause = SCHEME_VARIABLE
            elif scheme is not None and not _SCHEME_NAME.fullmatch(scheme.group(1)):
                return UNKNOWN_BASE, AMBIGUOUS_SPELLING
            elif _HOLE in text[start:end]:
                cause = self._authority_cause(start, end)
            if cause is not None:
                return self._base_after_holes(end), cause
            return self._from_path(end)
        if _SCHEME_WITHOUT_AUTHORITY.match(text):
            return UNKNOWN_BASE, AMBIGUOUS_SPELLING
        if text.startswith(_HOLE):
            return self._base_after_holes(0), LEADING_VARIABLE
        if text.startswith("/"):
            return self._from_path(0)
        return self._relative(), RELATIVE_URL

    def _authority_cause(self, start: int, end: int) -> str | None:
        authority = self.text[start:end]
        if "@" in authority:
            return USERINFO_VARIABLE
        colon = authority.rfind(":")
        host_end = colon if colon > authority.rfind("]") else len(authority)
        if _HOLE in authority[host_end:]:
            return PORT_VARIABLE
        host = authority[:host_end]
        if "[" in host:
            return HOST_VARIABLE
        position = host.find(_HOLE)
        while position >= 0:
            # Strictly inside the host: a literal character must follow the
            # variable before the port or the path begins.
            if position + 1 >= len(host) or host[position + 1] == _HOLE:
                return HOST_VARIABLE
            default = self._default(start + position)
            if (
                default is None
                or not _LEAVES_HOST.isdisjoint(default)
                or _AMBIGUOUS.search(default)
            ):
                return HOST_VARIABLE
            position = host.find(_HOLE, position + 1)
        return None

    def _from_path(self, start: int) -> tuple[Prefix, str | None]:
        path = _path_of(self.text[start:])
        if _HOLE in path:
            return self._base_after_holes(start), OPEN_VARIABLE
        segments = _segments(path)
        if segments is None:
            return UNKNOWN_BASE, AMBIGUOUS_SPELLING
        return Prefix(ROOT, segments), None

    def _base_after_holes(self, start: int) -> Prefix:
        """Base prefix: the literal path after the last open variable of the path."""
        path_end = start + len(_path_of(self.text[start:]))
        if self._cuts_path(0, path_end):
            return UNKNOWN_BASE
        last = self.text.rfind(_HOLE, start, path_end)
        return _tail(self.text[last + 1 if last >= 0 else start : path_end])

    def _relative(self) -> Prefix:
        path = _path_of(self.text)
        if _HOLE in path:
            return self._base_after_holes(0)
        while path.startswith("./"):
            path = path[2:]
        segments = _segments("/" + path) if path else ()
        return UNKNOWN_BASE if segments is None else Prefix(BASE, segments)


def _template(url: str) -> list[str] | None:
    """Literal text and variable names alternating, starting with literal text."""
    parts: list[str] = []
    position = 0
    for match in _TEMPLATE_VARIABLE.finditer(url):
        parts.append(url[position : match.start()])
        parts.append(match.group(1))
        position = match.end()
    parts.append(url[position:])
    if any("{" in literal or "}" in literal for literal in parts[::2]):
        return None
    return parts


def _variables(value: object) -> dict[str, _Variable] | None:
    if value is None or is_null(value):
        return {}
    if not isinstance(value, SpecMap):
        return None
    variables = {}
    for key, spec in value.items():
        name = scalar_text(key)
        if name is None or not isinstance(spec, SpecMap):
            return None
        enum = spec.get("enum")
        values: tuple[str, ...] | None = None
        if isinstance(enum, list) and enum:
            texts = [scalar_text(item) for item in enum]
            if any(text is None for text in texts):
                return None
            values = tuple(dict.fromkeys(text for text in texts if text is not None))
        elif enum is not None and not is_null(enum) and not isinstance(enum, list):
            return None
        variables[name] = _Variable(values, scalar_text(spec.get("default")))
    return variables


class ServerEvaluator:
    """Resolves server objects, each distinct content once, within a spec-wide budget."""

    def __init__(self) -> None:
        self._work_left = MAX_WORK
        self._memo: dict[tuple[object, ...], Resolved] = {}

    def resolve(self, server: object) -> Resolved:
        if not isinstance(server, SpecMap):
            return Resolved((UNKNOWN_BASE,), MALFORMED_SERVER)
        url = server.get("url")
        variables = _variables(server.get("variables"))
        if not isinstance(url, str) or variables is None:
            return Resolved((UNKNOWN_BASE,), MALFORMED_SERVER)
        content = (url, *sorted(variables.items()))
        if content not in self._memo:
            self._memo[content] = self._evaluate(url, variables)
        return self._memo[content]

    def _evaluate(self, url: str, variables: dict[str, _Variable]) -> Resolved:
        parts = _template(url)
        if parts is None:
            return Resolved((UNKNOWN_BASE,), MALFORMED_SERVER)
        names = parts[1::2]
        enums = {
            name: values
            for name in dict.fromkeys(names)
            if (variable := variables.get(name)) is not None and (values := variable.enum)
        }
        combinations = 1
        for values in enums.values():
            combinations *= len(values)
        if combinations > MAX_COMBINATIONS:
            return Resolved((UNKNOWN_BASE,), TOO_MANY_COMBINATIONS)
        work = combinations * (8 + len(url) // 64 + len(names))
        if work > self._work_left:
            return Resolved((UNKNOWN_BASE,), EVALUATION_BUDGET)
        self._work_left -= work
        prefixes: dict[Prefix, None] = {}
        cause = None
        for chosen in product(*enums.values()):
            substitution = dict(zip(enums, chosen, strict=True))
            prefix, problem = self._one(parts, substitution, variables)
            prefixes.setdefault(prefix)
            cause = cause or problem
        return Resolved(tuple(prefixes), cause)

    @staticmethod
    def _one(
        parts: list[str], substitution: dict[str, str], variables: dict[str, _Variable]
    ) -> tuple[Prefix, str | None]:
        pieces = [parts[0]]
        holes = []
        for index in range(1, len(parts), 2):
            name = parts[index]
            if name in substitution:
                pieces[-1] += substitution[name]
            else:
                holes.append(name)
                pieces.append("")
            pieces[-1] += parts[index + 1]
        if any(_AMBIGUOUS.search(piece) for piece in pieces):
            return UNKNOWN_BASE, AMBIGUOUS_SPELLING
        return _Url(_HOLE.join(pieces), holes, variables).classify()


def resolve_base_path(value: object) -> Resolved:
    """The Swagger 2.0 prefix: `basePath`, or `/` when there is none."""
    if value is None or is_null(value):
        return Resolved((DEFAULT_PREFIX,), None)
    if not isinstance(value, str):
        return Resolved((UNKNOWN_BASE,), BASE_PATH)
    if not value.startswith("/") or any(char in value for char in "{}?#"):
        return Resolved((UNKNOWN_BASE,), BASE_PATH)
    segments = None if _AMBIGUOUS.search(value) else _segments(value)
    if segments is None:
        return Resolved((UNKNOWN_BASE,), AMBIGUOUS_SPELLING)
    return Resolved((Prefix(ROOT, segments),), None)
