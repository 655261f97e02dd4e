"""Replaying the recordings of oracle/node-routes against the facts of the golden documents.

A recording lists, per probe (method, URL, the app it was sent to), the status
and every project function that ran while the real framework answered it
(V8 coverage mapped to source lines and columns). Those functions become
graph ids through `ParsedFile.owner_at`, the same way the producer names
handlers, so a probe was answered by a declared handler when one of the
facts' `symbol.usr`s ran.

The facts predict a probe's handler: the matching facts of the probe's app
(template, method, trailing-slash and case flags). The facts predict the
first by `order.index` in each order group (registration-order) or the most
specific matches (specificity); matches without an order, narrowed ones and
ones inside a route-coverage: scope may answer but are not predicted. A
prediction is right when one of the handlers that may answer ran and the
status was not 404.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tsograph.exchange.scopes import scope_applies
from tsograph.producers.lang.typescript import ParsedFile
from tsograph.producers.lang.typescript import parse_file


@dataclass(frozen=True)
class Score:
    predicted: int
    correct: int
    answered: int
    recalled: int


@cache
def _parsed(project: Path, path: str) -> ParsedFile:
    return parse_file(path, (project / path).read_bytes())


def owner(project: Path, place: dict[str, Any]) -> str:
    """The graph id owning a recorded 1-based line and character column."""
    parsed = _parsed(project, place["path"])
    lines = parsed.data.split(b"\n")
    offset = sum(len(line) + 1 for line in lines[: place["line"] - 1])
    text = lines[place["line"] - 1].decode("utf-8")
    offset += len(text[: place["column"] - 1].encode("utf-8"))
    return parsed.owner_at(offset)


def _segment_pattern(segment: str) -> str:
    if segment == "{**}":
        return ".+"
    parts = re.split(r"(\{\})", segment)
    return "".join("[^/]+" if part == "{}" else re.escape(part) for part in parts)


def _matches(fact: dict[str, Any], method: str, url: str) -> bool:
    if fact["dynamic"] or fact["pathAnchor"] != "root":
        return False
    if fact["method"] not in (method, "ANY"):
        return False
    channel = fact["channel"]
    path = url
    if fact.get("trailingSlash") == "optional":
        channel = channel.rstrip("/") or "/"
        path = path.rstrip("/") or "/"
    if fact.get("caseInsensitive"):
        channel, path = channel.lower(), path.lower()
    pattern = "/".join(_segment_pattern(segment) for segment in channel.split("/"))
    if not re.fullmatch(pattern, path):
        return False
    for constraint in fact.get("paramConstraints", []):
        holes = re.findall(r"\{\}", channel)
        if constraint["kind"] == "int" and len(holes) > constraint["index"]:
            values = re.fullmatch(pattern.replace("[^/]+", "([^/]+)"), path)
            if values and not values.group(constraint["index"] + 1).isdigit():
                return False
    return True


def _rank(channel: str) -> tuple[int, ...]:
    return tuple(2 if s == "{**}" else 1 if "{}" in s else 0 for s in channel.split("/"))


@dataclass(frozen=True)
class Prediction:
    """`certain`: the handlers the facts say answer; `possible`: those that may answer too."""

    certain: frozenset[str]
    possible: frozenset[str]


def _maybe_absent(document: dict[str, Any], fact: dict[str, Any]) -> bool:
    """A fact inside a route-coverage: scope may not exist at all (a conditional registration)."""
    return any(
        scope["limitation"].startswith("route-coverage:")
        and scope_applies(scope, fact["method"], fact["channel"])
        for scope in document.get("limitationScopes", [])
    )


def predict(document: dict[str, Any], app: str, method: str, url: str) -> Prediction:
    """What the facts say about one request to one app (order group)."""
    facts = [
        fact
        for fact in document["facts"]
        if "usr" in fact["symbol"]
        and ("order" not in fact or app == "*" or fact["order"]["group"] == app)
        and _matches(fact, method, url)
    ]
    # Narrowed facts need a header or host a probe does not send; facts that may not exist
    # and facts without an order (a handler that can pass the request on) only may answer.
    possible = frozenset(fact["symbol"]["usr"] for fact in facts)
    sure = [
        fact for fact in facts if not fact.get("narrowed") and not _maybe_absent(document, fact)
    ]
    if document["dispatch"] == "specificity":
        if not sure:
            return Prediction(frozenset(), possible)
        best = min(_rank(fact["channel"]) for fact in sure)
        certain = {fact["symbol"]["usr"] for fact in sure if _rank(fact["channel"]) == best}
        return Prediction(frozenset(certain), possible)
    first: dict[str, tuple[int, str]] = {}
    for fact in sure:
        if "order" in fact:
            group, index = fact["order"]["group"], fact["order"]["index"]
            if group not in first or index < first[group][0]:
                first[group] = (index, fact["symbol"]["usr"])
    return Prediction(frozenset(usr for _, usr in first.values()), possible)


def score(project: Path, document: dict[str, Any], recording: dict[str, Any]) -> Score:
    handlers = {fact["symbol"]["usr"] for fact in document["facts"] if "usr" in fact["symbol"]}
    predicted = correct = answered = recalled = 0
    for probe in recording["probes"]:
        ran = {owner(project, place) for place in probe["invoked"]} & handlers
        answered_by_handler = bool(ran) and probe["status"] != 404
        expected = predict(document, probe["app"], probe["method"], probe["url"])
        if expected.certain:
            predicted += 1
            correct += bool(answered_by_handler and (expected.certain | expected.possible) & ran)
        if answered_by_handler:
            answered += 1
            recalled += bool((expected.certain | expected.possible) & ran)
    return Score(predicted, correct, answered, recalled)
