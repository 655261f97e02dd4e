"""Replaying a Python routes oracle recording against a route-decl document.

A recording (oracle/recordings/python-routes/<case>.json) holds, per fixture,
probe rows `[method, path, status, handler]`: the graph id of the project
function the real framework ran for that request, or null. A document
predicts a handler for a probe when one of its root, static facts matches
the method and the path; among several, the first in registration order
(Starlette, Flask and Django try their routes in order). A fact covers a
probe when it names the handler and matches the path at all: root and
exact, under an unknown prefix (`base`: the path ends with the template), or
dynamic within its dynamicScope; a HEAD request is covered by a GET fact, as
isthmus matches it (head-as-get: Werkzeug answers HEAD with the GET view).
A trailingSlash "optional" fact also matches the path with its trailing
slash toggled.

precision: predictions the framework agreed with / all predictions.
recall: probes the framework answered that a fact covers / all answered probes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field
from typing import Any


@dataclass
class Score:
    predicted: int = 0
    agreed: int = 0
    answered: int = 0
    covered: int = 0
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.agreed / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.covered / self.answered if self.answered else 1.0


def _segment_regex(segment: str, fact: dict[str, Any], holes: list[int]) -> str:
    if segment == "{**}":
        return ".+"
    parts = re.split(r"(\{\})", segment)
    out = []
    for part in parts:
        if part == "{}":
            out.append(_hole(fact, holes))
        else:
            out.append(re.escape(part))
    return "".join(out)


def _hole(fact: dict[str, Any], holes: list[int]) -> str:
    index = holes[0]
    holes[0] += 1
    for constraint in fact.get("paramConstraints", ()):
        if constraint["index"] == index:
            if constraint["kind"] == "int":
                return "[0-9]+"
            pattern = constraint["pattern"].removeprefix("^").removesuffix("$")
            return f"(?:{pattern})"
    return "[^/]+"


def template_regex(fact: dict[str, Any]) -> str:
    holes = [0]
    segments = fact["channel"][1:].split("/")
    return "/" + "/".join(_segment_regex(segment, fact, holes) for segment in segments)


def _full(fact: dict[str, Any], prefix: str, path: str) -> bool:
    regex = prefix + template_regex(fact)
    if fact.get("trailingSlash") == "optional":
        regex = regex.removesuffix("/") + "/?"
    return re.fullmatch(regex, path) is not None


def predicts(fact: dict[str, Any], method: str, path: str) -> bool:
    if fact["method"] not in (method, "ANY") or fact["dynamic"] or fact["pathAnchor"] != "root":
        return False
    return _full(fact, "", path)


def covers(fact: dict[str, Any], method: str, path: str) -> bool:
    if fact["method"] not in (method, "ANY") and (method, fact["method"]) != ("HEAD", "GET"):
        return False
    if fact["dynamic"]:
        scope = fact.get("dynamicScope")
        return scope is not None and path.startswith(scope + "/")
    return _full(fact, ".*" if fact["pathAnchor"] == "base" else "", path)


def _order(fact: dict[str, Any]) -> tuple[int, int]:
    order = fact.get("order")
    return (0, order["index"]) if order else (1, 0)


def score(document: dict[str, Any], rows: list[list[Any]]) -> Score:
    facts = document["facts"]
    result = Score()
    for method, path, status, handler in rows:
        candidates = sorted((f for f in facts if predicts(f, method, path)), key=_order)
        if candidates:
            result.predicted += 1
            guess = candidates[0]["symbol"].get("usr")
            if guess == handler:
                result.agreed += 1
            else:
                result.wrong.append(f"{method} {path}: predicted {guess}, got {handler} {status}")
        if handler is not None:
            result.answered += 1
            if any(f["symbol"].get("usr") == handler and covers(f, method, path) for f in facts):
                result.covered += 1
            else:
                result.missed.append(f"{method} {path}: {handler}")
    return result
