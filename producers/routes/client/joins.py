"""How axios and ky put a base and a request URL together, ported from their sources.

Each function returns the URL the library hands to the network layer, or
raises JoinError where the library throws before sending. The strings may
hold HOLE (see urls.py); a hole is treated as text without `/`, `?`, `#` or
`:`. Every rule is replayed against the real libraries by
tests/routes/client/test_join_conformance.py (conformance/client-url-joins.json,
recorded by oracle/client/).
"""

from __future__ import annotations

import re

from tsograph.producers.routes.client.urls import is_absolute
from tsograph.producers.routes.client.urls import remove_dot_segments
from tsograph.producers.routes.client.urls import split_authority

# axios 1.21.1 lib/helpers/isAbsoluteURL.js: "<scheme>://" or "//".
_AXIOS_ABSOLUTE = re.compile(r"^([a-z][a-z\d+\-.]*:)?//", re.IGNORECASE)
# axios 1.21.1 lib/core/buildFullPath.js and ky 2.1.0 core/Ky.js: http(s) without "//" throws.
_MALFORMED_HTTP = re.compile(r"^https?:(?!//)", re.IGNORECASE)
# ky 2.1.0 core/Ky.js (schemePattern): any "<scheme>:" is absolute for baseUrl.
_KY_SCHEME = re.compile(r"^[a-z][\d+.a-z-]*:", re.IGNORECASE)
# WHATWG URL parsing drops leading C0 controls and spaces and every tab or newline
# (ky 2.1.0 normalizeInputForProtocolCheck, axios 1.21.1 normalizeURLForProtocolCheck).
_LEADING_C0 = re.compile(r"^[\x00-\x20]+")
_TAB_NEWLINE = re.compile(r"[\t\n\r]")


class JoinError(Exception):
    """The library throws before any request is sent."""


def _protocol_checked(url: str) -> str:
    return _TAB_NEWLINE.sub("", _LEADING_C0.sub("", url))


def axios_full_path(base: str | None, url: str, allow_absolute: bool = True) -> str:
    """axios 1.21.1 buildFullPath + combineURLs (`baseURL`, `allowAbsoluteUrls`)."""
    if _MALFORMED_HTTP.match(_protocol_checked(url)):
        raise JoinError("missing // after the protocol")
    relative = not _AXIOS_ABSOLUTE.match(url)
    if base and (relative or not allow_absolute):
        if _MALFORMED_HTTP.match(_protocol_checked(base)):
            raise JoinError("missing // after the protocol of baseURL")
        if not url:
            return base
        return base.rstrip("/") + "/" + url.lstrip("/")
    return url


def ky1_input(prefix_url: str, url: str) -> str:
    """ky 1.x core/Ky.js (checked on 1.14.3): `prefixUrl` joined with a slash-free input."""
    if prefix_url:
        if url.startswith("/"):
            raise JoinError("input must not begin with a slash when using prefixUrl")
        if not prefix_url.endswith("/"):
            prefix_url += "/"
        return prefix_url + url
    return url


def ky2_input(prefix: str, base_url: str | None, url: str) -> str:
    """ky 2.1.0 core/Ky.js: `prefix` joined with one slash, then `baseUrl` resolution."""
    if prefix:
        url = prefix.rstrip("/") + "/" + url.lstrip("/")
    if base_url:
        checked = _protocol_checked(url)
        if _MALFORMED_HTTP.match(checked):
            raise JoinError("input url protocol must be followed by //")
        if not _KY_SCHEME.match(checked):
            return resolve_reference(request_url(base_url), url)
    return url


def request_url(url: str) -> str:
    """`new Request(url).url` for an absolute http(s) URL: an empty path becomes `/`."""
    if not is_absolute(url):
        raise JoinError("baseUrl must be an absolute URL")
    head, path = split_authority(url)
    return head + (path if path.startswith(("/", "\\", "?", "#")) else "/" + path)


def resolve_reference(base: str, reference: str) -> str:
    """WHATWG resolution of a relative reference against an absolute http(s) base.

    The base is already absolute (`request_url`); a reference with a scheme
    never reaches this function.
    """
    reference = reference.replace("\\", "/")
    head, base_path = split_authority(base)
    base_path = base_path.replace("\\", "/")
    if reference.startswith("//"):
        scheme = head[: head.find(":") + 1]
        head, path = split_authority(scheme + reference)
        return head + remove_dot_segments(path or "/")[0]
    base_path, _, base_query = base_path.partition("?")
    base_path = base_path.split("#", 1)[0]
    base_query = base_query.split("#", 1)[0]
    if reference.startswith("/"):
        path, tail = _split_tail(reference)
        return head + remove_dot_segments(path)[0] + tail
    if reference == "" or reference.startswith("#"):
        return head + base_path + ("?" + base_query if base_query else "") + reference
    if reference.startswith("?"):
        return head + base_path + reference
    path, tail = _split_tail(reference)
    directory = base_path[: base_path.rfind("/") + 1] or "/"
    return head + remove_dot_segments(directory + path)[0] + tail


def _split_tail(reference: str) -> tuple[str, str]:
    cuts = [index for index in (reference.find("?"), reference.find("#")) if index >= 0]
    cut = min(cuts) if cuts else len(reference)
    return reference[:cut], reference[cut:]
