"""Replays what Next.js itself decided for the fixtures (oracle/next/recordings/) offline.

oracle/next/record.js ran next@16.4.6's own loader, route discovery, redirect
rules and route regexes over every case under fixtures/routes/next/ and sent
probe URLs (each route with concrete values, both trailing-slash forms, with
and without basePath, unknown paths). Here each golden document predicts, from
its facts alone, which handler answers each probe and which form a redirect
leads to; every prediction must match the recording (precision and recall
1.0). Files a document names under `route-coverage:` are declared gaps and
their probes are left out; `dynamic: true` facts claim no exact match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import orjson
import pytest

from tests.routes.support import FIXTURES
from tsograph.exchange.templates import CATCH_ALL
from tsograph.exchange.templates import PARAM
from tsograph.exchange.templates import Part
from tsograph.exchange.templates import canonicalize
from tsograph.exchange.templates import canonicalize_segments
from tsograph.producers.project.model import ProjectModel
from tsograph.producers.routes.next_config import CONFIG_FILES
from tsograph.producers.routes.next_config import DEFAULT_PAGE_EXTENSIONS
from tsograph.producers.routes.next_config import accepted_base_path
from tsograph.producers.routes.next_paths import is_metadata_file
from tsograph.producers.routes.next_scan import Scan
from tsograph.producers.routes.next_segments import route_of
from tsograph.producers.routes.nextjs import HANDLER_METHODS
from tsograph.producers.routes.nextjs import is_nextjs
from tsograph.producers.routes.nextjs import read_package

RECORDINGS = Path(__file__).resolve().parents[2] / "oracle" / "next" / "recordings"
# live-<case>.json come from live.js (a running server) and have a replay of their own.
CASES = sorted(
    path.stem
    for path in RECORDINGS.glob("*.json")
    if path.stem != "vectors" and not path.stem.startswith("live-")
)
ROUTE_KINDS = ("handler", "api")


def recording(name: str) -> dict[str, Any]:
    data = orjson.loads((RECORDINGS / f"{name}.json").read_bytes())
    assert isinstance(data, dict)
    return data


def golden(name: str) -> dict[str, Any]:
    data = orjson.loads((FIXTURES / "next" / name / "expected.json").read_bytes())
    assert isinstance(data, dict)
    return data


def coverage_names(document: dict[str, Any]) -> set[str]:
    """Project-relative names listed on the document's route-coverage: line."""
    names: set[str] = set()
    for line in document["limitations"]:
        if line.startswith("route-coverage:") and line.endswith(")"):
            details = line[line.index(" (") + 2 : -1].split(", ")
            assert not any(item.startswith("and ") for item in details), "names were cut"
            names.update(item for item in details if not re.fullmatch(r"[a-z0-9-]+: \d+", item))
    return names


def metadata_count(document: dict[str, Any]) -> int:
    """The count on the document's metadata-files framework-provided-routes: line (0: none)."""
    for line in document["limitations"]:
        if line.startswith("framework-provided-routes:") and " metadata file(s) " in line:
            return int(line.split(" ")[1])
    return 0


def is_node_backend(name: str) -> bool:
    """A project tsograph does not scan as Next.js (a Node backend without `next`)."""
    project = FIXTURES / "next" / name / "project"
    return not is_nextjs(project, read_package(ProjectModel.load(project), Scan()))


def covered(file: str, names: set[str]) -> bool:
    return any(file == name or file.startswith(name + "/") for name in names)


@dataclass(frozen=True)
class Decl:
    segments: tuple[Part, ...]
    slash: bool
    trailing: str | None
    file: str


def _split(path: str) -> tuple[list[str], bool]:
    """URL segments (percent-decoded) and whether the path ends with a slash."""
    if path in ("", "/"):
        return [], False
    slash = path.endswith("/")
    return [unquote(part) for part in path.strip("/").split("/")], slash


def decls_of(document: dict[str, Any]) -> list[Decl]:
    found: list[Decl] = []
    for fact in document["facts"]:
        if fact["dynamic"]:
            continue
        words, slash = _split(fact["channel"])
        parts: list[Part] = [
            CATCH_ALL if word == "{**}" else PARAM if word == "{}" else word for word in words
        ]
        file = fact["location"]["path"]
        found.append(Decl(tuple(parts), slash, fact.get("trailingSlash"), file))
    return found


def _rank(decl: Decl) -> tuple[int, ...]:
    # Specificity: a literal segment before {} before {**}, position by position.
    return tuple(2 if part is CATCH_ALL else 1 if part is PARAM else 0 for part in decl.segments)


def _matches(decl: Decl, words: list[str]) -> bool:
    parts = decl.segments
    if parts and parts[-1] is CATCH_ALL:
        head = parts[:-1]
        if len(words) <= len(head):
            return False
        words = words[: len(head)]
        parts = head
    elif len(parts) != len(words):
        return False
    return all(part is PARAM or part == word for part, word in zip(parts, words, strict=True))


def predict(decls: list[Decl], url: str) -> tuple[str, str | None, str] | None:
    """(kind, redirect target, file) the facts promise for a URL; None: no declared handler."""
    words, slash = _split(url)
    matching = [decl for decl in decls if _matches(decl, words)]
    if not matching:
        return None
    best = min(matching, key=_rank)
    assert {decl.file for decl in matching if _rank(decl) == _rank(best)} == {best.file}
    if best.trailing == "strict" and best.slash != slash and words:
        target = url + "/" if best.slash else url.rstrip("/")
        return ("redirect", target, best.file)
    if best.trailing is None:
        return ("either", None, best.file)
    return ("handler", None, best.file)


@pytest.mark.parametrize("name", CASES)
def test_route_files_agree_with_next_route_discovery(name: str) -> None:
    recorded, document = recording(name), golden(name)
    if is_node_backend(name):
        pytest.skip("a Node backend project: Next.js does not serve it")
    if "configError" in recorded:
        pytest.skip("next build fails on this config: Next.js discovers no routes")
    names = coverage_names(document)
    ours = {fact["location"]["path"] for fact in document["facts"]}
    routes = recorded["routes"]
    assert metadata_count(document) == sum(route["kind"] == "metadata" for route in routes)
    for route in routes:
        if route.get("buildError"):
            assert covered(route["file"], names), route
    nexts = {r["file"] for r in routes if r["kind"] in ROUTE_KINDS and not r.get("buildError")}
    assert ours <= nexts, "a fact for a file Next.js does not route"
    missing = {file for file in nexts - ours if not covered(file, names)}
    assert not missing, "route files without facts or a route-coverage: name"


@pytest.mark.parametrize("name", CASES)
def test_facts_predict_every_probe(name: str) -> None:
    recorded, document = recording(name), golden(name)
    if is_node_backend(name):
        pytest.skip("a Node backend project: Next.js does not serve it")
    if "configError" in recorded or "foldersError" in recorded:
        # `next build` fails on this config; nothing may claim a known prefix.
        assert all(fact["pathAnchor"] == "base" for fact in document["facts"])
        return
    names = coverage_names(document)
    for fact in document["facts"]:
        if fact["dynamic"]:
            assert covered(fact["location"]["path"], names), fact
    kinds = {route["file"]: route["kind"] for route in recorded["routes"]}
    decls = decls_of(document)
    base = recorded["config"]["basePath"]
    anchored = {fact["pathAnchor"] for fact in document["facts"]}
    assert len(anchored) <= 1
    compared = 0
    for probe in recorded["probes"]:
        url, answer = probe["url"], probe["handler"]
        if kinds.get(answer) == "metadata":
            # Served by the framework, declared by the metadata framework-provided-routes: line.
            assert metadata_count(document) > 0, probe
            continue
        expected = answer if answer is not None and kinds.get(answer) in ROUTE_KINDS else None
        if expected is not None and covered(expected, names):
            continue
        if anchored == {"base"} and base:
            # A base-anchored document promises its channels below whatever basePath Next uses.
            if url != base and not url.startswith(base + "/"):
                continue  # outside the basePath: base-relative channels say nothing about it
            url = url[len(base) :] or "/"
        predicted = predict(decls, url)
        compared += 1
        if predicted is None:
            assert expected is None, (name, probe)
            continue
        kind, target, file = predicted
        assert file == expected, (name, probe, predicted)
        if kind == "handler":
            assert probe["redirect"] is None, (name, probe, predicted)
        elif kind == "redirect":
            assert probe["redirect"] is not None, (name, probe, predicted)
            assert probe["redirect"] == (base + target if anchored == {"base"} else target)
    assert compared > 0


def test_probes_cover_every_case() -> None:
    """The recordings exist for every fixture case and hold probes to compare."""
    cases = sorted(path.name for path in (FIXTURES / "next").iterdir() if path.is_dir())
    assert cases == CASES, "re-record: cd oracle/next && node record.js"
    total = sum(len(recording(name).get("probes", [])) for name in CASES)
    assert total >= 100


def vectors() -> dict[str, Any]:
    data = orjson.loads((RECORDINGS / "vectors.json").read_bytes())
    assert isinstance(data, dict)
    return data


def test_constants_match_next() -> None:
    data = vectors()
    assert tuple(data["httpMethods"]) == HANDLER_METHODS
    assert tuple(data["configFiles"]) == CONFIG_FILES
    assert tuple(data["defaultPageExtensions"]) == DEFAULT_PAGE_EXTENSIONS


@pytest.mark.parametrize("vector", vectors()["basePaths"], ids=lambda v: repr(v["value"]))
def test_base_path_validation_matches_next(vector: dict[str, Any]) -> None:
    assert accepted_base_path(vector["value"]) is vector["accepted"]


@pytest.mark.parametrize("vector", vectors()["metadata"], ids=lambda v: v["file"])
def test_metadata_files_match_next(vector: dict[str, Any]) -> None:
    assert is_metadata_file(vector["file"], DEFAULT_PAGE_EXTENSIONS) is vector["metadata"]


@pytest.mark.parametrize("vector", vectors()["normalizeAppPath"], ids=lambda v: v["page"])
def test_app_paths_match_normalize_app_path(vector: dict[str, Any]) -> None:
    folders = vector["page"].split("/")[1:]
    if folders[-1] not in ("route", "page"):
        pytest.skip("normalizeAppPath keeps a non-leaf last segment; not a route file")
    scan = Scan()
    route = route_of(folders[:-1], True, scan, vector["page"])
    if route is None:
        # Interception markers are declared gaps, never a channel.
        assert scan.coverage["intercepting-route"] == 1
        return
    # route-discovery.js turns %5F into `_` before normalizeAppPath; canonical channels agree.
    expected = canonicalize(vector["route"].replace("%5F", "_")).channel
    assert canonicalize_segments(route.segments).channel == expected


def _concrete(segments: list[list[Part]]) -> str:
    values: dict[Part, str] = {PARAM: "x1", CATCH_ALL: "a/b"}
    words = ["".join(values.get(part, str(part)) for part in segment) for segment in segments]
    return "/" + "/".join(words)


@pytest.mark.parametrize("vector", vectors()["segments"], ids=lambda v: v["route"])
def test_segment_rules_match_the_route_sorter(vector: dict[str, Any]) -> None:
    """sorted-routes.js errors fail `next build`: exactly those are rejected segments."""
    scan = Scan()
    route = route_of(vector["route"].split("/")[1:], True, scan, "app/x/route.ts")
    if not vector["accepted"]:
        assert route is None and scan.coverage["segment-name-rejected-by-nextjs"] == 1
        return
    assert route is not None
    if route.mixed:
        # Served as a literal by the router but read as a parameter by route-regex.js: kept
        # dynamic with a route-coverage: reason, never a precise channel.
        assert scan.coverage["mixed-dynamic-segment"] == 1
        return
    assert vector["dynamic"] is any(
        not isinstance(part, str) for segment in route.segments for part in segment
    )
    assert re.match(vector["regex"], _concrete(route.segments)), route.segments
