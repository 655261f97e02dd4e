"""How Express and @koa/router put a mount prefix in front of a route path.

Hono's and Fastify's joins live with their dialects (`hono.merge_path`,
`find_my_way.fastify_route_paths`). oracle/node-paths/record-joins.mjs
recorded what the real frameworks do with these rules
(conformance/node-paths-joins.json).
"""

from __future__ import annotations

import re

_TRAILING_SLASHES = re.compile(r"/+$")


def express_route_paths(
    prefix: str, path: str, *, express_major: int, strict: bool = False
) -> tuple[str, ...]:
    """The paths a route `path` of a router mounted with `use(prefix, router)` serves.

    Express trims the matched mount path from the URL and the inner router
    sees the rest, `/` when nothing is left (Express 4.22.3
    lib/router/index.js trim_prefix, router 2.3.0 trimPrefix). The mount
    layer is non-strict: Express 4 makes one trailing `/` of the prefix
    optional (path-to-regexp 0.1), Express 5 strips them all (`loosen`), from
    the route path too. Routes registered on the app itself are `prefix` "".
    An inner `/` route serves the prefix itself; in Express 5 also the
    prefix and `//` (its path-to-regexp 8 pattern for `/` allows one more
    `/`), hence two paths. An inner path without a leading `/` never
    matches, so it is returned alone (it translates to nothing).

    Express 4 also serves the mount prefix followed by `//` wherever it
    serves the prefix followed by `/` (`/api//users` for `/api` and `/users`);
    no template says that.

    A `strict` router (`Router({ strict: true })`) keeps the route's trailing
    slash: Express 5 does not loosen its paths (router 2.3.0 lib/layer.js), so
    `/ping/` under `/api` answers `/api/ping/` only, in Express 4 as well; its
    `/` route answers the prefix and the prefix with one `/` (each exactly, and
    in Express 4 the `//` form too), and an empty route path answers nothing.
    Express 4.22.3 and 5.2.1 recorded in conformance/node-paths-joins.json.
    """
    if path not in ("", "*") and not path.startswith("/"):
        return (path,)
    if express_major >= 5 and path != "/" and not strict:
        path = _TRAILING_SLASHES.sub("", path)
    base = _TRAILING_SLASHES.sub("", prefix) if express_major >= 5 else prefix.removesuffix("/")
    if path == "/" and (express_major >= 5 or strict):
        return (base or "/", base + "/") if base else ("/",)
    if path == "" and strict:
        return ()
    if path in ("/", ""):
        return (base or "/",)
    return (base + path,)


def express_join_prefix(prefix: str, path: str, *, express_major: int) -> str:
    """The first of `express_route_paths`."""
    return express_route_paths(prefix, path, express_major=express_major)[0]


def koa_join_prefix(prefix: str, path: str, *, strict: bool = False) -> str:
    """@koa/router Layer.setPrefix (13.1.1 lib/layer.js, 15.7.0 `_applyPrefix`).

    `new Router({ prefix })` and `router.use(prefix, nested.routes())` give
    the prefix as written; `router.prefix(p)` first strips one trailing `/`
    from `p`. An empty route path keeps no prefix, the route `/` becomes the
    bare prefix unless the router is strict, any other path is appended as
    written (`/api/` and `/users` make `/api//users`).
    """
    if not path:
        return path
    if path == "/" and not strict:
        return prefix
    return prefix + path
