"""Replays conformance/node-paths-joins.json: mount prefixes joined as the frameworks join them.

Hono, @koa/router and Fastify store the joined route path, so the join
functions must give exactly the recorded string. Express joins at request
time, and a Fastify `/` route under a prefix is registered twice, so for
those the recorded probe matches are compared with the templates of the
joined paths (the same comparison as the path vectors).
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from tests.conformance.vectors import CONFORMANCE_DIR
from tests.conformance.vectors import case_id
from tests.conformance.vectors import cases
from tests.conformance.vectors import ran
from tests.routes.node.test_node_paths_conformance import disagreements
from tests.routes.node.test_node_paths_conformance import template_matches
from tsograph.producers.routes.node.paths import Dialect
from tsograph.producers.routes.node.paths import express_route_paths
from tsograph.producers.routes.node.paths import fastify_plugin_prefix
from tsograph.producers.routes.node.paths import fastify_route_paths
from tsograph.producers.routes.node.paths import hono_merge_path
from tsograph.producers.routes.node.paths import koa_join_prefix
from tsograph.producers.routes.node.paths import strict_variants
from tsograph.producers.routes.node.paths import translate

FILE = "node-paths-joins.json"
PROBES: list[str] = orjson.loads((CONFORMANCE_DIR / FILE).read_bytes())["probes"]

STRICT = {"caseInsensitive": False, "trailingSlash": "strict"}
LOOSE = {"caseInsensitive": True, "trailingSlash": "optional"}
# An Express router with `strict: true`: its routes' trailing slash must match, letter
# case still does not matter.
STRICT_ROUTER = {"caseInsensitive": True, "trailingSlash": "strict"}


def _major(library: str) -> int:
    return int(library.rpartition("@")[2].split(".")[0])


def _variants(dialect: Dialect, paths: tuple[str, ...], major: int | None = None) -> list[Any]:
    return [
        variant.fact_fields()
        for path in paths
        for variant in translate(dialect, path, router_major=major)
    ]


def _check_hono(case: dict[str, Any]) -> None:
    # A Hono app's base path starts as `/`; basePath() and every route merge onto it.
    base = hono_merge_path("/", case["prefix"])
    if case["mount"] == "basePath":
        expected = hono_merge_path(base, case["path"])
    else:
        # route() merges the sub-app's routes, which it merged onto its own `/` first.
        expected = hono_merge_path(base, hono_merge_path("/", case["path"]))
    assert case["paths"] == [expected]


def _check_koa(case: dict[str, Any]) -> None:
    dialect: Dialect = "path-to-regexp-6" if _major(case["library"]) < 14 else "path-to-regexp-8"
    if "error" in case:
        # The route path itself is what the router rejects.
        variants = translate(dialect, case["path"])
        assert len(variants) == 1 and variants[0].reason == "router-rejects-path"
        return
    prefix = case["prefix"]
    if case["mount"] == "prefixMethod":
        # router.prefix(p) runs p.replace(/\/$/, "") first.
        prefix = prefix.removesuffix("/")
    assert case["paths"] == [koa_join_prefix(prefix, case["path"])]


def _check_fastify(case: dict[str, Any]) -> None:
    fastify_major = _major(case["library"])
    if case["mount"] == "nested":
        outer = fastify_plugin_prefix("", case["outer"], fastify_major=fastify_major)
        prefix = fastify_plugin_prefix(outer, case["inner"], fastify_major=fastify_major)
        assert case["urls"] == [fastify_route_paths(prefix, "/x")[0]]
        return
    prefix = fastify_plugin_prefix("", case["prefix"], fastify_major=fastify_major)
    paths = fastify_route_paths(prefix, case["path"])
    # onRoute sees the first registration only.
    assert case["urls"] == [paths[0]]
    # Fastify 4 uses find-my-way 8, Fastify 5 find-my-way 9.
    variants = _variants("find-my-way", paths, fastify_major + 4)
    assert not disagreements(variants, set(case["matches"]), PROBES, STRICT)


def _express_quirk(probe: str, variants: list[Any]) -> bool:
    """Express 4 serves `<mount>//rest` where it serves `<mount>/rest` (see express_route_paths)."""
    single = probe.replace("//", "/", 1)
    return single != probe and any(template_matches(v, single, LOOSE) for v in variants)


def _check_express(case: dict[str, Any]) -> None:
    express_major = _major(case["library"])
    dialect: Dialect = "path-to-regexp-0.1" if express_major < 5 else "path-to-regexp-8"
    strict = case["mount"] == "strictUse"  # express.Router({ strict: true })
    paths = express_route_paths(
        case["prefix"], case["path"], express_major=express_major, strict=strict
    )
    if "error" in case:
        assert [variant.reason for variant in translate(dialect, paths[0])] == [
            "router-rejects-path"
        ]
        return
    variants = _variants(dialect, paths)
    if strict:
        # Per registered path: the strict router drops each path's own `x//` form.
        variants = [
            v.fact_fields() for p in paths for v in strict_variants(list(translate(dialect, p)))
        ]
    options = STRICT_ROUTER if strict else LOOSE
    problems = disagreements(variants, set(case["matches"]), PROBES, options)
    if express_major < 5:
        problems = [
            problem
            for problem in problems
            if not (
                problem.startswith("matched but not covered: ")
                and _express_quirk(problem.rpartition(": ")[2], variants)
            )
        ]
    assert not problems


CHECKS = {
    "hono": _check_hono,
    "koa": _check_koa,
    "fastify": _check_fastify,
    "express": _check_express,
}


@pytest.mark.parametrize("case", cases(FILE), ids=case_id)
def test_join_vector(case: dict[str, Any]) -> None:
    ran(FILE)
    CHECKS[case["framework"]](case)


def test_express_5_root_route_serves_the_doubled_slash() -> None:
    # The evidence behind returning two paths: router 2.3.0 with a mounted `/` route.
    case = next(
        c
        for c in cases(FILE)
        if c["library"].startswith("express@5") and (c["prefix"], c["path"]) == ("/api", "/")
    )
    assert set(case["matches"]) == {"/api", "/api/", "/api//"}
    only_first = _variants("path-to-regexp-8", ("/api",))
    assert disagreements(only_first, set(case["matches"]), PROBES, LOOSE) == [
        "matched but not covered: /api//"
    ]
