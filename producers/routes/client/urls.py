"""From the URL a client hands to the network to the path template of a route-call fact.

URL values are plain strings in which HOLE stands for text that is not known
statically (an interpolated variable, an environment value). Joins and
resolution work on these strings as they work on real URLs: a hole never
holds `/`, `?`, `#` or `:`, which is the reading the contract gives an
interpolation that fills a path segment.

The path is what reaches the server: the fragment, the query and the
authority (with its userinfo) are removed, dot segments are removed as the
WHATWG URL parser removes them (`.`, `..`, `%2e` in any case), and a
backslash counts as `/` as it does for http(s) URLs. A segment that is one
hole becomes `{}`; a hole that shares its segment with literal text is a
partial segment and makes the fact dynamic. A literal segment that looks like
a credential (see `looks_secret`) is masked as `{}` so no token reaches a
document.

The authority is not thrown away: a literal one names the origin the request
goes to (origins.py), which becomes the fact's service. A hole in the host
or port leaves the origin unknown, and the path is then anchored at a base.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from dataclasses import replace

from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import canonicalize_segments
from tsograph.producers.routes.client.origins import Origin
from tsograph.producers.routes.client.origins import Unconverted
from tsograph.producers.routes.client.origins import origin_of

HOLE = "\ue000"
# Stands for a configured base whose value is not known (an environment value):
# what follows it is a proven suffix below that base.
BASE_MARK = "\ue001"
# Stands for a query or fragment, or nothing (`c ? "?page=2" : ""`): at the end of a URL
# it changes no path; followed by more text, what follows may be path or query.
QUERY_TAIL = "\ue002"

ROOT = "root"
BASE = "base"

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# Two slashes (either way round) start an authority for http(s) URLs.
_NETWORK_PATH = re.compile(r"^[/\\]{2}")
_HOLED_SCHEME = re.compile(f"^[A-Za-z0-9+.\\-{HOLE}]*{HOLE}[A-Za-z0-9+.\\-{HOLE}]*:[/\\\\]{{2}}")
_C0_SPACE = "".join(chr(code) for code in range(0x21))
_TAB_NEWLINE = re.compile(r"[\t\n\r]")
_HOLES = re.compile(HOLE + "+")
_PLACEHOLDER = re.compile(r"\{\{[^{}]*\}\}")
_HEX_ID = re.compile(r"^[0-9a-fA-F]{16,}$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_WEBHOOK_PARENTS = frozenset({"hooks", "webhook", "webhooks", "services"})
_HTTP_SCHEMES = frozenset({"http", "https"})
# Shannon entropy (bits per character) above which a long mixed token is a secret,
# not a word: English path words stay below 3.5, random base62 tokens above 4.
_ENTROPY_BITS = 3.5
_TOKEN_MIN = 20


@dataclass(frozen=True)
class Target:
    """Where a request goes: a canonical channel, its anchor, and whether it is exact."""

    channel: str
    anchor: str  # ROOT or BASE
    dynamic: bool
    masked: int = 0  # literal segments and host labels written `{}` because they looked secret
    # The origin of an absolute URL (origins.py); None for a relative URL or
    # one whose base or host is not known: those go to the scanned service.
    origin: str | None = None


class NotHttp(Exception):
    """The URL names another scheme (data:, blob:, mailto:, …): no HTTP route."""


def literal_text(text: str) -> str:
    """Literal source text as a URL value: `{{NAME}}` build placeholders are unknown text.

    The sentinel characters themselves are escaped, so only a placeholder or
    an interpolation can make a hole.
    """
    text = text.replace(HOLE, "%EE%80%80").replace(BASE_MARK, "%EE%80%81")
    text = text.replace(QUERY_TAIL, "%EE%80%82")
    return _PLACEHOLDER.sub(HOLE, text)


def is_absolute(url: str) -> bool:
    return bool(_SCHEME.match(url)) or url.startswith("//")


def strip_query(url: str) -> str:
    """The URL without its fragment and query."""
    for mark in ("#", "?"):
        cut = url.find(mark)
        if cut >= 0:
            url = url[:cut]
    return url


def split_authority(url: str) -> tuple[str, str]:
    """(scheme://authority, path) of an absolute URL; the path may be empty."""
    if url.startswith("//"):
        head_end = 2
    else:
        match = _SCHEME.match(url)
        assert match is not None
        head_end = match.end()
        if url[head_end : head_end + 2] != "//":
            return url[:head_end], url[head_end:]
        head_end += 2
    rest = url[head_end:]
    cuts = [index for index in (rest.find("/"), rest.find("\\")) if index >= 0]
    cut = min(cuts) if cuts else len(rest)
    return url[: head_end + cut], rest[cut:]


def remove_dot_segments(path: str) -> tuple[str, bool]:
    """RFC 3986 / WHATWG dot removal on a `/`-rooted path; True when `..` passed the root."""
    output: list[str] = []
    overflow = False
    segments = path.split("/")[1:]
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        lowered = segment.lower()
        if lowered in (".", "%2e"):
            if last:
                output.append("")
            continue
        if lowered in ("..", ".%2e", "%2e.", "%2e%2e"):
            if output:
                output.pop()
            else:
                overflow = True
            if last:
                output.append("")
            continue
        output.append(segment)
    return "/" + "/".join(output), overflow


def target_of(url: str) -> Target:
    """The route-call target of the final URL a request is sent to.

    Raises NotHttp for another scheme, origins.Rejected where the URL parser
    throws, and origins.Unconverted for a host tsograph does not convert.
    """
    # The URL parser strips leading and trailing C0 controls and spaces and
    # removes every tab and newline before it reads anything.
    url = _TAB_NEWLINE.sub("", url.strip(_C0_SPACE))
    url = strip_query(_without_query_tail(url))
    dynamic = False
    anchor = ROOT
    origin: Origin | None = None
    if _HOLED_SCHEME.match(url):
        # `${scheme}://host/x`: a URL with an authority whose scheme is unknown.
        authority, url = _split_at_path(url[url.find(":") + 1 :].lstrip("/\\"))
        anchor, dynamic = BASE, _hole_ends_host(authority)
    elif url.startswith(BASE_MARK):
        anchor = BASE
        url = url.lstrip(BASE_MARK)
        if not url.startswith("/"):
            url = "/" + url
    elif url.startswith(HOLE):
        # An unknown leading value may be an origin, a base path or more:
        # the path after it is only a suffix, and not a proven one.
        anchor, dynamic = BASE, True
        url = url.lstrip(HOLE)
        if not url.startswith("/"):
            url = "/" + url
    elif _NETWORK_PATH.match(url) or _SCHEME.match(url):
        anchor, origin, url, dynamic = _absolute(url)
    elif not url.startswith("/") and not url.startswith("\\"):
        # Relative to the page (or the app's own base): a suffix of an unknown prefix.
        anchor = BASE
        url = "/" + url
    url = url.replace("\\", "/")
    path, overflow = remove_dot_segments(url)
    if overflow and anchor == BASE:
        dynamic = True
    target = _template(_HOLES.sub(HOLE, path), anchor, dynamic)
    if origin is None:
        return target
    return replace(target, masked=target.masked + origin.masked, origin=origin.service)


def _without_query_tail(url: str) -> str:
    """The URL with its QUERY_TAIL read: at the end it is dropped (a query or nothing, the
    path is the same); with text after it, that text may be path or query, so the path
    goes on with a hole (a partial, dynamic path)."""
    cut = url.find(QUERY_TAIL)
    if cut < 0:
        return url
    rest = url[cut + 1 :].replace(QUERY_TAIL, "")
    return url[:cut] + (HOLE if rest else "")


def has_credentials(url: str) -> bool:
    """Whether an http(s) URL names a user or password before its host.

    The Fetch standard's Request constructor throws on such a URL, so fetch
    and ky never send it (recorded: conformance/client-url-origins.json);
    axios sends it with an Authorization header. A userinfo made only of
    holes may be empty, which is no credential.
    """
    url = strip_query(_TAB_NEWLINE.sub("", url.strip(_C0_SPACE)))
    match = _SCHEME.match(url)
    rest = url[match.end() :] if match and not _NETWORK_PATH.match(url) else url
    if not _NETWORK_PATH.match(rest):
        return False
    authority, _ = _split_at_path(rest.lstrip("/\\"))
    userinfo = authority[: max(authority.rfind("@"), 0)]
    return any(char not in (":", HOLE) for char in userinfo)


def _absolute(url: str) -> tuple[str, Origin | None, str, bool]:
    """(anchor, origin, path, dynamic) of a URL with a scheme or a leading `//`.

    The path of an absolute URL starts at the root of its origin. When a
    hole sits in the host or port the origin is not known (it may be the
    scanned service itself), so the path is anchored at a base like a call
    through a configured base whose value is unknown.
    """
    if _NETWORK_PATH.match(url):
        scheme: str | None = None  # protocol-relative: the page's scheme
        rest = url
    else:
        match = _SCHEME.match(url)
        assert match is not None
        scheme = url[: match.end() - 1].lower()
        if scheme not in _HTTP_SCHEMES:
            raise NotHttp(scheme)
        rest = url[match.end() :]
        if not _NETWORK_PATH.match(rest):
            # `http:x`, `http:/x`: a host in Node, but a path relative to a
            # page of the same scheme in a browser.
            raise Unconverted("fewer than two slashes after the scheme")
    authority, path = _split_at_path(rest.lstrip("/\\"))
    if HOLE in authority[authority.rfind("@") + 1 :]:
        return BASE, None, path, _hole_ends_host(authority)
    return ROOT, origin_of(scheme, authority, looks_secret), path, False


def _hole_ends_host(authority: str) -> bool:
    """A hole at the end of the authority may hold the path too (`https://h${path}`).

    A hole strictly inside the host (`https://${tenant}.h.io/x`) is a host
    label, and one that is the whole port (`http://localhost:${port}/x`) a
    port; one at the end of the host leaves the literal path only a suffix,
    and with nothing after it not even that: the fact is dynamic.
    """
    host, colon, port = authority[authority.rfind("@") + 1 :].rpartition(":")
    if colon and host and not host.endswith(HOLE) and port.strip(HOLE) == "":
        return False
    return authority.endswith(HOLE)


def _split_at_path(rest: str) -> tuple[str, str]:
    """(authority, path) of what follows the slashes of an absolute URL; path `/` at least."""
    cuts = [index for index in (rest.find("/"), rest.find("\\")) if index >= 0]
    cut = min(cuts) if cuts else len(rest)
    return rest[:cut], rest[cut:] or "/"


def _template(path: str, anchor: str, dynamic: bool) -> Target:
    segments: list[list[Part]] = []
    masked = 0
    after_hook = False
    for raw in path[1:].split("/"):
        if raw == HOLE:
            segments.append([PARAM])
            continue
        if HOLE in raw:
            dynamic = True  # a partial segment: the contract matches whole segments only
            pieces = raw.split(HOLE)
            parts: list[Part] = []
            for number, piece in enumerate(pieces):
                if number:
                    parts.append(PARAM)
                if piece:
                    parts.append(piece)
            segments.append(parts)
            continue
        if looks_secret(raw, after_hook=after_hook):
            masked += 1
            segments.append([PARAM])
            continue
        after_hook = after_hook or raw.lower() in _WEBHOOK_PARENTS
        segments.append([raw])
    template = canonicalize_segments(segments)
    return Target(template.channel, anchor, dynamic or template.dynamic, masked)


def looks_secret(segment: str, *, after_hook: bool = False) -> bool:
    """A literal segment that is an id or credential rather than a route word.

    Masked: UUIDs, hexadecimal runs of 16 or more characters, tokens of 20 or
    more characters that mix digits with lower- and uppercase letters at a
    Shannon entropy of at least 3.5 bits per character (random base62/base64
    keys; lowercase slugs stay), and any segment of six or more characters
    with a digit or an uppercase letter somewhere after a `hooks`, `webhook(s)`
    or `services` segment (Slack, Discord and similar webhook URLs carry their
    ids and secrets there, while route words there are lowercase).
    """
    if _UUID.match(segment) or (_HEX_ID.match(segment) and any(c.isdigit() for c in segment)):
        return True
    has_digit = any(char.isdigit() for char in segment)
    if after_hook and len(segment) >= 6 and (has_digit or segment.lower() != segment):
        return True
    mixed_case = segment.lower() != segment and segment.upper() != segment
    if len(segment) < _TOKEN_MIN or not has_digit or not mixed_case:
        return False  # lowercase slugs with digits (`how-to-2024`) are route words
    return _entropy(segment) >= _ENTROPY_BITS


def _entropy(text: str) -> float:
    counts = Counter(text)
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values())
