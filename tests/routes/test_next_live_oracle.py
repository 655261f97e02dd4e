"""Replays what a running Next.js answered (oracle/next/recordings/live-<case>.json) offline.

oracle/next/live.js built fixture apps with `next build` (next@16.4.6, Turbopack), served them
with `next start` on 127.0.0.1 and sent every method to each built route with concrete values
(catch-alls with one and two segments, optional ones also with none), both trailing-slash
forms, with and without basePath, locale prefixes, public files, metadata routes and unknown
paths. Every fixture handler returns a body naming itself (`<file>#<export>`, the fact's
`symbol.qualifiedName`), so a recording says which handler answered.

Here `tsograph routes --role server` runs on the fixture and its facts alone predict each
probe: the fact whose channel matches the path (`{}` one segment, `{**}` one or more, the
`catchAllPrefix` fact the zero-segment form, a literal before `{}` before `{**}` position by
position), its `trailingSlash` (`strict`: the other form is redirected to the channel's;
`optional`: both served; omitted: either), then the method among that route's facts (`ANY`
answers every method). HEAD and OPTIONS are auto-implemented by Next.js and, as the spec says,
never emitted as facts: a route with a GET fact answers HEAD (the body is dropped, so only the
status is compared), and a route without an OPTIONS fact answers OPTIONS with 204 and an Allow
header of its methods plus OPTIONS (and HEAD with GET), which the replay predicts from the
facts. Any other method is a 405. No matching fact predicts that no handler answers.

Probes answered by what the document declares as not modeled are gaps, not errors, and are
listed: a file named under `route-coverage:` (answering, predicted, or a Pages Router file at
the path), a public/ or static/ file or a metadata route at the path (they win over any
dynamic route, for every method) with its `framework-provided-routes:` line, or (no fact
matching) a locale prefix or config redirect the line on config keys names. Precision (the
predicted answers that are right) and recall (the handler answers that were predicted) must be
1.0 apart from KNOWN_DIVERGENCES, where next@16.4.6 differs from the spec's table.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.routes.support import FIXTURES
from tests.routes.test_next_oracle import RECORDINGS
from tests.routes.test_next_oracle import Decl
from tests.routes.test_next_oracle import _matches
from tests.routes.test_next_oracle import _rank
from tests.routes.test_next_oracle import _split
from tests.routes.test_next_oracle import coverage_names
from tests.routes.test_next_oracle import covered
from tests.routes.test_nextjs_golden import render_case
from tsograph.exchange.templates import CATCH_ALL
from tsograph.exchange.templates import PARAM

LIVE_CASES = sorted(path.stem.removeprefix("live-") for path in RECORDINGS.glob("live-*.json"))
REDIRECTS = (301, 302, 307, 308)

# (case, probe path) pairs where the running server contradicts the facts, with the
# evidence. Empty: the two found (a non-ASCII folder that is built but never served,
# and a CommonJS `exports.default` without `__esModule`) are now coverage gaps.
KNOWN_DIVERGENCES: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Route:
    """The facts of one route file at one template: its methods and their handlers."""

    decl: Decl
    handlers: dict[str, str]


@dataclass(frozen=True)
class Prediction:
    file: str
    redirect: str | None  # where a trailing-slash redirect leads; None: no redirect
    either: bool  # trailingSlash omitted: both forms are allowed
    handler: str | None  # the qualifiedName the answer's body names (None for HEAD)
    status: int | None  # 204 (auto OPTIONS) or 405; None: a 2xx from the handler
    allow: tuple[str, ...] | None


def routes_of(document: dict[str, Any]) -> list[Route]:
    grouped: dict[Decl, dict[str, str]] = {}
    for fact in document["facts"]:
        if fact["dynamic"]:
            continue  # mixed segments: route-coverage gaps that claim no exact match
        words, slash = _split(fact["channel"])
        parts = tuple(
            CATCH_ALL if word == "{**}" else PARAM if word == "{}" else word for word in words
        )
        decl = Decl(parts, slash, fact.get("trailingSlash"), fact["location"]["path"])
        grouped.setdefault(decl, {})[fact["method"]] = fact["symbol"]["qualifiedName"]
    return [Route(decl, handlers) for decl, handlers in grouped.items()]


def predict(routes: list[Route], url: str, method: str) -> Prediction | None:
    words, slash = _split(url)
    matching = [route for route in routes if _matches(route.decl, words)]
    if not matching:
        return None
    best = min(matching, key=lambda route: _rank(route.decl))
    tied = {route.decl.file for route in matching if _rank(route.decl) == _rank(best.decl)}
    assert tied == {best.decl.file}, ("two files claim one template", url, tied)
    decl, handlers = best.decl, best.handlers
    redirect = None
    if decl.trailing == "strict" and decl.slash != slash and words:
        redirect = url + "/" if decl.slash else url.rstrip("/")
    handler: str | None = None
    status: int | None = None
    allow: tuple[str, ...] | None = None
    if "ANY" in handlers or method in handlers:
        handler = handlers.get(method, handlers.get("ANY"))
    elif method == "OPTIONS":
        extra = {"OPTIONS", "HEAD"} if "GET" in handlers else {"OPTIONS"}
        status, allow = 204, tuple(sorted(set(handlers) | extra))
    elif not (method == "HEAD" and "GET" in handlers):
        status = 405
    if method == "HEAD":
        handler = None  # the server drops a HEAD response's body
    return Prediction(decl.file, redirect, decl.trailing is None, handler, status, allow)


def answer_of(probe: dict[str, Any]) -> dict[str, Any]:
    """The response after following redirects (live.js records it under `final`)."""
    final = probe.get("final", probe)
    assert isinstance(final, dict)
    return final


def agrees(prediction: Prediction, probe: dict[str, Any]) -> bool:
    redirected = probe["status"] in REDIRECTS
    if not prediction.either:
        if prediction.redirect is None and redirected:
            return False
        if prediction.redirect is not None and probe.get("location") != prediction.redirect:
            return False
    answer = answer_of(probe)
    status: int = answer["status"]
    if prediction.status is not None:
        allow = tuple(answer.get("allow", ()))
        return status == prediction.status and prediction.allow in (None, allow)
    return 200 <= status < 300 and answer["handler"] == prediction.handler


def gap_reason(
    document: dict[str, Any],
    recorded: dict[str, Any],
    probe: dict[str, Any],
    prediction: Prediction | None,
    files: set[str],
) -> str | None:
    """The document's line that declares an unpredicted or mispredicted answer a gap."""
    base = recorded["built"]["basePath"]
    path = probe["url"]
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base) :]
    path = path.rstrip("/") or "/"
    coverage = coverage_names(document)
    # A Pages Router file that fails at request time (no default export: a 500) names no
    # handler; its path is its route.
    files = files | {name for name in coverage if pages_route(name) == path}
    if any(covered(file, coverage) for file in files):
        return f"route-coverage: {', '.join(sorted(files))}"
    lines = [line for line in document["limitations"] if line.startswith("framework-provided")]
    project = FIXTURES / "next" / recorded["case"] / "project"
    facts = {fact["symbol"]["qualifiedName"] for fact in document["facts"]}
    served = {
        "public/": (project / "public" / path.lstrip("/")).is_file(),
        "static/": path.startswith("/static/") and (project / path.lstrip("/")).is_file(),
        "metadata file(s)": path in metadata_routes(recorded["case"]),
    }
    for needle, applies in served.items():
        # The framework's file wins over any dynamic route at its path, for every method.
        if applies and answer_of(probe)["handler"] not in facts:
            line = next((line for line in lines if needle in line), None)
            return None if line is None else line + outside_scope(document, line, probe)
    config = next((line for line in lines if " config key(s) " in line), "")
    if prediction is None:
        locale = path.split("/")[1] in recorded["built"]["locales"]
        if (locale and "i18n" in config) or (
            probe["status"] in REDIRECTS and "redirects" in config
        ):
            return config
    return None


def pages_route(file: str) -> str | None:
    """The route of a Pages Router file (`pages/api/util.ts` -> `/api/util`)."""
    match = re.fullmatch(r"(?:src/)?pages(/.+?)(?:/index)?\.[a-z]+", file)
    return match.group(1) if match else None


def outside_scope(document: dict[str, Any], line: str, probe: dict[str, Any]) -> str:
    """A note when the method is outside the methods the line's limitation scope lists."""
    for scope in document.get("limitationScopes", []):
        methods = scope.get("methods")
        if scope["limitation"] == line and methods and probe["method"] not in methods:
            return f" [{probe['method']} answered outside the scope's {', '.join(methods)}]"
    return ""


def metadata_routes(case: str) -> set[str]:
    """Metadata routes as next@16.4.6's own route discovery found them (record.js)."""
    data = orjson.loads((RECORDINGS / f"{case}.json").read_bytes())
    return {route["route"] for route in data["routes"] if route["kind"] == "metadata"}


@dataclass
class Score:
    predicted: int = 0  # probes the facts give an answer for (gaps left out)
    answered: int = 0  # probes a handler's body answered (gaps left out)
    right_predicted: int = 0
    right_answered: int = 0
    gaps: Counter[str] = field(default_factory=Counter)
    wrong: list[tuple[str, str]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right_predicted / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.right_answered / self.answered if self.answered else 1.0


def served_files(recorded: dict[str, Any]) -> dict[str, set[str]]:
    """Per probe path, the files whose handlers answered it with a body (any method)."""
    served: dict[str, set[str]] = {}
    for probe in recorded["probes"]:
        handler = answer_of(probe)["handler"]
        if handler:
            served.setdefault(probe["url"], set()).add(handler.split("#")[0])
    return served


def score(recorded: dict[str, Any], document: dict[str, Any]) -> Score:
    routes = routes_of(document)
    served = served_files(recorded)
    result = Score()
    for probe in recorded["probes"]:
        url, method = probe["url"], probe["method"]
        prediction = predict(routes, url, method)
        answer = answer_of(probe)
        handler = answer["handler"]
        right = prediction is not None and agrees(prediction, probe)
        if prediction is None and handler is None and answer["status"] >= 400:
            continue  # nothing declared, nothing answered
        # HEAD and auto-implemented OPTIONS carry no body: the path's other answers name the file.
        files = {handler.split("#")[0]} if handler else set(served.get(url, ()))
        if prediction is not None:
            files.add(prediction.file)
        reason = None if right else gap_reason(document, recorded, probe, prediction, files)
        if reason is not None:
            result.gaps[reason] += 1
            continue
        if prediction is not None:
            result.predicted += 1
            result.right_predicted += right
        if handler is not None:
            result.answered += 1
            result.right_answered += right
        if not right:
            result.wrong.append((method, url))
    return result


def recording(name: str) -> dict[str, Any]:
    data = orjson.loads((RECORDINGS / f"live-{name}.json").read_bytes())
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each case's document as `tsograph routes --role server` writes it now."""
    found: dict[str, dict[str, Any]] = {}
    for name in LIVE_CASES:
        rendered = render_case(f"next/{name}", tmp_path_factory.mktemp(name))
        found[name] = orjson.loads(rendered)
    return found


def test_live_recordings_hold_the_chosen_cases() -> None:
    assert {"app-and-pages", "app-router", "i18n-pages", "src-basepath"} <= set(LIVE_CASES)
    for name in LIVE_CASES:
        recorded = recording(name)
        assert recorded["next"] == "16.4.6" and recorded["build"]["ok"], name
        assert len(recorded["probes"]) >= 50, name


@pytest.mark.parametrize("name", LIVE_CASES)
def test_excluded_files_are_declared_gaps(name: str, documents: dict[str, dict[str, Any]]) -> None:
    """Files live.js left out because `next build` refuses them are route-coverage: gaps."""
    names = coverage_names(documents[name])
    for file in recording(name)["excluded"]:
        is_page = Path(file).stem == "page"
        # A declaration file has no code: next's route discovery (record.js) skips it, only
        # Turbopack's build picks pages/api/**/*.d.ts up (and panics on it).
        declaration = file.endswith(".d.ts")
        assert covered(file, names) or is_page or declaration, file


@pytest.mark.parametrize("name", LIVE_CASES)
def test_facts_predict_the_live_server(name: str, documents: dict[str, dict[str, Any]]) -> None:
    result = score(recording(name), documents[name])
    assert {(name, url) for _, url in result.wrong} == {
        pair for pair in KNOWN_DIVERGENCES if pair[0] == name
    }
    if not result.wrong:
        assert result.precision == 1.0 and result.recall == 1.0
    assert result.predicted > 0 and result.answered > 0


@pytest.mark.parametrize("name", LIVE_CASES)
def test_every_fact_answers_a_probe(name: str, documents: dict[str, dict[str, Any]]) -> None:
    """No fact declares a route the running server never answered with that handler."""
    document = documents[name]
    names = coverage_names(document)
    answered = {answer_of(probe)["handler"] for probe in recording(name)["probes"]}
    for fact in document["facts"]:
        if fact["dynamic"] or covered(fact["location"]["path"], names):
            continue
        if (name, fact["channel"]) in KNOWN_DIVERGENCES:
            continue
        assert fact["symbol"]["qualifiedName"] in answered, fact
