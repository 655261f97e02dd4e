"""Trailing slashes under Express strict routing, as Express 4.22.3 and 5.2.1 answered.

Run on 127.0.0.1 (oracle/node-paths/record-joins.mjs, `strictUse` cases): a
`Router({ strict: true })` route `/ping/` mounted at `/api/v2` answers
`/api/v2/ping/` and not `/api/v2/ping`, in both majors. `app.enable('strict
routing')` only counts before the app's router exists: Express creates it at
the first use/route/METHOD call (4.22.3 `lazyrouter`, 5.2.1 the `router`
getter), and a later setting left `/a/` answering `/a` too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.routes.node.support import scan

# The Express versions the oracle ran.
RECORDED = pytest.mark.parametrize("express", ["4.22.3", "5.2.1"])


def _facts(document: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(f["method"], f["channel"], f.get("trailingSlash", "")) for f in document["facts"]}


def _scan_app(root: Path, express: str, *lines: str) -> dict[str, Any]:
    """The routes of an Express app (on this version) whose setup is these lines."""
    code = [
        "const express = require('express');",
        "const app = express();",
        *lines,
        "module.exports = app;",
    ]
    return scan(
        root,
        {
            "package.json": f'{{"dependencies": {{"express": "{express}"}}}}',
            "src/app.js": "".join(f"{line}\n" for line in code),
        },
    )


@RECORDED
def test_a_strict_router_keeps_the_trailing_slash_under_a_mount(
    tmp_path: Path, express: str
) -> None:
    document = _scan_app(
        tmp_path,
        express,
        "const v2 = express.Router({ strict: true });",
        "v2.get('/ping/', (req, res) => res.send('pong'));",
        "v2.get('/', (req, res) => res.send('root'));",
        "app.use('/api/v2', v2);",
    )
    assert _facts(document) == {
        ("GET", "/api/v2/ping/", "strict"),
        ("GET", "/api/v2", "strict"),
        ("GET", "/api/v2/", "strict"),
    }


@RECORDED
def test_strict_routing_set_after_the_first_route_has_no_effect(
    tmp_path: Path, express: str
) -> None:
    document = _scan_app(
        tmp_path,
        express,
        "app.get('/a/', (req, res) => res.send('a'));",
        "app.enable('strict routing');",
    )
    assert all(f["trailingSlash"] == "optional" for f in document["facts"]), document["facts"]
