"""The path a Hono registration gets when its first argument is not a proven string.

Checked against hono@4.13.12 `dist/cjs/hono-base.js`: a verb sets the chain's `#path` only
from a string first argument, else it registers the argument as a handler at the current
`#path`; `on()` sets `#path` to each path; `use()` sets it to its string, else to `"*"`; a new
app (and a `basePath()` clone) starts at `"/"`. A template literal with a substitution is a
path that is not proven: before this was fixed it became `POST /`, a wrong fact.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.routes.node.support import scan

HONO = '{"dependencies": {"hono": "4.13.12"}}'


def _routes(tmp_path: Path, body: str) -> tuple[list[tuple[str, str, bool]], list[str]]:
    source = (
        "import { Hono } from 'hono';\nconst app = new Hono();\n" + body + "export default app;\n"
    )
    document: dict[str, Any] = scan(tmp_path, {"package.json": HONO, "src/index.ts": source})
    facts = [(f["method"], f["channel"], f["dynamic"]) for f in document["facts"]]
    return facts, document["limitations"]


def test_a_template_path_with_a_substitution_is_not_proven(tmp_path: Path) -> None:
    facts, limitations = _routes(
        tmp_path, "declare const id: string;\napp.post(`/jobs/${id}`, (c) => c.text('x'));\n"
    )
    assert facts == [("POST", "/{**}", True)]
    assert limitations == [
        "route-coverage: 1 registration(s) or file(s) could not be fully modeled "
        "(unresolved-route-path: 1)"
    ]


def test_a_handler_only_call_after_an_unproven_path_is_not_proven_either(tmp_path: Path) -> None:
    facts, _ = _routes(
        tmp_path,
        "declare const id: string;\n"
        "app.get(`/a/${id}`, (c) => c.text('a')).post((c) => c.text('b'));\n",
    )
    assert facts == [("GET", "/{**}", True), ("POST", "/{**}", True)]


def test_a_handler_only_call_takes_the_chains_path(tmp_path: Path) -> None:
    facts, limitations = _routes(
        tmp_path,
        "app.get('/a', (c) => c.text('a')).post((c) => c.text('b'));\n"
        "app.on('PUT', ['/b', '/c'], (c) => c.text('c')).delete((c) => c.text('d'));\n",
    )
    assert sorted(facts) == [
        ("DELETE", "/c", False),
        ("GET", "/a", False),
        ("POST", "/a", False),
        ("PUT", "/b", False),
        ("PUT", "/c", False),
    ]
    assert limitations == []
