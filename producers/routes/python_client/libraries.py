"""What one call of requests, httpx, aiohttp or urllib.request sends: the URL and the method.

Call forms and defaults, read from the packages (requests 2.34.2 api.py and
sessions.py, httpx 0.28.1 _api.py and _client.py, aiohttp 3.14.5 client.py,
CPython 3.11 urllib/request.py) and replayed against them by the oracle
(oracle/python-clients/, tests/routes/python_client/test_python_join_oracle.py):

* requests: get/options/head/delete(url, …), post/put/patch(url, data, …),
  request(method, url, …), the same methods on `requests.Session()` (also
  `requests.session()`); the method is upper-cased (`method.upper()` in
  Request.prepare_method). No base URL exists: a URL without a scheme raises
  MissingSchema before anything is sent.
* httpx: the module functions get/options/head/delete/post/put/patch(url, …),
  request(method, url, …) and stream(method, url, …) use a client without a
  base; `httpx.Client(base_url=…)` and `httpx.AsyncClient(base_url=…)` join
  relative URLs with `_merge_url` (joins.py). Methods are upper-cased.
* aiohttp: `aiohttp.ClientSession(base_url, …)` (positional or keyword),
  its get/options/head/delete/post/put/patch(url, …) and request(method,
  url, …), and `aiohttp.request(method, url, …)`; `ws_connect` is a WebSocket
  upgrade, not an HTTP route call.
* urllib.request: `urlopen(url_or_request, data)` sends POST when data is
  given, else GET; `Request(url, data, …, method=…)` keeps its method as
  written (http.client sends it unchanged, so `method="get"` is no contract
  method), default POST with data, else GET.
"""

from __future__ import annotations

from dataclasses import dataclass

from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.urls import BASE_MARK
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.python_client.evaluator import Client
from tsograph.producers.routes.python_client.evaluator import Context
from tsograph.producers.routes.python_client.evaluator import Evaluator
from tsograph.producers.routes.python_client.evaluator import Lib
from tsograph.producers.routes.python_client.evaluator import RequestObject
from tsograph.producers.routes.python_client.evaluator import Value
from tsograph.producers.routes.python_client.evaluator import join_url
from tsograph.producers.routes.python_client.evaluator import url_text
from tsograph.producers.routes.python_client.joins import JoinError
from tsograph.producers.routes.python_client.joins import aiohttp_join
from tsograph.producers.routes.python_client.joins import httpx_merge
from tsograph.producers.routes.python_client.joins import requests_url
from tsograph.producers.routes.python_client.joins import urllib_url
from tsograph.producers.values.python.arguments import Arguments
from tsograph.producers.values.python.members import BoundMember
from tsograph.producers.values.unknown import UNKNOWN

CONTRACT_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"})
_VERBS = {
    "get": "GET",
    "options": "OPTIONS",
    "head": "HEAD",
    "delete": "DELETE",
    "post": "POST",
    "put": "PUT",
    "patch": "PATCH",
}
_CONSTRUCTORS = {
    ("requests", "Session"): "requests",
    ("requests", "session"): "requests",
    ("requests", "sessions", "Session"): "requests",
    ("httpx", "Client"): "httpx",
    ("httpx", "AsyncClient"): "httpx",
    ("aiohttp", "ClientSession"): "aiohttp",
}
# Client options that can change a request after the URL is built (kept as facts, counted).
_RUNTIME_OPTIONS = {
    "httpx": frozenset({"event_hooks", "transport", "mounts"}),
    "aiohttp": frozenset({"middlewares", "connector"}),
    "requests": frozenset(),
}

# Breakdown keys of client-call-coverage: (kept as facts, with a caveat)
HOOKED = "client-hooks-or-transport"
MUTATED = "mutated-base-url"
# (not represented as facts)
THROWS = "throws-before-sending"
NON_CONTRACT = "non-contract-method"
WEBSOCKET = "websocket"
PREPARED = "prepared-request-sent-later"


@dataclass(frozen=True)
class Request:
    url: str  # the URL as the library sends it (HOLE / BASE_MARK for unknown parts)
    method: str | None  # None: not proven
    library: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Skipped:
    reason: str


Outcome = Request | Skipped


def library_value(
    ev: Evaluator, ctx: Context, call: Node, callee: Lib, args: Arguments[Node]
) -> Value:
    """What calling a library value gives: a client, a Request object, a joined URL."""
    library = _CONSTRUCTORS.get(callee.path)
    origin = (ctx.path, call.start)
    if library is not None:
        options = frozenset(args.keywords)
        if library == "requests":
            return Client(library, None, origin, options, args.open)
        base_node = args.keywords.get("base_url")
        if library == "aiohttp":
            base_node = args.get(0, "base_url")
        if base_node is None:
            base = None if not args.open else BASE_MARK
        else:
            value = ev.value(ctx, base_node)
            base = _base(value)
        return Client(library, base, origin, options, args.open)
    if callee.path == ("urllib", "request", "Request"):
        url = url_text(ev.value(ctx, args.get(0, "url")))
        method_node = args.keywords.get("method")
        data_node = args.get(1, "data")
        method: str | None
        if method_node is not None:
            declared = ev.value(ctx, method_node)
            method = declared if isinstance(declared, str) and HOLE not in declared else None
        elif args.open:
            method = None
        else:
            method = _data_method(ev, ctx, data_node)
        return RequestObject(url, method, origin)
    if callee.path == ("urllib", "parse", "urljoin") and len(args.positional) >= 2:
        return join_url(ev.value(ctx, args.positional[0]), ev.value(ctx, args.positional[1]))
    return UNKNOWN


def _base(value: Value) -> str:
    if not isinstance(value, str):
        return BASE_MARK
    if value.startswith(HOLE):
        return BASE_MARK + value.lstrip(HOLE)
    return value


def _data_method(ev: Evaluator, ctx: Context, data: Node | None) -> str | None:
    """urllib: POST with a data argument, GET without; None when it may be either."""
    if data is None or data.kind == "null":
        return "GET"
    value = ev.value(ctx, data)
    return "POST" if value is not UNKNOWN or data.kind in ("string", "object", "call") else None


def request_of(
    ev: Evaluator, ctx: Context, call: Node, callee: Value, mutated: frozenset[tuple[str, int]]
) -> Outcome | None:
    """The request a call sends, a reason it is not represented, or None for other calls."""
    args = Arguments.of(call)
    if isinstance(callee, Lib):
        path = callee.path
        if len(path) == 2 and path[0] in ("requests", "httpx"):
            return _verb_call(ev, ctx, path[0], None, path[1], args)
        if path == ("aiohttp", "request"):
            return _verb_call(ev, ctx, "aiohttp", None, "request", args)
        if path == ("urllib", "request", "urlopen"):
            return _urlopen(ev, ctx, args)
        return None
    if isinstance(callee, BoundMember) and isinstance(callee.owner, Client):
        client = callee.owner
        if callee.name == "ws_connect" and client.library == "aiohttp":
            return Skipped(WEBSOCKET)
        if callee.name == "build_request" and client.library == "httpx":
            return None
        found = _verb_call(ev, ctx, client.library, client, callee.name, args)
        if isinstance(found, Request):
            notes = list(found.notes)
            if client.origin in mutated:
                notes.append(MUTATED)
            if client.options & _RUNTIME_OPTIONS[client.library] or client.open:
                notes.append(HOOKED)
            return Request(found.url, found.method, found.library, tuple(notes))
        return found
    return None


def _verb_call(
    ev: Evaluator,
    ctx: Context,
    library: str,
    client: Client | None,
    name: str,
    args: Arguments[Node],
) -> Outcome | None:
    method: str | None
    if name in _VERBS:
        method = _VERBS[name]
        url_node = args.get(0, "url")
    elif name == "request" or (name == "stream" and library == "httpx"):
        declared = ev.value(ctx, args.get(0, "method"))
        if isinstance(declared, str) and HOLE not in declared:
            method = sent_method(library, declared)
            if method not in CONTRACT_METHODS:
                return Skipped(NON_CONTRACT)
        else:
            method = None
        url_node = args.get(1, "url")
    else:
        return None
    url = url_text(ev.value(ctx, url_node)) if url_node is not None else HOLE
    if url.startswith(HOLE):
        return Request(url, method, library)
    try:
        full = sent_url(library, client.base if client is not None else None, url)
    except JoinError:
        return Skipped(THROWS)
    return Request(full, method, library)


def sent_url(library: str, base: str | None, url: str) -> str:
    """The URL a library sends for `url` on a client with `base` (None: no base_url);
    JoinError where it raises first."""
    if library == "requests":
        return requests_url(url)
    if library == "httpx":
        return httpx_merge(base, url)
    if library == "aiohttp":
        return aiohttp_join(base, url)
    return urllib_url(url)


def sent_method(library: str, declared: str) -> str:
    """The method on the request line: requests, httpx and aiohttp upper-case it, urllib
    sends it as written."""
    return declared if library == "urllib" else declared.upper()


def _urlopen(ev: Evaluator, ctx: Context, args: Arguments[Node]) -> Outcome:
    target = ev.value(ctx, args.get(0, "url"))
    data_node = args.get(1, "data")
    if isinstance(target, RequestObject):
        # urlopen(req, data) sets the request's data, which turns a defaulted method to POST.
        url, method = target.url, target.method if data_node is None else None
    elif isinstance(target, str) or target is UNKNOWN:
        url = url_text(target)
        method = None if args.open else _data_method(ev, ctx, data_node)
    else:
        return Request(HOLE, None, "urllib")
    if method is not None and method not in CONTRACT_METHODS:
        return Skipped(NON_CONTRACT)
    if url.startswith(HOLE):
        return Request(url, method, "urllib")
    try:
        return Request(urllib_url(url), method, "urllib")
    except JoinError:
        return Skipped(THROWS)
