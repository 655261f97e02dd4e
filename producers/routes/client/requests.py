"""What one call of fetch, axios or ky requests: the URL sent and the method, when proven.

The call forms and defaults were read from the packages (axios 1.21.1
lib/axios.js and lib/core/Axios.js; ky 1.14.3 and 2.1.0 distribution/index.js,
core/Ky.js and core/constants.js) and the Fetch standard:

* fetch(input, init): GET unless `init.method`; an input that is not a proven
  string may be a Request carrying its own method, so the method is proven
  only by `init.method` then.
* axios(url, config) / axios(config) / axios.request(config): `config.method`,
  else the instance default, else GET; get/delete/head/options(url, config)
  and post/put/patch and their *Form variants (url, data, config) force
  their method. `baseURL` joins a relative URL (buildFullPath), unless
  `allowAbsoluteUrls: false` joins absolute ones too.
* ky(input, options): `options.method`, else GET; get/post/put/patch/head/
  delete force theirs. ky 1 joins `prefixUrl`; ky 2 renamed it `prefix` (and
  throws when `prefixUrl` is given) and added `baseUrl`; `ky.create` starts
  from no defaults, `extend` merges into the instance's.
* axios 1.21.1 and ky 2.1.0 also offer `query`: QUERY is not a contract method.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tsograph.producers.lang.syntax_read import unwrap_value
from tsograph.producers.lang.syntax_tree import Node
from tsograph.producers.routes.client.joins import JoinError
from tsograph.producers.routes.client.joins import axios_full_path
from tsograph.producers.routes.client.joins import ky1_input
from tsograph.producers.routes.client.joins import ky2_input
from tsograph.producers.routes.client.static_values import UNDEFINED
from tsograph.producers.routes.client.static_values import Client
from tsograph.producers.routes.client.static_values import Context
from tsograph.producers.routes.client.static_values import Evaluator
from tsograph.producers.routes.client.static_values import Member
from tsograph.producers.routes.client.static_values import Obj
from tsograph.producers.routes.client.static_values import Special
from tsograph.producers.routes.client.static_values import Value
from tsograph.producers.routes.client.static_values import argument_nodes
from tsograph.producers.routes.client.urls import BASE_MARK
from tsograph.producers.routes.client.urls import HOLE
from tsograph.producers.routes.client.urls import QUERY_TAIL
from tsograph.producers.routes.client.urls import has_credentials
from tsograph.producers.routes.client.urls import is_absolute
from tsograph.producers.values.unknown import UNKNOWN

CONTRACT_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"})
_AXIOS_NO_DATA = {"get": "GET", "delete": "DELETE", "head": "HEAD", "options": "OPTIONS"}
_AXIOS_DATA = {
    "post": "POST",
    "put": "PUT",
    "patch": "PATCH",
    "postForm": "POST",
    "putForm": "PUT",
    "patchForm": "PATCH",
}
_KY_METHODS = {
    "get": "GET",
    "post": "POST",
    "put": "PUT",
    "patch": "PATCH",
    "head": "HEAD",
    "delete": "DELETE",
}
_NON_CONTRACT = frozenset({"query"})

KyDialect = Literal[1, 2] | None

# Breakdown keys of client-call-coverage: (requests kept as facts, with a caveat)
INTERCEPTED = "axios-request-interceptors"
HOOKED = "ky-hooks"
ADAPTER = "custom-adapter-or-fetch"
KY_VERSION = "ky-version-unknown"
KY_PREFIX_AND_BASE = "ky-prefix-with-baseUrl"
MUTATED = "mutated-defaults"
# (requests not represented as facts)
URL_OBJECT = "url-or-request-object"
NON_CONTRACT = "non-contract-method"
THROWS = "throws-before-sending"
NOT_HTTP = "not-http-url"
UNCONVERTED_ORIGIN = "origin-not-derived"


@dataclass(frozen=True)
class Request:
    url: str  # the URL handed to the network (HOLE / BASE_MARK for unknown parts)
    method: str | None  # None: not proven
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Skipped:
    reason: str


Outcome = Request | Skipped


@dataclass
class Situation:
    """Project facts a request depends on: the ky dialect and instances changed at run time."""

    ky_dialect: KyDialect = None
    intercepted: frozenset[tuple[str, int]] = frozenset()
    mutated: frozenset[tuple[str, int]] = frozenset()


def request_of(
    ev: Evaluator, ctx: Context, call: Node, callee: Value, situation: Situation
) -> Outcome | None:
    """The request a call sends, a reason it is not represented, or None for other calls."""
    if isinstance(callee, Client):
        client, name = callee, ""
    elif isinstance(callee, Member):
        client, name = callee.client, callee.name
    else:
        return None
    sent = _Call(ev, ctx, client, name, argument_nodes(call), situation)
    if client.library == "fetch":
        return _fetch(sent) if not name else None
    if name in _NON_CONTRACT:
        return Skipped(NON_CONTRACT)
    if client.library == "axios":
        return _axios(sent)
    found = _ky(sent)
    if isinstance(found, Request) and has_credentials(found.url):
        return Skipped(THROWS)  # ky builds a Request, whose constructor rejects userinfo
    return found


@dataclass(frozen=True)
class _Call:
    """One call of a fetch, axios or ky client: what each library's rule reads."""

    ev: Evaluator
    ctx: Context
    client: Client
    name: str  # the method called on the client; "" for a call of the client itself
    args: list[Node] | None  # None: the arguments are out of view (a spread)
    situation: Situation

    def arg(self, index: int) -> Node | None:
        return self.args[index] if self.args is not None and index < len(self.args) else None

    def value(self, node: Node | None) -> Value:
        return self.ev.value(self.ctx, node)

    def notes(self, merged: Obj, *, adapter_key: str) -> tuple[str, ...]:
        """The caveats the client's history and the merged options put on its request."""
        notes: list[str] = []
        situation, origins = self.situation, self.client.origins
        if any(origin in situation.intercepted for origin in origins[-1:]):
            notes.append(INTERCEPTED)
        if any(origin in situation.mutated for origin in origins):
            notes.append(MUTATED)
        if merged.has(adapter_key):
            notes.append(ADAPTER)
        return tuple(notes)


def _method(value: Value) -> str | Skipped | None:
    if not isinstance(value, str) or HOLE in value or QUERY_TAIL in value:
        return None
    upper = value.upper()
    return upper if upper in CONTRACT_METHODS else Skipped(NON_CONTRACT)


def _fetch(call: _Call) -> Outcome:
    if call.args is None:
        return Request(HOLE, None)
    url = call.value(call.arg(0))
    if url is Special.INSTANCE:
        return Skipped(URL_OBJECT)
    method = _fetch_method(call, call.arg(1), isinstance(url, str))
    if isinstance(method, Skipped):
        return method
    if isinstance(url, str) and has_credentials(url):
        return Skipped(THROWS)  # the Request constructor rejects userinfo
    return Request(url if isinstance(url, str) else HOLE, method)


def _fetch_method(call: _Call, init_node: Node | None, url_known: bool) -> str | Skipped | None:
    """The method `init` gives: GET where it sets none (with a known URL: a Request object
    brings its own). A `c ? a : b` init written in place gives a method when both
    branches give the same one (linkwarden: `cond ? { headers } : undefined` is GET)."""
    node = None if init_node is None else unwrap_value(init_node)
    if node is not None and node.kind == "conditional":
        branches = {
            _fetch_method(call, node.part(part), url_known)
            for part in ("consequence", "alternative")
        }
        return branches.pop() if len(branches) == 1 else None
    init = call.value(init_node)
    if not (isinstance(init, Obj) or init is UNDEFINED):
        return None
    declared = init.get("method") if isinstance(init, Obj) else UNDEFINED
    if declared is UNDEFINED:
        return "GET" if url_known else None
    return _method(declared)


def _axios(call: _Call) -> Outcome | None:
    forced: str | None = None
    url_node: Node | None = None
    config: Value
    name = call.name
    if not name:
        first = call.value(call.arg(0))
        if isinstance(first, str):
            url_node, config = call.arg(0), call.value(call.arg(1))
        elif isinstance(first, Obj):
            config = first
        else:
            config = UNKNOWN
    elif name == "request":
        config = call.value(call.arg(0))
    elif name in _AXIOS_NO_DATA:
        forced, url_node = _AXIOS_NO_DATA[name], call.arg(0)
        config = call.value(call.arg(1))
    elif name in _AXIOS_DATA:
        forced, url_node = _AXIOS_DATA[name], call.arg(0)
        config = call.value(call.arg(2))
    else:
        return None
    if call.args is None:
        config = UNKNOWN
    merged = _merged(call.client.config, config)
    url_value = call.value(url_node) if url_node is not None else merged.get("url")
    url = url_value if isinstance(url_value, str) else HOLE
    method: str | Skipped | None = forced
    if forced is None:
        declared = merged.get("method")
        method = "GET" if declared is UNDEFINED else _method(declared)
    if isinstance(method, Skipped):
        return method
    notes = call.notes(merged, adapter_key="adapter")
    # `instance.defaults.baseURL = …` anywhere makes the configured base unknown.
    base = BASE_MARK if MUTATED in notes else _base(merged.get("baseURL"))
    allow_absolute = merged.get("allowAbsoluteUrls") is not Special.FALSE
    try:
        full = url if url.startswith(HOLE) else axios_full_path(base, url, allow_absolute)
    except JoinError:
        return Skipped(THROWS)
    return Request(full, method, notes)


def _ky(call: _Call) -> Outcome | None:
    name = call.name
    if name and name not in _KY_METHODS:
        return None
    url_value = call.value(call.arg(0))
    if url_value is Special.INSTANCE:
        return Skipped(URL_OBJECT)
    options = call.value(call.arg(1)) if call.args is not None else UNKNOWN
    merged = _merged(call.client.config, options)
    method: str | Skipped | None
    if name:
        method = _KY_METHODS[name]
    else:
        declared = merged.get("method")
        method = "GET" if declared is UNDEFINED else _method(declared)
    if isinstance(method, Skipped):
        return method
    url = url_value if isinstance(url_value, str) else HOLE
    if not isinstance(url_value, str) and not name and merged.get("method") is UNDEFINED:
        method = None  # the input may be a Request with its own method
    notes = call.notes(merged, adapter_key="fetch")
    if merged.has("hooks"):
        notes += (HOOKED,)
    if url.startswith(HOLE):
        return Request(url, method, notes)
    if merged.open:
        # Unknown options may carry a prefix or base: only the suffix is proven.
        return Request(BASE_MARK + "/" + url.lstrip("/"), method, notes)
    keys = [key for key in ("prefixUrl", "prefix", "baseUrl") if merged.has(key)]
    if not keys:
        return Request(url, method, notes)
    dialect = call.situation.ky_dialect
    if dialect is None:
        # Which option is honoured depends on the major version: only a suffix is proven.
        return Request(BASE_MARK + "/" + url.lstrip("/"), method, (*notes, KY_VERSION))
    try:
        if dialect == 1:
            full = ky1_input(_base(merged.get("prefixUrl")) or "", url)
        else:
            if "prefixUrl" in keys:
                return Skipped(THROWS)
            prefix = _base(merged.get("prefix")) or ""
            base_url = _base(merged.get("baseUrl"))
            if prefix and base_url:
                return Request(
                    BASE_MARK + "/" + url.lstrip("/"), method, (*notes, KY_PREFIX_AND_BASE)
                )
            full = _ky2(prefix, base_url, url)
    except JoinError:
        return Skipped(THROWS)
    return Request(full, method, notes)


# Stands for the page's origin: a browser resolves a rooted baseUrl against it.
_PAGE_ORIGIN = "https://page.invalid"


def _ky2(prefix: str, base_url: str | None, url: str) -> str:
    if base_url is not None and base_url.startswith("/") and not base_url.startswith("//"):
        # `new Request("/api/")` in a browser is the page origin + /api/.
        joined = ky2_input(prefix, _PAGE_ORIGIN + base_url, url)
        if joined.startswith(_PAGE_ORIGIN):
            return joined.removeprefix(_PAGE_ORIGIN)
        reference = prefix or url  # what ky resolves starts with the prefix when there is one
        if is_absolute(reference) and not reference.startswith("//"):
            return joined
        # A network-path reference (`//cdn/x`) took the stand-in page's scheme;
        # the real page's scheme is not known.
        return joined.removeprefix("https:")
    if base_url is not None and not is_absolute(base_url) and not base_url.startswith(BASE_MARK):
        base_url = BASE_MARK + "/" + base_url  # relative to the page: below an unknown base
    if base_url is not None and base_url.startswith(BASE_MARK):
        # Resolution against an unknown base: a path from the root stays rooted,
        # a relative one is a suffix below the base's folder.
        joined = ky2_input(prefix, None, url)
        if is_absolute(joined) or joined.startswith("/"):
            return joined
        return BASE_MARK + "/" + joined
    return ky2_input(prefix, base_url, url)


def _merged(defaults: Obj, config: Value) -> Obj:
    if isinstance(config, Obj):
        return Obj(defaults.members + config.members, defaults.open or config.open)
    if config is UNDEFINED:
        return defaults
    return Obj(defaults.members, True)


def _base(value: Value) -> str | None:
    """A configured base as URL text; BASE_MARK where it is not known."""
    if value is UNDEFINED:
        return None
    if not isinstance(value, str):
        return BASE_MARK
    if value.startswith(HOLE):
        return BASE_MARK + value.lstrip(HOLE)
    return value
