"""Registered Node router paths as contract templates, per router dialect.

`translate(dialect, path)` gives every template a path registered on that
router serves; `join_prefix(dialect, prefix, path)` joins a mount prefix and a
path the way the router does before the result is translated. Each dialect's
module names the package version its rules were read from and how its router
treats letter case and trailing slashes (the router options decide those, so
templates keep both as written):

* `hono` — Hono 4.x (`hono_paths.py`);
* `path-to-regexp-0.1` — Express 4 (`path_to_regexp_0_1.py`);
* `path-to-regexp-6` — @koa/router 12–13 (`path_to_regexp_6.py`);
* `path-to-regexp-8` — Express 5 and @koa/router 14+ (`path_to_regexp_8.py`);
* `find-my-way` — Fastify 4 (find-my-way 8) and 5 (find-my-way 9) (`find_my_way.py`).

Mounting differs per framework more than per dialect, so besides
`join_prefix` the framework-specific joins are exported: `hono_merge_path`,
`express_route_paths` and `express_join_prefix` (Express 4 and 5; Express 5
also strips a non-strict route's trailing slashes, `express5_route_path`),
`koa_join_prefix` (@koa/router 12–15), `fastify_route_paths` and
`fastify_plugin_prefix`. conformance/node-paths-joins.json holds what the
real frameworks did with them.
"""

from __future__ import annotations

from collections.abc import Callable

from .find_my_way import fastify_plugin_prefix
from .find_my_way import fastify_route_paths
from .find_my_way import translate as _find_my_way
from .hono_paths import merge_path as hono_merge_path
from .hono_paths import translate as _hono
from .joins import express_join_prefix
from .joins import express_route_paths
from .joins import koa_join_prefix
from .model import DIALECTS
from .model import Dialect
from .model import PathVariant
from .model import strict_variants
from .path_to_regexp_0_1 import translate as _path_to_regexp_0_1
from .path_to_regexp_6 import translate as _path_to_regexp_6
from .path_to_regexp_8 import express5_route_path
from .path_to_regexp_8 import translate as _path_to_regexp_8

__all__ = [
    "DIALECTS",
    "Dialect",
    "PathVariant",
    "express5_route_path",
    "express_join_prefix",
    "express_route_paths",
    "fastify_plugin_prefix",
    "fastify_route_paths",
    "hono_merge_path",
    "join_prefix",
    "koa_join_prefix",
    "strict_variants",
    "translate",
]


# The one-argument translators; find-my-way also takes the router's major version.
_TRANSLATORS: dict[Dialect, Callable[[str], tuple[PathVariant, ...]]] = {
    "hono": _hono,
    "path-to-regexp-0.1": _path_to_regexp_0_1,
    "path-to-regexp-6": _path_to_regexp_6,
    "path-to-regexp-8": _path_to_regexp_8,
}


def translate(
    dialect: Dialect, path: str, *, router_major: int | None = None
) -> tuple[PathVariant, ...]:
    """Every template `path` serves on the dialect's router, in a stable order.

    `router_major` matters for `find-my-way` only: 8 (Fastify 4) or 9
    (Fastify 5, the default). An empty tuple means the router accepts the
    path but no request can reach it (a path-to-regexp path without a leading
    `/`). A path the router rejects at registration gives one dynamic variant
    with reason `router-rejects-path` and no scope.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown router dialect {dialect!r}")
    if dialect == "find-my-way":
        return _find_my_way(path, major=router_major or 9)
    return _TRANSLATORS[dialect](path)


def join_prefix(dialect: Dialect, prefix: str, path: str) -> str:
    """The raw path a route registered as `path` under the mount `prefix` has.

    Per dialect the most common framework's rule: Hono `mergePath`, Express
    for path-to-regexp 0.1 and 8, @koa/router for 6, Fastify for find-my-way
    (its first registered path; `fastify_route_paths` gives all of them).
    @koa/router 14+ also uses path-to-regexp 8: call `koa_join_prefix` there.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown router dialect {dialect!r}")
    return _JOINS[dialect](prefix, path)


_JOINS: dict[Dialect, Callable[[str, str], str]] = {
    "hono": hono_merge_path,
    "path-to-regexp-0.1": lambda prefix, path: express_join_prefix(prefix, path, express_major=4),
    "path-to-regexp-6": koa_join_prefix,
    "path-to-regexp-8": lambda prefix, path: express_join_prefix(prefix, path, express_major=5),
    "find-my-way": lambda prefix, path: fastify_route_paths(prefix, path)[0],
}
