"""How httpx, aiohttp, requests and urllib.request turn a base and a URL into what they send.

Each function returns the URL the library sends (its path and query as on the
request line), or raises JoinError where the library raises before sending.
The strings may hold HOLE or start with BASE_MARK (routes/client/urls.py).
Ported from the sources and replayed against the real libraries on every
vector of oracle/recordings/python-clients/ (recorded by oracle/python-clients/):

* httpx 0.28.1 (`_client.py` `_enforce_trailing_slash`, `_merge_url`;
  `_urlparse.py` `normalize_path`): the base's raw path (path and query)
  gets a trailing `/`; a relative URL (no scheme or no host, so `//h/x` too)
  keeps only its raw path, loses its leading slashes and is appended; the
  result is split at the first `?` and `.`/`..` segments of the path are
  dropped. A URL that is still relative (no base) raises UnsupportedProtocol.
* aiohttp 3.14.5 (`client.py` `__init__`, `_build_url`) with yarl 1.25.1
  (`URL.join`): the base must be absolute with a path ending in `/`
  (ValueError otherwise, in the constructor); a URL with a scheme or an
  authority is not joined; otherwise RFC 3986 resolution against the base
  (a rooted path replaces the base path, a relative one is appended to the
  base's folder, an empty one keeps the base path and, without its own
  query, the base query), then dot removal.
* requests 2.34.2 (`models.py` `prepare_url` with urllib3 2.8.0 `parse_url`):
  the URL must have a scheme (MissingSchema otherwise); `.`/`..` segments
  are dropped, `%2E` is decoded afterwards (requote_uri) and stays.
* urllib.request (CPython 3.11): the URL must have a scheme (ValueError); the
  path is sent as written; a space or control character raises InvalidURL and
  non-ASCII text UnicodeEncodeError (http.client).
"""

from __future__ import annotations

import re

from tsograph.producers.routes.client.urls import BASE_MARK
from tsograph.producers.routes.client.urls import HOLE

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class JoinError(Exception):
    """The library raises before any request is sent."""


def split_url(url: str) -> tuple[str, str, str]:
    """(scheme: or "", //authority or "", the rest without the fragment)."""
    url = url.split("#", 1)[0]
    scheme = ""
    match = _SCHEME.match(url)
    if match:
        scheme, url = match.group(), url[match.end() :]
    authority = ""
    if url.startswith("//"):
        rest = url[2:]
        cuts = [index for index in (rest.find("/"), rest.find("?")) if index >= 0]
        cut = min(cuts) if cuts else len(rest)
        authority, url = "//" + rest[:cut], rest[cut:]
    return scheme, authority, url


def remove_dots(path: str) -> str:
    """RFC 3986 5.2.4 on literal `.` and `..` segments (httpx normalize_path, yarl)."""
    segments = path.split("/")
    if "." not in segments and ".." not in segments:
        return path
    output: list[str] = []
    for segment in segments:
        if segment == ".":
            continue
        if segment == "..":
            if output and output != [""]:
                output.pop()
            continue
        output.append(segment)
    if segments[-1] in (".", ".."):
        output.append("")
    return "/".join(output)


def _normalized(head: str, raw: str) -> str:
    path, mark, query = raw.partition("?")
    return head + remove_dots(path) + mark + query


def httpx_merge(base: str | None, url: str) -> str:
    """httpx 0.28.1 `Client._merge_url` for a client whose base_url is `base`."""
    scheme, authority, rest = split_url(url)
    if scheme and len(authority) > 2:
        return _normalized(scheme + authority, rest or "/")
    if base is None:
        raise JoinError("a relative URL without a base_url")
    if base.startswith(BASE_MARK):
        head, base_raw = BASE_MARK, base[len(BASE_MARK) :]
    else:
        base_scheme, base_authority, base_raw = split_url(base)
        if not base_scheme or len(base_authority) <= 2:
            raise JoinError("base_url is not an absolute URL")
        head = base_scheme + base_authority
    if not base_raw.endswith("/"):
        base_raw += "/"
    if not base_raw.startswith("/"):
        base_raw = "/" + base_raw
    return _normalized(head, base_raw + rest.lstrip("/"))


def aiohttp_base(base: str) -> None:
    """aiohttp 3.14.5 ClientSession(base_url): absolute, path ending in `/`."""
    if base.startswith(BASE_MARK):
        return
    scheme, authority, rest = split_url(base)
    if not scheme or len(authority) <= 2:
        raise JoinError("Only absolute URLs are supported")
    path = rest.split("?", 1)[0]
    if path and not path.endswith("/"):  # an empty path is `/` to yarl
        raise JoinError("base_url must have a trailing '/'")


def aiohttp_join(base: str | None, url: str) -> str:
    """aiohttp 3.14.5 `ClientSession._build_url` (yarl 1.25.1 `URL.join`); the session's
    constructor checks the base first."""
    if base is not None:
        aiohttp_base(base)
    scheme, authority, rest = split_url(url)
    if scheme or authority:
        if not scheme or len(authority) <= 2:
            raise JoinError("the URL has no scheme or no host")
        return _normalized(scheme + authority, rest or "/")
    if base is None:
        raise JoinError("a relative URL without a base_url")
    if base.startswith(BASE_MARK):
        head, base_rest = BASE_MARK, base[len(BASE_MARK) :] or "/"
    else:
        base_scheme, base_authority, base_rest = split_url(base)
        head = base_scheme + base_authority
    base_path, _, base_query = base_rest.partition("?")
    base_path = base_path or "/"
    path, mark, query = rest.partition("?")
    if not path:
        joined = base_path
        if not mark and base_query:
            mark, query = "?", base_query
    elif path.startswith("/"):
        joined = path
    else:
        joined = base_path[: base_path.rfind("/") + 1] + path
    return head + remove_dots(joined) + mark + query


def require_absolute(url: str) -> str:
    """The URL must name its scheme (requests MissingSchema, urllib ValueError)."""
    scheme, authority, rest = split_url(url)
    if not scheme:
        raise JoinError("the URL has no scheme")
    if authority and not rest.startswith("/"):
        rest = "/" + rest  # `http://h?q=1` asks for `/?q=1`
    return scheme + authority + rest


_DISALLOWED = re.compile(r"[\x00-\x20\x7f]")  # http.client _contains_disallowed_url_pchar_re


def urllib_url(url: str) -> str:
    """urllib.request (CPython 3.11): a scheme is required, the path is sent as written, and
    http.client rejects controls, spaces (InvalidURL) and non-ASCII text (UnicodeEncodeError)."""
    sent = require_absolute(url)
    if _DISALLOWED.search(sent) or not sent.replace(HOLE, "").isascii():
        raise JoinError("http.client rejects the request line")
    return sent


def requests_url(url: str) -> str:
    """requests 2.34.2: a scheme is required and literal dot segments are dropped."""
    scheme, authority, rest = split_url(require_absolute(url))
    return _normalized(scheme + authority, rest)
