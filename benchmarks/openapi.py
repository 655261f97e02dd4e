"""Time `tsograph openapi` against a Node peer on large generated specs.

Usage: python benchmarks/openapi.py [--runs N] [--keep DIR]

Two specs are generated, shaped like large public APIs (several hundred paths,
operations with parameters and inline response schemas, deep component
schemas): a ~3 MB YAML OpenAPI 3.0 spec and a ~2 MB JSON OpenAPI 3.1 spec.
Each is read by the installed `tsograph openapi` command and by the peer in
benchmarks/openapi_peer/, which parses the spec with the npm `yaml` package's
`parseDocument` and lists every operation with its line and column. Both are
timed as whole processes, alternating, and the script prints the median times
and the ratio ours/peer. It also checks that both found the same operations at
the same positions. The peer's dependency is installed with npm into its own
folder on first use (node_modules there is ignored by git).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
from ruamel.yaml import YAML

PEER = Path(__file__).resolve().parent / "openapi_peer"
METHODS = ("get", "put", "post", "delete", "patch")
YAML_BYTES = 3_000_000
JSON_BYTES = 2_000_000


def _schema(rng: random.Random, depth: int, name: str, width: int = 3) -> dict[str, Any]:
    """A nested object schema, `depth` levels deep with up to `width` properties each."""
    if depth == 0:
        kind = rng.choice(["string", "integer", "boolean", "number"])
        return {"type": kind, "description": f"The {name} value, as the service stores it."}
    properties: dict[str, Any] = {}
    for index in range(rng.randint(1, width)):
        field = f"{name}_{index}"
        roll = rng.random()
        if roll < 0.45:
            properties[field] = _schema(rng, depth - 1, field, width)
        elif roll < 0.6:
            properties[field] = {"type": "array", "items": _schema(rng, depth - 1, field, width)}
        else:
            properties[field] = {
                "type": "string",
                "format": rng.choice(["date-time", "uuid", "uri", "email"]),
                "example": f"example-{index}",
                "description": "A field documented at some length, as generated specs do.",
            }
    return {
        "type": "object",
        "description": f"Object {name}",
        "required": sorted(properties)[:2],
        "properties": properties,
    }


def _operation(rng: random.Random, method: str, resource: str, index: int) -> dict[str, Any]:
    parameters = [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
        {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "X-Request-Id", "in": "header", "schema": {"type": "string"}},
    ]
    operation: dict[str, Any] = {
        "operationId": f"{method}{resource.title()}{index}",
        "summary": f"{method.upper()} a {resource}",
        "description": f"Operates on {resource} {index}. " * 2,
        "tags": [resource],
        "parameters": parameters,
        "responses": {
            "200": {
                "description": "OK",
                "content": {"application/json": {"schema": _schema(rng, 1, f"{resource}{index}")}},
            },
            "404": {"description": "Not found"},
            "default": {"$ref": "#/components/responses/Error"},
        },
    }
    if method in ("post", "put", "patch"):
        operation["requestBody"] = {
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/M{index}"}}}
        }
    return operation


def generate_spec(version: str, target_bytes: int, seed: int) -> dict[str, Any]:
    """An OpenAPI spec whose JSON form is about `target_bytes` long."""
    rng = random.Random(seed)
    spec: dict[str, Any] = {
        "openapi": version,
        "info": {"title": "Generated API", "version": "1.0.0", "description": "Benchmark spec."},
        "servers": [{"url": "https://api.example.test/v1"}],
        "paths": {},
        "components": {
            "schemas": {},
            "responses": {"Error": {"description": "Error", "content": {}}},
        },
    }
    size = 0
    index = 0
    while size < target_bytes:
        resource = rng.choice(["account", "order", "invoice", "repository", "team", "event"])
        methods = METHODS[: rng.randint(1, 3)]
        spec["paths"][f"/{resource}s/{index}/{{id}}"] = {
            method: _operation(rng, method, resource, index) for method in methods
        }
        # Every tenth model nests twice as deep, as real specs' largest ones do.
        deep = index % 10 == 0
        model = _schema(rng, 8 if deep else 3, f"m{index}", 2 if deep else 4)
        spec["components"]["schemas"][f"M{index}"] = model
        index += 1
        if index % 25 == 0:
            size = len(orjson.dumps(spec, option=orjson.OPT_INDENT_2))
    return spec


def write_specs(folder: Path) -> list[Path]:
    # Block YAML spells the same spec in about 0.72 of the bytes of indented JSON.
    yaml_spec = generate_spec("3.0.3", int(YAML_BYTES / 0.72), seed=1)
    yaml_path = folder / "openapi.yaml"
    emitter = YAML(typ="safe", pure=False)
    emitter.default_flow_style = False
    emitter.width = 4096
    with yaml_path.open("w", encoding="utf-8") as handle:
        emitter.dump(yaml_spec, handle)
    json_spec = generate_spec("3.1.0", JSON_BYTES, seed=2)
    json_path = folder / "openapi.json"
    json_path.write_bytes(orjson.dumps(json_spec, option=orjson.OPT_INDENT_2))
    return [yaml_path, json_path]


def ensure_peer() -> None:
    if (PEER / "node_modules" / "yaml").is_dir():
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm is needed to install the peer's yaml package")
    subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--no-package-lock"], cwd=PEER, check=True
    )


def _timed(argv: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{argv[0]} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return elapsed, done.stdout


def _ours(spec: Path) -> list[str]:
    command = shutil.which("tsograph")
    if command is None:
        sys.exit("install tsograph first (pip install -e .) so the command itself is timed")
    return [command, "openapi", str(spec), "--service", "benchmark"]


def _same_operations(ours: bytes, peer: bytes) -> bool:
    facts = orjson.loads(ours)["facts"]
    found = {(f["method"], f["location"]["line"], f["location"]["column"]) for f in facts}
    listed = {(op["method"], op["line"], op["column"]) for op in json.loads(peer)}
    return found == listed and len(facts) == len(listed)


def benchmark(spec: Path, runs: int) -> tuple[float, float, bool]:
    node = shutil.which("node") or "node"
    peer_argv = [node, str(PEER / "list-operations.mjs"), str(spec)]
    ours_times: list[float] = []
    peer_times: list[float] = []
    agree = True
    for _ in range(runs):
        elapsed, ours_output = _timed(_ours(spec))
        ours_times.append(elapsed)
        elapsed, peer_output = _timed(peer_argv)
        peer_times.append(elapsed)
        agree = agree and _same_operations(ours_output, peer_output)
    return statistics.median(ours_times), statistics.median(peer_times), agree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command and spec")
    parser.add_argument("--keep", type=Path, help="write the generated specs to this folder")
    args = parser.parse_args()
    ensure_peer()
    with tempfile.TemporaryDirectory(prefix="tsograph-openapi-bench-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        specs = write_specs(folder)
        print(
            f"{'spec':<14}{'size':>9}{'paths':>7}{'ops':>7}{'ours':>9}{'peer':>9}"
            f"{'ours/peer':>11}  same operations"
        )
        worst = 0.0
        for spec in specs:
            _, output = _timed(_ours(spec))
            facts = orjson.loads(output)["facts"]
            paths = len({fact["channel"] for fact in facts})
            ours, peer, agree = benchmark(spec, args.runs)
            worst = max(worst, ours / peer)
            size = f"{spec.stat().st_size / 1e6:.1f} MB"
            print(
                f"{spec.name:<14}{size:>9}{paths:>7}{len(facts):>7}{ours:>8.2f}s{peer:>8.2f}s"
                f"{ours / peer:>11.2f}  {'yes' if agree else 'NO'}"
            )
        print(f"median of {args.runs} runs each; worst ratio ours/peer {worst:.2f}")


if __name__ == "__main__":
    main()
