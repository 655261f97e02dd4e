"""Writes conformance/node-paths-<dialect>.json and node-paths-joins.json from the oracle.

    python oracle/node-paths/build_vectors.py

Each case holds a registered path and, per recorded library version, the
variants `producers.routes.node.paths` translates it to and the request paths
the real router matched (`recorded.json`, written by `record.mjs`). The conformance test replays the
cases offline: it pins the translation and checks that the templates match
exactly the requests the real router matched.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tsograph.producers.routes.node.paths import DIALECTS  # noqa: E402
from tsograph.producers.routes.node.paths import translate  # noqa: E402

HERE = Path(__file__).resolve().parent

# The router options the recordings were made with (see record.mjs): the
# framework defaults, which the replay applies when it matches templates.
FLAGS: dict[str, dict[str, Any]] = {
    "hono": {"caseInsensitive": False, "trailingSlash": "strict"},
    "path-to-regexp-0.1": {"caseInsensitive": True, "trailingSlash": "optional"},
    "path-to-regexp-6": {"caseInsensitive": True, "trailingSlash": "optional"},
    "path-to-regexp-8": {"caseInsensitive": True, "trailingSlash": "optional"},
    "find-my-way": {"caseInsensitive": False, "trailingSlash": "strict"},
}


def router_major(library: str) -> int:
    """The major version of a recorded library, `find-my-way@8.2.2` -> 8."""
    return int(library.rpartition("@")[2].split(".")[0])


def main() -> None:
    recorded = orjson.loads((HERE / "recorded.json").read_bytes())["dialects"]
    for dialect in DIALECTS:
        section = recorded[dialect]
        libraries = section["libraries"]
        paths = [result["path"] for result in next(iter(libraries.values()))]
        cases = []
        for number, path in enumerate(paths):
            recordings: dict[str, Any] = {}
            for library, results in sorted(libraries.items()):
                result = results[number]
                assert result["path"] == path
                outcome = (
                    {"error": result["error"]}
                    if "error" in result
                    else {"matches": result["matches"]}
                )
                recordings[library] = {
                    **outcome,
                    "variants": [
                        variant.fact_fields()
                        for variant in translate(dialect, path, router_major=router_major(library))
                    ],
                }
            cases.append({"name": f"{number:02d} {path}", "path": path, "recorded": recordings})
        document = {
            "description": (
                f"Registered {dialect} paths, the contract templates tsograph translates them"
                " to, and the request paths the real router matched (oracle/node-paths)."
            ),
            "dialect": dialect,
            "libraries": sorted(libraries),
            "routerOptions": FLAGS[dialect],
            "probes": section["probes"],
            "cases": cases,
        }
        target = ROOT / "conformance" / f"node-paths-{dialect}.json"
        target.write_bytes(
            orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
        )
        print(f"{target.relative_to(ROOT)}: {len(cases)} cases")


def join_cases(recorded: dict[str, Any]) -> list[dict[str, Any]]:
    """One case per framework, library, mount style and (prefix, path) pair."""
    cases: list[dict[str, Any]] = []

    def add(framework: str, library: str, mount: str, fields: dict[str, Any]) -> None:
        label = " + ".join(
            repr(fields[key]) for key in ("prefix", "path", "outer", "inner") if key in fields
        )
        name = f"{len(cases):03d} {library} {mount} {label}"
        cases.append(
            {"name": name, "framework": framework, "library": library, "mount": mount, **fields}
        )

    hono = recorded["hono"]
    for case in hono["cases"]:
        for mount in ("basePath", "route"):
            add(
                "hono",
                hono["library"],
                mount,
                {"prefix": case["prefix"], "path": case["path"], **case[mount]},
            )
    for library, koa_cases in recorded["koa"].items():
        for case in koa_cases:
            for mount in ("option", "prefixMethod", "use"):
                pair = {"prefix": case["prefix"], "path": case["path"]}
                add("koa", library, mount, {**pair, **case[mount]})
    for library, fastify in recorded["fastify"].items():
        for case in fastify["cases"]:
            add(
                "fastify",
                library,
                "register",
                {"prefix": case["prefix"], "path": case["path"], **case["register"]},
            )
        for case in fastify["nested"]:
            add(
                "fastify",
                library,
                "nested",
                {"outer": case["outer"], "inner": case["inner"], **case["register"]},
            )
    for library, express_cases in recorded["express"].items():
        for case in express_cases:
            for mount in ("use", "strictUse"):
                add(
                    "express",
                    library,
                    mount,
                    {"prefix": case["prefix"], "path": case["path"], **case[mount]},
                )
    return cases


def write_joins() -> None:
    recorded = orjson.loads((HERE / "recorded-joins.json").read_bytes())
    document = {
        "description": (
            "Mount prefixes joined by the real frameworks (oracle/node-paths/record-joins.mjs):"
            " the stored route paths, or the probe paths a mounted route answered."
        ),
        "probes": recorded["probes"],
        "cases": join_cases(recorded),
    }
    target = ROOT / "conformance" / "node-paths-joins.json"
    target.write_bytes(
        orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    )
    print(f"{target.relative_to(ROOT)}: {len(document['cases'])} cases")


if __name__ == "__main__":
    main()
    write_joins()
